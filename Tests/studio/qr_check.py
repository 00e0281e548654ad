"""Checks the studio page's QR encoder (Sources/SpringStudio/Page/Assets/qr.js) against a real decoder:
node imports the module and encodes each string with qrMatrix, the matrix is drawn to a PGM (8 px
per module, a quiet zone of 4 modules) and `zbarimg --raw -q` must read the string back, in the
expected version (size 17 + 4 × version modules). A string too long for version 10 must throw.
Needs node (18 or later; Debian: nodejs) and zbarimg (Debian: zbar-tools). Prints one `ok` line
per case, one `FAIL` line per failure, and exits 1 when any case failed.
Run from the repository root: python3 Tests/studio/qr_check.py"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

QR_JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Sources/SpringStudio/Page/Assets/qr.js")
SCALE = 8  # px per module
QUIET = 4  # modules of light border

# node: imports qr.js as the page does (an ES module: qrMatrix and qrSvg are its exports; node reads
# a .js file as a module beside a package.json of {"type": "module"}, so it is copied into a
# folder with one), reads a JSON list of [text, mask or null] on stdin, writes a JSON list of
# {size, rows} (rows as "1"/"0" strings) or {error}. A mask 0-7 is forced (qrMatrix's `mask`
# option), so every mask's pattern and format bits get decoded, not only the ones the penalty picks.
HARNESS = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const { qrMatrix, qrSvg } = await import(pathToFileURL(process.argv[1]).href);
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map(([t, mask]) => {
  try {
    const m = mask === null ? qrMatrix(t) : qrMatrix(t, { mask });
    const svg = qrSvg(t);
    if (!svg.startsWith("<svg") || !svg.includes("<path")) return { error: "qrSvg gave no <svg> with a <path>" };
    return { size: m.size, rows: m.dark.map((r) => r.map((b) => (b ? "1" : "0")).join("")) };
  } catch (e) {
    return { error: String(e && e.message) };
  }
});
process.stdout.write(JSON.stringify(out));
"""

URL = "http://192.168.1.20:8137/?token=3f9c2a0b5e7d4c1f8a6b0e2d4c6a8f10"


def filler(n):
    """n ASCII bytes of varied text (so the data is not one repeated byte)."""
    base = "springtune-studio/0123456789?abcdefghijklmnopqrstuvwxyz&"
    return (base * (n // len(base) + 1))[:n]


# (name, text, expected version or None for "must throw", forced mask or None). Level M byte
# capacities: v1 14, v2 26, v4 62, v5 84, v6 106, v7 122, v9 180, v10 213 bytes.
CASES = [(name, text, version, None) for name, text, version in [
    ("short A", "A", 1),
    ("v1 full (14 bytes)", filler(14), 1),
    ("v2 (20 bytes)", filler(20), 2),
    ("studio URL (%d bytes)" % len(URL), URL, 5),
    ("UTF-8 non-ASCII", "Grüße → 日本", 2),
    ("v5 (80 bytes)", filler(80), 5),
    ("v7 (115 bytes, version info)", filler(115), 7),
    ("v8 (140 bytes, two block sizes)", filler(140), 8),
    ("v10 (200 bytes, 16-bit count)", filler(200), 10),
    ("v10 full (213 bytes)", filler(213), 10),
    ("too long (214 bytes)", filler(214), None),
]] + [("studio URL, mask %d" % m, URL, 5, m) for m in range(8)] + \
    [("v7 (115 bytes), mask %d" % m, filler(115), 7, m) for m in range(8)]


def pgm(rows):
    """A binary PGM (P5) of the matrix: dark modules 0, light 255, SCALE px per module, QUIET
    modules of light border."""
    size = len(rows)
    side = (size + 2 * QUIET) * SCALE
    light_line = bytes([255]) * side
    lines = [light_line] * (QUIET * SCALE)
    for row in rows:
        line = bytes([255]) * (QUIET * SCALE)
        line += b"".join((bytes([0]) if c == "1" else bytes([255])) * SCALE for c in row)
        line += bytes([255]) * (QUIET * SCALE)
        lines += [line] * SCALE
    lines += [light_line] * (QUIET * SCALE)
    return b"P5\n%d %d\n255\n" % (side, side) + b"".join(lines)


def main():
    failures = []

    def fail(name, detail):
        failures.append(name)
        print("FAIL %s: %s" % (name, detail), flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        module = os.path.join(tmp, "page")
        os.makedirs(module)
        shutil.copy(QR_JS, os.path.join(module, "qr.js"))
        with open(os.path.join(module, "package.json"), "w") as f:
            f.write('{"type": "module"}\n')
        run = subprocess.run(["node", "--input-type=module", "-e", HARNESS, os.path.join(module, "qr.js")],
                             input=json.dumps([[c[1], c[3]] for c in CASES]).encode("utf-8"), capture_output=True)
        if run.returncode != 0:
            print("FAIL node harness: " + run.stderr.decode("utf-8", "replace").strip().replace("\n", " | "))
            return 1
        results = json.loads(run.stdout.decode("utf-8"))
        for (name, text, version, _), result in zip(CASES, results):
            if version is None:
                if "error" in result and "version 10" in result["error"]:
                    print("ok   %s: throws (%s)" % (name, result["error"]))
                else:
                    fail(name, "expected an Error naming version 10, got %s" % json.dumps(result)[:120])
                continue
            if "error" in result:
                fail(name, "threw " + result["error"])
                continue
            size = result["size"]
            if size != 17 + 4 * version or len(result["rows"]) != size or any(len(r) != size for r in result["rows"]):
                fail(name, "size %d, expected version %d (%d modules)" % (size, version, 17 + 4 * version))
                continue
            path = os.path.join(tmp, "case.pgm")
            with open(path, "wb") as f:
                f.write(pgm(result["rows"]))
            dec = subprocess.run(["zbarimg", "--raw", "-q", path], capture_output=True)
            decoded = dec.stdout.decode("utf-8", "replace")
            if decoded.endswith("\n"):
                decoded = decoded[:-1]
            if dec.returncode != 0 or decoded != text:
                fail(name, "zbarimg rc %d read %r, expected %r" % (dec.returncode, decoded[:80], text[:80]))
                continue
            print("ok   %s: version %d (%d × %d), decoded" % (name, version, size, size))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
