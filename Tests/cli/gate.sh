#!/usr/bin/env bash
# The CI gate of docs/CI-gate.md, run as a team would: the doc's recipe as written (tweetbot
# swept, its best exported pinned, the export swept as the baseline), then edits to the
# committed preset judged by `compare --fail-on-regression`; the gate's closed failures (exit
# 65); its tolerance kinds.
# Usage: SPRINGTUNE=.build/release/springtune Tests/cli/gate.sh (from the package root)
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
edit() { python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(p, open(sys.argv[1], "w"), indent=2)' "$@"; }

# 1. The recipe of docs/CI-gate.md as written (its ```sh block), with `springtune` on PATH:
#    tune, export pinned, sweep the export as the baseline, sweep again and gate: it passes.
mkdir -p bin && ln -s "$bin" bin/springtune
python3 -c 'import re,sys; print(re.findall(r"```sh\n(.*?)```", open(sys.argv[1]).read(), re.S)[0])' "$root/docs/CI-gate.md" > recipe.sh
PATH="$work/bin:$PATH" bash -e recipe.sh >recipe.out 2>recipe.err; rc=$?
check "docs/CI-gate.md's recipe runs (exit $rc)" test $rc = 0
check "…and its gate passes the unchanged preset" grep -q "^verdict: no regression of the chosen set" recipe.out
check "the export's sweep is empty" python3 -c 'import json,sys; sys.exit(json.load(open("my-tweetbot.json"))["sweep"] != [])'
check "the pinned export sweeps to one set" test "$(wc -l < baseline/report.csv)" = 2
check "…without a note on stderr" bash -c '! grep -q "preset sets" recipe.err'
cp my-tweetbot.json tb.json
"$bin" export out/tune/report.csv --best -o again.json >export.out
check "export says pinned" grep -q "pinned (no sweep axes)" export.out

# candidate NAME EDIT: the committed preset edited by EDIT, swept, and gated against the baseline
# as the recipe gates it (stdout and stderr in NAME.out; the exit status in rc).
candidate() {
    cp tb.json "$1.json"
    edit "$1.json" "$2"
    "$bin" sweep --preset "$1.json" --no-charts --out "$1" >/dev/null 2>&1
    "$bin" compare baseline/report.csv "$1/report.csv" --fail-on-regression --tolerance 1frame --out "cmp-$1" >"$1.out" 2>&1; rc=$?
}

# 2. The users' edit: the snap spring's damping (whatever was chosen) to 0.3: a regression naming the metric.
candidate soft 'p["spring"]["damping"] = 0.3'
check "damping → 0.3 fails the gate (exit $rc)" test $rc = 1
check "…naming the metric, both values and the tolerance" grep -Eq "^regression: (overshoot_pt_p95|settle_time_p95) of the chosen set .* → .*beyond the tolerance" soft.out
grep "^regression:" soft.out | head -2
check "…the very lines docs/CI-gate.md shows" bash -c "grep '^    regression: ' '$root/docs/CI-gate.md' | sed 's/^    //' | diff - <(grep '^regression:' soft.out)"

# 3. A description-only change passes.
candidate doc 'p["description"] = "Tweetbot, reworded."'
check "a description-only change passes (exit $rc)" test $rc = 0
check "…saying so" grep -q "^verdict: no regression of the chosen set" doc.out

# 4. An export that kept its axes says which of its values they override (the users' silent override).
"$bin" export out/tune/report.csv --best --keep-sweep -o keep.json >/dev/null
check "--keep-sweep keeps the axes" python3 -c 'import json,sys; sys.exit(len(json.load(open("keep.json"))["sweep"]) != 4)'
edit keep.json 'p["spring"]["damping"] = 0.3'
"$bin" sweep --preset keep.json --set distanceThreshold=60 --set flickVelocity=800 --set maxFlickAngle=90 --no-charts --out keep >/dev/null 2>keep.err
check "sweeping it notes the overridden damping in one line" test "$(grep -c "the preset sets snapDamping = 0.3 .* never runs 0.3" keep.err)" = 1

# 5. Fails closed (exit 65, one line): A's chosen set missing from B; nothing comparable.
"$bin" sweep --preset tweetbot --vary distanceThreshold=60 --vary flickVelocity=800 --vary maxFlickAngle=90 --vary snapDamping=0.3,0.9 \
    --no-charts --out two-a >/dev/null 2>&1
"$bin" sweep --preset tweetbot --vary distanceThreshold=60 --vary flickVelocity=800 --vary maxFlickAngle=90 --vary snapDamping=0.3,0.5 \
    --no-charts --out two-b >/dev/null 2>&1
"$bin" compare two-a/report.csv two-b/report.csv --fail-on-regression --out cmp-two >two.out 2>two.err; rc=$?
check "A's chosen set (snapDamping 0.9) missing from B exits 65 (exit $rc)" test $rc = 65
check "…in one line naming it" test "$(wc -l < two.err)" = 1 -a "$(grep -c "snapDamping=0.9) is not in" two.err)" = 1
# Copies of the baseline with every metric cell emptied (a report keeps its sidecar as X.meta.json).
python3 - <<'PY'
import csv, shutil
rows = list(csv.reader(open("baseline/report.csv")))
k = rows[0].index("traces") + 1
for r in rows[1:]: r[k:] = [""] * (len(r) - k)
csv.writer(open("empty.csv", "w", newline=""), lineterminator="\n").writerows(rows)
shutil.copy("baseline/report.meta.json", "empty.meta.json")
PY
"$bin" compare empty.csv empty.csv --minimize settle_time_p95 --fail-on-regression --out cmp-empty >empty.out 2>empty.err; rc=$?
check "an all-empty comparison exits 65 (exit $rc)" test $rc = 65
check "…saying nothing compares" grep -q "nothing to compare" empty.err
"$bin" compare empty.csv empty.csv --fail-on-regression --out cmp-empty >/dev/null 2>empty2.err; rc=$?
check "no chosen set in A (constraints unmet on empty cells) exits 65 (exit $rc)" test $rc = 65

