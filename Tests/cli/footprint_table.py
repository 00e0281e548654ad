"""The footprint table of docs/SpringLayout.md ("Footprint"), measured on a release build of
SpringCore and SpringLayout (the example consumer's scratch folder): the number of source
files, `size -t` totals (text + data + bss) of each module's objects, and a static library of
both with debug information stripped (`ar`, `strip --strip-debug`); the same library as built
is printed only (its debug information moves by a few hundred bytes from build to build).

    python3 Tests/cli/footprint_table.py BUILD/release DOC          # exit 1 if DOC's table differs
    python3 Tests/cli/footprint_table.py BUILD/release DOC --write  # rewrite DOC's table

Tests/cli/footprint.sh runs the first on every `make test`; `make footprint` the second."""
import glob
import os
import re
import subprocess
import sys
import tempfile

build, doc = sys.argv[1], sys.argv[2]
write = "--write" in sys.argv[3:]


def objects(module):
    return sorted(glob.glob(os.path.join(build, module + ".build", "*.o")))


def size(files):
    """text + data + bss of `files` (size -t's total line), bytes."""
    out = subprocess.run(["size", "-t"] + files, check=True, capture_output=True, text=True).stdout
    return int(out.strip().splitlines()[-1].split()[3])


def sources(module):
    return len(glob.glob(os.path.join("Sources", module, "**", "*.swift"), recursive=True))


def n(x):
    """1 234 567 (thin spaces as the doc writes them: plain spaces)."""
    return f"{x:,}".replace(",", " ")


core, layout = objects("SpringCore"), objects("SpringLayout")
if not core or not layout:
    sys.exit(f"footprint: no objects under {build}")
sc, sl = size(core), size(layout)
with tempfile.TemporaryDirectory() as tmp:
    lib = os.path.join(tmp, "libSpringLayout.a")
    subprocess.run(["ar", "rcs", lib] + core + layout, check=True)
    built = os.path.getsize(lib)
    subprocess.run(["strip", "--strip-debug", lib], check=True)
    stripped = os.path.getsize(lib)
swift = re.search(r"Swift version (\S+)", subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout + subprocess.run(["swift", "--version"], capture_output=True, text=True).stderr)
table = "\n".join([
    f"What an app links, SpringCore and SpringLayout, built for release on Linux x86-64 (Swift {swift.group(1) if swift else '?'}),",
    "measured by `Tests/cli/footprint.sh` on every `make test` (it fails when this table is not the",
    "build's; `make footprint` rewrites it):",
    "",
    f"| | SpringCore ({sources('SpringCore')} files) | SpringLayout ({sources('SpringLayout')} files) | both |",
    "|---|---|---|---|",
    f"| code and data (`size`: text + data + bss) | {n(sc)} B | {n(sl)} B | {n(sc + sl)} B ({round((sc + sl) / 1024)} KiB) |",
    f"| static library of both, debug information stripped | | | {n(stripped)} B ({stripped / 1048576:.1f} MiB) |",
])
print(table)
# With debug information the archive's size moves by a few hundred bytes from build to build
# (paths and build order): printed, not written.
print(f"static library of both, as built (with debug information): {n(built)} B ({built / 1048576:.1f} MiB)")
text = open(doc, encoding="utf-8").read()
start = text.index("What an app links, SpringCore and SpringLayout")
anchor = "| static library of both, debug information stripped"
if anchor not in text:
    sys.exit(f"footprint: no footprint table in {doc}")
end = text.index("\n", text.index(anchor))
if write:
    with open(doc, "w", encoding="utf-8") as f:
        f.write(text[:start] + table + text[end:])
    print(f"footprint: {doc} rewritten")
elif text[start:end] != table:
    sys.exit(f"footprint: {doc}'s table is not this build's: run `make footprint` and commit it")
