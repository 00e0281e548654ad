#!/usr/bin/env bash
# Runs one step of `make test` and then prints how long it took, so a test log shows where the
# 20-minute budget goes: `time: STEP N s (cpu M s)` (grep '^time:' in the log). N is the wall time;
# M is the CPU time (user + system) of the step and every process it waited for, which is what the
# step costs the other lanes on a machine whose cores are all busy. The step's exit status is kept.
start=$(date +%s)
"$@"
rc=$?
# `times` prints the shell's own user/system times, then its children's: "XmY.YYYs XmY.YYYs"
# (run in this shell, not a pipeline's subshell, whose children would be none).
tmp=$(mktemp)
times > "$tmp"
cpu=$(tail -1 "$tmp" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%d", s + 0.5 }')
rm -f "$tmp"
echo "time: $(echo "$*" | sed 's|[^ ]*/||g' | cut -c1-60) $(( $(date +%s) - start )) s (cpu $cpu s)"
exit $rc
