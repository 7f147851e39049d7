#!/usr/bin/env bash
# Expands Slurm hostlists with Slurm's own `scontrol show hostnames` (Debian's slurm-client,
# 22.05) into tests/fixtures/slurm/hostnames.tsv, which src/profile_io/slurm/hostlist.rs is
# tested against. scontrol needs no controller for this, only a slurm.conf to read: a
# throwaway one is written. Each row: the hostlist, a tab, then the host names scontrol
# printed (space-separated), or `!` and its error for a hostlist it refuses.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v scontrol >/dev/null || { echo "install Debian's slurm-client (scontrol)" >&2; exit 1; }
conf=$(mktemp -d)
trap 'rm -rf "$conf"' EXIT
cat >"$conf/slurm.conf" <<'CONF'
ClusterName=shoal
SlurmctldHost=localhost
NodeName=localhost CPUs=1 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES
CONF
export SLURM_CONF="$conf/slurm.conf"
out=tests/fixtures/slurm/hostnames.tsv
{
  echo "# hostlist<TAB>names, from: scontrol show hostnames (slurm-wlm $(scontrol --version | awk '{print $2}'))"
  while IFS= read -r list; do
    [ -z "$list" ] && continue
    err=$(scontrol show hostnames "$list" 2>&1 >/dev/null || true)
    names=$(scontrol show hostnames "$list" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')
    if [ -n "$err" ]; then
      printf '%s\t!%s\n' "$list" "$(echo "$err" | head -1)"
    else
      printf '%s\t%s\n' "$list" "$names"
    fi
  done <<'LISTS'
cn[0000-0007,0012],gpu03
n0001
n[0001-0004]
n[0001-0002,0005],n0008
a[1-3]b[01-02]
rack[1-2]-n[1-2]
n[9-11],x
n[08-11]
n[001-3]
n[1-2],n1
gpu-a100-[01-03]
node[7]
n[1-3,5-6]
n[3-1]
n[a-b]
n[1-2]x[
LISTS
} >"$out"
echo "wrote $out"
