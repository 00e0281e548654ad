#!/usr/bin/env bash
# Finite motion (issue 28): presets whose values make an engine's motion undefined are refused
# with the key's path and exit 65; velocityScale is a sweepable parameter of flick-dismiss.
. "$(dirname "$0")/lib.sh"

# $work/NAME.json: the tweetbot preset with the value at the dotted KEY set to VALUE (JSON).
edited() { # edited NAME KEY VALUE
  python3 - "$work/$1.json" "$2" "$3" <<'PY'
import json, sys
path, key, value = sys.argv[1:]
d = json.load(open("Presets/tweetbot.json"))
node = d
*parents, last = key.split(".")
for p in parents: node = node[p]
node[last] = json.loads(value)
json.dump(d, open(path, "w"))
PY
}
# True when a sweep of that copy exits 65 with one stderr line containing EXPECTED-TEXT.
refused() { # refused NAME KEY VALUE EXPECTED-TEXT
  edited "$1" "$2" "$3"
  "$bin" sweep --preset "$work/$1.json" --out "$work/$1" >/dev/null 2>"$work/$1.err"
  local rc=$?
  [ "$rc" = 65 ] && grep -q -- "$4" "$work/$1.err" && [ "$(wc -l <"$work/$1.err")" = 1 ]
}

check "flickVelocity 0 refused at params.flickVelocity (65, one line)" refused fv0 params.flickVelocity 0 "params.flickVelocity"
check "velocityScale 11 refused at params.velocityScale" refused vs11 params.velocityScale 11 "params.velocityScale"
check "a 2000 Hz spring refused at spring.frequency" refused f2000 spring.frequency 2000 "spring.frequency: gives f = 2000 Hz"
check "damping 5000 refused at spring.damping" refused z5000 spring.damping 5000 "spring.damping"
"$bin" sweep --preset tweetbot --set snapFrequency=2000 --out "$work/set" >/dev/null 2>"$work/set.err"
check "--set snapFrequency=2000 refused with the range" grep -q "params.snapFrequency: 2000 is out of range (0.0, 1000.0\]" "$work/set.err"

# velocityScale sweeps: the thrown card leaves sooner the larger it is, the decision is unchanged.
"$bin" sweep --preset tweetbot --vary velocityScale=0.1,1 --set distanceThreshold=60 --set flickVelocity=800 \
  --set maxFlickAngle=90 --set snapDamping=0.7 --out "$work/vs" >/dev/null 2>&1
col() { awk -F, -v name="$1" -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == row + 1 { print $c }' "$work/vs/report.csv"; }
check "sweep --vary velocityScale=0.1,1 writes two sets" [ "$(col velocityScale 1),$(col velocityScale 2)" = "0.1,1" ]
check "velocityScale 1 leaves sooner (exit_time_p95)" awk -v a="$(col exit_time_p95 1)" -v b="$(col exit_time_p95 2)" 'BEGIN { exit !(b < a) }'
check "velocityScale leaves the decision alone" [ "$(col dismiss_accuracy 1)" = "$(col dismiss_accuracy 2)" ]
"$bin" sweep --preset tweetbot --vary velocityScale=0,20 --out "$work/vs20" >/dev/null 2>"$work/vs20.err"
check "--vary velocityScale=20 refused with the range" grep -q "velocityScale.*out of range \[0.0, 10.0\]" "$work/vs20.err"

finish
