#!/usr/bin/env bash
# Every public symbol of the app-facing modules, SpringCore and SpringLayout, has a doc comment.
# The symbol graphs `make docs` (the DocC plugin) extracted for SpringCore and SpringLayout list
# each public symbol with its doc comment; so this runs after `make docs` (make test's docs lane)
# and builds nothing of its own. A symbol without a source location is the compiler's (a
# synthesized `init(rawValue:)`, `init(from:)`, `==`…), and an extension block is the extended
# type's, not a declaration: neither is counted. Prints the counts and every undocumented symbol
# with its file and line. Run from the package root.
. "$(dirname "$0")/lib.sh"
graphs=$(ls -d .build/docs/*/extracted-symbols/*/ 2>/dev/null | head -1)
check "make docs extracted the symbol graphs (${graphs:-no .build/docs/*/extracted-symbols/*/}; run make docs first)" \
  test -n "$graphs" -a -s "${graphs}SpringCore/SpringCore.symbols.json" -a -s "${graphs}SpringLayout/SpringLayout.symbols.json"
python3 - "$graphs" > "$work/count.txt" <<'PY'
import glob, json, sys
seen, missing = {}, []
for path in sorted(glob.glob(sys.argv[1] + "/Spring*/*.symbols.json")):
    for s in json.load(open(path))["symbols"]:
        key = s["identifier"]["precise"]
        if key in seen or s["accessLevel"] not in ("public", "open") or "location" not in s or s["kind"]["identifier"] == "swift.extension":
            continue  # seen in another module's graph, internal, the compiler's, or an extension block
        seen[key] = bool(s.get("docComment", {}).get("lines"))
        if not seen[key]:
            loc = s["location"]
            missing.append(f'{loc["uri"].split("/Sources/")[-1]}:{loc["position"]["line"] + 1}: '
                           f'{s["kind"]["displayName"].lower()} {".".join(s["pathComponents"])}')
for line in sorted(missing):
    print("  " + line)
print(f"public symbols: {len(seen)}; without a doc comment: {len(missing)}")
PY
cat "$work/count.txt"
check "every public symbol in SpringCore and SpringLayout has a doc comment" grep -q "without a doc comment: 0$" "$work/count.txt"
finish
