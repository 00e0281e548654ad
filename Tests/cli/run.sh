#!/usr/bin/env bash
# End-to-end checks of the command line (run by `make test` after the Swift suites):
# exit codes and error lines on bad input, pick's CSV, export consumed by a separate package.
. "$(dirname "$0")/lib.sh"

# A build for x86-64-v3 (make on an AVX2 machine: SPRINGTUNE_CPU_LEVEL=3) run on a CPU without
# AVX2 (qemu's Nehalem) refuses with one line and exit 69 before running anything; a baseline
# build runs there. Either way, never an illegal instruction (exit 132).
if command -v qemu-x86_64 >/dev/null && [ "$(uname -m)" = x86_64 ]; then
  out=$(qemu-x86_64 -cpu Nehalem "$bin" --version 2>&1 >/dev/null | grep -v '^qemu-x86_64: warning')
  rc=$(qemu-x86_64 -cpu Nehalem "$bin" --version >/dev/null 2>&1; echo $?)
  if [ "${SPRINGTUNE_CPU_LEVEL:-1}" = 3 ]; then
    check "x86-64-v3 build on a CPU without AVX2: exit 69, one line ($out)" test "$rc" = 69 -a "$(echo "$out" | wc -l)" = 1 -a -n "$(grep x86-64-v3 <<<"$out")"
  else
    check "baseline build on a CPU without AVX2: runs (exit $rc)" test "$rc" = 0
  fi
else
  echo "skip CPU level check (no qemu-x86_64 or not x86-64)"
fi

# Reference §2 check case through the CLI contract.
ratio=$("$bin" spring --frequency 1 --damping 0.5 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["overshoot_ratio"])')
check "spring overshoot_ratio 0.163034 (got $ratio)" python3 -c "import sys; sys.exit(abs($ratio - 0.163034) > 1e-6)"

# fit: a noise-free spring at 120 Hz comes back exact; Flutter's iOS friction gives 0.998 per ms;
# the real trackpad recordings decay at a rate in (0.9, 1); bad samples fail with file:line.
python3 - "$work" <<'PY'
import math, sys
w = 2 * math.pi * 2; z = 0.3; wd = w * math.sqrt(1 - z * z)      # f 2 Hz, zeta 0.3, from 100 toward 250 at 400 pt/s
with open(sys.argv[1] + "/spring.csv", "w") as f:
    f.write("t,x\n")
    for i in range(181):
        t = i / 120
        f.write("%r,%r\n" % (t, 250 + math.exp(-z * w * t) * (-150 * math.cos(wd * t) + (400 - z * w * 150) / wd * math.sin(wd * t))))
with open(sys.argv[1] + "/friction.csv", "w") as f:
    f.write("t,x\n")
    for i in range(241):
        f.write("%r,%r\n" % (i / 120, 100 + 100 * (0.135 ** (i / 120) - 1) / math.log(0.135)))
PY
"$bin" fit spring "$work/spring.csv" --json > "$work/fit.json"
check "fit spring: f, zeta to 1e-6, target to 1e-4" python3 - "$work/fit.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert abs(d["spring"]["frequency"] / 2 - 1) < 1e-6 and abs(d["spring"]["damping"] / 0.3 - 1) < 1e-6, d["spring"]
assert abs(d["target"] - 250) < 1e-4 and d["warnings"] == []
PY
rate=$("$bin" fit deceleration "$work/friction.csv" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["decelerationRate"])')
check "fit deceleration: Flutter friction 0.135^(1/1000) to 1e-5 (got $rate)" python3 -c "import sys; sys.exit(abs($rate - 0.135 ** 0.001) > 1e-5)"
rate=$("$bin" fit deceleration Tests/Data/wheel-gestures-trackpad/traces.csv --format wheel --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["decelerationRate"])')
check "fit deceleration --format wheel: trackpad median rate in (0.9, 1) (got $rate)" python3 -c "import sys; sys.exit(not 0.9 < $rate < 1)"
python3 - "$work" <<'PY'
import math, sys
w = 2 * math.pi * 1.5; z = 0.4; wd = w * math.sqrt(1 - z * z)     # a bouncing spring, not a deceleration
with open(sys.argv[1] + "/bounce.csv", "w") as f:
    f.write("t,x\n")
    for i in range(241):
        t = i / 120
        f.write("%r,%r\n" % (t, 100 + math.exp(-z * w * t) * (-100 * math.cos(wd * t) + (300 - z * w * 100) / wd * math.sin(wd * t))))
