#!/usr/bin/env python3
"""Executes every notebook in this folder (make test runs it) so none can rot.

Checks, per notebook: outputs were stripped before commit, every cell runs without error on
the Python 3 kernel, and at least one chart (an image/png output) is drawn. Executed copies
go to ../out/notebooks/ (ignored by git); the committed files are never rewritten.
"""
import pathlib
import sys

import nbformat
from nbclient import NotebookClient

here = pathlib.Path(__file__).resolve().parent
out = here.parent / "out" / "notebooks"
out.mkdir(parents=True, exist_ok=True)
failures = []
notebooks = sorted(here.glob("*.ipynb"))
if not notebooks:
    sys.exit("no notebooks found")
for path in notebooks:
    nb = nbformat.read(path, as_version=4)
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
    if dirty:
        failures.append(f"{path.name}: outputs not stripped (cells {dirty}); run `make strip-notebooks`")
        continue
    try:
        NotebookClient(nb, kernel_name="python3", timeout=900, resources={"metadata": {"path": str(here)}}).execute()
    except Exception as error:  # nbclient raises CellExecutionError with the cell's traceback
        failures.append(f"{path.name}: {str(error).strip().splitlines()[-1] if str(error).strip() else error!r}")
        continue
    charts = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if "image/png" in o.get("data", {}))
    nbformat.write(nb, out / path.name)
    if charts == 0:
        failures.append(f"{path.name}: ran but drew no chart")
    else:
        print(f"ok  {path.name}: {len(nb.cells)} cells, {charts} charts")
for f in failures:
    print(f"FAIL {f}", file=sys.stderr)
sys.exit(1 if failures else 0)
