#!/usr/bin/env bash
# Runs the README's walk-through ("From a recording to a shipped preset") as written: every
# ```sh block of that section, in order, in a fresh folder that sees the checkout's Tests/ and
# has `springtune` on PATH. Then checks what the walk-through promises.
# Usage: SPRINGTUNE=.build/release/springtune Tests/cli/readme.sh
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
mkdir -p "$work/bin"; ln -s "$bin" "$work/bin/springtune"; ln -s "$root/Tests" "$work/Tests"

# The section's blocks, one script each, numbered in README order.
python3 - "$root/README.md" "$work" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = text[text.index("## From a recording"):text.index("\n## ", text.index("## From a recording") + 3)]
for k, block in enumerate(re.findall(r"```sh\n(.*?)```", section, re.S)):
    open(f"{sys.argv[2]}/block-{k:02d}.sh", "w").write("set -e\n" + block)
PY
blocks=("$work"/block-*.sh)
check "the walk-through has its blocks (${#blocks[@]})" test ${#blocks[@]} -ge 6
for b in "${blocks[@]}"; do
    first=$(sed -n 2p "$b")
    (cd "$work" && PATH="$work/bin:$PATH" bash "$b" >"$b.out" 2>"$b.err"); rc=$?
    check "README block: ${first:0:90} (exit $rc)" test $rc = 0
    [ $rc = 0 ] || tail -3 "$b.err"
done
check "the second sweep of step 3 says nothing on stderr, as the README promises ($(head -c 200 "$work/block-03.sh.err"))" test ! -s "$work/block-03.sh.err"
check "the held-out sweep shows tuned and held-out metrics side by side" grep -Eq "tuned \(3 groups\) +held out \(1 group\)" "$work"/block-04.sh.out
check "…and the sweep says its 4 groups are few" grep -q "only 4 groups" "$work"/block-02.sh.out
check "the export is a preset that loads" "$bin" presets show "$work/my-tweetbot.json" >/dev/null
check "…with its traces beside it" test -d "$work/my-tweetbot-traces"
check "the page was drawn" test -s "$work/out/mine/index.html"
check "the replay animation was drawn" test -s "$work/out/anim/replay.gif"
check "the CI gate passes on the unchanged preset" grep -q "no regression" "$work"/block-*.sh.out
finish