PY
warn=$("$bin" fit deceleration "$work/bounce.csv" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["warnings"]))')
check "fit deceleration on a bouncing spring: a warning ($warn)" test "$warn" = 1
printf 't,x\n0,5\n0.1,5\n0.2,5\n0.3,5\n0.4,5\n0.5,5\n' > "$work/flat.csv"
err=$("$bin" fit spring "$work/flat.csv" 2>&1 >/dev/null); rc=$?
check "fit spring on constant samples: exit 65, one line ($err)" test $rc = 65 -a "$(echo "$err" | wc -l)" = 1
printf 't,x\n0,1\n0.1,2\n0.1,3\n0.3,4\n0.4,5\n0.5,6\n' > "$work/stuck.csv"
err=$("$bin" fit spring "$work/stuck.csv" 2>&1 >/dev/null); rc=$?
check "fit spring with a repeated time: exit 65 at stuck.csv:4:1 ($err)" test $rc = 65 -a -n "$(grep 'stuck.csv:4:1:' <<<"$err")"
"$bin" fit spring "$work/spring.csv" --preset appstore --preset-out "$work/fitted-appstore.json" >/dev/null
check "fit spring --preset-out: the copy loads with response 0.5 s" bash -c "'$bin' presets show '$work/fitted-appstore.json' | grep -Eq '^ *response +0\.5(0+[0-9]*)? '"

# Bad inputs: exit 65, one line naming file:line.
bad() { # bad NAME EXPECTED_LINE CONTENT
  printf '%b' "$3" > "$work/$1.csv"
  local err; err=$("$bin" traces validate "$work/$1.csv" 2>&1 >/dev/null); local rc=$?
  check "$1: exit 65 at line $2 ($err)" test "$rc" = 65 -a "$(echo "$err" | wc -l)" = 1
  check "$1: names $1.csv:$2:" grep -q "$1.csv:$2:" <<<"$err"
}
h='trace,t,x,y,phase\n'
bad nan 3 "${h}a,0,1,2,began\na,0.01,nan,2,moved\na,0.02,1,2,ended\n"
bad backwards 4 "${h}a,0,1,2,began\na,0.01,1,2,moved\na,0.005,1,2,ended\n"
bad quote 3 "${h}a,0,1,2,began\n\"a,0.01,1,2,ended\n"
bad column 1 'trace,t,x,phase\na,0,1,began\n'
bad notbegan 2 "${h}a,0,1,2,moved\na,0.01,1,2,ended\n"
"$bin" traces validate "$work/missing.csv" >/dev/null 2>&1; check "missing file: exit 66" test $? = 66

# pick --format csv: meets its constraints and is sorted best first.
"$bin" sweep --preset evernote --vary damping=0.5,0.8,1.1 --vary frequency=0.7,1.5,3 --no-charts --out "$work/ev" >/dev/null
"$bin" pick "$work/ev/report.csv" --where 'overshoot_pt_p95<=4' --where 'peak_stretch_pt_p95>=1' --minimize settle_time_p95 --format csv > "$work/pick.csv"
check "pick csv meets constraints, best first" python3 - "$work/pick.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no rows kept"
assert all(float(r["overshoot_pt_p95"]) <= 4 and float(r["peak_stretch_pt_p95"]) >= 1 for r in rows)
s = [float(r["settle_time_p95"]) for r in rows]
assert s == sorted(s)
PY

# compare: a deliberately worse report (a 4x slower edge bounce) fails the gate; the same one passes.
"$bin" sweep --preset evernote --vary damping=0.5,0.8,1.1 --vary frequency=0.7,1.5,3 --set bounceStiffness=6.25 --no-charts --out "$work/slow" >/dev/null
"$bin" compare "$work/ev/report.csv" "$work/slow/report.csv" --metrics settle_time_p95 --fail-on-regression --out "$work/cmp" > "$work/cmp.txt"
rc=$?
check "compare flags the worse report: exit 1 ($(grep verdict "$work/cmp.txt"))" test $rc = 1
"$bin" compare "$work/ev/report.csv" "$work/ev/report.csv" --fail-on-regression --out "$work/cmp2" >/dev/null
check "compare of a report with itself: exit 0" test $? = 0

# No gnuplot: the sweep still writes its CSVs and says why there are no charts; plot exits 69.
err=$(SPRINGTUNE_GNUPLOT=/nonexistent "$bin" sweep --preset clear --vary commitFraction=0.5,0.8 --out "$work/nogp" 2>&1 >/dev/null)
check "no gnuplot: sweep exit 0 with report.csv" test -s "$work/nogp/report.csv"
check "no gnuplot: one line says charts were skipped" grep -q "charts skipped" <<<"$err"
SPRINGTUNE_GNUPLOT=/nonexistent "$bin" plot "$work/nogp/report.csv" --x commitFraction --y create_accuracy >/dev/null 2>&1
check "no gnuplot: plot exits 69" test $? = 69

# export --best, then a separate package decodes it with JSONDecoder and reads name and model.
"$bin" export "$work/ev/report.csv" --best -o "$work/best.json" >/dev/null
# The separate package is built once (its log kept for when it fails), then its programs run.
swift build --package-path Examples/PresetConsumer -c debug > "$work/consumer-build.log" 2>&1 \
  || { echo "Examples/PresetConsumer failed to build:"; tail -20 "$work/consumer-build.log"; }
