#!/usr/bin/env bash
# The demo's numbers and the preset round trip a user edits by hand (issue 23: no noise, exports
# a person can edit, --set that says what it did): run from the checkout by `make test`.
# Usage: SPRINGTUNE=.build/release/springtune Tests/cli/numbers.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."

# Every number in FILES: at most 12 significant digits, and 0 or at least 1e-6 in size.
noisy() {
  python3 - "$@" <<'PY'
import re, sys
bad = []
for f in sys.argv[1:]:
    text = open(f, errors="replace").read()
    for m in re.finditer(r"(?<![\w.#-])-?(\d+\.?\d*(?:[eE][-+]?\d+)?)(?![\w.])", text):
        mantissa = re.split("[eE]", m.group(1))[0]
        digits = mantissa.replace(".", "").lstrip("0")
        digits = digits if "." in mantissa else digits.rstrip("0")
        v = float(m.group(1))
        if len(digits) > 12 or (v != 0 and abs(v) < 1e-6):
            bad.append(f"{f}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(1)}")
print(" ".join(bad[:3]) + (f" (+{len(bad) - 3} more)" if len(bad) > 3 else ""))
PY
}

# The demo's job: no warning line, and no noise in what it writes and prints.
"$bin" sweep --preset evernote --out "$work/demo" >"$work/demo.out" 2>"$work/demo.err"; rc=$?
check "the demo sweep exits 0 with nothing on stderr ($(head -c 300 "$work/demo.err"))" test $rc = 0 -a ! -s "$work/demo.err"
"$bin" export "$work/demo/report.csv" --best -o "$work/exp/evernote.json" >>"$work/demo.out" 2>&1
left=$(noisy "$work/demo/report.csv" "$work/demo/report.meta.json" "$work/demo.out" "$work/exp/evernote.json")
check "no number in the demo's report, meta, table or export has more than 12 significant digits or is below 1e-6 ($left)" test -z "$left"
"$bin" sweep --preset evernote --vary damping=0.5:1.2:15 --set frequency=1.5 --no-charts --per-trace --out "$work/pt" >/dev/null 2>&1
left=$(noisy "$work/pt/per-trace.csv")
check "per-trace values have no noise either ($left)" test -z "$left"
check "a linear grid reads as typed (0.55, 0.6, …)" grep -q '^[0-9]*,10,0.55,' "$work/demo/report.csv"

# The export: one spring form, so editing damping by hand is the whole change; a portable report path.
check "the export's spring is frequency and damping only" python3 -c "
import json, sys; s = json.load(open('$work/exp/evernote.json'))['spring']; sys.exit(sorted(s) != ['damping', 'frequency'])"
check "the export's report path is relative to the export" python3 -c "
import json, os, sys; p = json.load(open('$work/exp/evernote.json'))['provenance']['report']
sys.exit(p.startswith('/') or not os.path.samefile(os.path.join('$work/exp', p), '$work/demo/report.csv'))"
python3 -c "
import json; p = json.load(open('$work/exp/evernote.json')); p['spring']['damping'] = 0.75; p['sweep'] = []
json.dump(p, open('$work/exp/edited.json', 'w'))"
err=$("$bin" sweep --preset "$work/exp/edited.json" --no-charts --out "$work/edited" 2>&1 >/dev/null); rc=$?
check "an export with damping edited by hand sweeps (exit $rc${err:+: $err})" test $rc = 0
check "…at the edited damping" grep -q '"damping" : 0.75' "$work/edited/report.meta.json"

# --set: a swept name says it replaces the axis; a mistyped name gets the valid names.
err=$("$bin" sweep --preset evernote --set damping=0.8 --no-charts --out "$work/set" 2>&1 >/dev/null)
check "--set of a swept axis says it replaces it ($err)" grep -q "replaces the preset's damping axis (15 values): 80 parameter sets instead of 1200" <<<"$err"
err=$("$bin" sweep --preset evernote --set dampng=0.8 --no-charts --out "$work/typo" 2>&1 >/dev/null); rc=$?
check "a mistyped --set name: exit 64, one line with the closest name and every valid one ($err)" \
  test $rc = 64 -a "$(wc -l <<<"$err")" = 1 -a -n "$(grep "did you mean 'damping'" <<<"$err" | grep 'parameters: frequency, damping, boundaryResistance')"
check "…and nothing was written" test ! -e "$work/typo"
err=$("$bin" sweep --preset evernote --set damping=0.8 --vary damping=0.5,1 --no-charts --out "$work/both" 2>&1 >/dev/null); rc=$?
check "one name given to --set and --vary: exit 64 ($err)" test $rc = 64

err=$("$bin" sweep --preset Tweetbott --no-charts --out "$work/typo2" 2>&1 >/dev/null); rc=$?
check "a mistyped preset name: exit 64 with the closest name ($err)" test $rc = 64 -a -n "$(grep "did you mean 'tweetbot'" <<<"$err")"
err=$("$bin" sweep --preset tweetbot --vary snapDamping=0.6-1.2 --no-charts --out "$work/typo3" 2>&1 >/dev/null); rc=$?
check "--vary in a wrong form: exit 64 naming the forms it takes ($err)" test $rc = 64 -a -n "$(grep -F 'FROM:TO:STEPS' <<<"$err")"
finish
