#!/usr/bin/env bash
# Starts and stops a private single-node Slurm cluster on this machine, for tests that submit
# jobs with sbatch. Everything it writes lives in one folder (default /tmp/springtune-slurm):
# slurm.conf, a munge key and socket of its own, state, spool, logs and pid files. It never
# touches /etc/slurm or /etc/munge, and uses its own ports, so a real Slurm/munge on a
# developer's machine is left alone.
#
# Usage: scripts/slurm-local.sh start|stop|status|env
#   start   install slurm-wlm and munge if missing, start munged, slurmctld and slurmd, wait
#           until the node is idle, then print `export SLURM_CONF=...` on stdout (progress goes
#           to stderr), so: eval "$(scripts/slurm-local.sh start)". A no-op if already up.
#   stop    stop (by pid file) only the daemons this script started, cancelling queued jobs.
#   status  exit 0 when the cluster is up (prints the node state), 1 otherwise.
#   env     print the `export SLURM_CONF=...` line.
# Settings (environment): SPRINGTUNE_SLURM_DIR (folder, /tmp/springtune-slurm),
#   SPRINGTUNE_SLURM_PORT (slurmctld port, 16817; slurmd uses the next one),
#   SPRINGTUNE_SLURM_TIMEOUT (seconds to wait for the node, 30).
# Jobs run as the submitting user with its environment (sbatch's default --export=ALL).
set -eu

dir=${SPRINGTUNE_SLURM_DIR:-/tmp/springtune-slurm}
port=${SPRINGTUNE_SLURM_PORT:-16817}
timeout=${SPRINGTUNE_SLURM_TIMEOUT:-30}
conf=$dir/slurm.conf
marker='# springtune slurm-local.sh: private test cluster; safe to delete'
export PATH="$PATH:/usr/sbin:/sbin"

say() { echo "slurm-local: $*" >&2; }
die() { echo "slurm-local: error: $*" >&2; exit 1; }

# Daemons and their pid files, in start order.
pidfile() {
  case $1 in
    munged) echo "$dir/munge/munged.pid" ;;
    slurmctld) echo "$dir/slurmctld.pid" ;;
    slurmd) echo "$dir/slurmd.pid" ;;
  esac
}

# running NAME: print the pid and succeed when NAME's pid file names a live process of that program...
running() {
  local f pid comm
  f=$(pidfile "$1")
  [ -s "$f" ] || return 1
  pid=$(head -n1 "$f" 2>/dev/null | tr -dc 0-9)
  [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  [ "$comm" = "$1" ] || return 1
  # ... and was started with this folder's files (not another cluster's daemon).
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/" || return 1
  echo "$pid"
}

node_state() {
  local host
  host=$(hostname -s)
  SLURM_CONF=$conf timeout 10 sinfo -h -N -n "$host" -o %T 2>/dev/null | head -n1
}

is_up() {
  [ -f "$conf" ] && grep -qxF "$marker" "$conf" || return 1
  running munged >/dev/null && running slurmctld >/dev/null && running slurmd >/dev/null || return 1
  case $(node_state) in
    idle | mixed | allocated | completing | idle+* | mixed+* | allocated+*) return 0 ;;
  esac
  return 1
}

print_env() { echo "export SLURM_CONF=$conf"; }

as_root() {
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "must run as root (or have sudo) to start or stop the daemons"
    exec sudo env SPRINGTUNE_SLURM_DIR="$dir" SPRINGTUNE_SLURM_PORT="$port" \
      SPRINGTUNE_SLURM_TIMEOUT="$timeout" bash "$0" "$@"
  fi
}

install_packages() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null \
    && command -v munged >/dev/null && getent passwd munge >/dev/null; then
    return 0
  fi
  local t0 t1
  t0=$(date +%s)
  say "installing slurm-wlm and munge with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq slurm-wlm munge >"$dir/apt.log" 2>&1; then
    apt-get update -qq >>"$dir/apt.log" 2>&1 || true
    apt-get install -y -qq slurm-wlm munge >>"$dir/apt.log" 2>&1 \
      || die "apt-get install slurm-wlm munge failed: $(tail -n 3 "$dir/apt.log" | tr '\n' ' ')"
  fi
  t1=$(date +%s)
  say "installed slurm-wlm and munge in $((t1 - t0)) s"
}

