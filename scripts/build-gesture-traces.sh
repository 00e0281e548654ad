#!/usr/bin/env bash
# Rebuilds the labelled gesture trace sets (pinch, fold, transition) from ../shared/data.
# Step 1 converts the sources to points with a stated scale, grouping finger contacts that
# overlap in time into one multi-pointer trace, and draws the synthetic pinches (fixed seeds);
# step 2 (build-gesture-traces.py) labels, orients and places them by the rules in each set's
# README. Usage: scripts/build-gesture-traces.sh [DATA_DIR]
set -euo pipefail
data=${1:-../shared/data}
bin=${SPRINGTUNE:-.build/release/springtune}
out=Sources/SpringTune/Resources/Traces
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/pinch" "$out/fold" "$out/transition"

# Galaxy S-series phone (MonkeyHelper getevent): 720x1280 px panel taken as 2 px per pt, as in
# build-labelled-traces.sh (the phone-* dumps reach x = 1019 and are kept at the same scale).
for f in galaxy-paint-new galaxys-paint phone-openCalender phone-CalenderaddEvent phone-single-drag \
         phone-single-touch phone-three-touches phone-playAngryBirdsLevel1; do
  "$bin" traces import --format getevent "$data/getevent-raw/$f.txt" --scale 2 --join gestures \
    -o "$tmp/getevent-$f.csv" >/dev/null
done
# Asus Transformer TF201 tablet (1280x800 px screen): its dumps carry no axis ranges (no
# `getevent -p` header) and reach x = 1572, past 1280, so the panel is finer than the pixel grid.
# Taken as 1600x1000 units (the smallest round 16:10 range holding every sample) over 1280x800 px
# at 2 px per pt: 2.5 units per pt. Every label from these dumps is the same for 2 to 3.5 units per pt.
for f in tablet-two-finger-drag tablet-three-touches tablet-single-drag tablet-single-touch \
         tablet-openAngryBirds-drag-tap-tap tablet-openCalender-drag-tap-tap tablet-CalenderaddEvent \
         tablet-playAngryBirdsLevel1; do
  "$bin" traces import --format getevent "$data/getevent-raw/$f.txt" --scale 2.5 --join gestures \
    -o "$tmp/getevent-$f.csv" >/dev/null
done

# evemu touchscreens: each device's y range normalised to an 844-pt-tall screen
# (scale = y_max / 844 device units per pt). One file per recording, on the recording's raw
# clock (t_raw_s), so that fingers down together group into one gesture; recordings are kept
# apart because several start their clock at 0.
python3 - "$data/evemu-devices" "$tmp" <<'PY'
import csv, os, sys
src, tmp = sys.argv[1], sys.argv[2]
ymax = {r["source_file"]: float(r["y_max"]) for r in csv.DictReader(open(f"{src}/devices_direct.csv"))}
rows = {}
with open(f"{src}/direct_touch_traces.csv", newline="") as f:
    for r in csv.DictReader(f):
        rows.setdefault(r["source_file"], []).append(r)
for source, rs in sorted(rows.items()):
    stem = os.path.basename(source).removesuffix(".events").replace(" ", "_")
    name = f"{tmp}/evemu-{stem}.csv"
    with open(name, "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["trace_id", "t_seconds", "x", "y", "phase"])
        for r in rs:
            w.writerow([r["trace_id"].replace("|", "-").replace(" ", "_"), r["t_raw_s"], r["x"], r["y"], r["phase"]])
    open(f"{name}.scale", "w").write(repr(ymax[source] / 844))
PY
for f in "$tmp"/evemu-*.csv; do
  "$bin" traces import --format csv "$f" --scale "$(cat "$f.scale")" --join gestures -o "${f%.csv}.pt" >/dev/null
done
for f in "$tmp"/evemu-*.pt; do mv "$f" "$f.csv"; done

# Synthetic two-finger pinches (minimum-jerk, sensor noise), fixed seeds.
"$bin" traces synthesize --kind pinch-open --count 44 --seed 6001 -o "$tmp/pinch-open-synthetic.csv" >/dev/null
"$bin" traces synthesize --kind pinch-close --count 44 --seed 6002 -o "$tmp/pinch-close-synthetic.csv" >/dev/null

python3 scripts/build-gesture-traces.py \
  --gestures "$tmp"/getevent-*.csv "$tmp"/evemu-*.pt.csv \
  --pinch-synthetic "$tmp/pinch-open-synthetic.csv" --fold-synthetic "$tmp/pinch-close-synthetic.csv" \
  --drags "$tmp"/getevent-*.csv "$out/default/galaxy-drags.csv" "$tmp"/evemu-*.pt.csv \
          "$out/default/aosp-flings.csv" \
  --out "$out"
# Who made each trace (Reference §14), read from its id by scripts/add-trace-groups.py.
python3 scripts/add-trace-groups.py "$out"/pinch/traces.csv "$out"/fold/traces.csv "$out"/transition/traces.csv
"$bin" traces validate "$out"/pinch/traces.csv "$out"/fold/traces.csv "$out"/transition/traces.csv
