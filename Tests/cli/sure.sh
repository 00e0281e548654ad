#!/usr/bin/env bash
# How sure (Reference §14, issue 46), run as a user would: groups in the bundled set and in an
# import; the sweep's intervals and intervals.csv, identical for 1 and 2 threads and for 3
# shards merged; held out, folds, sure constraints and per-group on tweetbot; the gate on a
# re-run, a clear regression and a change inside the noise; bad input.
# Usage: SPRINGTUNE=.build/release/springtune Tests/cli/sure.sh (from the package root)
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
run() { local want=$1; shift; "$bin" "$@" >"$work/out" 2>"$work/err"; test $? = "$want"; }
oneline() { test "$(wc -l <"$work/err")" = 1 && grep -q '^springtune: \|^Error: ' "$work/err"; }
flick=$root/Sources/SpringTune/Resources/Traces/flick/traces.csv
cd "$work" || exit 1

# 1. Groups: the bundled tweetbot set lists at least 10 with their counts; an import writes one.
"$bin" traces stats "$flick" >stats.out
check "traces stats lists the bundled tweetbot set's 15 groups" grep -q "^15 groups: Wacom_DTH2242_Finger (78), Sailfish (36)" stats.out
"$bin" traces import --format getevent "$root/Tests/Data/getevent-raw/galaxys-paint.txt" --scale 2 -o paint.csv >/dev/null
check "traces import of a getevent dump writes group = the source file" python3 -c '
import csv, sys; rows = list(csv.DictReader(open("paint.csv"))); sys.exit(not rows or any(r["group"] != "galaxys-paint" for r in rows))'
"$bin" traces label paint.csv --intent keep -o paint.keep.csv >/dev/null
"$bin" traces filter paint.keep.csv --min-travel 20 -o paint.far.csv >/dev/null
check "traces label and traces filter keep the group" python3 -c '
import csv, sys; rows = list(csv.DictReader(open("paint.far.csv"))); sys.exit(not rows or any(r["group"] != "galaxys-paint" for r in rows))'
printf 'trace_id,t_seconds,x,y,phase,who\na,0,0,0,down,ann\na,0.1,5,0,up,ann\nb,0,0,0,down,bo\nb,0.1,5,0,up,bo\n' >people.csv
"$bin" traces import --format csv people.csv --scale 1 --group-column who -o people.pt.csv >/dev/null
check "csv import --group-column writes each contact's group" bash -c "grep -q ',ann$' people.pt.csv && grep -q ',bo$' people.pt.csv"
run 64 traces import --format csv people.csv --scale 1 --group-column nobody -o x.csv
check "--group-column naming no column: exit 64, one line, nothing written" bash -c "$(declare -f oneline); work=$work; oneline && test ! -e x.csv"

# 2. The sweep's intervals: printed for the best sets, intervals.csv, the same bytes for any
#    thread count and for 3 shards merged.
"$bin" sweep --preset tweetbot --no-charts --threads 1 --out t1 >t1.out 2>&1
"$bin" sweep --preset tweetbot --no-charts --threads 2 --out t2 >/dev/null 2>&1
check "sweep prints each best set's constrained metrics with a 95 % interval" \
    grep -Eq "^  config [0-9]+: .*false_dismiss_rate [0-9.e-]+ \[[0-9.e-]+, [0-9.e-]+\] \(n 204, 13 groups\)" t1.out
check "…and says which constraints are not met at 90 %" grep -q "not sure at 90 %" t1.out
check "intervals.csv has config_id,metric,value,lo,hi" bash -c "head -1 t1/intervals.csv | grep -q '^config_id,metric,value,lo,hi,traces,groups$'"
check "…with lo <= value <= hi on every row" python3 -c '
import csv, sys
bad = [r for r in csv.DictReader(open("t1/intervals.csv")) if r["lo"] and r["value"] not in ("", "inf") and not (float(r["lo"]) <= float(r["value"]) <= float(r["hi"]))]
sys.exit(bool(bad))'
check "intervals.csv: the same bytes with 1 and 2 threads" cmp t1/intervals.csv t2/intervals.csv
for i in 1 2 3; do "$bin" sweep --preset tweetbot --no-charts --shard $i/3 --out s$i >/dev/null 2>&1; done
"$bin" merge s1/report.csv s2/report.csv s3/report.csv -o merged/report.csv >/dev/null 2>&1
check "3 shards merged: the same report.csv" cmp t1/report.csv merged/report.csv
check "…and the same intervals.csv" cmp t1/intervals.csv merged/intervals.csv

