#!/usr/bin/env bash
# The README's test command: installs the Debian packages the tests need (only what is
# missing), then runs every test of the workspace. CI runs exactly this (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

# Mesa's lavapipe renders the headless GUI tests; MPI runs the collector's tests; Prometheus
# (prometheus, promtool) serves backfilled counter history to tests/prometheus_history.rs;
# openssl makes the self-signed certificate of tests/prometheus_https.rs.
packages=(mesa-vulkan-drivers libgl1-mesa-dri libxkbcommon-x11-0 openmpi-bin libopenmpi-dev mpich libmpich-dev gfortran prometheus openssl)
missing=()
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "scripts/test.sh: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
fi

# Snapshots are taken on lavapipe through Vulkan; other backends render slightly differently.
export WGPU_BACKEND=vulkan
export RUST_BACKTRACE=1

# Benchmarks are compiled (so they cannot rot) but not run: figures come from `cargo bench`.
cargo check --workspace --benches
# The workspace includes the collector, whose tests run real MPI jobs (Open MPI and MPICH);
# `cargo test` builds libibprof.so before the tests that preload it.
cargo test --workspace --no-fail-fast
