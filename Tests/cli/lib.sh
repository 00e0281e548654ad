# Shared by the command-line checks (sourced, not run): the binary under test, a scratch folder
# removed on exit, `check NAME CONDITION...` printing `ok`/`FAIL` lines, and `finish`, which
# prints the count of failures and sets the exit status.
set -uo pipefail
bin=${SPRINGTUNE:?set SPRINGTUNE to the springtune binary}
# Made absolute where its folder exists (footprint.sh and doccomments.sh use no binary).
[ -d "$(dirname "$bin")" ] && bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fails=0
check() { # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
finish() {
  echo "$fails failed"
  exit $((fails > 0))
}
