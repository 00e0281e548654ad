#!/usr/bin/env bash
# Every public symbol of the app-facing modules, SpringCore and SpringLayout, has a doc comment.
# The compiler's symbol graph of a scratch build of SpringLayout lists each public symbol with
# its doc comment; a symbol without a source location is the compiler's (a synthesized
# `init(rawValue:)`, `init(from:)`, `==`…) and is not counted. Prints the counts and every
# undocumented symbol with its file and line. Run from the package root.
. "$(dirname "$0")/lib.sh"
swift build --scratch-path "$work/build" --disable-default-traits --target SpringLayout \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$work/graph" > "$work/build.log" 2>&1
rc=$?
[ $rc = 0 ] || tail -20 "$work/build.log"
check "SpringLayout builds with its symbol graph (exit $rc)" test $rc = 0
check "the graph has SpringCore's and SpringLayout's symbols" test -s "$work/graph/SpringCore.symbols.json" -a -s "$work/graph/SpringLayout.symbols.json"
python3 - "$work/graph" > "$work/count.txt" <<'PY'
import glob, json, sys
seen, missing = {}, []
for path in sorted(glob.glob(sys.argv[1] + "/*.symbols.json")):
    for s in json.load(open(path))["symbols"]:
        key = s["identifier"]["precise"]
        if key in seen or s["accessLevel"] not in ("public", "open") or "location" not in s:
            continue  # seen in another module's graph (re-exported), internal, or the compiler's
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
