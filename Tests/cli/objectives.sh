#!/bin/bash
# Objectives (Reference §9.1, §10.2): every bundled preset's objective picks an interior set
# (no grid-edge warning); sweep's table, pick and export --best choose the same config_id;
# --target, --where and --robust change the objective on sweep, pick and export alike; an
# unknown metric is one line with exit 64 (a flag) or 65 (a preset file).
. "$(dirname "$0")/lib.sh"

# The first config_id under the table header of a command's output.
first_id() { awk '$1 == "config_id" { getline; print $1; exit }' "$1"; }
# export's "FILE: config ID, …" line.
export_id() { sed -n 's/^.*: config \([0-9][0-9]*\)[, ].*$/\1/p' "$1" | head -1; }

# Every bundled preset (a new one is covered without a line here).
for p in $("$bin" presets list | awk 'NR > 1 { print $1 }'); do
  "$bin" sweep --preset $p --no-charts --out "$work/$p" >"$work/$p.out" 2>"$work/$p.err"; rc=$?
  check "$p: sweep exits 0" test $rc = 0
  check "$p: no grid-edge warning ($(head -c 200 "$work/$p.err"))" bash -c "! grep -q 'the best set lies on' '$work/$p.err'"
  s=$(first_id "$work/$p.out")
  "$bin" pick "$work/$p/report.csv" >"$work/$p.pick"
  "$bin" export "$work/$p/report.csv" --best -o "$work/$p.best.json" >"$work/$p.exp"
  check "$p: sweep, pick and export --best choose the same set ($s, $(first_id "$work/$p.pick"), $(export_id "$work/$p.exp"))" \
    test -n "$s" -a "$s" = "$(first_id "$work/$p.pick")" -a "$s" = "$(export_id "$work/$p.exp")"
done

# evernote keeps its stretch on target and its boundaryResistance inside 6…14.
check "evernote's best: peak_stretch_pt_p95 within 22.7 ± 5, boundaryResistance strictly between 6 and 14" python3 - "$work/evernote/report.csv" "$(first_id "$work/evernote.out")" <<'PY'
import csv, sys
row = next(r for r in csv.DictReader(open(sys.argv[1])) if r["config_id"] == sys.argv[2])
assert abs(float(row["peak_stretch_pt_p95"]) - 22.7) <= 5, row["peak_stretch_pt_p95"]
assert 6 < float(row["boundaryResistance"]) < 14, row["boundaryResistance"]
PY

# --target on sweep, pick and export: a band no set reaches ranks by deviation and says so in one line.
ev=(--vary boundaryResistance=10 --vary damping=0.7,0.9,1.1 --vary frequency=1,1.5,2)
"$bin" sweep --preset evernote --no-charts "${ev[@]}" --target 'peak_stretch_pt_p95=60+-1' --out "$work/far" >"$work/far.out" 2>&1
check "sweep --target: the objective shows the target" grep -q "peak_stretch_pt_p95 = 60 ± 1" "$work/far.out"
check "sweep --target: none on target, one line says so" test "$(grep -c '^no parameter set is on target' "$work/far.out")" = 1
"$bin" pick "$work/far/report.csv" >"$work/far.pick"
check "pick with no flags ranks by the sidecar's objective (the --target the sweep was given)" test "$(first_id "$work/far.pick")" = "$(first_id "$work/far.out")"
check "pick says none is on target" grep -q '^no parameter set is on target' "$work/far.pick"
"$bin" sweep --preset evernote --no-charts "${ev[@]}" --out "$work/near" >/dev/null 2>&1
"$bin" pick "$work/near/report.csv" --target 'peak_stretch_pt_p95 = 25 +- 2' --minimize settle_time_p95 --format csv >"$work/near.csv"
check "pick --target: the on-target sets come first" python3 - "$work/near.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
on = [abs(float(r["peak_stretch_pt_p95"]) - 25) <= 2 for r in rows]
assert any(on) and on == sorted(on, reverse=True), on
PY
"$bin" export "$work/near/report.csv" --best --target 'peak_stretch_pt_p95=25+-2' --minimize settle_time_p95 -o "$work/near.json" >"$work/near.exp"
check "export --best --target chooses pick's set" test "$(export_id "$work/near.exp")" = "$(sed -n 2p "$work/near.csv" | cut -d, -f1)"
check "export records the objective it chose by" grep -q '"peak_stretch_pt_p95=25+-2"' "$work/near.json"