consumer=$(swift build --package-path Examples/PresetConsumer -c debug --show-bin-path 2>/dev/null)
out=$("$consumer/preset-consumer" "$work/best.json" 2>&1)
check "separate package decodes the export ($(echo $out | tr '\n' ' '))" grep -q "model: flow-layout" <<<"$out"
check "…and its name" grep -q "name: evernote" <<<"$out"
"$bin" sweep --preset "$work/best.json" --no-charts --out "$work/again" >/dev/null
check "exported preset sweeps again" test -s "$work/again/report.csv"

# metrics: every model's metrics with unit and direction; the project's reference names them all.
"$bin" metrics --format csv > "$work/metrics.csv"
check "metrics csv: columns and directions" python3 - "$work/metrics.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0].keys()) == ["model", "metric", "unit", "better", "definition"]
d = {(r["model"], r["metric"]): r for r in rows}
assert d[("flick-dismiss", "dismiss_accuracy")]["better"] == "higher"
assert d[("flick-dismiss", "false_dismiss_rate")]["better"] == "lower"
assert d[("flow-layout", "peak_stretch_pt")]["better"] == "none"
assert d[("flow-layout", "settle_time")]["unit"] == "s"
assert all(r["better"] in ("lower", "higher", "none") and r["definition"] for r in rows)
PY
check "reference names every model and metric" python3 - "$work/metrics.csv" docs/Reference.md <<'PY'
import csv, sys
doc = open(sys.argv[2]).read()
missing = sorted({n for r in csv.DictReader(open(sys.argv[1])) for n in (r["model"], r["metric"]) if n not in doc})
assert not missing, missing
PY
check "README points at no file outside the project" bash -c '! grep -q "\.\./shared" README.md'
"$bin" metrics --model nosuch >/dev/null 2>&1; check "metrics --model nosuch: exit 64" test $? = 64

# compare reads directions from the specs: more accuracy passes the gate, a higher false rate fails it.
printf 'config_id,flickVelocity,traces,dismiss_accuracy,false_dismiss_rate\n0,800,10,0.8,0.1\n' > "$work/ca.csv"
printf 'config_id,flickVelocity,traces,dismiss_accuracy,false_dismiss_rate\n0,800,10,0.9,0.1\n' > "$work/cb.csv"
printf 'config_id,flickVelocity,traces,dismiss_accuracy,false_dismiss_rate\n0,800,10,0.8,0.2\n' > "$work/cc.csv"
obj=(--maximize dismiss_accuracy --where 'false_dismiss_rate<=0.15')
"$bin" compare "$work/ca.csv" "$work/cb.csv" "${obj[@]}" --fail-on-regression --out "$work/cmp3" >/dev/null 2>&1
check "compare: higher dismiss_accuracy is no regression (exit 0)" test $? = 0
"$bin" compare "$work/ca.csv" "$work/cc.csv" "${obj[@]}" --fail-on-regression --out "$work/cmp4" >/dev/null 2>&1
check "compare: higher false_dismiss_rate breaks the chosen set's constraint (exit 1)" test $? = 1
"$bin" compare "$work/ca.csv" "$work/cb.csv" --fail-on-regression --out "$work/cmp5" >/dev/null 2>&1
check "compare without an objective (no meta, no --minimize/--maximize): exit 64" test $? = 64

# The gate concerns the objective: B better overall but three non-chosen sets worse passes;
# the chosen set worse fails.
h='config_id,damping,traces,unsettled,settle_time_p95,overshoot_pt_p95'
printf '%s\n0,0.5,10,0,1.0,1\n1,0.6,10,0,2.0,1\n2,0.7,10,0,2.0,1\n3,0.8,10,0,2.0,1\n4,0.9,10,0,2.0,1\n' "$h" > "$work/ga.csv"
printf '%s\n0,0.5,10,0,0.9,1\n1,0.6,10,0,2.5,1\n2,0.7,10,0,2.5,1\n3,0.8,10,0,2.5,1\n4,0.9,10,0,1.5,1\n' "$h" > "$work/gb.csv"
printf '%s\n0,0.5,10,0,1.2,1\n1,0.6,10,0,1.5,1\n2,0.7,10,0,1.5,1\n3,0.8,10,0,1.5,1\n4,0.9,10,0,1.5,1\n' "$h" > "$work/gc.csv"
gate=(--minimize settle_time_p95 --where 'overshoot_pt_p95<=4' --fail-on-regression)
"$bin" compare "$work/ga.csv" "$work/gb.csv" "${gate[@]}" --out "$work/g1" > "$work/g1.txt" 2>&1; rc=$?
check "compare: three non-chosen sets worse, B better overall: exit 0 ($(grep -c '^worse on' "$work/g1.txt") worse sets listed)" test $rc = 0
"$bin" compare "$work/ga.csv" "$work/gc.csv" "${gate[@]}" --out "$work/g2" > "$work/g2.txt" 2>&1; rc=$?
check "compare: the chosen set got worse: exit 1 ($(grep verdict "$work/g2.txt"))" test $rc = 1

