#!/usr/bin/env bash
# Runs the collector's tests: real 4-rank MPI jobs under Open MPI and MPICH, C and Fortran.
# Installs the Debian packages they need first, but only those that are missing.
# Usage: scripts/test-collector.sh [extra cargo test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(openmpi-bin libopenmpi-dev mpich libmpich-dev gfortran)
missing=()
for p in "${packages[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "test-collector: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}"
fi

# `cargo test` builds libibprof.so (the cdylib) before the tests that preload it.
cargo test -p ibprof "$@"
