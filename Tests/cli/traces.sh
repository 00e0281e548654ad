#!/usr/bin/env bash
# End-to-end checks of `traces` on the real recordings in Tests/Data (see its NOTICE): filter and
# label carry the import sidecar on, getevent contacts are numbered in touch-down order, wrong
# units are warned about in one line, imported times are whole microseconds.
# Usage: SPRINGTUNE=path/to/springtune bash Tests/cli/traces.sh (from the package root).
. "$(dirname "$0")/lib.sh"
data=Tests/Data
raw=$data/getevent-raw
# holds FILE PATTERN...: FILE matches every PATTERN (grep -E).
holds() { local f=$1; shift; for p in "$@"; do grep -Eqs -- "$p" "$f" || return 1; done; }
# warns N PATTERN FILE: FILE (a command's stderr) holds N warning lines, each matching PATTERN.
warns() { test "$(grep -c '^springtune: warning: ' "$3")" = "$1" && test "$(grep -Ec "^springtune: warning: .*$2" "$3")" = "$1"; }

# 1. filter and label carry the import sidecar on, with their own step; sweep finds it.
"$bin" traces import --format getevent "$raw/galaxy-paint-new.txt" --scale 2 -o "$work/paint.csv" >/dev/null 2>&1
"$bin" traces import --format getevent "$raw/galaxys-paint.txt" --scale 2 -o "$work/paints.csv" >/dev/null 2>&1
"$bin" traces filter "$work/paint.csv" --min-travel 40 -o "$work/far.csv" >/dev/null 2>&1
"$bin" traces label "$work/far.csv" --intent keep -o "$work/kept.csv" >/dev/null 2>&1
"$bin" traces filter "$work/paint.csv" "$work/paints.csv" --min-duration 0.1 -o "$work/both.csv" >/dev/null 2>&1
paint_sha=$(sha256sum "$raw/galaxy-paint-new.txt" | cut -d' ' -f1)
paints_sha=$(sha256sum "$raw/galaxys-paint.txt" | cut -d' ' -f1)
check "filter writes a sidecar naming the recording's SHA-256 and its criteria" \
  grep -q "$paint_sha" "$work/far.csv.meta.json"
check "filter's sidecar records the step" grep -q '"min-travel 40 pt"' "$work/far.csv.meta.json"
check "label's sidecar keeps the import and both steps" \
  holds "$work/kept.csv.meta.json" "$paint_sha" '"traces filter"' '"intent keep for every trace"'
check "filter over two imports lists both sources" holds "$work/both.csv.meta.json" "$paint_sha" "$paints_sha"
"$bin" sweep --preset evernote --traces "$work/kept.csv" --threads 1 --no-charts --out "$work/sweep" >/dev/null 2>&1
check "sweep copies a labelled file's sidecar into its meta" grep -q "$paint_sha" "$work/sweep/report.meta.json"

# 2. Contacts in touch-down order: tablet-two-finger-drag.txt (protocol A) has tracking ids 0 at
# (43, 440) and 1 at (44, 605) down in the same report; id 1 lifts first. Touch-down order, ties
# by id: c000 is id 0 (17.2, 176 pt at 2.5 units per pt).
"$bin" traces import --format getevent "$raw/tablet-two-finger-drag.txt" --scale 2.5 -o "$work/two.csv" >/dev/null 2>&1
check "getevent contacts numbered by touch-down (c000 is tracking id 0)" \
  grep -q '^tablet-two-finger-drag-c000,0,17.2,176,began,tablet-two-finger-drag$' "$work/two.csv"
check "getevent c001 is tracking id 1" grep -q '^tablet-two-finger-drag-c001,0,17.6,242,began,tablet-two-finger-drag$' "$work/two.csv"

# 3. Wrong units: one warning line on stderr, exit 0.
"$bin" traces import --format getevent "$raw/tablet-single-drag.txt" --scale 1 -o "$work/tablet1.csv" >/dev/null 2>"$work/import.err"
rc=$?
check "import of a tablet at scale 1 exits 0" test "$rc" = 0
check "import of a tablet at scale 1 warns in one line naming --scale" warns 1 --scale "$work/import.err"
"$bin" traces validate "$work/tablet1.csv" >/dev/null 2>"$work/validate.err"
rc=$?
check "validate of off-screen samples exits 0" test "$rc" = 0
check "validate of off-screen samples warns once naming --units-per-mm" warns 1 --units-per-mm "$work/validate.err"
"$bin" sweep --preset evernote --traces "$work/tablet1.csv" --threads 1 --no-charts --out "$work/sweep1" >/dev/null 2>"$work/sweep.err"
rc=$?
check "sweep over off-screen samples exits 0" test "$rc" = 0
check "sweep over off-screen samples warns once naming --scale" warns 1 --scale "$work/sweep.err"
# The AOSP VelocityTracker flings (px at 2.625 px per pt) with their times written in milliseconds;
# then the flings as recorded (seconds) read with --time-unit ms: releases 1000 times too fast.
awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $4 = $4 * 1000; print }' "$data/aosp-velocitytracker/traces.csv" > "$work/aosp-ms.csv"
"$bin" traces import --format csv "$work/aosp-ms.csv" --scale 2.625 -o "$work/ms.csv" >/dev/null 2>"$work/ms.err"
check "milliseconds read as seconds: one warning naming --time-unit ms" warns 1 '--time-unit ms' "$work/ms.err"
"$bin" traces import --format csv "$work/aosp-ms.csv" --scale 2.625 --time-unit ms -o "$work/ms2.csv" >/dev/null 2>"$work/ms2.err"
rc=$?
check "--time-unit ms imports them without a warning" warns 0 . "$work/ms2.err"
check "--time-unit ms gives seconds" test "$rc" = 0 -a -n "$(grep '^SwordfishFlingDown,0.016071,' "$work/ms2.csv" 2>/dev/null)"
"$bin" traces import --format csv "$data/aosp-velocitytracker/traces.csv" --scale 2.625 --time-unit ms -o "$work/us.csv" >/dev/null 2>"$work/us.err"
check "releases beyond a finger's speed: one warning naming --time-unit" warns 1 'release speeds.*--time-unit' "$work/us.err"
"$bin" traces validate "$work/paint.csv" "$work/two.csv" >/dev/null 2>"$work/good.err"
check "points and seconds: no warning" warns 0 . "$work/good.err"

# 4. Imported times are whole microseconds (evdev's resolution), written as recorded.
frac_max() { awk -F, 'NR > 1 { n = split($2, p, "."); if (n > 1 && length(p[2]) > m) m = length(p[2]) } END { print m + 0 }' "$1"; }
check "getevent times have at most 6 decimals" test "$(frac_max "$work/paint.csv")" -le 6
check "getevent time 0.036621 s written as such" grep -q '^galaxy-paint-new-c000,0.036621,215,58.5,moved,galaxy-paint-new$' "$work/paint.csv"

finish
