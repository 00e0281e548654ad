#!/usr/bin/env python3
"""Strips outputs and execution counts from the notebooks in this folder (before commit)."""
import pathlib

import nbformat

for path in sorted(pathlib.Path(__file__).resolve().parent.glob("*.ipynb")):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    nbformat.write(nb, path)
    print(f"stripped {path.name}")