# --robust on sweep, pick and export.
"$bin" sweep --preset evernote --no-charts "${ev[@]}" --robust --out "$work/rob" >"$work/rob.out" 2>&1
check "sweep --robust: the table shows the value ranked by" grep -q "worst settle_time_p95" "$work/rob.out"
"$bin" pick "$work/near/report.csv" --robust >"$work/rob.pick"
"$bin" export "$work/near/report.csv" --best --robust -o "$work/rob.json" >"$work/rob.exp"
check "pick --robust and export --best --robust agree" test "$(first_id "$work/rob.pick")" = "$(export_id "$work/rob.exp")"
check "sweep --robust and pick --robust agree on the same grid" test "$(first_id "$work/rob.out")" = "$(first_id "$work/rob.pick")"

# A tie of 48 sets (unsettled is 0 everywhere; the only tiebreak is unsettled too): sweep, pick
# and export --best resolve it the same way, at the centre of the tied sets' grid region.
"$bin" sweep --preset evernote --no-charts --vary boundaryResistance=10 --vary damping=1,1.05,1.1,1.15,1.2,1.25 \
  --vary frequency=0.6:1.6:8 --minimize unsettled --tiebreak unsettled --out "$work/tie" >"$work/tie.out" 2>&1
"$bin" pick "$work/tie/report.csv" >"$work/tie.pick"
"$bin" export "$work/tie/report.csv" --best -o "$work/tie.json" >"$work/tie.exp"
t=$(first_id "$work/tie.out")
check "48-set tie: 48 sets, all unsettled 0" grep -q "^48 of 48 parameter sets kept" "$work/tie.pick"
check "48-set tie: sweep, pick and export --best agree ($t, $(first_id "$work/tie.pick"), $(export_id "$work/tie.exp"))" \
  test -n "$t" -a "$t" = "$(first_id "$work/tie.pick")" -a "$t" = "$(export_id "$work/tie.exp")"
check "48-set tie: the chosen set is the one nearest the centre of the tied (eligible, on-target) region" python3 - "$work/tie/report.csv" "$t" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ds = sorted({float(r["damping"]) for r in rows}); fs = sorted({float(r["frequency"]) for r in rows})
def ok(r):
    return (float(r["overshoot_pt_p95"]) <= 0.5 and abs(float(r["peak_stretch_pt_p95"]) - 22.7) <= 5
            and abs(float(r["max_lag_pt_p95"]) - 133.5) <= 27)
tied = [(ds.index(float(r["damping"])), fs.index(float(r["frequency"])), int(r["config_id"])) for r in rows if ok(r)]
c = [(min(t[k] for t in tied) + max(t[k] for t in tied)) / 2 for k in (0, 1)]
best = min(tied, key=lambda t: ((t[0] - c[0]) ** 2 + (t[1] - c[1]) ** 2, t[2]))
assert str(best[2]) == sys.argv[2] and best[2] != min(t[2] for t in tied), (best, sys.argv[2])
PY
"$bin" export "$work/far/report.csv" --best -o "$work/far.json" >/dev/null 2>"$work/far.err"
check "export --best says in one line that none is on target" test "$(grep -c 'no parameter set is on target' "$work/far.err")" = 1

# Unknown metrics: one line, 64 for a flag, 65 for a preset file.
"$bin" pick "$work/near/report.csv" --where 'overshot_pt_p95<=1' >"$work/u1.out" 2>"$work/u1.err"; rc=$?
check "pick --where with an unknown metric: exit 64, one line" test $rc = 64 -a "$(wc -l <"$work/u1.err")" = 1
"$bin" sweep --preset evernote --no-charts --target 'stretch=20+-5' --out "$work/u2" >/dev/null 2>"$work/u2.err"; rc=$?
check "sweep --target with an unknown metric: exit 64, one line" test $rc = 64 -a "$(wc -l <"$work/u2.err")" = 1
"$bin" sweep --preset evernote --no-charts --target 'peak_stretch_pt_p95=20' --out "$work/u3" >/dev/null 2>"$work/u3.err"; rc=$?
check "--target without a tolerance: exit 64" test $rc = 64
python3 - "$PWD/Presets/evernote.json" "$work/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["objective"]["targets"] = ["peak_strech_pt_p95 = 20 +- 5"]
d["traces"] = []; json.dump(d, open(sys.argv[2], "w"))
PY
"$bin" sweep --preset "$work/bad.json" --no-charts --out "$work/u4" >/dev/null 2>"$work/u4.err"; rc=$?
check "a preset naming an unknown metric: exit 65, one line naming objective.targets[0] ($(cat "$work/u4.err"))" \
  test $rc = 65 -a "$(wc -l <"$work/u4.err")" = 1 -a -n "$(grep -F 'objective.targets[0]' "$work/u4.err")"

finish