# 6. Tolerances: settle_time_p95 moved by one and two frames of the sidecar's 120 Hz.
python3 - <<'PY'
import csv, shutil
rows = list(csv.reader(open("baseline/report.csv")))
k = rows[0].index("settle_time_p95")
for name, frames in [("t0", 0), ("t1", 1), ("t2", 2)]:
    rows[1][k] = "%.12g" % (0.5 + frames / 120)
    csv.writer(open(name + ".csv", "w", newline=""), lineterminator="\n").writerows(rows)
    shutil.copy("baseline/report.meta.json", name + ".meta.json")
PY
gate() { "$bin" compare t0.csv "$@" --fail-on-regression --out cmp-t >/dev/null 2>&1; echo $?; }
check "one frame (1.7 %) fails the default 1 %" test "$(gate t1.csv)" = 1
check "--tolerance 1frame passes a one-frame move" test "$(gate t1.csv --tolerance 1frame)" = 0
check "--tolerance 1frame fails a two-frame move" test "$(gate t2.csv --tolerance 1frame)" = 1
check "--tolerance 0.01s passes one frame (8.3 ms)" test "$(gate t1.csv --tolerance 0.01s)" = 0
check "--tolerance 2% passes one frame, 0.02 too" test "$(gate t1.csv --tolerance 2%)$(gate t1.csv --tolerance 0.02)" = 00
check "--tolerance 0.5pt leaves seconds at the 1 % default" test "$(gate t1.csv --tolerance 0.5pt)" = 1
"$bin" compare t0.csv t2.csv --tolerance 1frame --fail-on-regression --out cmp-t >t2.out 2>&1
check "the line names the metric, both values and the frame" grep -q "^regression: settle_time_p95 of the chosen set (config 0): 0.5 → 0.516666666667 s (+0.01667 s), beyond the tolerance 1 frame = 0.008333 s" t2.out
"$bin" compare t0.csv t1.csv --tolerance 2px >/dev/null 2>bad.err; rc=$?
check "--tolerance 2px exits 64 (exit $rc)" test $rc = 64
check "…in one line" test "$(grep -c . bad.err)" = 1
finish