make_dirs() {
  if [ -e "$dir" ]; then
    if [ ! -d "$dir" ] || [ -L "$dir" ]; then die "$dir exists and is not a folder"; fi
    [ "$(stat -c %u "$dir")" = 0 ] || die "$dir is not owned by root; remove it or set SPRINGTUNE_SLURM_DIR"
  fi
  mkdir -p "$dir"
  chmod 755 "$dir"
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
}

setup_munge() {
  local m=$dir/munge
  mkdir -p "$m"
  chown munge:munge "$m"
  chmod 755 "$m"
  if [ ! -s "$m/munge.key" ]; then
    (umask 077 && dd if=/dev/urandom of="$m/munge.key" bs=1024 count=1 status=none)
  fi
  chown munge:munge "$m/munge.key"
  chmod 400 "$m/munge.key"
}

write_conf() {
  local host node_line
  host=$(hostname -s)
  # The node's real hardware as slurmd sees it; a node configured with more (e.g. RealMemory)
  # than slurmd detects is drained. Drop UpTime and keep NodeName=<host>.
  node_line=$(slurmd -C 2>/dev/null | grep '^NodeName=' | head -n1 | sed 's/ *UpTime=.*//') || true
  [ -n "$node_line" ] || node_line="NodeName=$host CPUs=$(nproc)"
  node_line=$(echo "$node_line" | sed "s/^NodeName=[^ ]*/NodeName=$host NodeAddr=127.0.0.1/")
  if [ -f "$conf" ] && ! grep -qxF "$marker" "$conf"; then
    die "$conf exists and was not written by this script; remove it or set SPRINGTUNE_SLURM_DIR"
  fi
  cat >"$conf.tmp" <<EOF
$marker
ClusterName=springtune
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
SchedulerType=sched/backfill
# Schedule as soon as a job is submitted or ends (default: batched every 3 s).
SchedulerParameters=batch_sched_delay=0
# A job whose afterok dependency failed is cancelled instead of pending forever
# (DependencyNeverSatisfied), which would hang sbatch --wait.
DependencyParameters=kill_invalid_depend
SelectType=select/cons_tres
# CPUs are the only consumable resource: memory never blocks a job.
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MessageTimeout=10
InactiveLimit=0
KillWait=5
# A finished job stays visible (squeue/scontrol) for 5 s before it is purged (at the next purge
# pass, up to a minute later). Kept this short because sbatch --wait polls every 2 s only
# while MinJobAge/2 <= 2; with the default 300 it polls after 2, 10, 42, 74 ... s.
MinJobAge=5
Waittime=0
$node_line State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
  mv "$conf.tmp" "$conf"
  mkdir -p "$dir/spool/slurmd-$host"
}

log_tails() {
  local f
  for f in "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/munge/munged.log"; do
    [ -s "$f" ] || continue
    echo "---- last lines of $f (PMIx/MPI plugin noise left out)" >&2
    grep -vE 'pmix|MPI: Cannot create context' "$f" | tail -n 12 >&2
  done
}

# fail MESSAGE: show the logs, stop what this start launched, and exit 1.
fail() {
  log_tails
  stop_daemons
  die "$*"
}

