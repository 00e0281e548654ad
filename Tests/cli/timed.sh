#!/bin/sh
# Runs one step of `make test` and then prints how long it took, so a test log shows where the
# 20-minute budget goes: `time: STEP N s` (grep '^time:' in the log). The step's exit status is kept.
start=$(date +%s)
"$@"
rc=$?
echo "time: $(echo "$*" | sed 's|[^ ]*/||g' | cut -c1-60) $(( $(date +%s) - start )) s"
exit $rc
