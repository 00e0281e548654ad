#!/usr/bin/env bash
# Side-by-side timing and check: springtune (one thread, no charts) vs the NumPy rewrite.
#
#   bench/run_bench.sh [REPEATS] [extra flow_layout_numpy.py args, e.g. --sets 2000]
#
# ST (default /tmp/st-ref: a copy of .build/release/springtune) is only run, never built.
# Runs are interleaved (springtune, numpy, springtune, numpy, …) so that load from other work
# on the machine hits both alike; every run's wall, user and sys seconds are printed, and the
# last reports of both are compared column by column (exit 1 if they disagree beyond 1e-6).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
ST=${ST:-/tmp/st-ref}
PY=${PY:-python3}
OUT=${OUT:-/tmp/flow-layout-bench}
repeats=${1:-3}
shift || true
traces="$repo/Sources/SpringTune/Resources/Traces/default"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

# The bench grid (Benchmark.grid in Sources/SpringTune/Sweep/Benchmark.swift: evernote's default
# sweep until 2026-11-24, 6 × 8 × 8 = 384 sets), pinned so that timings stay comparable whatever
# the preset's default grid is; both sides sweep it.
grid=(--vary boundaryResistance=4,6,8,10,14,20 --vary damping=0.5:1.2:8 --vary frequency=0.5:4:8:log)

# The NumPy script's --sets N refines the last axis (frequency) to ceil(N/48) steps; give
# springtune the same grid (its last --vary of a name wins).
vary=()
for ((i = 1; i <= $#; i++)); do
    if [[ ${!i} == --sets ]]; then
        j=$((i + 1)); n=${!j}
        vary=(--vary "frequency=0.5:4:$(((n + 47) / 48)):log")
    fi
done

mkdir -p "$OUT"
echo "machine: $(nproc --all) cores, load: $(cut -d' ' -f1-3 /proc/loadavg); numpy $($PY -c 'import numpy; print(numpy.__version__)')"
for ((r = 1; r <= repeats; r++)); do
    /usr/bin/time -f "springtune run $r: wall=%e user=%U sys=%S maxrss=%MkB" \
        "$ST" sweep --preset "$repo/Presets/evernote.json" "${grid[@]}" "${vary[@]}" --threads 1 --no-charts \
        --traces "$traces/aosp-flings.csv" "$traces/galaxy-drags.csv" --out "$OUT/st" 2>&1 >"$OUT/st.log" \
        | grep -v '^springtune:' || true
    grep -h "parameter sets" "$OUT/st.log" | sed "s/^/  springtune says: /"
    /usr/bin/time -f "numpy run $r: wall=%e user=%U sys=%S maxrss=%MkB" \
        $PY "$here/flow_layout_numpy.py" --preset "$repo/Presets/evernote.json" "${grid[@]}" --out "$OUT/np/report.csv" "$@" \
        2>&1 | sed "s/^numpy:/  numpy says: numpy:/"
done
$PY "$here/compare_reports.py" "$OUT/st/report.csv" "$OUT/np/report.csv"
cmp -s "$OUT/st/report.csv" "$OUT/np/report.csv" && echo "reports are byte-identical"
