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
  for id in $(awk -v n="$every" '(NR - 1) % n == 0' <<<"$ids"); do
    "$bin" replay --preset "$preset" --trace "$id" --engine --out "$work/$preset-$id" > /dev/null 2>&1 || { check "replay --engine $preset $id" false; continue; }
    out=$(node Tests/page/wasm_replay.mjs "$work/$preset-$id/engine.json" "$preset $id" 2>&1); rc=$?
    check "$out" test $rc = 0
    [ $rc = 0 ] && models="$models $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["model"])' "$path")"
  done
done
# The per-frame timings of docs/Performance.md: both benches run on a record, and the native
# engine built from the record's numbers gives its frames (a record that is not one: 65, one line).
record=$(ls "$work"/tweetbot-*/engine.json | head -1)
out=$("$bin" bench --engine "$record" --repetitions 2 2>&1); rc=$?
check "bench --engine: exit 0, the record's frames ($out)" test $rc = 0 -a -n "$(grep -E 'ns per frame; largest difference from the record 0$' <<<"$out")"
out=$(node bench/wasm_frames.mjs "$record" 2 2>&1); rc=$?
check "bench/wasm_frames.mjs: exit 0 ($out)" test $rc = 0 -a -n "$(grep 'ns per frame' <<<"$out")"
printf '{"engine": 9, "scene": [], "numbers": [], "samples": [], "frames": []}' > "$work/bad.json"
out=$("$bin" bench --engine "$work/bad.json" 2>&1); rc=$?
check "bench --engine on a record of no model: exit 65, one line ($out)" test $rc = 65 -a "$(wc -l <<<"$out")" = 1
check "every model's module agreed on a trace (7 of them: $(tr ' ' '\n' <<<"$models" | sort -u | xargs))" test "$(tr ' ' '\n' <<<"$models" | sort -u | grep -c .)" = 7
finish
