#!/usr/bin/env bash
# springtune search vs Optuna's default sampler (TPESampler): same box, evaluator and budget.
#
#   bench/run_optuna.sh [optuna_search.py args: --presets P,… --seeds 1,… --budget N --check]
#
# Creates bench/.venv-optuna (python3 -m venv, optuna from PyPI, pinned) on first use, then runs
# bench/optuna_search.py in it. SPRINGTUNE (default .build/release/springtune) is only run, never built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
OPTUNA_VERSION=4.9.0
venv="$here/.venv-optuna"
export SPRINGTUNE=${SPRINGTUNE:-$repo/.build/release/springtune}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

if ! "$venv/bin/python" -c "import optuna, sys; sys.exit(optuna.__version__ != '$OPTUNA_VERSION')" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "optuna==$OPTUNA_VERSION"
fi
exec "$venv/bin/python" "$here/optuna_search.py" "$@"
