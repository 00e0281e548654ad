#!/bin/sh
# Runs the libFuzzer harnesses for SECONDS each on the corpus folders under DIR (each seeded with
# the files Fuzz/seeds.txt lists for it), one summary line per harness:
#   fuzz-NAME: N executions in S s, 0 crashes (corpus: C inputs)
# libFuzzer stops at the first crash, or an input that runs longer than 30 s (a hang), and exits
# non-zero; so does this script, naming the input.
# Usage: Fuzz/run.sh BIN_DIR SECONDS DIR NAME...
set -eu
bin=$1 seconds=$2 dir=$3
shift 3
for name in "$@"; do
  seeds=$(awk -v n="$name" '$1 == n { $1 = ""; print }' Fuzz/seeds.txt)
  [ -n "$seeds" ] || { echo "Fuzz/run.sh: no harness $name in Fuzz/seeds.txt" >&2; exit 64; }
  mkdir -p "$dir/$name"
  # shellcheck disable=SC2086 # the seeds are globs
  cp $seeds "$dir/$name/"
  log="$dir/$name.log"
  if ! FUZZ_HARNESS=$name SWIFT_BACKTRACE=enable=no "$bin/fuzz" -max_total_time="$seconds" -timeout=30 -max_len=4096 -seed=1 \
      -artifact_prefix="$dir/$name-" "$dir/$name" >"$log" 2>&1; then
    tail -n 30 "$log"
    echo "fuzz-$name: CRASH (input saved as $dir/$name-*; log $log; replay: FUZZ_HARNESS=$name $bin/fuzz INPUT)"
    exit 1
  fi
  runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 executions in \2 s/p' "$log")
  echo "fuzz-$name: ${runs:-? executions}, 0 crashes (corpus: $(ls "$dir/$name" | wc -l) inputs)"
done
