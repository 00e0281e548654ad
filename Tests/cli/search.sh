#!/usr/bin/env bash
# End-to-end checks of parameter domains and `springtune search` (issue 34, Reference §8.3, §13):
# presets show lists domains; a tweetbot search of 60 evaluations reaches the grid's best; the
# report's bytes are the same for 1 and 2 threads and after kill -9 + --resume; freeing
# snapFrequency / bounceStiffness reaches what the grid cannot; the chosen set's ±2 % neighbours,
# re-measured by `sweep --set`, all meet the objective; export --best reproduces the chosen row;
# pick and importance read the report; bad input is one line with exit 64.
. "$(dirname "$0")/lib.sh"

"$bin" presets show tweetbot >"$work/show-tb.txt"
check "presets show tweetbot lists snapFrequency with Hz and its log domain" grep -Eq '^ *snapFrequency +1\.5 +Hz +\[0\.2, 20\] log' "$work/show-tb.txt"
check "presets show tweetbot marks flickVelocity swept with its search range" grep -Eq '^ *flickVelocity .*yes +\[400, 2000\]' "$work/show-tb.txt"
"$bin" presets show evernote >"$work/show-ev.txt"
check "presets show evernote lists bounceStiffness and its domain" grep -Eq '^ *bounceStiffness +100 +1/s² +\[10, 10000\] log' "$work/show-ev.txt"

# column FILE NAME: the values of one column of a report, one per line.
column() { python3 -c 'import csv,sys; [print(r[sys.argv[2]]) for r in csv.DictReader(open(sys.argv[1]))]' "$1" "$2"; }
# meta FILE EXPR: a Python expression over the meta document `m`.
meta() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

"$bin" search --preset tweetbot --budget 60 --seed 1 --threads 2 --out "$work/a" >"$work/a.out" 2>"$work/a.err"; rc=$?
check "search --budget 60 exits 0 (got $rc)" test "$rc" = 0
rows=$(column "$work/a/report.csv" config_id | wc -l)
check "report.csv holds 60 search evaluations (got $rows)" test "$rows" = 60
best=$(meta "$work/a/report.meta.json" 'min(x for x in m["search"]["convergence"] if x is not None)')
check "best feasible settle_time_p95 ≤ the grid's 0.925 s (got $best)" python3 -c "import sys; sys.exit(0 if $best <= 0.925 else 1)"
check "margins are printed for each free parameter" test "$(grep -c '^margin ' "$work/a.out")" = 4
check "the chosen set is robust" grep -q '^chosen: evaluation [0-9]*, robust' "$work/a.out"
check "the meta gives the margins and the chosen set" test "$(meta "$work/a/report.meta.json" 'len(m["search"]["margins"]) == 4 and m["search"]["chosen"] is not None')" = True
check "the convergence chart and the page are drawn" test -s "$work/a/convergence.png" -a -s "$work/a/index.html"
check "the page shows the margins" grep -q '<th>margin</th>' "$work/a/index.html"

"$bin" search --preset tweetbot --budget 60 --seed 1 --threads 1 --no-charts --out "$work/b" >/dev/null 2>&1
check "--threads 1 and --threads 2 give the same report bytes" cmp -s "$work/a/report.csv" "$work/b/report.csv"
check "... and the same checks" cmp -s "$work/a/checks.csv" "$work/b/checks.csv"
"$bin" search --preset tweetbot --budget 60 --seed 1 --no-charts --out "$work/c" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do [ -e "$work/c/.springtune-resume/report-5.csv" ] && break; sleep 0.01; done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done_before=$(ls "$work/c/.springtune-resume" 2>/dev/null | grep -c '^report-')
check "killed with SIGKILL after some batches ($done_before checkpointed), before the end" test "$done_before" -ge 1 -a ! -e "$work/c/report.csv"
"$bin" search --preset tweetbot --budget 60 --seed 1 --no-charts --out "$work/c" --resume >/dev/null 2>"$work/c.err"; rc=$?
check "--resume exits 0 and says what it resumed (got $rc)" grep -q 'resumed .* evaluations from its checkpoint' "$work/c.err"
check "the resumed report has the same bytes" cmp -s "$work/a/report.csv" "$work/c/report.csv"

# The chosen set's ±2 % neighbours, each measured by `sweep --set`, all meet the objective.
python3 - "$work/a/report.meta.json" >"$work/neighbours.txt" <<'PY'
import json, math, sys
m = json.load(open(sys.argv[1])); s = m["search"]
import csv
row = next(r for r in csv.DictReader(open(sys.argv[1].replace(".meta.json", ".csv"))) if int(r["config_id"]) == s["chosen"])
for b in s["box"]:
    v = float(row[b["name"]])
    for sign in (-1, 1):
        w = v * math.exp(sign * 0.02 * math.log(b["to"] / b["from"])) if b["log"] else v + sign * 0.02 * (b["to"] - b["from"])
        sets = [f"{c['name']}={row[c['name']]}" for c in s["box"] if c["name"] != b["name"]] + [f"{b['name']}={w:.12g}"]
        print(" ".join("--set " + x for x in sets))
