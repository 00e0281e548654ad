#!/usr/bin/env bash
# Rebuilds the bundled default trace set from the real recordings in ../shared/data.
# Each output file holds one source at one stated scale (source units per point); see
# Sources/SpringTune/Resources/Traces/default/README.md. Usage: scripts/build-default-traces.sh [DATA_DIR]
set -euo pipefail
data=${1:-../shared/data}
bin=${SPRINGTUNE:-.build/release/springtune}
out=Sources/SpringTune/Resources/Traces/default
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# keep IN OUT ID... : copy the named traces (all rows) of a trace CSV, header included.
keep() {
  python3 - "$@" <<'PY'
import csv, sys
src, dst, ids = sys.argv[1], sys.argv[2], set(sys.argv[3:])
with open(src, newline="") as f, open(dst, "w", newline="") as g:
    r = csv.reader(f); w = g
    header = next(r); w.write(",".join(header) + "\n")
    n = 0
    for row in r:
        if row[0] in ids: w.write(",".join(row) + "\n"); n += 1
missing = ids - {row[0] for row in csv.reader(open(dst)) if row}
if missing: sys.exit(f"missing traces: {sorted(missing)}")
PY
}

# 1. AOSP VelocityTracker flings, Pixel "sailfish": 1080x1920 px at 2.625 px per pt.
"$bin" traces import --format csv "$data/aosp-velocitytracker/traces.csv" --scale 2.625 -o "$out/aosp-flings.csv"

# 2. MonkeyHelper Galaxy S-series paint strokes and the Angry Birds slingshot pull (drag, hold,
#    release): 720x1280 px panel at 2 px per pt. Only the vertical-dominant strokes.
"$bin" traces import --format getevent "$data/getevent-raw/galaxy-paint-new.txt" --scale 2 -o "$tmp/a.csv"
"$bin" traces import --format getevent "$data/getevent-raw/galaxys-paint.txt" --scale 2 -o "$tmp/b.csv"
"$bin" traces import --format getevent "$data/getevent-raw/phone-playAngryBirdsLevel1.txt" --scale 2 -o "$tmp/c.csv"
keep "$tmp/a.csv" "$tmp/a2.csv" galaxy-paint-new-c001 galaxy-paint-new-c002 galaxy-paint-new-c007 galaxy-paint-new-c012 galaxy-paint-new-c013
keep "$tmp/b.csv" "$tmp/b2.csv" galaxys-paint-c009 galaxys-paint-c018 galaxys-paint-c021 galaxys-paint-c022 galaxys-paint-c033
keep "$tmp/c.csv" "$tmp/c2.csv" phone-playAngryBirdsLevel1-c000
{ cat "$tmp/a2.csv"; tail -n +2 "$tmp/b2.csv"; tail -n +2 "$tmp/c2.csv"; } > "$out/galaxy-drags.csv"
# Who made each trace (Reference §14), read from its id by scripts/add-trace-groups.py.
python3 scripts/add-trace-groups.py "$out"/*.csv
"$bin" traces validate "$out"/*.csv