# Multi-pointer traces: a real two-finger recording grouped into one gesture with two pointers.
"$bin" traces import --format getevent Tests/Data/getevent-raw/tablet-two-finger-drag.txt --scale 2 --join gestures -o "$work/two.csv" >/dev/null
check "import --join gestures: one trace, two pointers" python3 - "$work/two.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {r["trace"] for r in rows} == {"tablet-two-finger-drag-g000"}, {r["trace"] for r in rows}
assert {r["pointer"] for r in rows} == {"0", "1"}
PY
"$bin" traces validate "$work/two.csv" >/dev/null; check "…and it validates" test $? = 0
printf 'trace,t,x,y,phase,pointer\ng,0,1,2,began,0\ng,0,1,9,began,1\ng,0.1,1,2,ended,0\ng,0.2,1,9,moved,0\ng,0.3,1,9,ended,1\n' > "$work/ptr.csv"
err=$("$bin" traces validate "$work/ptr.csv" 2>&1 >/dev/null); rc=$?
check "pointer rows checked per pointer: exit 65 at ptr.csv:5 ($err)" test $rc = 65 -a -n "$(grep 'ptr.csv:5:' <<<"$err")"

# Your own recordings: importers refuse other formats and write nothing; outputs validate.
for fmt in evemu getevent; do
  "$bin" traces import --format $fmt Tests/Data/evemu-devices/devices_indirect.csv --scale 1 -o "$work/wrong-$fmt.csv" >/dev/null 2>"$work/wrong.err"; rc=$?
  check "import --format $fmt on a CSV: exit 65, one line, nothing written ($(cat "$work/wrong.err"))" \
    test $rc = 65 -a ! -e "$work/wrong-$fmt.csv" -a ! -e "$work/wrong-$fmt.csv.meta.json" -a "$(wc -l < "$work/wrong.err")" = 1
done
"$bin" traces import --format csv Tests/Data/evemu-devices/indirect_touchpad_traces.csv --scale 10 -o "$work/pad.csv" >/dev/null 2>&1
"$bin" traces validate "$work/pad.csv" >/dev/null 2>&1; check "touchpad CSV import validates (contacts that never lift end cancelled)" test $? = 0
check "…and its sidecar names the source, its SHA-256 and the mapping" python3 - "$work/pad.csv.meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
s = m["sources"][0]
assert m["scale"] == 10 and m["mapping"] == "10 units per pt" and len(s["sha256"]) == 64 and s["closed_cancelled"] >= 1, m
PY
printf 'trace_id,t_seconds,x,y,phase\nd,0,1452,752,down\nd,0.1,1452,1000,move\nd,0.2,1452,1000,up\n' > "$work/mm.csv"
"$bin" traces import --format csv "$work/mm.csv" --units-per-mm 10 -o "$work/mm-pt.csv" >/dev/null
check "--units-per-mm 10: x 1452 → 1452/10/(25.4/163) pt" python3 - "$work/mm-pt.csv" <<'PY'
import csv, sys
x = float(next(csv.DictReader(open(sys.argv[1])))["x"])
assert abs(x - 1452 / 10 / (25.4 / 163)) < 1e-9, x
PY
printf 'trace_id,t_seconds,x,y,phase\nd,0,50,100,down\nd,0.1,50,150,move\nd,0.2,50,200,move\nd,0.25,50,200,up\n' > "$work/down.csv"
"$bin" traces import --format csv "$work/down.csv" --scale 1 --rotate 90 -o "$work/rot.csv" >/dev/null
check "--rotate 90: a 100 pt downward drag becomes a 100 pt horizontal one" python3 - "$work/rot.csv" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
dx = float(r[-1]["x"]) - float(r[0]["x"]); dy = float(r[-1]["y"]) - float(r[0]["y"])
assert abs(abs(dx) - 100) < 1e-9 and abs(dy) < 1e-9, (dx, dy)
PY
"$bin" traces import --format csv "$work/down.csv" --scale 1 --units-per-mm 2 -o "$work/x.csv" >/dev/null 2>&1
check "two unit options at once: exit 64" test $? = 64

# Filter and label.
"$bin" traces filter Sources/SpringTune/Resources/Traces/card/traces.csv --direction vertical --min-travel 20 -o "$work/vert.csv" > "$work/filter.txt"
check "filter keeps only vertical traces of 20 pt or more ($(cat "$work/filter.txt"))" python3 - "$work/vert.csv" Sources/SpringTune/Resources/Traces/card/traces.csv <<'PY'
import csv, sys
from collections import OrderedDict
def traces(path):
    t = OrderedDict()
    for r in csv.DictReader(open(path)): t.setdefault(r["trace"], []).append(r)
    return t