PY
bad=0; n=0
while read -r line; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$bin" sweep --preset tweetbot $line --no-charts --out "$work/nb" >/dev/null 2>&1 || bad=$((bad + 1))
  python3 - "$work/nb/report.csv" <<'PY' || bad=$((bad + 1))
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
ok = float(r["false_dismiss_rate"]) <= 0.05 and float(r["dismiss_accuracy"]) >= 0.96 and float(r["overshoot_pt_p95"]) <= 1
sys.exit(0 if ok else 1)
PY
done <"$work/neighbours.txt"
check "every ±2 % neighbour of the chosen set meets the constraints when swept ($n neighbours, $bad broke)" test "$n" = 8 -a "$bad" = 0

# export --best gives the chosen set pinned; its sweep reproduces the row.
"$bin" export "$work/a/report.csv" --best --output "$work/pinned.json" >/dev/null 2>&1; rc=$?
check "export --best of a search report exits 0 (got $rc)" test "$rc" = 0
cid=$(meta "$work/pinned.json" 'm["provenance"]["configId"]')
check "export --best takes the chosen set (config $cid)" test "$cid" = "$(meta "$work/a/report.meta.json" 'm["search"]["chosen"]')"
"$bin" sweep --preset "$work/pinned.json" --no-charts --out "$work/re" >/dev/null 2>&1
same=$(python3 - "$work/a/report.csv" "$work/re/report.csv" "$cid" <<'PY'
import csv, sys
a = next(r for r in csv.DictReader(open(sys.argv[1])) if r["config_id"] == sys.argv[3])
b = next(csv.DictReader(open(sys.argv[2])))
print(all(a[k] == b[k] for k in b if k not in ("config_id",) and k in a))
PY
)
check "the pinned preset's sweep reproduces the chosen row" test "$same" = True
"$bin" pick "$work/a/report.csv" >"$work/pick.out" 2>&1; rc=$?
check "pick reads the search report (got $rc)" test "$rc" = 0
"$bin" importance "$work/a/report.csv" >/dev/null 2>&1; rc=$?
check "importance reads the search report (got $rc)" test "$rc" = 0

"$bin" search --preset tweetbot --free snapFrequency --budget 100 --seed 1 --no-charts --out "$work/f" >"$work/f.out" 2>&1
v=$(python3 - "$work/f" <<'PY'
import csv, json, sys
m = json.load(open(sys.argv[1] + "/report.meta.json"))["search"]
r = next(r for r in csv.DictReader(open(sys.argv[1] + "/report.csv")) if int(r["config_id"]) == m["chosen"])
print(r["settle_time_p95"])
PY
)
check "--free snapFrequency: the chosen set settles (p95) under 0.5 s (got $v)" python3 -c "import sys; sys.exit(0 if $v < 0.5 else 1)"
"$bin" search --preset evernote --free bounceStiffness --budget 100 --seed 1 --no-charts --out "$work/e" >"$work/e.out" 2>&1
v=$(python3 - "$work/e" <<'PY'
import csv, json, sys
m = json.load(open(sys.argv[1] + "/report.meta.json"))["search"]
r = next(r for r in csv.DictReader(open(sys.argv[1] + "/report.csv")) if int(r["config_id"]) == m["chosen"])
on = abs(float(r["peak_stretch_pt_p95"]) - 22.7) <= 5 and abs(float(r["max_lag_pt_p95"]) - 133.5) <= 27
print(r["settle_time_p95"] if on else 99)
PY
)
check "evernote --free bounceStiffness: the chosen set is on target and settles under 0.6 s (got $v)" python3 -c "import sys; sys.exit(0 if $v < 0.6 else 1)"

# Bad input: one line, exit 64, nothing written.
bad_input() { # NAME ARGS...
  local name=$1; shift
  "$bin" search --preset tweetbot --no-charts --out "$work/bad" "$@" >/dev/null 2>"$work/bad.err"; local rc=$?
  check "$name: exit 64 (got $rc), one line, nothing written" test "$rc" = 64 -a "$(wc -l <"$work/bad.err")" = 1 -a ! -e "$work/bad"
}
bad_input "an unknown name in --free" --free snapFrequncy
bad_input "a scene value in --free" --free frameRate
bad_input "a range outside the domain" --free snapFrequency=0.01:3
bad_input "budget 0" --budget 0
bad_input "an absurd budget" --budget 1000000000
bad_input "a range on a word parameter" --preset evernote-transition --free completionCurve=1:2
bad_input "a reversed range" --free snapFrequency=3:1
bad_input "a name both freed and set" --free snapFrequency --set snapFrequency=2
finish
