#!/usr/bin/env bash
# End-to-end checks of `springtune importance` (issue 24, deliverable 4): on evernote swept over
# boundaryResistance, damping and frequency, boundaryResistance carries the largest share of the
# stretch; every column's shares sum to at most 1; the CSV parses; a report without its sidecar
# is one line and exit 66; the default sweep's page has the importance chart.
. "$(dirname "$0")/lib.sh"

"$bin" sweep --preset evernote --vary boundaryResistance=4,6,8,10,14,20 --vary damping=0.5:1.2:8 \
  --vary frequency=0.5:4:8:log --threads 2 --no-charts --out "$work/ev" >"$work/sweep.out" 2>/dev/null
check "sweep prints the top axis of the objective column" grep -q '^which axis matters: [A-Za-z]* explains [0-9.]* of the variance of settle_time_p95' "$work/sweep.out"

"$bin" importance "$work/ev/report.csv" >"$work/table.txt"; rc=$?
check "importance exits 0 (got $rc)" test "$rc" = 0
"$bin" importance "$work/ev/report.csv" --format csv >"$work/shares.csv"; rc=$?
check "importance --format csv exits 0 (got $rc)" test "$rc" = 0

# csv QUESTION: facts about the CSV (header column,<axes>,interactions,sets,note).
csv() {
  python3 - "$work/shares.csv" "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
axes = ["boundaryResistance", "damping", "frequency"]
num = lambda s: float(s) if s else 0.0
if sys.argv[2] == "PARSES":
    ok = rows and list(rows[0].keys()) == ["column"] + axes + ["interactions", "sets", "note"]
    ok = ok and rows[0]["column"] == "settle_time_p95" and all(r["sets"] == "384" for r in rows)
    sys.exit(0 if ok and all(0 <= num(r[a]) <= 1 for r in rows for a in axes + ["interactions"]) else 1)
if sys.argv[2] == "TOP":
    r = next(r for r in rows if r["column"] == "peak_stretch_pt_p95")
    print(max(axes, key=lambda a: num(r[a])))
if sys.argv[2] == "SUMS":
    bad = [r["column"] for r in rows if r["interactions"] != "" and
           (sum(num(r[a]) for a in axes) > 1 + 1e-9 or abs(sum(num(r[a]) for a in axes) + num(r["interactions"]) - 1) > 1e-9)]
    print(" ".join(bad))
PY
}
check "--format csv parses: header, objective first, 384 sets, shares in [0, 1]" csv PARSES
top=$(csv TOP)
check "boundaryResistance has the largest share of peak_stretch_pt_p95 (got $top)" test "$top" = boundaryResistance
bad=$(csv SUMS)
check "every column's shares sum to <= 1, with interactions to 1 (over: $bad)" test -z "$bad"
check "the table marks the objective and shows shares to 3 decimals" \
  grep -Eq '^ *settle_time_p95 \(objective\)( +[01]\.[0-9]{3}){4}' "$work/table.txt"

"$bin" importance "$work/ev/report.csv" --format csv --metric peak_stretch_pt_p95 --metric unsettled >"$work/two.csv"
check "--metric: the objective, then the columns asked for" test "$(cut -d, -f1 "$work/two.csv" | tr '\n' ' ')" = "column settle_time_p95 peak_stretch_pt_p95 unsettled "
"$bin" importance "$work/ev/report.csv" --metric damping >/dev/null 2>"$work/param.err"; rc=$?
check "--metric naming a parameter exits 64 (got $rc)" test "$rc" = 64

mkdir "$work/bare" && cp "$work/ev/report.csv" "$work/bare/"
"$bin" importance "$work/bare/report.csv" >/dev/null 2>"$work/bare.err"; rc=$?
check "a report without its sidecar exits 66 (got $rc)" test "$rc" = 66
check "... with one line naming the sidecar" test "$(wc -l <"$work/bare.err")" = 1 -a -n "$(grep -F 'report.meta.json: missing' "$work/bare.err")"

if command -v gnuplot >/dev/null; then
  "$bin" sweep --preset evernote --threads 2 --out "$work/page" >/dev/null 2>&1
  check "sweep page: the importance chart's script and image exist" test -s "$work/page/importance.gp" -a -s "$work/page/importance.png"
  check "sweep page: a 'Which parameter matters' section shows it" grep -q '<h2>Which parameter matters</h2>' "$work/page/index.html"
  check "sweep page: the section links importance.png" grep -q '<img src="importance.png"' "$work/page/index.html"
  check "importance chart: a stacked bar per key column, with interactions" \
    grep -q 'rowstacked' "$work/page/importance.gp"
else
  echo "skip sweep page checks: gnuplot not installed"
fi
finish
