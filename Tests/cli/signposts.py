#!/usr/bin/env python3
"""Signposts that cannot rot: checks that what the project's files point at exists.

1. Every `§N` or `§N.M` in a tracked text file names a heading of docs/Reference.md
   (`## N.` or `### N.M`), unless the same line names another standard just before it
   (`RFC 9110 §9.3.2`, `FIPS 180-4 §5.1.1`, `ISO/IEC 18004 §6.3`). The project never cites the
   product specification (`SPEC §`, `shared/SPEC.md`): its own Reference says it in its own words.
2. Every page that lists the models lists all of them: a doc (docs/*.md, README.md, the DocC
   articles) that names 4 or more of the registry's models, by id (`flow-layout`) or by type
   (`FlowLayout`, `FlowLayoutEngine`), names every one (the registry: `springtune presets list`).
3. CHANGELOG.md names every bundled preset, every command (`traces import`, from the command
   line's own help) and every studio route (from the studio's `GET /openapi.json`, and
   `/api/live`).
4. docs/Development.md's layout table has a row for every target under Sources/ and names every
   folder one level inside a target (a C target's `include/` aside).
5. Every path of the repository a file names (`Sources/SpringLayout/Models/FlowLayout.swift`,
   `Tests/cli/lib.sh`, `docs/Studio.md`) exists; CHANGELOG.md (history) aside, and the worked
   example of docs/Adding-a-model.md (a model `Snap` that is not there).

Needs SPRINGTUNE (the binary). Prints `ok …` / `FAIL …` lines and exits 1 when any check failed.
Run from the repository root: SPRINGTUNE=.build/release/springtune python3 Tests/cli/signposts.py
With `--self-test` it also shows that each check fails on a broken copy (a citation of a missing
section, a doc that drops one model) without touching the tree.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
BIN = os.environ.get("SPRINGTUNE", os.path.join(ROOT, ".build/release/springtune"))
FOREIGN = re.compile(r"(RFC ?\d+|FIPS [\d-]+|ISO/IEC \d+|ISO \d+)[^§]{0,12}$")
CITATION = re.compile(r"§ ?(\d+(?:\.\d+)*)")
failures = []


def check(ok, name, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok or not detail else ": " + detail))
    if not ok:
        failures.append(name)


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for path in out.splitlines():
        # This file names the citations it refuses.
        if path.startswith("Tests/Data/") or path == "Tests/cli/signposts.py" or path.endswith((".csv", ".png", ".gif", ".svg", ".sqlite", ".json")):
            continue
        full = os.path.join(ROOT, path)
        try:
            with open(full, encoding="utf-8") as f:
                yield path, f.read()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue


def reference_sections(text):
    """The section numbers docs/Reference.md has: `## 7. Models` gives 7, `### 7.10 …` 7.10."""
    return {m.group(1) for m in re.finditer(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", text, re.M)}


def bad_citations(files, sections):
    """(path, line, citation, text) for each § the Reference lacks, and each SPEC/../shared pointer."""
    bad = []
    for path, text in files:
        for number, line in enumerate(text.split("\n"), 1):
            if "shared/SPEC" in line or re.search(r"\bSPEC §", line):
                bad.append((path, number, "the specification", line.strip()))
            for m in CITATION.finditer(line):
                if FOREIGN.search(line[: m.start()]):
                    continue
                if m.group(1).rstrip(".") not in sections:
                    bad.append((path, number, "§" + m.group(1), line.strip()))
    return bad


def models():
    """The registry's model ids, from the command line (`presets list`: preset, model, …)."""
    out = subprocess.run([BIN, "presets", "list"], capture_output=True, text=True, check=True).stdout
    ids = sorted({line.split()[1] for line in out.splitlines()[1:] if len(line.split()) > 1})
    return ids


def camel(model):
    return "".join(part.capitalize() for part in model.split("-"))


def named_models(text, ids):
    return [m for m in ids if m in text or re.search(r"\b" + camel(m) + r"(Engine|TouchEngine|Measure)?\b", text)]


def model_listing_problems(docs, ids):
    """(path, missing) for each doc that names 4 or more models but not all."""
    out = []
    for path, text in docs:
        named = named_models(text, ids)
        if 4 <= len(named) < len(ids):
            out.append((path, [m for m in ids if m not in named]))
    return out


def commands():
    """Every command and subcommand, as typed (`traces import`), from the help of each."""
    found, queue = [], [[]]
    while queue:
        path = queue.pop(0)
        out = subprocess.run([BIN, "help", *path], capture_output=True, text=True).stdout
        block = out.split("SUBCOMMANDS:", 1)
        if len(block) < 2:
            continue
        for line in block[1].split("\n\n")[0].splitlines():
            m = re.match(r"\s{2}(\w[\w-]*)", line)
            if m and m.group(1) != "help":
                found.append(" ".join(path + [m.group(1)]))
                queue.append(path + [m.group(1)])
    return found


