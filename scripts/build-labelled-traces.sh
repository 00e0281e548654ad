#!/usr/bin/env bash
# Rebuilds the labelled bundled trace sets (flick, card, pull) from ../shared/data.
# Step 1 converts the sources to points with a stated scale; step 2
# (build-labelled-traces.py) labels and orients them by the rules in each set's README.
# Usage: scripts/build-labelled-traces.sh [DATA_DIR]
set -euo pipefail
data=${1:-../shared/data}
bin=${SPRINGTUNE:-.build/release/springtune}
out=Sources/SpringTune/Resources/Traces
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/flick" "$out/card" "$out/pull"

# Galaxy S-series phone (MonkeyHelper getevent): 720x1280 px panel taken as 2 px per pt.
for f in galaxy-paint-new galaxys-paint phone-openCalender phone-CalenderaddEvent phone-single-drag; do
  "$bin" traces import --format getevent "$data/getevent-raw/$f.txt" --scale 2 -o "$tmp/$f.csv" >/dev/null
done

# evemu touchscreens: each device's y range normalised to an 844-pt-tall screen
# (scale = y_max / 844 device units per pt), one file per device.
python3 - "$data/evemu-devices" "$tmp" <<'PY'
import csv, sys
src, tmp = sys.argv[1], sys.argv[2]
ymax = {r["device"]: float(r["y_max"]) for r in csv.DictReader(open(f"{src}/devices_direct.csv"))}
rows = {}
with open(f"{src}/direct_touch_traces.csv", newline="") as f:
    for r in csv.DictReader(f):
        rows.setdefault(r["device"], []).append(r)
for i, (device, rs) in enumerate(sorted(rows.items())):
    name = f"{tmp}/evemu-{i}.csv"
    with open(name, "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["trace_id", "t_seconds", "x", "y", "phase"])
        for r in rs:
            w.writerow([r["trace_id"].replace("|", "-").replace(" ", "_"), r["t_seconds"], r["x"], r["y"], r["phase"]])
    open(f"{name}.scale", "w").write(repr(ymax[device] / 844))
PY
for f in "$tmp"/evemu-*.csv; do
  "$bin" traces import --format csv "$f" --scale "$(cat "$f.scale")" -o "$f.pt.csv" >/dev/null
done

python3 scripts/build-labelled-traces.py "$out/default/aosp-flings.csv" \
  "$tmp"/galaxy-paint-new.csv "$tmp"/galaxys-paint.csv "$tmp"/phone-openCalender.csv \
  "$tmp"/phone-CalenderaddEvent.csv "$tmp"/phone-single-drag.csv "$tmp"/evemu-*.csv.pt.csv "$out"
# Who made each trace (Reference §14), read from its id by scripts/add-trace-groups.py.
python3 scripts/add-trace-groups.py "$out"/flick/traces.csv "$out"/card/traces.csv "$out"/pull/traces.csv
"$bin" traces validate "$out"/flick/traces.csv "$out"/card/traces.csv "$out"/pull/traces.csv
