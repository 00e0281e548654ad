#!/usr/bin/env bash
# Issue 27 (hardening, round two): each reproducer of the second reliability probe ends with no
# signal, its sysexits code and one line; folders stay whole under kills and races.
# Usage: SPRINGTUNE=path/to/springtune bash Tests/cli/hardening.sh (from the package root).
. "$(dirname "$0")/lib.sh"
# run CODE ARGS...: runs the binary (stdout to $work/out, stderr to $work/err) and checks its exit
# status is CODE (a status above 128 is a signal).
run() { local want=$1; shift; "$bin" "$@" >"$work/out" 2>"$work/err"; test $? = "$want"; }
# oneline: the last command's stderr is one line starting springtune:.
oneline() { test "$(wc -l <"$work/err")" = 1 && grep -q '^springtune: ' "$work/err"; }

# 1. Springs at the edges of Double: analysed, never a trap.
for a in "--frequency 1 --damping 1e-300" "--frequency 1e308 --damping 0.5" "--frequency 1 --damping 1e-320" \
         "--stiffness 1e-308 --damping-coefficient 1e-308" "--response 1e-300 --damping-ratio 0.5" \
         "--duration 1e-300 --bounce 0.3" "--response 1 --damping-ratio 1e-300"; do
  # shellcheck disable=SC2086
  check "spring $a: exit 0 (no trap)" run 0 spring $a --json
done

# 2. stderr full or closed: the error still ends with its code, no signal.
"$bin" traces validate /nonexistent.csv 2>/dev/full; rc=$?
check "error with stderr on /dev/full: exit 66" test $rc = 66
"$bin" traces validate /nonexistent.csv 2>&-; rc=$?
check "error with stderr closed: exit 66" test $rc = 66

# 3. Non-regular inputs refused before a byte is read; endless lines stopped at the limit.
check "traces validate /dev/zero: exit 66" run 66 traces validate /dev/zero
check "  one line naming it" grep -q '^springtune: /dev/zero: is not a regular file' "$work/err"
mkfifo "$work/fifo"
timeout 10 "$bin" traces validate "$work/fifo" 2>/dev/null; rc=$?
check "traces validate FIFO: exit 66 at once (not 124, waiting for a writer)" test $rc = 66
head -c 3000000 /dev/zero | tr '\0' 'a' >"$work/noline.csv"
check "a 3 MB line without a newline: exit 65" run 65 traces validate "$work/noline.csv"
check "  one line" oneline

# 5. A full or closed stdout is an I/O error (74), with one line.
"$bin" spring --frequency 2 --damping 0.5 --json >/dev/full 2>"$work/err"; rc=$?
check "spring --json >/dev/full: exit 74" test $rc = 74
check "  one line" oneline
"$bin" presets list >&- 2>"$work/err"; rc=$?
check "presets list with stdout closed: exit 74" test $rc = 74
"$bin" metrics --format csv >/dev/full 2>"$work/err"; rc=$?
check "metrics --format csv >/dev/full: exit 74" test $rc = 74

# 4. SIGTERM while gnuplot draws: 143 and the interrupted line, not "gnuplot failed".
mkdir -p "$work/fakebin"
printf '#!/bin/sh\nsleep 30\n' >"$work/fakebin/gnuplot"; chmod +x "$work/fakebin/gnuplot"
"$bin" sweep --preset tweetbot --vary distanceThreshold=20,40 --vary flickVelocity=800 --vary maxFlickAngle=45 \
  --vary snapDamping=0.9 --threads 1 --no-charts --out "$work/small" >/dev/null 2>&1
PATH="$work/fakebin:$PATH" "$bin" plot "$work/small/report.csv" --x distanceThreshold --y settle_time_p95 \
  --out "$work/plot.png" >/dev/null 2>"$work/err" & pid=$!
sleep 2; kill -TERM $pid; wait $pid; rc=$?
check "SIGTERM while gnuplot draws: exit 143" test $rc = 143
check "  says interrupted, not gnuplot failed" bash -c "grep -q interrupted '$work/err' && ! grep -q 'gnuplot failed' '$work/err'"

# 6. Objectives checked when the preset loads: 65 with the preset's file and key path.
badpreset() { # badpreset NAME OBJECTIVE-JSON: a copy of tweetbot with that objective, two sets
  python3 - "$work/$1.json" "$2" <<'PY'
import json, sys
p = json.load(open("Presets/tweetbot.json"))
p["objective"] = json.loads(sys.argv[2])
p["sweep"] = [{"name": "distanceThreshold", "values": [20, 40]}]
json.dump(p, open(sys.argv[1], "w"))
PY
}
badpreset nan '{"constraints":["overshoot_pt_p95 <= nan"],"minimize":"settle_time_p95"}'
badpreset worst '{"minimize":"settle_time_p95","worstOver":["nope"]}'
badpreset noop '{"constraints":["overshoot_pt_p95"],"minimize":"settle_time_p95"}'
for n in nan worst noop; do
  check "sweep with objective '$n': exit 65 before any set runs" run 65 sweep --preset "$work/$n.json" --no-charts --out "$work/o-$n"
  check "  names the preset file and the key path, not .partial" \
    bash -c "grep -q '$work/$n.json: objective\.' '$work/err' && ! grep -q partial '$work/err' && test ! -e '$work/o-$n'"
  check "presets show with objective '$n': exit 65" run 65 presets show "$work/$n.json"
done

finish
