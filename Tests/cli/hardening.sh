#!/usr/bin/env bash
# Issue 27 (hardening, round two): each reproducer of the second reliability probe ends with no
# signal, its sysexits code and one line; folders stay whole under kills and races.
# Usage: SPRINGTUNE=path/to/springtune bash Tests/cli/hardening.sh (from the package root).
. "$(dirname "$0")/lib.sh"
# run CODE ARGS...: runs the binary (stdout to $work/out, stderr to $work/err) and checks its exit
# status is CODE (a status above 128 is a signal).
run() { local want=$1; shift; "$bin" "$@" >"$work/out" 2>"$work/err"; test $? = "$want"; }
# longest FILE: the most characters (not bytes) on one line of FILE.
longest() { python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] + [0]))' "$1"; }
# oneline: the last command's stderr is one line starting springtune:.
oneline() { test "$(wc -l <"$work/err")" = 1 && grep -q '^springtune: ' "$work/err"; }

# 1. Springs at the edges of Double: analysed, never a trap.
for a in "--frequency 1 --damping 1e-300" "--frequency 1e308 --damping 0.5" "--frequency 1 --damping 1e-320" \
         "--stiffness 1e-308 --damping-coefficient 1e-308" "--response 1e-300 --damping-ratio 0.5" \
         "--duration 1e-300 --bounce 0.3" "--response 1 --damping-ratio 1e-300" \
         "--frequency 1.479028100317311e+188 --damping 7.10700945635362e-15 --velocity 1"; do
  # shellcheck disable=SC2086
  check "spring $a: exit 0 within 10 s (no trap, no hang)" bash -c "timeout 10 '$bin' spring $a --json >/dev/null"
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
"$bin" sweeep --preset evernote >/dev/null 2>"$work/err"; rc=$?
check "a misspelt command: exit 64, one line naming it, with the nearest" bash -c "test $rc = 64 && grep -q \"unknown command 'sweeep' (did you mean 'sweep'?)\" '$work/err' && test \$(wc -l <'$work/err') = 1"
"$bin" presets shwo evernote >/dev/null 2>"$work/err"; rc=$?
check "  and in a group, pointing at the group's --help" bash -c "test $rc = 64 && grep -q \"unknown command 'presets shwo' (see springtune presets --help)\" '$work/err'"
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

# 7. A kill -9 before or after any system call of the folder swap leaves OUT whole: the old
# outputs or the new ones, each readable (the test pause announces each step on stderr).
grid=(--vary flickVelocity=800 --vary maxFlickAngle=45 --vary snapDamping=0.9 --threads 1 --no-charts)
small() { # small OUT VALUES [ARGS...]: a 2- or 3-set tweetbot sweep into OUT
  local out=$1 values=$2; shift 2
  "$bin" sweep --preset tweetbot --vary distanceThreshold="$values" "${grid[@]}" --out "$out" "$@"
}
whole() { # whole OUT: OUT/report.csv has 2 or 3 sets and its meta agrees (pick reads it through the sidecar)
  local n; n=$(($(wc -l <"$1/report.csv") - 1))
  { test $n = 2 || test $n = 3; } && "$bin" export "$1/report.csv" --best -o "$work/check.json" >/dev/null 2>&1
}
for step in 1 2; do
  rm -rf "$work/swap"; small "$work/swap" 20,40 >/dev/null 2>&1
  SPRINGTUNE_TEST_PAUSE_SWAP=3 "$bin" sweep --preset tweetbot --vary distanceThreshold=20,40,60 "${grid[@]}" --out "$work/swap" \
    >/dev/null 2>"$work/swap.err" & pid=$!
  for _ in $(seq 100); do grep -q "before swap step $step" "$work/swap.err" && break; sleep 0.1; done
  kill -9 $pid; wait $pid 2>/dev/null
  check "kill -9 before swap step $step: OUT is whole" whole "$work/swap"
  small "$work/swap" 20,40 >/dev/null 2>&1
  check "  the next run cleans up (no .partial, .old or .lock left)" \
    test -z "$(ls -a "$work" | grep -E '^swap\.(partial|old|lock)')"
done