def shape(rows):
    pos = [r for r in rows if r["phase"] in ("began", "moved")]
    return float(pos[-1]["x"]) - float(pos[0]["x"]), float(pos[-1]["y"]) - float(pos[0]["y"])
kept, all_ = traces(sys.argv[1]), traces(sys.argv[2])
want = [k for k, rows in all_.items() if abs(shape(rows)[1]) >= abs(shape(rows)[0]) and (shape(rows)[0]**2 + shape(rows)[1]**2) ** 0.5 >= 20]
assert list(kept) == want and 0 < len(want) < len(all_), (len(kept), len(want), len(all_))
PY
printf 'trace,intent\npan-1,keep\n' > "$work/labels.csv"
"$consumer/record-demo" "$work/rec.csv" >/dev/null 2>&1
"$bin" traces label "$work/rec.csv" --labels "$work/labels.csv" -o "$work/rec-labelled.csv" >/dev/null
check "label --labels sets exactly the listed intents" python3 - "$work/rec-labelled.csv" <<'PY'
import csv, sys
intents = {(r["trace"], r["intent"]) for r in csv.DictReader(open(sys.argv[1]))}
assert intents == {("pan-1", "keep"), ("pinch-1", "")}, intents
PY
printf 'trace,intent\nnosuch,keep\n' > "$work/badlabels.csv"
"$bin" traces label "$work/rec.csv" --labels "$work/badlabels.csv" -o "$work/x.csv" >/dev/null 2>&1
check "label naming an unknown trace: exit 65" test $? = 65

# TraceRecorder in a separate package: the file validates and stats read 1000 pt/s.
"$bin" traces validate "$work/rec.csv" >/dev/null; check "TraceRecorder's CSV validates" test $? = 0
check "TraceRecorder: stats see the 1000 pt/s release" python3 - <<PY
import csv, subprocess
out = subprocess.run(["$bin", "traces", "stats", "$work/rec.csv", "--format", "csv"], capture_output=True, text=True).stdout
row = next(r for r in csv.DictReader(out.splitlines()) if r["trace"] == "pan-1")
assert abs(float(row["release_vy"]) - 1000) < 1e-6, row
PY

# Spreadsheet CSVs: a byte-order mark with CRLF validates; a semicolon-separated file is read.
printf '\xef\xbb\xbftrace,t,x,y,phase\r\na,0,1,2,began\r\na,0.01,1,3,moved\r\na,0.02,1,3,ended\r\n' > "$work/bom.csv"
"$bin" traces validate "$work/bom.csv" >/dev/null 2>&1; check "BOM + CRLF CSV validates" test $? = 0
printf 'trace;t;x;y;phase\na;0;1;2;began\na;0.01;1;3;moved\na;0.02;1;3;ended\n' > "$work/semi.csv"
"$bin" traces validate "$work/semi.csv" >/dev/null 2>&1; check "semicolon-separated CSV is read" test $? = 0

# Portable exports: no .build path; --copy-traces copies user files beside the export.
"$bin" export "$work/ev/report.csv" --best -o "$work/portable.json" >/dev/null
check "export holds no .build path" bash -c "! grep -q '\.build' '$work/portable.json'"
check "…and names the bundled sets" grep -q '"default/aosp-flings.csv"' "$work/portable.json"
"$bin" sweep --preset clear --traces "$work/pad.csv" --vary commitFraction=0.5,0.8 --set frequency=2.5 --set damping=0.8 --no-charts --out "$work/own" >/dev/null 2>&1
mkdir -p "$work/ship"; "$bin" export "$work/own/report.csv" --best --copy-traces -o "$work/ship/mine.json" >/dev/null
check "export --copy-traces: copy beside the export, relative entry, sweeps again" bash -c \
  "test -s '$work/ship/mine-traces/pad.csv' && grep -q '\"mine-traces/pad.csv\"' '$work/ship/mine.json' && '$bin' sweep --preset '$work/ship/mine.json' --no-charts --out '$work/again2' >/dev/null 2>&1"

# See the motion: every preset's replay animates (frames ≥ 0.9 × 30 × duration, ≥ 300 px wide).
gifinfo() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); w,h=struct.unpack("<HH",d[6:10]); print(w, d.count(b"\x21\xf9\x04"))' "$1"; }
# Every bundled preset (a new one is covered without a line here).
for preset in $("$bin" presets list | awk 'NR > 1 { print $1 }'); do
  set_file=$("$bin" presets show "$preset" | sed -n 's/^traces: //p' | cut -d, -f1)
  trace=$(python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["trace"])' "$set_file")
  "$bin" replay --preset "$preset" --trace "$trace" --animate --out "$work/anim-$preset" >/dev/null 2>&1
  read -r width frames <<<"$(gifinfo "$work/anim-$preset/replay.gif" 2>/dev/null || echo 0 0)"
  duration=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["duration"])' "$work/anim-$preset/summary.json" 2>/dev/null || echo 1e9)
  check "replay --animate $preset: $frames frames for $duration s, $width px wide, filmstrip" python3 -c "import sys; sys.exit(not ($frames >= 0.9*30*$duration and $width >= 300))"
  test -s "$work/anim-$preset/replay-filmstrip.png" || check "filmstrip of $preset" false
