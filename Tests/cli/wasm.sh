#!/usr/bin/env bash
# The WebAssembly engine (make wasm, Reference §15) gives the native engine's frames: every tenth
# of tweetbot's bundled traces (kept and thrown photos) replayed by `springtune replay` and
# through the module under node (Tests/page/wasm_replay.mjs), every frame to 1e-9 pt.
# Run from the package root after make wasm.
. "$(dirname "$0")/lib.sh"
traces=Sources/SpringTune/Resources/Traces/flick/traces.csv
check "make wasm built out/wasm/engine.wasm" test -s out/wasm/engine.wasm
ids=$(tail -n +2 "$traces" | cut -d, -f1 | uniq | awk 'NR % 10 == 1')
for id in $ids; do
  "$bin" replay --preset tweetbot --trace "$id" --out "$work/$id" > /dev/null 2>&1 || { check "replay $id" false; continue; }
  out=$(node Tests/page/wasm_replay.mjs Presets/tweetbot.json "$traces" "$id" "$work/$id/timeline.csv" 2>&1); rc=$?
  check "$out" test $rc = 0
done
finish