# 8. Two spellings of one folder (a symlink): the second run exits 73 at once; the first
# finishes, its checkpoint intact, and the link is still a link.
rm -rf "$work/o"; mkdir "$work/o"; ln -s o "$work/olink"
# The first holds the lock at least 3 s more at its swap (the test pause), so the second always
# starts while it runs: once the first's checkpoint has a block, or it has reached its swap.
SPRINGTUNE_TEST_PAUSE_SWAP=3 "$bin" sweep --preset tweetbot --threads 1 --no-charts --out "$work/o" >/dev/null 2>"$work/first.err" & pid=$!
for _ in $(seq 200); do
  { ls "$work/o/.springtune-resume" 2>/dev/null | grep -q '^report-' || grep -q 'before swap step' "$work/first.err"; } && break
  sleep 0.1
done
start=$(date +%s)
check "second sweep through a symlink: exit 73" run 73 sweep --preset tweetbot --threads 1 --no-charts --out "$work/olink"
check "  at once (under 5 s)" test $(($(date +%s) - start)) -lt 5
check "  one line saying the folder is being written" bash -c "grep -q 'another springtune run is writing' '$work/err' && test \$(wc -l <'$work/err') = 1"
# Issue 39 item 2: merge -o and export -o into the folder the sweep is writing take its lock too
# (the sweep's swap would drop their file): 73 at once, nothing written.
check "merge -o into a folder a sweep is writing: exit 73" run 73 merge "$work/small/report.csv" -o "$work/o/merged.csv"
check "  one line, no merged file" bash -c "grep -q 'another springtune run is writing' '$work/err' && test \$(wc -l <'$work/err') = 1 && test ! -e '$work/o/merged.csv'"
check "export -o into it: exit 73" run 73 export "$work/small/report.csv" --config 1 -o "$work/o/p.json"
wait $pid; rc=$?
check "the first sweep still ends 0 with nothing dropped" bash -c "test $rc = 0 && ! grep -q 'dropped the checkpoint' '$work/first.err' && test -s '$work/o/report.csv'"
check "  the symlink is still a symlink to o" test "$(readlink "$work/olink")" = o
small "$work/olink" 20 >/dev/null 2>&1
check "a sweep into the link writes through it (report in o)" bash -c "test -L '$work/olink' && test \$(wc -l <'$work/o/report.csv') = 2"
ln -s nothere "$work/dangling"
check "a dangling symlink --out: exit 73" run 73 sweep --preset tweetbot --no-charts --out "$work/dangling"
check "  says where it points" grep -q 'is a symlink to nothere, which does not exist' "$work/err"
check "a refused run leaves no .lock" test ! -e "$work/dangling.lock"

# 12. merge never overwrites its own inputs.
for s in 1 2; do small "$work/s$s" 20,40 --shard $s/2 >/dev/null 2>&1; done
cp "$work/s1/report.csv" "$work/s1.before"
check "merge -o one of its inputs: exit 64" run 64 merge "$work/s1/report.csv" "$work/s2/report.csv" -o "$work/s1/../s1/report.csv"
check "  the input is unchanged" cmp -s "$work/s1/report.csv" "$work/s1.before"
check "merge into a new file: exit 0" run 0 merge "$work/s1/report.csv" "$work/s2/report.csv" -o "$work/merged.csv"

# 13. compare rebuilds its folder: a stale chart of an earlier comparison goes.
mkdir -p "$work/cmp"; : >"$work/cmp/compare.csv"; : >"$work/cmp/compare-old_metric.png"
check "compare: exit 0" run 0 compare "$work/merged.csv" "$work/merged.csv" --out "$work/cmp"
check "  the earlier comparison's chart is gone" test ! -e "$work/cmp/compare-old_metric.png"
check "  compare.csv written" test -s "$work/cmp/compare.csv"
check "compare --out a sweep's folder: refused (73), the sweep kept" \
  bash -c "'$bin' compare '$work/merged.csv' '$work/merged.csv' --out '$work/o' >/dev/null 2>&1; test \$? = 73 && test -s '$work/o/report.csv'"

# Minor: hexadecimal numbers are not numbers.
check "spring --frequency 0x10: exit 64" run 64 spring --frequency 0x10 --damping 0.5
check "a constraint value 0x10 is refused (65)" bash -c "python3 - '$work/hex.json' <<'PY'
import json, sys
p = json.load(open('Presets/tweetbot.json')); p['objective']['constraints'] = ['overshoot_pt_p95 <= 0x10']
json.dump(p, open(sys.argv[1], 'w'))
PY
'$bin' presets show '$work/hex.json' >/dev/null 2>&1; test \$? = 65"