done
"$bin" replay --preset evernote --trace SailfishFlingDownFast3 --animate --out "$work/single" >/dev/null 2>&1
"$bin" replay --preset evernote --trace SailfishFlingDownFast3 --animate --vs damping=0.4 --out "$work/vs" >/dev/null 2>&1
read -r w1 _ <<<"$(gifinfo "$work/single/replay.gif")"; read -r w2 _ <<<"$(gifinfo "$work/vs/replay.gif")"
check "--vs damping=0.4: one GIF ${w2} px wide against ${w1} px for one panel" python3 -c "import sys; sys.exit(not ($w2 >= 1.5 * $w1))"

# Charts a designer can choose from, and one page per sweep that a real browser renders.
"$bin" sweep --preset evernote --out "$work/page" >/dev/null 2>&1
check "default evernote charts: units, log frequency axis, the overshoot limit, the chosen set" bash -c "
  grep -q 'frequency (Hz)' '$work/page/settle_time.gp' && grep -q 'logscale x' '$work/page/settle_time.gp' &&
  grep -q 'settle_time (s)' '$work/page/settle_time.gp' && grep -q 'limit overshoot_pt_p95 <= 0.5' '$work/page/overshoot_pt.gp' &&
  grep -q 'chosen: config' '$work/page/overshoot_pt.gp'"