stop_daemons() {
  local name pid i left pids entry
  # Cancel our cluster's jobs first, so no job steps outlive slurmd.
  if running slurmctld >/dev/null && [ -f "$conf" ]; then
    SLURM_CONF=$conf timeout 10 squeue -h -o %A 2>/dev/null | xargs -r env SLURM_CONF="$conf" scancel 2>/dev/null || true
    for _ in $(seq 1 20); do
      [ -z "$(SLURM_CONF=$conf timeout 5 squeue -h -t running,completing -o %i 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  # SIGTERM to all at once (each takes 1-2 s to exit), then wait; SIGKILL after 10 s.
  pids=
  for name in slurmd slurmctld munged; do
    if pid=$(running "$name"); then
      kill -TERM "$pid" 2>/dev/null || true
      pids="$pids $name:$pid"
    fi
  done
  for entry in $pids; do
    name=${entry%%:*} pid=${entry#*:}
    left=1
    for i in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || { left=0; break; }
      sleep 0.1
    done
    if [ "$left" = 1 ]; then
      say "$name (pid $pid) did not exit 10 s after SIGTERM; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  rm -f "$(pidfile slurmd)" "$(pidfile slurmctld)" "$(pidfile munged)"
}

start() {
  local t0 t1 state i host f p
  t0=$(date +%s.%N)
  make_dirs
  exec 9>"$dir/lock"
  flock -w 120 9 || die "another slurm-local.sh holds $dir/lock"
  if is_up; then
    say "already up ($(node_state))"
    print_env
    return 0
  fi
  install_packages
  # Anything half-running from before (ours, by pid file) is stopped and started clean.
  stop_daemons
  setup_munge
  write_conf
  # Logs of this run only: the previous run's are kept as *.1.
  for f in "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/munge/munged.log"; do
    if [ -f "$f" ]; then mv -f "$f" "$f.1"; fi
  done
  host=$(hostname -s)

  # A daemon left listening on our ports (e.g. the folder was deleted while the cluster ran, so
  # its pid files are gone) would answer in place of ours.
  for p in "$port" $((port + 1)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      die "port $p is already in use (an orphaned slurmctld/slurmd whose $dir was deleted? find it with: ps -eo pid,args | grep slurm); or set SPRINGTUNE_SLURM_PORT"
    fi
  done

  runuser -u munge -- "$(command -v munged)" 9>&- --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" \
    || fail "munged did not start (log: $dir/munge/munged.log)"
  for i in $(seq 1 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
  munge -n -S "$dir/munge/munge.socket" | unmunge -S "$dir/munge/munge.socket" >/dev/null 2>&1 \
    || fail "munged is not answering on $dir/munge/munge.socket"

  # -c: a cold start with no jobs or node states (e.g. a drain) carried over from a previous run.
  SLURM_CONF=$conf slurmctld -c -f "$conf" 9>&- || fail "slurmctld did not start"
  SLURM_CONF=$conf slurmd -f "$conf" 9>&- || fail "slurmd did not start"

  state=
  for i in $(seq 1 $((timeout * 4))); do
    state=$(node_state)
    case $state in idle | idle+*) break ;; esac
    if [ "$i" -gt 8 ]; then
      running slurmctld >/dev/null || fail "slurmctld exited during startup; see $dir/log/slurmctld.log"
      running slurmd >/dev/null || fail "slurmd exited during startup; see $dir/log/slurmd.log"
    fi
    sleep 0.25
  done
  case $state in
    idle | idle+*)
      running slurmctld >/dev/null || fail "slurmctld exited during startup; see $dir/log/slurmctld.log"
      running slurmd >/dev/null || fail "slurmd exited during startup; see $dir/log/slurmd.log"
      ;;
    *)
      fail "node $host did not come up idle within ${timeout} s (state: ${state:-no answer from slurmctld}); logs in $dir/log"
      ;;
  esac
  t1=$(date +%s.%N)
  say "up in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s: node $host idle, partition debug; conf $conf"
  print_env
}

stop() {
  [ -d "$dir" ] || { say "not running"; return 0; }
  exec 9>"$dir/lock"
  flock -w 120 9 || die "another slurm-local.sh holds $dir/lock"
  stop_daemons
  say "stopped"
}

status() {
  if is_up; then
    echo "up: node $(hostname -s) $(node_state); export SLURM_CONF=$conf"
    return 0
  fi
  echo "down"
  return 1
}

case ${1:-} in
  start) as_root "$@"; start ;;
  stop) as_root "$@"; stop ;;
  status) status ;;
  env) print_env ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