# 10. export: a meta edited so its axes no longer give the report's grid is refused (65).
cp -r "$work/o" "$work/edited"
python3 - "$work/edited/report.meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["axes"][0]["values"].append(m["axes"][0]["values"][-1] + 1000)
json.dump(m, open(sys.argv[1], "w"))
PY
check "export from a report whose meta's axes were edited: exit 65" run 65 export "$work/edited/report.csv" --config 0 -o "$work/e.json"
check "  one line naming the meta" bash -c "grep -q 'report.meta.json: its axes give' '$work/err' && test \$(wc -l <'$work/err') = 1"
check "  nothing written" test ! -e "$work/e.json"
check "an export reads back (presets show: exit 0)" bash -c "'$bin' export '$work/o/report.csv' --config 0 -o '$work/ok.json' >/dev/null 2>&1 && '$bin' presets show '$work/ok.json' >/dev/null 2>&1"

# Messages: every echoed piece of input is cut to 300 characters; the meta keeps a bounded list.
python3 - "$work/longid.csv" "$work/cols.csv" <<'PY'
import sys
long_id = "i" * 60000
with open(sys.argv[1], "w") as f:
    f.write("trace,t,x,y,phase\n")
    f.write(f"{long_id},0,1,1,began\n{long_id},0.1,1,1,moved\n")          # never ends: invalid
    f.write("ok,0,1,1,began\nok,0.1,2,2,ended\n")
with open(sys.argv[2], "w") as f:
    f.write("trace,t,x,y,phase," + ",".join(f"extra{i}" for i in range(50000)) + "\n")
    f.write("ok,0,1,1,began" + ",0" * 50000 + "\nok,0.1,2,2,ended" + ",0" * 50000 + "\n")
PY
"$bin" traces validate --skip-invalid "$work/longid.csv" >/dev/null 2>"$work/err"; rc=$?
check "validate --skip-invalid with a 60 kB id: exit 0" test $rc = 0
check "  no stderr line over 301 characters" test "$(longest "$work/err")" -le 301
"$bin" traces validate "$work/cols.csv" >/dev/null 2>"$work/err"; rc=$?
check "50,000 unknown columns: exit 0, one warning line" bash -c "test $rc = 0 && test \$(wc -l <'$work/err') = 1"
check "  the warning is cut (≤ 301 characters) and gives the count" \
  bash -c "test $(longest "$work/err") -le 301 && grep -q 'ignoring 50000 unknown columns' '$work/err'"

# Minor: an empty preset name, and a trace file listed twice, are refused when the preset loads.
python3 - "$work" <<'PY'
import json, sys
p = json.load(open("Presets/tweetbot.json"))
q = dict(p, name="")
json.dump(q, open(sys.argv[1] + "/noname.json", "w"))
q = dict(p, traces=p["traces"] * 2000)
json.dump(q, open(sys.argv[1] + "/twice.json", "w"))
PY
check "a preset named '': exit 65 at its name" bash -c "'$bin' presets show '$work/noname.json' 2>&1 >/dev/null | grep -q 'noname.json: name: ' && '$bin' presets show '$work/noname.json' >/dev/null 2>&1; test \$? = 65"
check "a preset listing one trace file 2,000 times: exit 65 at traces[1]" \
  bash -c "'$bin' presets show '$work/twice.json' 2>&1 >/dev/null | grep -q 'traces\[1\]'"

# Same class as 13: replay rebuilds its folder (a GIF of an earlier --animate goes).
"$bin" replay --preset tweetbot --trace "$(sed -n 2p Sources/SpringTune/Resources/Traces/flick/traces.csv | cut -d, -f1)" --out "$work/rp" >/dev/null 2>&1
: >"$work/rp/replay.gif"
"$bin" replay --preset tweetbot --trace "$(sed -n 2p Sources/SpringTune/Resources/Traces/flick/traces.csv | cut -d, -f1)" --out "$work/rp" >/dev/null 2>"$work/err"; rc=$?
check "replay into its own folder again: exit 0" test $rc = 0
check "  the earlier animation is gone, the timeline written" bash -c "test ! -e '$work/rp/replay.gif' && test -s '$work/rp/timeline.csv'"

# The import sidecar counts dropped contacts under at most 20 reasons (then "other").
python3 - "$work/phases.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("trace_id,t_seconds,x,y,phase\nok,0,1,1,down\nok,0.1,2,2,up\n")
    for i in range(500):
        f.write(f"bad{i},0,1,1,phase{i}\n")
