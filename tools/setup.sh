#!/usr/bin/env bash
# tinypte set-up: install (with apt-get) everything `bazel test //...` needs, then check
# the versions. Idempotent: when everything is present at a known-good version it only
# checks. Run it as root, or as a user who can sudo.
#
#   ./tools/setup.sh            install what is missing, then check
#   ./tools/setup.sh --check    only check; exit 1 and list what is missing
set -euo pipefail

# Debian 12 packages. Version prefixes are the ones tinypte is tested with.
declare -A PACKAGES=(
  [bazel-bootstrap]=4.2.3        # Bazel (no bzlmod: see README, "Why WORKSPACE")
  [bazel-platforms]=0.0.2        # @platforms, local_repository'd in WORKSPACE
  [bazel-skylib]=1.0.3           # @bazel_skylib
  [bazel-rules-cc]=0.0.4         # @rules_cc, patched at fetch time
  [bazel-rules-java]=4.0.0       # @rules_java, which @bazel_tools loads
  [gcc-arm-none-eabi]=15:12.2    # Cortex-M compiler
  [picolibc-arm-none-eabi]=1.8   # C library for Cortex-M firmware
  [libnewlib-arm-none-eabi]=3.3  # newlib headers/specs (alternative C library)
  [gcc-riscv64-unknown-elf]=12.2 # RISC-V compiler (rv32 multilibs)
  [picolibc-riscv64-unknown-elf]=1.8
  [gcc-multilib]=4:12.2          # host gcc -m32: build-time tools with the boards' data layout
  [qemu-system-arm]=1:7.2        # mps2-an505, mps2-an500, mps3-an547
  [qemu-system-misc]=1:7.2       # riscv32 virt
  [nginx]=1.22                   # loopback HTTP remote cache for CI (tools/remote_cache.sh)
)
# Commands the build runs, and the package that provides each.
declare -A COMMANDS=(
  [bazel]=bazel-bootstrap
  [arm-none-eabi-gcc]=gcc-arm-none-eabi
  [riscv64-unknown-elf-gcc]=gcc-riscv64-unknown-elf
  [qemu-system-arm]=qemu-system-arm
  [qemu-system-riscv32]=qemu-system-misc
  [flock]=util-linux
  [timeout]=coreutils
  [nginx]=nginx
)

check_only=0
[[ "${1:-}" == "--check" ]] && check_only=1

say() { echo "setup: $*"; }

installed_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }

missing_packages() {
  local pkg
  for pkg in "${!PACKAGES[@]}"; do
    [[ "$(installed_version "$pkg")" == "${PACKAGES[$pkg]}"* ]] || echo "$pkg"
  done | sort
}

# Python 3.11 with venv for the AOT tools (the lock file is for CPython 3.11).
python_ok() { command -v python3.11 >/dev/null && python3.11 -c 'import venv, ensurepip' 2>/dev/null; }

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  say "error: this machine has no apt-get/dpkg. tinypte's set-up targets Debian 12 (bookworm);"
  say "install the equivalents of: ${!PACKAGES[*]} python3.11 python3.11-venv"
  exit 1
fi

mapfile -t missing < <(missing_packages)
python_ok || missing+=(python3.11 python3.11-venv)

if ((${#missing[@]})); then
  if ((check_only)); then
    say "missing or at an untested version: ${missing[*]}"
    exit 1
  fi
  sudo=()
  if ((EUID != 0)); then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      say "error: installing needs root. Run as root, or with sudo:"
      say "  sudo apt-get update && sudo apt-get install -y ${missing[*]}"
      exit 1
    fi
  fi
  say "installing: ${missing[*]} (the cross toolchains are a few GB; this takes minutes)"
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${missing[@]}"
fi

# Verify: every package at its tested version, every command runnable.
status=0
for pkg in $(printf '%s\n' "${!PACKAGES[@]}" | sort); do
  version=$(installed_version "$pkg")
  if [[ "$version" != "${PACKAGES[$pkg]}"* ]]; then
    say "error: $pkg is '${version:-not installed}', tinypte needs ${PACKAGES[$pkg]}*"
    status=1
  fi
done
for cmd in "${!COMMANDS[@]}"; do
  if ! command -v "$cmd" >/dev/null; then
    say "error: command $cmd not found (package ${COMMANDS[$cmd]})"
    status=1
  fi
done
if ! python_ok; then
  say "error: python3.11 with the venv module is not available (apt-get install python3.11 python3.11-venv)"
  status=1
fi
if ((status)); then
  exit 1
fi
say "ok: bazel $(installed_version bazel-bootstrap), $(arm-none-eabi-gcc -dumpversion) arm-none-eabi-gcc," \
  "$(riscv64-unknown-elf-gcc -dumpversion) riscv64-unknown-elf-gcc, $(qemu-system-arm --version | head -1 | awk '{print $4}') qemu," \
  "$(python3.11 -c 'import platform; print(platform.python_version())') python"
say "next: bazel test //...   (the first run builds the Python venv from python/requirements.lock)"
