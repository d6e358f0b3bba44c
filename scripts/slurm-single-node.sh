#!/usr/bin/env bash
# A single-node Slurm cluster on this machine (Debian's slurmctld, slurmd and
# munge on localhost), to run the workflow through its slurm profile as a
# lab's cluster would. docs/workflow.md describes the configuration.
#
#   scripts/slurm-single-node.sh start   # install (apt), configure, start munged, slurmctld, slurmd
#   scripts/slurm-single-node.sh demo    # the workflow's small test set through --profile workflow/profiles/slurm
#   scripts/slurm-single-node.sh stop    # stop the three daemons this script started
#
# Runs as root (it writes /etc/slurm and /etc/munge). No systemd needed: the
# daemons run in the background and their pids go to /run/deup-slurm/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
run=/run/deup-slurm
host="$(hostname -s)"

running() {
  [ -s "$run/slurmctld.pid" ] && kill -0 "$(cat "$run/slurmctld.pid")" 2>/dev/null
}

start() {
  if running && command -v sinfo >/dev/null; then
    echo "slurm-single-node: already running (pids in $run)"
    sinfo
    return 0
  fi
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge
  fi
  mkdir -p "$run" /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge /var/lib/munge /var/log/munge
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  fi
  chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
  chmod 0700 /etc/munge; chmod 0400 /etc/munge/munge.key
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 3 / 4 ))
  cat > /etc/slurm/slurm.conf <<CONF
# Written by scripts/slurm-single-node.sh: one node, this machine.
ClusterName=deup
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
MinJobAge=3600
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  if ! pgrep -x munged >/dev/null; then
    runuser -u munge -- munged
  fi
  munge -n | unmunge >/dev/null
  slurmctld -i
  slurmd
  for _ in $(seq 30); do
    if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
      sinfo
      return 0
    fi
    sleep 1
  done
  echo "slurm-single-node: the node did not come up; see /var/log/slurm/" >&2
  sinfo -R || true
  return 1
}

stop() {
  for d in slurmd slurmctld; do
    if [ -s "$run/$d.pid" ]; then
      kill "$(cat "$run/$d.pid")" 2>/dev/null || true
    fi
  done
  if [ -s /run/munge/munged.pid ]; then
    kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
  fi
  echo "slurm-single-node: stopped"
}

demo() {
  # The workflow test's small set (40 ALMANAC drugs × 3 lines × 4 shards),
  # each job submitted with sbatch by Snakemake 7's slurm executor.
  data="${DEUP_DATA:-$(dirname "$root")/shared/data}"
  out="${1:-$(mktemp -d)}"
  mkdir -p "$out"
  . "$root/workflow/small-set.sh"
  small_set "$out" "$data" 1 "mem_mb: {import: 500, train: 2000, score: 1000, check: 1000, summary: 1000}"
  export USER="${USER:-$(id -un)}"
  t0=$(date +%s)
  snakemake -s "$root/workflow/Snakefile" --directory "$out/work" --configfile "$out/config.yaml" \
    --profile "$root/workflow/profiles/slurm" 2>&1 | tee "$out/snakemake.log"
  echo "== $(( $(date +%s) - t0 )) s; jobs (slurm job completion log):"
  grep -c "JobState=COMPLETED" /var/log/slurm/jobcomp.log || true
  awk '{for (i=1;i<=NF;i++) if ($i ~ /^(JobId|JobName|JobState|NodeList|ProcCnt)=/) printf "%s ", $i; print ""}' /var/log/slurm/jobcomp.log | tail -n 40
  "$out/deup" scores check "$out/work/results/scores/deup-seed1"
  echo "outputs in $out"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  demo) shift; demo "$@" ;;
  *) echo "usage: $0 start|demo [DIR]|stop" >&2; exit 2 ;;
esac
