#!/usr/bin/env bash
# End-to-end checks of what the charts and animations say (issue 23, points 1, 2, 3, 9): panel
# titles that fit, a readable time, labels that name every parameter, three clips on the page,
# several --vs values of one name, and plot's units and log axis. They read the gnuplot scripts
# kept beside the images (written even without gnuplot); the page needs gnuplot.
. "$(dirname "$0")/lib.sh"

# gp TEXT|FIT|READOUT|PANELS FILE [PART]: facts about an animation's gnuplot script (PART: gif, the
# default, or filmstrip). TEXT prints every title and label string; FIT exits 1 when a GIF title
# line is wider than 92 % of its panel (0.66 em a character, the terminal's font); READOUT exits 1
# unless every time readout is white, at least 16 pt and inside the phone's frame below the screen;
# PANELS prints the number of panels side by side.
gp() {
  python3 - "$@" <<'PY'
import re, sys
what, path = sys.argv[1], sys.argv[2]
part = sys.argv[3] if len(sys.argv) > 3 else "gif"
try:
    text = open(path).read()
except OSError:
    sys.exit(1)
gif, _, strip = text.partition("-filmstrip.png'")
lines = (gif if part == "gif" else strip).splitlines()
def strings(line):
    return [s.replace('\\"', '"') for s in re.findall(r'"((?:[^"\\]|\\.)*)"', line)]
said = [s for l in lines if re.match(r"set (title|label)", l) for s in strings(l) if s != "\\n"]
panels = int((re.search(r"multiplot layout 1,(\d+)", gif) or [None, "1"])[1])
if what == "TEXT":
    print("\n".join(said))
elif what == "PANELS":
    print(panels)
elif what == "FIT":
    m = re.search(r"terminal gif .*size (\d+),\d+ font ',(\d+)'", gif)
    width, font = int(m[1]) / panels, int(m[2])
    titles = [s for l in lines if l.startswith("set title") for s in strings(l) if s != "\\n"]
    wide = [t for t in titles if len(t) * 0.66 * font > 0.92 * width]
    sys.exit(1 if wide or not titles else 0)
elif what == "READOUT":
    frame = re.search(r"set object 1 rect from [-\d.e]+,([-\d.e]+) to [-\d.e]+,([-\d.e]+)", gif)
    screen = re.search(r"set object 2 rect from 0,0 to [-\d.e]+,([-\d.e]+)", gif)
    labels = [l for l in lines if l.startswith("set label 1")]
    def good(l):
        at = re.search(r"at first [-\d.e]+, first ([-\d.e]+)", l)
        font = re.search(r"font ',(\d+)'", l)
        return (at and font and frame and screen and "tc rgb '#ffffff'" in l and int(font[1]) >= 16
                and float(screen[1]) < float(at[1]) < float(frame[2]))
    sys.exit(0 if labels and all(good(l) for l in labels) else 1)
PY
}
# names FILE PART WORD...: every word occurs in the titles and labels of that part of the script.
names() {
  local text w; text=$(gp TEXT "$1" "$2"); shift 2
  for w in "$@"; do grep -qF -- "$w" <<<"$text" || return 1; done
}

# 1. Side by side: each title line fits its panel, every changed parameter is named, and the
# time readout is large, white and inside the phone (before: one 83-character title across two
# panels, a small black time on the dark frame).
"$bin" replay --preset tweetbot --trace SwordfishFlingDown --animate --set snapDamping=1 --vs snapDamping=0.6 \
  --vs snapFrequency=2 --vs flickVelocity=1200 --vs maxFlickAngle=45 --out "$work/vs" >/dev/null 2>&1
check "replay --vs: every GIF title line fits its panel" gp FIT "$work/vs/replay.gp"
check "replay --vs: the titles name every changed parameter" \
  names "$work/vs/replay.gp" gif 'snapDamping 0.6' 'snapFrequency 2' 'flickVelocity 1200' 'maxFlickAngle 45' 'snapDamping 1'
