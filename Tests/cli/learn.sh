#!/usr/bin/env bash
# The preference model's bench (Reference §12): `bench --preference --preset NAME` prints the
# latency of fit + proposal at 60 comparisons and the simulated designers' table, the same table
# on every run; bad arguments are one line with exit 64, a preset with nothing to learn 65.
# Usage: SPRINGTUNE=.build/release/springtune bash Tests/cli/learn.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."

# usage CODE ARGS...: exits CODE with exactly one line on stderr and nothing on stdout.
usage() {
  local code=$1; shift
  "$bin" "$@" >"$work/u.out" 2>"$work/u.err"; local rc=$?
  test $rc = "$code" -a "$(wc -l <"$work/u.err")" = 1 -a ! -s "$work/u.out"
}
check "--preference without --preset: exit 64" usage 64 bench --preference
check "--preset without --preference: exit 64" usage 64 bench --preset evernote
check "--seeds 0: exit 64" usage 64 bench --preference --preset evernote --seeds 0
check "--rounds 4: exit 64" usage 64 bench --preference --preset evernote --rounds 4
check "an unknown preset: exit 64" usage 64 bench --preference --preset evernot
check "--numpy with --preference: exit 64" usage 64 bench --preference --preset evernote --numpy x.py

# A preset whose every axis has one value leaves nothing to learn: one line, exit 65.
python3 - "$work/flat.json" <<'PY'
import json, os, sys
p = json.load(open("Presets/evernote.json"))
p["sweep"] = [{"name": "damping", "values": [0.8]}]
p["traces"] = [t if t.startswith("/") else os.path.abspath("Sources/SpringTune/Resources/Traces/" + t) for t in p["traces"]]
json.dump(p, open(sys.argv[1], "w"))
PY
check "a preset with no axis of two values: exit 65" usage 65 bench --preference --preset "$work/flat.json"
grep -q "no sweep axis with two or more values" "$work/u.err"; check "… and it says why ($(cat "$work/u.err"))" test $? = 0

"$bin" bench --preference --preset evernote --seeds 2 --rounds 5 >"$work/a.out" 2>"$work/a.err"; rc=$?
check "bench --preference evernote exits 0, stderr empty" test $rc = 0 -a ! -s "$work/a.err"
check "it names the 3 axes, frequency on log" grep -q "3 axes (boundaryResistance, damping, frequency (log))" "$work/a.out"
line=$(grep "fit + proposal of 4 at 60 comparisons" "$work/a.out")
check "the latency line at 60 comparisons, 25 repetitions ($line)" grep -q "25 repetitions: p50 .* ms, p95 .* ms, max .* ms" <<<"$line"
p95=$(sed -E 's/.*p95 ([0-9.]+) ms.*/\1/' <<<"$line")
# The figure, not a pass/fail on the clock: a loaded machine (make test's other lanes) moves it;
# docs/Performance.md records it against the 200 ms budget with its command.
check "p95 is a positive number of ms, p50 ≤ p95 ≤ max ($p95 ms)" python3 -c "
import re, sys
p50, p95, mx = (float(v) for v in re.search(r'p50 ([0-9.]+) ms, p95 ([0-9.]+) ms, max ([0-9.]+) ms', sys.argv[1]).groups())
sys.exit(0 if 0 < p50 <= p95 <= mx else 1)" "$line"
check "the table: one row per seed and a median" test "$(grep -cE '^ *(0|1|median) ' "$work/a.out")" = 3
check "the table's columns stop at the rounds played" grep -qE 'seed +model@5 +random@5$' "$work/a.out"
check "the summary counts seeds after round 5" grep -q "seeds at ≥ 0.95 after round 5: model [0-2] of 2, random [0-2] of 2" "$work/a.out"
"$bin" bench --preference --preset evernote --seeds 2 --rounds 5 >"$work/b.out" 2>&1
check "the same table on a second run (seeded)" cmp -s <(grep -v "fit + proposal" "$work/a.out") <(grep -v "fit + proposal" "$work/b.out")

"$bin" bench --preference --preset tweetbot --seeds 1 --rounds 5 >"$work/t.out" 2>&1
check "tweetbot learns over its 4 axes" grep -q "4 axes (distanceThreshold, flickVelocity, maxFlickAngle, snapDamping)" "$work/t.out"
finish
