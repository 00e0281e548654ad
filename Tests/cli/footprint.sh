#!/usr/bin/env bash
# The library's footprint (docs/SpringLayout.md, "Footprint"): a copy of Examples/PresetConsumer,
# from a clean state in a scratch folder, depends on this package with the `Tool` trait off and
# resolves none of the command line's packages; it builds (release) and decodes a bundled preset,
# and the footprint table of docs/SpringLayout.md is that build's (FOOTPRINT_WRITE=1: rewrite it). The same
# copy with the package's default traits resolves swift-argument-parser (so the check can fail).
# Run from the package root.
. "$(dirname "$0")/lib.sh"
root=$PWD
# The packages only the `Tool` trait needs, and the DocC plugin `make docs` uses (their identities
# in Package.resolved).
tool_packages='swift-argument-parser|hummingbird|grdb.swift|swift-nio|swift-log|swift-docc-plugin'

# copy_consumer DIR TRAITS: the example package in DIR, depending on this checkout by absolute
# path with TRAITS after the path (`, traits: []` as the example ships; empty: the default traits).
copy_consumer() {
  mkdir -p "$1" && cp -R Examples/PresetConsumer/Package.swift Examples/PresetConsumer/Sources "$1/"
  sed -i "s|path: \"../..\", traits: \[\])|path: \"$root\"$2)|" "$1/Package.swift"
  grep -qF "path: \"$root\"$2)" "$1/Package.swift"
}
# resolved_tool_packages DIR: the Tool-only (and DocC plugin) package identities DIR's Package.resolved lists
# (nothing when SwiftPM wrote no Package.resolved: it writes none when nothing remote resolves).
resolved_tool_packages() {
  [ -f "$1/Package.resolved" ] || return 0
  grep -o '"identity" : "[^"]*"' "$1/Package.resolved" | cut -d'"' -f4 | grep -i -E "^($tool_packages)$"
}

check "the example copy depends on this checkout with traits: []" copy_consumer "$work/app" ', traits: []'
swift package --package-path "$work/app" --scratch-path "$work/app-build" resolve > "$work/resolve.log" 2>&1
check "the example resolves (exit 0)" test $? = 0
listed=$(resolved_tool_packages "$work/app")
echo "Package.resolved: $( [ -f "$work/app/Package.resolved" ] && grep -c '"identity"' "$work/app/Package.resolved" || echo 0) packages; Tool-only packages listed: ${listed:-none}"
check "its Package.resolved lists no swift-argument-parser, hummingbird, GRDB.swift, swift-nio, swift-log, swift-docc-plugin" test -z "$listed"
check "no package was checked out" test -z "$(ls "$work/app-build/checkouts" 2>/dev/null)"

# Release: the build the footprint table of docs/SpringLayout.md is measured on.
start=$(date +%s)
swift build --package-path "$work/app" --scratch-path "$work/app-build" -c release > "$work/build.log" 2>&1
rc=$?
[ $rc = 0 ] || tail -20 "$work/build.log"
echo "the example and the two modules built for release in $(( $(date +%s) - start )) s"
check "the example builds (exit $rc)" test $rc = 0
check "docs/SpringLayout.md's footprint table is this build's" python3 Tests/cli/footprint_table.py "$work/app-build/release" docs/SpringLayout.md ${FOOTPRINT_WRITE:+--write}
out=$("$work/app-build/release/preset-consumer" Presets/evernote.json 2>&1)
check "its preset-consumer decodes a bundled preset ($(echo $out | tr '\n' ' '))" grep -q "model: flow-layout" <<<"$out"
out=$("$work/app-build/release/preset-consumer" Presets/tweetbot.json 2>&1 | grep '^grab')
echo "$out"
# tweetbot: the screen is 390 × 844 pt, so the rest centre is (195, 422): the photo is away from it.
check "a photo grabbed mid-flight stays where it was shown" python3 -c '
import re, sys
a = [float(v) for v in re.findall(r"-?[0-9]+[.][0-9]+", sys.argv[1])[1:5]]
sys.exit(0 if len(a) == 4 and abs(a[0] - a[2]) < 0.5 and abs(a[1] - a[3]) < 0.5 and abs(a[1] - 422) > 1 else 1)' "$out"

# The control: with the package's default traits, the same copy resolves the tool's packages.
check "a copy with the default traits" copy_consumer "$work/full" ''
swift package --package-path "$work/full" --scratch-path "$work/full-build" resolve > "$work/full.log" 2>&1
listed=$(resolved_tool_packages "$work/full" | tr '\n' ' ')
echo "with the default traits, Package.resolved lists: $listed"
check "…lists swift-argument-parser" grep -q "swift-argument-parser" <<<"$listed"
# The first build serves the first run: the command line's product depends on no target of the
# studio's server stack, so `make demo` (swift build --product springtune) compiles none of it;
# the studio's executable does (so the check can fail).
swift package --package-path "$root" describe --type json >"$work/describe.json" 2>/dev/null
# needs TARGET: the targets and package products TARGET depends on, transitively.
needs() {
  python3 - "$work/describe.json" "$1" <<'PY'
import json, sys
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"]}
seen, todo, products = set(), [sys.argv[2]], set()
while todo:
    t = targets[todo.pop()]
    if t["name"] not in seen:
        seen.add(t["name"])
        todo += [n for n in t.get("target_dependencies", []) if n in targets]
        products |= set(t.get("product_dependencies", []))
print(" ".join(sorted(seen | products)))
PY
}
server=' (SpringStudio|Hummingbird|GRDB|Logging) '
tool=$(needs springtune); studio=$(needs springtune-studio)
check "the springtune product needs no studio, Hummingbird, GRDB or swift-log ($tool)" test -n "$tool" -a -z "$(echo " $tool " | grep -E "$server")"
check "…and springtune-studio needs them ($studio)" test -n "$(echo " $studio " | tr ' ' '\n' | grep -Ex 'SpringStudio|Hummingbird|GRDB' | sort -u | wc -l | grep -x 3)"
finish