# 3. Held out, sure constraints, folds, per group.
"$bin" search --preset tweetbot --holdout 0.5 --seed 1 --budget 100 --no-charts --out held >held.out 2>&1
check "search --holdout 0.5 prints tuned and held-out metrics side by side" grep -Eq "tuned \([0-9]+ groups\) +held out \([0-9]+ groups\)" held.out
check "…with intervals and the held-out verdicts" grep -Eq "false_dismiss_rate .*\[.*\].*\[.*\].*(meets|BREAKS) false_dismiss_rate <= 0.05" held.out
check "…and held-out.csv" test -s held/held-out.csv
"$bin" search --preset tweetbot --holdout 0.5 --seed 1 --budget 100 --confidence 0.9 --no-charts --out sure >sure.out 2>&1
check "--confidence 0.9: the held-out choice meets every constraint, or no set is 90 % sure and it says how many more" bash -c \
    "grep -q 'on the held-out groups the choice meets every constraint' sure.out || { grep -q 'no set is 90 % sure on these traces' sure.out && grep -Eq 'more groups|cannot' sure.out; }"
"$bin" search --preset tweetbot --folds 5 --seed 1 --budget 40 --no-charts --out folds >folds.out 2>&1
check "--folds 5 reports in how many folds the constraints held" grep -Eq "^folds: the choice's constraints held on the unseen groups in [0-5] of 5 folds" folds.out
"$bin" sweep --preset tweetbot --per-group --no-charts --out pg >pg.out 2>&1
check "--per-group names a group the bundled best fails" grep -Eq "^  galaxy-paint-new \(24 traces\): false_dismiss_rate" pg.out
echo '{}' | "$bin" evaluate --preset tweetbot --per-group >eval.out
check "evaluate --per-group gives each group's verdict" python3 -c '
import json, sys; a = json.loads(open("eval.out").readline()); g = a["groups"]
sys.exit(len(g) != 15 or sum(x["traces"] for x in g) != 242 or not any(x["verdict"] == "broken" for x in g))'
check "…and per-group.csv has every group" test "$(tail -n +2 pg/per-group.csv | wc -l)" = 15

# 4. The gate: a re-run with another seed passes; a clear regression fails; a one-trace change is inside the noise.
"$bin" export t1/report.csv --best -o tb.json >/dev/null
"$bin" sweep --preset tb.json --no-charts --out base >/dev/null 2>&1
"$bin" sweep --preset tb.json --no-charts --seed 5 --resamples 500 --out rerun >/dev/null 2>&1
"$bin" compare base/report.csv rerun/report.csv --fail-on-regression --seed 3 --out cmp-rerun >rerun.out 2>&1; rc=$?
check "a re-run with another --seed passes the gate (exit $rc)" test $rc = 0
python3 -c 'import json; p=json.load(open("tb.json")); p["spring"]["damping"]=0.3; json.dump(p, open("soft.json","w"))'
"$bin" sweep --preset soft.json --no-charts --out soft >/dev/null 2>&1
"$bin" compare base/report.csv soft/report.csv --fail-on-regression --tolerance 1frame --out cmp-soft >soft.out 2>&1; rc=$?
check "damping 0.9 → 0.3 fails the gate (exit $rc)" test $rc = 1
check "…outside the noise, paired over the groups" grep -q "^noise: the chosen set run again on both sides, paired on 242 traces in 15 groups" soft.out
# One keep drag turned into a throw (its samples spread 6× in x and y): one trace's decision changes.
python3 - "$flick" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]; t, x, y, i = h.index("trace"), h.index("x"), h.index("y"), h.index("intent")
target = next(r[t] for r in rows[1:] if r[i] == "keep" and r[t].startswith("galaxys-paint"))
x0 = y0 = None
for r in rows[1:]:
    if r[t] != target: continue
    if x0 is None: x0, y0 = float(r[x]), float(r[y])
    r[x] = repr(x0 + 6 * (float(r[x]) - x0)); r[y] = repr(y0 + 6 * (float(r[y]) - y0))
csv.writer(open("one.csv", "w", newline=""), lineterminator="\n").writerows(rows)
PY
"$bin" sweep --preset tb.json --traces "$flick" --no-charts --out base-t >/dev/null 2>&1
"$bin" sweep --preset tb.json --traces one.csv --no-charts --out one >/dev/null 2>&1
"$bin" compare base-t/report.csv one/report.csv --fail-on-regression --out cmp-one >one.out 2>&1; rc=$?
check "a one-trace change passes the gate (exit $rc)" test $rc = 0
check "…reported as inside the noise" grep -q "^inside the noise: " one.out

# 5. Bad input: one line, exit 64/65, nothing written.
for bad in "--holdout 0" "--holdout 1" "--holdout nan" "--holdout-groups nobody" "--folds 1" "--folds 16" "--confidence 1.2" "--resamples 5"; do
    # shellcheck disable=SC2086
    "$bin" search --preset tweetbot --budget 8 $bad --no-charts --out "bad" >"$work/out" 2>"$work/err"; rc=$?
    check "search $bad: exit 64, one line, nothing written (exit $rc)" bash -c "test $rc = 64 && test ! -e bad && $(declare -f oneline); work=$work; oneline"
done
python3 -c 'import json; p=json.load(open("tb.json")); p["objective"]["confidence"]=1.2; json.dump(p, open("c12.json","w"))'
run 65 sweep --preset c12.json --no-charts --out c12
check "a preset with confidence 1.2: exit 65 naming the key, nothing written" bash -c "grep -q 'objective.confidence' $work/err && test ! -e c12"
finish
