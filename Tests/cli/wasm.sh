#!/usr/bin/env bash
# The WebAssembly engine (make wasm, Reference §15) gives the native engine's frames, for every
# model: for every bundled preset, traces spread over its first bundled trace file (every tenth
# of tweetbot's, kept and thrown photos; four of every other preset's) are replayed by
# `springtune replay --engine` and run through the module under node (Tests/page/wasm_replay.mjs):
# every frame's every number to 1e-9 and the same decision. Run from the package root after make wasm.
. "$(dirname "$0")/lib.sh"
check "make wasm built out/wasm/engine.wasm" test -s out/wasm/engine.wasm
models=""
for path in Presets/*.json; do
  preset=$(basename "$path" .json)
  file=Sources/SpringTune/Resources/Traces/$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["traces"][0])' "$path")
  ids=$(tail -n +2 "$file" | cut -d, -f1 | uniq)
  every=$([ "$preset" = tweetbot ] && echo 10 || echo $(( ($(wc -l <<<"$ids") + 3) / 4 )))
  for id in $(awk -v n="$every" 'NR % n == 1' <<<"$ids"); do
    "$bin" replay --preset "$preset" --trace "$id" --engine --out "$work/$preset-$id" > /dev/null 2>&1 || { check "replay --engine $preset $id" false; continue; }
    out=$(node Tests/page/wasm_replay.mjs "$work/$preset-$id/engine.json" "$preset $id" 2>&1); rc=$?
    check "$out" test $rc = 0
  done
  models="$models $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["model"])' "$path")"
done
check "every model was run (7 of them: $(tr ' ' '\n' <<<"$models" | sort -u | xargs))" test "$(tr ' ' '\n' <<<"$models" | sort -u | grep -c .)" = 7
finish
