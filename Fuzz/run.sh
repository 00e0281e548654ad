#!/bin/sh
# Runs the libFuzzer harnesses for SECONDS each on the corpus folders under DIR (seeded from the
# repository: Fuzz/corpus, Fuzz/seeds (engine, merge, live, search), Presets, Tests/Golden, Tests/Data), one summary line per harness:
#   fuzz-NAME: N executions in S s, 0 crashes (corpus: C inputs)
# libFuzzer stops at the first crash, or an input that runs longer than 30 s (a hang), and exits
# non-zero; so does this script, naming the input.
# Usage: Fuzz/run.sh BIN_DIR SECONDS DIR NAME...
set -eu
bin=$1 seconds=$2 dir=$3
shift 3
for name in "$@"; do
  mkdir -p "$dir/$name"
  case $name in
    traces|sweep) cp Fuzz/corpus/* "$dir/$name/" ;;
    preset) cp Presets/*.json "$dir/$name/" ;;
    engine) cp Presets/*.json Fuzz/seeds/engine/* "$dir/$name/" ;;
    report) cp Tests/Golden/*.csv "$dir/$name/" ;;
    import) cp Tests/Data/getevent-raw/phone-single-drag.txt Tests/Data/getevent-raw/tablet-two-finger-drag.txt "$dir/$name/" ;;
    merge) cp Fuzz/seeds/merge/* "$dir/$name/" ;;
    live) cp Fuzz/seeds/live/* "$dir/$name/" ;;
    search) cp Fuzz/seeds/search/* "$dir/$name/" ;;
    spring) printf '\000\000\000\000\000\000\000\360\077\232\231\231\231\231\231\351\077' >"$dir/$name/f1-z0.8" ;;
  esac
  log="$dir/$name.log"
  if ! SWIFT_BACKTRACE=enable=no "$bin/fuzz-$name" -max_total_time="$seconds" -timeout=30 -max_len=4096 -seed=1 \
      -artifact_prefix="$dir/$name-" "$dir/$name" >"$log" 2>&1; then
    tail -n 30 "$log"
    echo "fuzz-$name: CRASH (input saved as $dir/$name-*; log $log)"
    exit 1
  fi
  runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 executions in \2 s/p' "$log")
  echo "fuzz-$name: ${runs:-? executions}, 0 crashes (corpus: $(ls "$dir/$name" | wc -l) inputs)"
done
