#!/usr/bin/env bash
# Sharded sweeps for real (run by `make test` after the CLI checks): `sweep --shard auto` as
# Kubernetes Indexed Job pods would run it, then `slurm submit` on a private single-node Slurm
# cluster (scripts/slurm-local.sh: slurmctld, slurmd and munged of its own): a 4-shard sweep
# merged by the dependent job gives the bytes of a local run, --dry-run submits nothing, and a
# failing shard makes --wait exit non-zero with one line. The cluster is stopped at the end
# unless it was already up.
set -uo pipefail
bin=${SPRINGTUNE:?set SPRINGTUNE to the springtune binary}
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
started=0
cleanup() {
  [ "$started" = 1 ] && "$here/scripts/slurm-local.sh" stop
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
check() { # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
t0=$(date +%s)
grid=(--preset evernote --vary damping=0.5,1 --vary frequency=1,2)   # 24 sets with the preset's boundaryResistance axis
"$bin" sweep "${grid[@]}" --no-charts --out "$work/local" >/dev/null 2>&1
check "local reference sweep" test -s "$work/local/report.csv"

# --shard auto outside any array task: one usage line naming the variables it looked for.
err=$(env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX "$bin" sweep "${grid[@]}" --shard auto --out "$work/none" 2>&1 >/dev/null); rc=$?
check "sweep --shard auto outside an array: exit 64, one line ($err)" test $rc = 64 -a "$(echo "$err" | wc -l)" = 1
check "…naming SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX" bash -c 'grep -q SLURM_ARRAY_TASK_ID <<<"$1" && grep -q JOB_COMPLETION_INDEX <<<"$1"' _ "$err"
# A Kubernetes Indexed Job of 4 completions, its pods run one after another: the merge gives one run's bytes.
for i in 0 1 2 3; do
  JOB_COMPLETION_INDEX=$i "$bin" sweep "${grid[@]}" --shard auto --shard-count 4 --no-charts --out "$work/k8s/$i" >/dev/null 2>&1
done
check "JOB_COMPLETION_INDEX=1 --shard-count 4 runs shard 2/4" grep -q '"shard" *: *"2/4"' "$work/k8s/1/report.meta.json"
"$bin" merge "$work"/k8s/{0,1,2,3}/report.csv -o "$work/k8s/report.csv" >/dev/null 2>&1
check "Indexed Job shards merged: the bytes of a local run" cmp -s "$work/k8s/report.csv" "$work/local/report.csv"
err=$(PATH=/nonexistent "$bin" slurm submit "${grid[@]}" --shards 4 --out "$work/nosbatch" 2>&1 >/dev/null); rc=$?
check "slurm submit without sbatch on PATH: exit 69, one line ($err)" test $rc = 69 -a "$(echo "$err" | wc -l)" = 1

# The cluster.
was_up=0
"$here/scripts/slurm-local.sh" status >/dev/null 2>&1 && was_up=1
if ! env=$("$here/scripts/slurm-local.sh" start); then
  echo "FAIL the local Slurm cluster did not start (scripts/slurm-local.sh start)"
  echo "1 failed"
  exit 1
fi
[ "$was_up" = 0 ] && started=1
eval "$env"
t1=$(date +%s)

# --dry-run into a folder with a quote, spaces, $ and % in its name: scripts written, nothing submitted.
odd="$work/dry it's \"q\" \$HOME 100%"
"$bin" slurm submit "${grid[@]}" --shards 4 --out "$odd" --partition debug --sbatch-arg=--time=5 --dry-run >"$work/dry.out" 2>&1; rc=$?
check "slurm submit --dry-run: exit 0, both scripts written" test $rc = 0 -a -s "$odd/slurm/sweep.sbatch" -a -s "$odd/slurm/merge.sbatch"
check "…no job submitted (squeue empty, no logs)" test -z "$(squeue -h -o %i)" -a -z "$(ls -A "$odd/slurm/logs")"
check "…the scripts parse (bash -n) and carry the array and the output pattern" bash -c \
  'bash -n "$1/slurm/sweep.sbatch" && bash -n "$1/slurm/merge.sbatch" && grep -qx "#SBATCH --array=1-4" "$1/slurm/sweep.sbatch" && grep -q "100%%/slurm/logs/sweep-%A_%a.out" "$1/slurm/sweep.sbatch"' _ "$odd"
check "…and prints the sbatch commands" grep -q 'kill-on-invalid-dep=yes' "$work/dry.out"

err=$("$bin" slurm submit "${grid[@]}" --shards 4 --out "$work/nopart" --partition nosuch 2>&1 >/dev/null); rc=$?
check "an unknown partition: exit 69, one line with sbatch's reason ($err)" test $rc = 69 -a "$(echo "$err" | wc -l)" = 1 -a -n "$(grep -i partition <<<"$err")"

# The real thing: 4 array tasks, the merge after them, --wait until it ends; the folder's name
# has a quote, spaces, $ and % (quoted in the scripts, %% in the log names).
run="$work/run it's \"q\" \$HOME 100%"
s0=$(date +%s.%N)
"$bin" slurm submit "${grid[@]}" --shards 4 --out "$run" --wait >"$work/submit.out" 2>&1; rc=$?
s1=$(date +%s.%N)
check "slurm submit --shards 4 --wait: exit 0 ($(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", b - a }') s; $(grep -m1 'sweep job' "$work/submit.out"))" test $rc = 0
check "…4 array task logs and a merge log" test "$(ls "$run/slurm/logs" | grep -c '^sweep-.*_[1-4]\.out$')" = 4 -a -n "$(ls "$run/slurm/logs" | grep '^merge-')"
check "…merged report: the bytes of a local run" cmp "$run/report.csv" "$work/local/report.csv"
if command -v gnuplot >/dev/null || [ -n "${SPRINGTUNE_GNUPLOT:-}" ]; then
  check "…the merge job drew the default charts" test -s "$run/settle_time.png" -a -s "$run/heatmap-settle_time_p95.svg"
fi

# One shard that cannot write its folder (a file in its place): --wait names it, exit 73.
"$bin" slurm submit "${grid[@]}" --shards 4 --out "$work/fail" --dry-run >/dev/null 2>&1
: >"$work/fail/shards/3"
err=$("$bin" slurm submit "${grid[@]}" --shards 4 --out "$work/fail" --wait 2>&1 >/dev/null); rc=$?
check "a failing shard: --wait exits 73, one line ($err)" test $rc = 73 -a "$(echo "$err" | wc -l)" = 1
check "…naming shard 3 of 4 and its log" grep -q "shard 3 of 4 failed.*log: .*sweep-[0-9]*_3.out" <<<"$err"
check "…and no merged report" test ! -e "$work/fail/report.csv"
# Every shard fails at run time on an invalid trace file: the sweep's own exit code (65) and line.
printf 'trace,t,x,y,phase\na,0,1,2,began\na,0.01,nan,2,moved\n' >"$work/bad.csv"
err=$("$bin" slurm submit "${grid[@]}" --traces "$work/bad.csv" --shards 4 --out "$work/bad" --wait 2>&1 >/dev/null); rc=$?
check "invalid traces in every shard: --wait exits 65, one line naming bad.csv:3 ($err)" test $rc = 65 -a "$(echo "$err" | wc -l)" = 1 -a -n "$(grep 'bad.csv:3:' <<<"$err")"
t2=$(date +%s)
echo "slurm checks: $((t2 - t0)) s ($((t1 - t0)) s before the cluster was up)"
echo "$fails failed"
exit $((fails > 0))