PY
check "csv import with 500 distinct bad phases: exit 0" run 0 traces import --format csv "$work/phases.csv" --scale 1 -o "$work/phases-out.csv"
check "  the sidecar's dropped has at most 21 reasons" \
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["sources"][0]["dropped"]; sys.exit(not (len(d) <= 21 and sum(d.values()) == 500))' "$work/phases-out.csv.meta.json"

# Same class as 1 (a Double count): a row height of 1e-320 in a replay's pictures.
for pair in clear-pinch:pinch clear:pull; do
  preset=${pair%%:*} id=$(sed -n 2p "Sources/SpringTune/Resources/Traces/${pair##*:}/traces.csv" | cut -d, -f1)
  check "replay --animate $preset with rowHeight=1e-320: exit 0 (no trap)" \
    bash -c "timeout 300 '$bin' replay --preset $preset --trace '$id' --set rowHeight=1e-320 --animate --out '$work/tiny-$preset' >/dev/null 2>&1"
done

# Lengths in pt are bounded like coordinates: itemHeight=1e300 is a usage error, not gnuplot's.
fling=$(sed -n 2p Sources/SpringTune/Resources/Traces/default/aosp-flings.csv | cut -d, -f1)
check "replay --set itemHeight=1e300: exit 64" run 64 replay --preset messages --trace "$fling" --set itemHeight=1e300 --out "$work/big-item"
check "  one line naming the range" bash -c "grep -q 'itemHeight' '$work/err' && test \$(wc -l <'$work/err') = 1"
if command -v gnuplot >/dev/null; then
  check "replay with every row off screen (itemSpacing 1e6): exit 0, an empty chart" \
    run 0 replay --preset messages --trace "$fling" --set itemSpacing=1e6 --out "$work/offscreen"
fi

# A gnuplot that fails (exit 70) keeps the CSVs of a rebuilt folder (replay, compare).
printf '#!/bin/sh\necho "bad.gp line 1: oops" >&2\nexit 1\n' >"$work/fakebin/gnuplot"
rm -rf "$work/rp-fail"
PATH="$work/fakebin:$PATH" "$bin" replay --preset tweetbot --trace "$(sed -n 2p Sources/SpringTune/Resources/Traces/flick/traces.csv | cut -d, -f1)" \
  --out "$work/rp-fail" >/dev/null 2>"$work/err"; rc=$?
check "replay with a failing gnuplot: exit 70, timeline.csv kept" bash -c "test $rc = 70 && test -s '$work/rp-fail/timeline.csv'"
PATH="$work/fakebin:$PATH" "$bin" compare "$work/merged.csv" "$work/merged.csv" --out "$work/cmp-fail" >/dev/null 2>"$work/err"; rc=$?
check "compare with a failing gnuplot: exit 70, compare.csv kept" bash -c "test $rc = 70 && test -s '$work/cmp-fail/compare.csv'"

# A file or folder name that is not UTF-8 (issue 39): Swift would read it as another name (U+FFFD
# for the bad byte) and open or write that one; it is refused before anything runs.
check "--out with a name that is not UTF-8: exit 64" run 64 sweep --preset tweetbot --no-charts --out "$work/bad-$(printf '\xff')"
check "  one line showing the byte, nothing written" bash -c "test \$(wc -l <'$work/err') = 1 && grep -qF 'is not UTF-8' '$work/err' && grep -qF '\\xFF' '$work/err' && test -z \"\$(ls -d '$work'/bad-* 2>/dev/null)\""
check "traces validate FILE with a name that is not UTF-8: exit 64" run 64 traces validate "$work/t-$(printf '\xe9').csv"
# A sweep that cannot write (a full disk; here a file size limit, EFBIG, with SIGXFSZ ignored)
# fails with one line and leaves no new folder behind, not one holding only its checkpoint (issue 39).
(trap '' XFSZ; ulimit -f 1; "$bin" sweep --preset tweetbot --no-charts --out "$work/full/out" >/dev/null 2>"$work/err"); rc=$?
check "a sweep that cannot write its files: exit 73 with one line" bash -c "test $rc = 73 && test \$(wc -l <'$work/err') = 1"
check "  no new output folder is left behind" test ! -e "$work/full/out"
finish