if command -v chromium >/dev/null; then
  (cd "$work/page" && timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$work/page/index.html" > "$work/dom.html" 2>/dev/null)
  (cd "$work/page" && timeout 120 chromium --headless --no-sandbox --disable-gpu --window-size=1200,1600 --screenshot="$work/page.png" "file://$work/page/index.html" >/dev/null 2>&1)
  check "index.html in headless Chromium: every image exists, the page is not blank" python3 - "$work/dom.html" "$work/page" "$work/page.png" <<'PY'
import re, os, sys, zlib, struct
dom, folder, shot = sys.argv[1:4]
srcs = re.findall(r'<img[^>]+src="([^"]+)"', open(dom).read())
assert len(srcs) >= 10, len(srcs)
missing = [s for s in srcs if "/" in s or ":" in s or not os.path.isfile(os.path.join(folder, s))]
assert not missing, missing
data = open(shot, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
idat, i = b"", 8
while i < len(data):
    n, kind = struct.unpack(">I4s", data[i:i + 8]); i += 8
    if kind == b"IDAT": idat += data[i:i + n]
    i += n + 4
pixels = zlib.decompress(idat)
assert len(set(pixels[::997])) > 8, "blank screenshot"
PY
else
  check "chromium installed (make setup installs it)" false
fi

# Hostile and absurd input: one line, a sysexits code, no signal, nothing written.
absurd() { # absurd NAME EXPECTED_CODE COMMAND...
  local name=$1 want=$2; shift 2
  "$@" >/dev/null 2>"$work/absurd.err"; local rc=$?
  check "$name: exit $want, one line ($(head -c 160 "$work/absurd.err"))" test "$rc" = "$want" -a "$(wc -l < "$work/absurd.err")" -le 1
}
printf 'trace,t,x,y,phase\na,0,1,2,began\na,1e300,1,2,ended\n' > "$work/span.csv"
absurd "trace lasting 1e300 s" 65 "$bin" traces validate "$work/span.csv"
printf 'trace,t,x,y,phase\na,0,1,2,began\na,1e7,1,2,ended\n' > "$work/span7.csv"
absurd "sweep over a trace lasting 1e7 s" 65 "$bin" sweep --preset tweetbot --traces "$work/span7.csv" --out "$work/no1"
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
p = json.load(open("Presets/evernote.json"))
p["scene"]["tail"] = 1e17; json.dump(p, open(f"{w}/tail.json", "w"))
p["scene"]["tail"] = 5; p["scene"]["frameRate"] = 1e308; json.dump(p, open(f"{w}/fr.json", "w"))
p["scene"]["frameRate"] = 120; p["sweep"][0] = {"name": "damping", "from": 0.5, "to": 1, "steps": 1000000000}; json.dump(p, open(f"{w}/steps.json", "w"))
open(f"{w}/dup.json", "w").write(open("Presets/evernote.json").read().replace('"name": "evernote",', '"name": "evernote", "name": "x",'))
PY
absurd "preset tail 1e17" 65 "$bin" sweep --preset "$work/tail.json" --out "$work/no2"
absurd "preset frameRate 1e308" 65 "$bin" sweep --preset "$work/fr.json" --out "$work/no2"
absurd "presets show with steps 1e9" 65 "$bin" presets show "$work/steps.json"
absurd "--vary damping=1:2:100000000" 64 "$bin" sweep --preset evernote --vary damping=1:2:100000000 --out "$work/no2"
absurd "five axes of 10,000 values (grid size overflow)" 64 "$bin" sweep --preset evernote --vary damping=1:2:10000 --vary frequency=1:2:10000 \
  --vary boundaryResistance=1:2:10000 --vary itemHeight=1:2:10000 --vary itemSpacing=1:2:10000 --out "$work/no2"
printf 'config_id,damping,traces,settle_time_p95\n0,nan,3,1\n' > "$work/nanrep.csv"
absurd "plot on a report with nan in a parameter" 65 "$bin" plot "$work/nanrep.csv" --x damping --y settle_time_p95
absurd "compare on a report with nan in a parameter" 65 "$bin" compare "$work/nanrep.csv" "$work/nanrep.csv" --minimize settle_time_p95
absurd "bench --repetitions=-1" 64 "$bin" bench --repetitions=-1
absurd "spring --velocity=1e200" 64 "$bin" spring --frequency 1 --damping 0.5 --velocity=1e200
absurd "spring --band=1e-320" 64 "$bin" spring --frequency 1 --damping 0.5 --band=1e-320
absurd "fit spring --target=1e300" 64 "$bin" fit spring "$work/spring.csv" --target=1e300
printf 't,x\n0,1\n1,1e300\n' > "$work/far.csv"
absurd "fit spring on a position of 1e300" 65 "$bin" fit spring "$work/far.csv"
absurd "sweep --out ''" 64 "$bin" sweep --preset evernote --out ''
absurd "a preset with a duplicate key" 65 "$bin" presets show "$work/dup.json"
check "…named with its line and column" grep -q 'dup.json: line [0-9]*, column [0-9]*: key "name" appears twice' "$work/absurd.err"
check "nothing was written by the absurd sweeps" test ! -e "$work/no1" -a ! -e "$work/no2"

# Gates that fail closed: nothing to compare, a non-finite tolerance, shards with a gap.
printf 'config_id,damping,traces,settle_time_p95\n' > "$work/header.csv"
absurd "compare with nothing to compare (header only)" 65 "$bin" compare "$work/header.csv" "$work/header.csv" --minimize settle_time_p95 --fail-on-regression
absurd "compare --tolerance nan" 64 "$bin" compare "$work/ev/report.csv" "$work/ev/report.csv" --tolerance nan --fail-on-regression
for i in 1 3; do "$bin" sweep --preset evernote --vary damping=0.5,1 --vary frequency=1,2 --shard $i/4 --no-charts --out "$work/shard$i" >/dev/null 2>&1; done
absurd "merge of shards 1 and 3 of 4" 65 "$bin" merge "$work/shard1/report.csv" "$work/shard3/report.csv" -o "$work/merged.csv"
"$bin" merge "$work/shard1/report.csv" "$work/shard3/report.csv" --allow-partial -o "$work/partial.csv" >/dev/null 2>&1
check "merge --allow-partial records the gap in the meta" grep -q '"missing"' "$work/partial.meta.json"

# Untrusted names never reach a shell or a path outside the folder.
mkdir -p "$work/inj/a"
printf 'config_id,damping,traces,"max_lag_pt_p95\n!touch %s/INJECTED\n#"\n0,0.5,3,1\n1,0.6,3,2\n' "$work" > "$work/inj/a/r.csv"
(cd "$work/inj" && "$bin" plot a/r.csv --x damping --y "$(printf 'max_lag_pt_p95\n!touch %s/INJECTED\n#' "$work")" >/dev/null 2>&1
 "$bin" compare a/r.csv a/r.csv --minimize damping --out cmp >/dev/null 2>&1)
check "an injected column name runs nothing" test ! -e "$work/INJECTED"
(cd "$work/inj/a" && "$bin" plot r.csv --x damping --y damping --out ../../escape.png >/dev/null 2>&1)
(cd "$work/inj" && "$bin" plot a/r.csv --x damping --y ../../x >/dev/null 2>&1)
check "plot --y ../../x writes nothing outside the folder" test ! -e "$work/x.png" -a ! -e "$work/inj/x.png"
ln -s /dev/null "$work/link.json"
absurd "export -o onto a symlink" 73 "$bin" export "$work/ev/report.csv" --best -o "$work/link.json"
absurd "fit spring --preset-out onto a symlink" 73 "$bin" fit spring "$work/spring.csv" --preset evernote --preset-out "$work/link.json"
absurd "fit spring --plot onto a symlink to /dev/null" 73 "$bin" fit spring "$work/spring.csv" --plot "$work/link.json"
check "…and nothing is written beside it" test -z "$(ls "$work" | grep '^link\.json\.')"

# One consistent output set: a second run into a locked folder fails; kill -9 leaves the old set.
"$bin" sweep --preset evernote --no-charts --out "$work/kill" >/dev/null 2>&1
before=$(sha256sum "$work/kill/report.csv" "$work/kill/report.meta.json" | cut -c1-64)
"$bin" sweep --preset evernote --vary damping=0.5:1.3:30 --out "$work/kill" >/dev/null 2>&1 & pid=$!
sleep 0.5
"$bin" sweep --preset evernote --no-charts --out "$work/kill" >/dev/null 2>"$work/lock.err"; rc=$?
check "a second sweep into a folder being written: exit 73 ($(cat "$work/lock.err"))" test $rc = 73
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
after=$(sha256sum "$work/kill/report.csv" "$work/kill/report.meta.json" | cut -c1-64)
check "kill -9 mid-sweep: the folder holds the complete old outputs" test "$before" = "$after"
"$bin" sweep --preset evernote --vary damping=0.5,1 --no-charts --out "$work/kill" >/dev/null 2>&1
check "…and the next run leaves no temporary folder or file" bash -c "! ls -a '$work' | grep -q 'kill\.partial\|kill\.old' && ! find '$work/kill' -name '*.tmp-*' | grep -q ."
"$bin" sweep --preset evernote --vary damping=0.5:1.3:30 --out "$work/int" >/dev/null 2>&1 & pid=$!
sleep 0.5; kill -INT $pid; wait $pid; rc=$?
check "SIGINT: exit 130, no staging folder or lock file left" test $rc = 130 -a -z "$(ls -a "$work" | grep 'int\.partial\|int\.lock')"

# Resume: kill -9 half-way, a plain rerun says how to resume, --resume finishes with the bytes of
# an uninterrupted run (report and per-trace), running only the sets its checkpoint lacks (the
# work it says it did, not a wall-clock comparison: that failed once on a busy machine, 1.68 s vs 1.67 s).
grid=(--preset evernote --vary frequency=0.5:4:100:log --set boundaryResistance=10 --no-charts --per-trace --threads 1)
"$bin" sweep "${grid[@]}" --out "$work/whole" >/dev/null 2>&1
"$bin" sweep "${grid[@]}" --out "$work/cut" >/dev/null 2>&1 & pid=$!
for _ in $(seq 400); do [ "$(ls "$work/cut/.springtune-resume" 2>/dev/null | grep -c "^report-")" -ge 6 ] && break; sleep 0.02; done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
blocks=$(ls "$work/cut/.springtune-resume" 2>/dev/null | grep -c "^report-")
err=$("$bin" sweep "${grid[@]}" --out "$work/cut" 2>&1 >/dev/null); rc=$?
check "plain rerun after kill -9 ($blocks blocks checkpointed): exit 64, says --resume ($err)" test $rc = 64 -a -n "$(grep -- --resume <<<"$err")"
"$bin" sweep "${grid[@]}" --out "$work/cut" --resume >/dev/null 2>"$work/resume.err"; rc=$?
check "--resume: exit 0, the bytes of an uninterrupted run" bash -c "test $rc = 0 && cmp -s '$work/whole/report.csv' '$work/cut/report.csv' && cmp -s '$work/whole/per-trace.csv' '$work/cut/per-trace.csv'"
resumed=$(sed -n 's/.*: \([0-9]*\) of \([0-9]*\) sets from its checkpoint, \([0-9]*\) run now.*/\1 \2 \3/p' "$work/resume.err")
check "--resume ran only the rest ($resumed: from the checkpoint, of, run now)" \
  python3 -c "import sys; r, n, k = map(int, '${resumed:-0 0 0}'.split()); sys.exit(not (r >= 1 and k >= 1 and r + k == n))"
check "…and leaves no checkpoint behind" test ! -e "$work/cut/.springtune-resume"
"$bin" sweep "${grid[@]}" --out "$work/other" >/dev/null 2>&1 & pid=$!
for _ in $(seq 200); do [ "$(ls "$work/other/.springtune-resume" 2>/dev/null | grep -c "^report-")" -ge 1 ] && break; sleep 0.05; done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
err=$("$bin" sweep --preset evernote --vary damping=0.5,1 --no-charts --out "$work/other" --resume 2>&1 >/dev/null); rc=$?
check "--resume with other inputs: exit 65 ($err)" test $rc = 65

# bench: the instruction count finds the flow-layout kernel (callgrind counts inside one named
# function; a renamed function must fail loudly, not count nothing). Times are not checked.
if command -v valgrind >/dev/null; then
  out=$("$bin" bench --repetitions 1 2>&1); rc=$?
  line=$(grep '^callgrind, ' <<<"$out")
  per=$(sed -n 's/.*; \([0-9.]*\) instructions per item-step.*/\1/p' <<<"$line")
  check "bench: exit 0, kernel counted ($line)" python3 -c "import sys; sys.exit(not ($rc == 0 and 0 < float('${per:-0}') < 1000))"
else
  echo "skip bench count (no valgrind)"
fi

finish