def studio_routes():
    """The studio's routes from its own OpenAPI document (a studio on port 0, stopped after)."""
    with tempfile.TemporaryDirectory() as tmp:
        studio = subprocess.Popen([BIN, "studio", "--preset", "evernote", "--no-browser", "--port", "0", "--session", os.path.join(tmp, "s.sqlite")],
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = studio.stdout.readline()
            m = re.match(r"studio: (http://[^/]+)/\?token=(\w+)", line)
            if not m:
                raise RuntimeError("the studio printed no address: " + line[:100])
            request = urllib.request.Request(m.group(1) + "/openapi.json", headers={"Authorization": "Bearer " + m.group(2)})
            with urllib.request.urlopen(request, timeout=30) as answer:
                document = json.load(answer)
        finally:
            studio.terminate()
            studio.wait(timeout=30)
    return sorted(document["paths"]) + ["/api/live"]


def layout_problems(text):
    missing = []
    for target in sorted(os.listdir(os.path.join(ROOT, "Sources"))):
        folder = os.path.join(ROOT, "Sources", target)
        if not os.path.isdir(folder):
            continue
        if not re.search(r"^\| `" + re.escape(target) + r"` \|", text, re.M):
            missing.append(target)
            continue
        row = re.search(r"^\| `" + re.escape(target) + r"` \|.*$", text, re.M).group(0)
        for sub in sorted(os.listdir(folder)):
            if os.path.isdir(os.path.join(folder, sub)) and not sub.endswith(".docc") and sub != "include" and sub + "/" not in row and "`" + sub + "`" not in row:
                missing.append(target + "/" + sub)
    return missing


PATH = re.compile(r"\b((?:Sources|Tests|docs|scripts|Fuzz|Examples|bench|Notebooks)/[\w./+-]*\w\.(?:swift|js|mjs|py|sh|md|html|css))\b")


def missing_paths(files):
    """(path, line, named) for each repository path a file names that does not exist."""
    out = []
    for path, text in files:
        if path == "CHANGELOG.md":
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for m in PATH.finditer(line):
                named = m.group(1)
                if path == "docs/Adding-a-model.md" and os.path.basename(named).startswith("Snap"):
                    continue
                if not os.path.exists(os.path.join(ROOT, named)):
                    out.append((path, number, named))
    return out


def main():
    files = list(tracked())
    reference = dict(files)["docs/Reference.md"]
    sections = reference_sections(reference)
    bad = bad_citations(files, sections)
    check(not bad, f"every § citation names one of the Reference's {len(sections)} sections",
          "; ".join(f"{p}:{n}: {c}" for p, n, c, _ in bad[:10]) + (f" … and {len(bad) - 10} more" if len(bad) > 10 else ""))

    ids = models()
    docs = [(p, t) for p, t in files if (p.startswith("docs/") and p.endswith(".md")) or p == "README.md" or (".docc/" in p and p.endswith(".md"))]
    listing = model_listing_problems(docs, ids)
    check(len(ids) >= 7 and not listing, f"every doc that lists models names all {len(ids)} ({', '.join(ids)})",
          "; ".join(f"{p} misses {', '.join(m)}" for p, m in listing))

    changelog = dict(files)["CHANGELOG.md"]
    presets = subprocess.run([BIN, "presets", "list"], capture_output=True, text=True, check=True).stdout.splitlines()[1:]
    names = [line.split()[0] for line in presets if line.split()]
    missing = [n for n in names if not re.search(r"`" + re.escape(n) + r"`|\b" + re.escape(n) + r"\b", changelog)]
    check(not missing, f"CHANGELOG.md names every preset ({len(names)})", ", ".join(missing))
    cmds = commands()
    missing = [c for c in cmds if c not in changelog]
    check(len(cmds) > 10 and not missing, f"CHANGELOG.md names every command ({len(cmds)})", ", ".join(missing))
    routes = studio_routes()
    missing = [r for r in routes if r not in changelog]
    check(len(routes) > 10 and not missing, f"CHANGELOG.md names every studio route ({len(routes)})", ", ".join(missing))

    missing = layout_problems(dict(files)["docs/Development.md"])
    check(not missing, "docs/Development.md's layout table names every target and its folders", ", ".join(missing))

    gone = missing_paths(files)
    check(not gone, "every repository path a file names exists", "; ".join(f"{p}:{n}: {x}" for p, n, x in gone[:10]))

    if "--self-test" in sys.argv:
        gone = missing_paths([("docs/Y.md", "in Sources/SpringLayout/FlowLayout.swift (moved) and Tests/cli/lib.sh")])
        check(gone == [("docs/Y.md", 1, "Sources/SpringLayout/FlowLayout.swift")], "self-test: a path that moved is caught", str(gone))
        broken = [("docs/X.md", "see Reference §99.1 and RFC 9110 §9.3.2")]
        found = bad_citations(broken, sections)
        check([c for _, _, c, _ in found] == ["§99.1"], "self-test: a citation of a section the Reference lacks is caught (and an RFC's is not)", str(found))
        listed = [d for d in docs if len(named_models(d[1], ids)) == len(ids)][0]
        dropped = (listed[0], re.sub(r"bottom-sheet|BottomSheet\w*", "", listed[1]))
        found = model_listing_problems([dropped], ids)
        check(found == [(listed[0], ["bottom-sheet"])], f"self-test: {listed[0]} without the bottom sheet is caught", str(found))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