check "replay --vs: the filmstrip's row labels name them too" \
  names "$work/vs/replay.gp" filmstrip 'snapDamping 0.6' 'snapFrequency 2' 'flickVelocity 1200' 'maxFlickAngle 45' 'snapDamping 1'

check "replay --vs: the time readout is white, >= 16 pt, inside the phone's frame" gp READOUT "$work/vs/replay.gp"

# 2. The sweep's page: three clips, each labelled (GIF and filmstrip) with every swept parameter.
if command -v gnuplot >/dev/null; then
  "$bin" sweep --preset evernote --threads 2 --out "$work/ev" >/dev/null 2>&1
  clips=$(grep -o '<img src="best-[0-9]*\.gif"' "$work/ev/index.html" | sort -u | wc -l)
  check "sweep page: 3 representative traces animated (got $clips)" test "$clips" = 3
  swept=$(head -1 "$work/ev/report.csv" | python3 -c 'import sys; h = sys.stdin.read().strip().split(","); print(" ".join(h[1:h.index("traces")]))')
  for n in 1 2 3; do
    for part in gif filmstrip; do
      words=(); for p in $swept; do words+=("$p "); done
      check "best-$n $part label names every swept parameter ($swept)" names "$work/ev/best-$n.gp" $part "${words[@]}"
    done
  done
else
  echo "skip sweep page checks (no gnuplot)"
fi

# 3. --vs given twice for one name: three panels (the --set one and both values); more than fit
# side by side is refused with one line and exit 64; --help says so.
"$bin" replay --preset tweetbot --trace SwordfishFlingDown --animate --set snapDamping=1 --vs snapDamping=0.6 \
  --vs snapDamping=0.8 --out "$work/two" >/dev/null 2>&1
panels=$(gp PANELS "$work/two/replay.gp")
check "replay --vs NAME twice: 3 panels (got $panels)" test "$panels" = 3
check "replay --vs NAME twice: the panels show 1, 0.6 and 0.8" \
  names "$work/two/replay.gp" gif 'snapDamping 1' 'snapDamping 0.6' 'snapDamping 0.8'
err=$("$bin" replay --preset tweetbot --trace SwordfishFlingDown --animate --vs snapDamping=0.5 --vs snapDamping=0.6 \
  --vs snapDamping=0.7 --vs snapDamping=0.8 --out "$work/many" 2>&1 >/dev/null); rc=$?
check "replay with 5 sets: exit 64, one line (rc $rc: $err)" test "$rc" = 64 -a "$(echo "$err" | wc -l)" = 1
check "replay --help: a NAME given again starts another set" bash -c "'$bin' replay --help | tr -s ' \n' ' ' | grep -q 'given again starts another set'"

# 4. plot: units on both axes and log x for a log-spaced parameter, as the sweep's charts have.
if [ ! -f "$work/ev/report.csv" ]; then "$bin" sweep --preset evernote --threads 2 --no-charts --out "$work/ev" >/dev/null 2>&1; fi
mkdir -p "$work/plot"
"$bin" plot "$work/ev/report.csv" --x frequency --y settle_time_p95 --by damping --out "$work/plot/f.png" >/dev/null 2>&1
check "plot --x frequency (log-spaced): set logscale x" grep -q '^set logscale x' "$work/plot/f.gp"
check "plot: x label with its unit (frequency (Hz))" grep -q '^set xlabel "frequency (Hz)"' "$work/plot/f.gp"
check "plot: y label with its unit (settle_time_p95 (s))" grep -q '^set ylabel "settle_time_p95 (s)"' "$work/plot/f.gp"
"$bin" plot "$work/ev/report.csv" --x damping --y overshoot_pt_p95 --out "$work/plot/d.png" >/dev/null 2>&1
check "plot --x damping (evenly spaced): linear x, units (ratio, pt)" \
  bash -c "! grep -q '^set logscale x' '$work/plot/d.gp' && grep -q '^set xlabel \"damping (ratio)\"' '$work/plot/d.gp' && grep -q '^set ylabel \"overshoot_pt_p95 (pt)\"' '$work/plot/d.gp'"

finish
