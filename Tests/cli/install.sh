#!/usr/bin/env bash
# `make install` end to end (run by `make test`): install into a temporary PREFIX, copy the
# installed tree elsewhere, uninstall the original (nothing may be left), then run the copy from
# another folder with the checkout hidden (a private mount namespace lays an empty tmpfs over it,
# where the system allows; everywhere the paths the binary reports must lie in the copy): the
# presets list, a sweep, the man page, the completions. A binary copied without its data exits
# 69 with one line; SPRINGTUNE_PRESETS points a lone binary at the data.
# INSTALL_TARGET=install-built installs $SPRINGTUNE as it is (make test); the default,
# `install`, builds first like a user's `make install`.
. "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)
target=${INSTALL_TARGET:-install}
unset SPRINGTUNE_PRESETS SPRINGTUNE_TRACES
make_in_repo() { # the tested binary, unless the check builds it itself
  if [ "$target" = install-built ]; then make -C "$repo" --no-print-directory "$@" BIN="$bin"; else make -C "$repo" --no-print-directory "$@"; fi
}
presets=$(ls "$repo"/Presets/*.json | wc -l)
traces=$(find "$repo/Sources/SpringTune/Resources/Traces" -type f | wc -l)

# Install, twice (the second replaces the first through its manifest).
prefix=$work/prefix; mkdir "$prefix"
make_in_repo "$target" PREFIX="$prefix" > "$work/install.log" 2>&1; rc=$?
check "make $target PREFIX=… exits 0 (rc $rc)" test "$rc" = 0 || tail -20 "$work/install.log"
make_in_repo install-built PREFIX="$prefix" > "$work/reinstall.log" 2>&1; rc=$?
check "a second install over the first exits 0 and says it replaces it (rc $rc)" \
  test "$rc" = 0 -a -n "$(grep 'replacing the install' "$work/reinstall.log")"
manifest=$prefix/share/springtune/install-manifest
for f in bin/springtune bin/springtune-studio share/man/man1/springtune.1 share/bash-completion/completions/springtune \
         share/zsh/site-functions/_springtune share/fish/vendor_completions.d/springtune.fish \
         share/springtune/presets/evernote.json share/springtune/traces/default/aosp-flings.csv share/doc/springtune/NOTICE; do
  check "installed $f, listed in the manifest" test -s "$prefix/$f" -a -n "$(grep -x "$f" "$manifest")"
done
check "the manifest lists $presets presets and $traces trace-set files" \
  test "$(grep -c '^share/springtune/presets/.*\.json$' "$manifest")" = "$presets" -a "$(grep -c '^share/springtune/traces/.*[^/]$' "$manifest")" = "$traces"
check "every file under PREFIX is in the manifest" \
  test -z "$(cd "$prefix" && find . -type f | sed 's|^\./||' | grep -vxF -f "$manifest")"

# The installed tree, moved; the original uninstalled.
moved=$work/elsewhere/opt; mkdir -p "$work/elsewhere"; cp -a "$prefix" "$moved"
make_in_repo uninstall PREFIX="$prefix" > "$work/uninstall.log" 2>&1; rc=$?
check "make uninstall exits 0 and leaves PREFIX empty (rc $rc; left: $(find "$prefix" -mindepth 1 | head -3 | tr '\n' ' '))" \
  test "$rc" = 0 -a -z "$(find "$prefix" -mindepth 1)"
make_in_repo uninstall PREFIX="$prefix" > "$work/uninstall2.log" 2>&1; rc=$?
check "make uninstall with nothing installed fails, saying so (rc $rc)" test "$rc" != 0 -a -n "$(grep 'no springtune install' "$work/uninstall2.log")"

# Runs a command in folder $1 with the checkout hidden when the system allows (root, or an
# unprivileged user namespace), else as is.
hide=no
if unshare -m true 2>/dev/null; then hide="unshare -m"; elif unshare -rm true 2>/dev/null; then hide="unshare -rm"; fi
hidden() { # hidden DIR COMMAND...
  local dir=$1; shift
  if [ "$hide" = no ]; then (cd "$dir" && "$@"); return; fi
  $hide bash -c 'mount -t tmpfs none "$1" && cd "$2" && shift 2 && exec "$@"' hidden "$repo" "$dir" "$@"
}
if [ "$hide" = no ]; then
  echo "note: cannot hide the checkout here (no mount namespace); checking the reported paths only"
else
  check "inside the namespace the checkout is empty" test -z "$(hidden / ls -A "$repo")"
fi
run=$work/elsewhere/run; mkdir -p "$run"
st=$moved/bin/springtune
hidden "$run" "$st" presets list > "$work/list.txt" 2> "$work/list.err"; rc=$?
check "moved install, checkout hidden: presets list shows $presets presets (rc $rc, $(($(wc -l < "$work/list.txt") - 1)) rows)" \
  test "$rc" = 0 -a "$(($(wc -l < "$work/list.txt") - 1))" = "$presets" -a ! -s "$work/list.err"
hidden "$run" "$st" presets show tweetbot > "$work/show.txt" 2>&1
check "presets show: the preset and its traces come from the moved tree" \
  test -n "$(grep -F " — $moved/share/springtune/presets/tweetbot.json" "$work/show.txt")" -a \
       -n "$(grep -F "traces: $moved/share/springtune/traces/flick/traces.csv" "$work/show.txt")"
hidden "$run" "$st" sweep --preset evernote --out X > "$work/sweep.log" 2>&1; rc=$?
check "moved install, checkout hidden: sweep --preset evernote --out X exits 0 in another folder (rc $rc)" test "$rc" = 0 || tail -5 "$work/sweep.log"
check "the sweep read the moved tree's traces (report.meta.json)" python3 - "$run/X/report.meta.json" "$moved/share/springtune/traces/" <<'PY'
import json, sys
files = [t["file"] for t in json.load(open(sys.argv[1]))["traces"]]
assert files and all(f.startswith(sys.argv[2]) for f in files), files
PY
check "the sweep drew its page" test -s "$run/X/index.html"
hidden "$run" "$st" studio --preset evernote --simulate 1 --rounds 2 > "$work/studio.txt" 2> "$work/studio.err"; rc=$?
check "moved install: springtune studio starts the installed springtune-studio (--simulate 1, rc $rc)" \
  test "$rc" = 0 -a -n "$(grep -F 'seeds at ≥ 0.95 after round 2' "$work/studio.txt")"
check "installed --version is the build's ($("$bin" --version))" test "$(hidden "$run" "$st" --version)" = "$("$bin" --version)"
sha=$(git -C "$repo" rev-parse --short=7 HEAD)
check "--version names the commit it was built from (git describe: $("$bin" --version), HEAD $sha), not a fixed 0.1.0" \
  bash -c "'$bin' --version | grep -q -e '$sha' -e \"^\$(git -C '$repo' describe --tags --exact-match 2>/dev/null || echo none)\""

# Man page and completions.
if command -v man >/dev/null; then
  MANWIDTH=100 man -l "$moved/share/man/man1/springtune.1" > "$work/man.txt" 2> "$work/man.err"; rc=$?
  check "man -l springtune.1 renders (rc $rc, $(wc -l < "$work/man.txt") lines, sweep and --traces documented)" \
    test "$rc" = 0 -a -n "$(grep -w SYNOPSIS "$work/man.txt")" -a -n "$(grep -e '--traces' "$work/man.txt")"
else
  check "man is installed (make test installs man-db)" false
fi
check "bash completion loads and completes springtune's subcommands" bash -c \
  'source "$1" && complete -p springtune >/dev/null && COMP_WORDS=(springtune sw) COMP_CWORD=1 && _springtune springtune sw springtune 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}" | grep -qx sweep' \
  bash "$moved/share/bash-completion/completions/springtune"
check "zsh and fish completions name springtune" test -n "$(grep -l '#compdef springtune' "$moved/share/zsh/site-functions/_springtune")" -a \
  -n "$(grep -l "complete -c 'springtune'" "$moved/share/fish/vendor_completions.d/springtune.fish")"

# The moved tree uninstalls from its own manifest too.
make_in_repo uninstall PREFIX="$moved" > "$work/uninstall3.log" 2>&1; rc=$?
check "make uninstall of the moved tree leaves it empty (rc $rc)" test "$rc" = 0 -a -z "$(find "$moved" -mindepth 1)"

# A binary copied without its data: one line, exit 69, nothing on stdout, for listing and sweeping.
lone=$work/lone; mkdir "$lone"; cp "$bin" "$lone/springtune"
for cmd in "presets list" "sweep --preset evernote --out X" "presets show tweetbot"; do
  (cd "$lone" && ./springtune $cmd > "$work/lone.out" 2> "$work/lone.err"); rc=$?
  check "copied binary, no data: $cmd → exit 69, one line, no output (rc $rc: $(head -c 90 "$work/lone.err"))" \
    test "$rc" = 69 -a "$(wc -l < "$work/lone.err")" = 1 -a ! -s "$work/lone.out" -a -n "$(grep 'make install' "$work/lone.err")"
done
# … and SPRINGTUNE_PRESETS points it at the data (the traces beside the presets folder).
make_in_repo install-built PREFIX="$prefix" > "$work/install3.log" 2>&1
(cd "$lone" && SPRINGTUNE_PRESETS=$prefix/share/springtune/presets ./springtune presets show tweetbot > "$work/env.txt" 2>&1); rc=$?
check "copied binary with SPRINGTUNE_PRESETS: presets and traces found (rc $rc)" \
  test "$rc" = 0 -a -n "$(grep -F "traces: $prefix/share/springtune/traces/flick/traces.csv" "$work/env.txt")"
# … and a presets folder with no trace sets beside it: one line, exit 69, naming SPRINGTUNE_TRACES.
mkdir "$work/only-presets"; cp "$repo"/Presets/*.json "$work/only-presets/"
(cd "$lone" && SPRINGTUNE_PRESETS=$work/only-presets ./springtune sweep --preset evernote --out X > "$work/lone.out" 2> "$work/lone.err"); rc=$?
check "copied binary, presets but no trace sets: exit 69, one line naming SPRINGTUNE_TRACES (rc $rc)" \
  test "$rc" = 69 -a "$(wc -l < "$work/lone.err")" = 1 -a -n "$(grep SPRINGTUNE_TRACES "$work/lone.err")"
(cd "$lone" && SPRINGTUNE_PRESETS=$work/only-presets SPRINGTUNE_TRACES=$prefix/share/springtune/traces ./springtune presets show evernote > "$work/env.txt" 2>&1); rc=$?
check "… and SPRINGTUNE_TRACES supplies them (rc $rc)" \
  test "$rc" = 0 -a -n "$(grep -F "traces: $prefix/share/springtune/traces/default/" "$work/env.txt")"
make_in_repo uninstall PREFIX="$prefix" > /dev/null 2>&1

finish
