#!/usr/bin/env bash
# Run one firmware ELF under QEMU and judge the run (used by the qemu_test rule).
#
# usage: qemu_runner.sh --qemu qemu-system-arm --machine M --cpu C [--qemu-arg A]...
#                       [--timeout S] [--expect-exit N] [--expect REGEX]... [--fvp NAME] ELF
# Output of the firmware (its semihosting console) is printed as it is, then one line:
# "qemu_test: PASS ..." or "qemu_test: FAIL <reason>". Exit 0 only on PASS.
set -uo pipefail

qemu="" machine="" cpu="" timeout_s=60 expect_exit=0 fvp="" elf=""
qemu_args=() expects=()
while (($#)); do
  case "$1" in
    --qemu) qemu=$2; shift 2 ;;
    --machine) machine=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --qemu-arg) qemu_args+=("$2"); shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --expect-exit) expect_exit=$2; shift 2 ;;
    --expect) expects+=("$2"); shift 2 ;;
    --fvp) fvp=$2; shift 2 ;;
    -*) echo "qemu_test: FAIL unknown option $1" >&2; exit 2 ;;
    *) elf=$1; shift ;;
  esac
done

fail() { echo "qemu_test: FAIL $*"; exit 1; }

[[ -f "$elf" ]] || fail "firmware $elf not found"
command -v "$qemu" >/dev/null || fail "$qemu is not installed (run ./tools/setup.sh)"
log=$(mktemp "${TEST_TMPDIR:-/tmp}/qemu.XXXXXX")
trap 'rm -f "$log"' EXIT

# Runs "$@" with the time limit and judges exit status and output; prints FAIL and exits
# non-zero on the first problem.
run_and_judge() {
  local what=$1; shift
  echo "qemu_test: [$what] $*"
  timeout --kill-after=5 "$timeout_s" "$@" >"$log" 2>&1 </dev/null
  local status=$?
  cat "$log"
  if ((status == 124 || status == 137)); then
    fail "[$what] firmware did not exit within ${timeout_s} s (hung, or stuck in a fault loop)"
  fi
  if ((status != expect_exit)); then
    fail "[$what] firmware exit status $status, expected $expect_exit"
  fi
  local pattern
  for pattern in "${expects[@]}"; do
    grep -Eq -- "$pattern" "$log" || fail "[$what] no output line matches /$pattern/"
  done
  echo "qemu_test: [$what] ok (exit status $status, ${#expects[@]} output checks)"
}

# -icount shift=0: QEMU's virtual clock advances 1 ns per guest instruction, so timers the
# firmware reads (SysTick, mcycle) count instructions deterministically, not host time.
run_and_judge qemu "$qemu" -M "$machine" -cpu "$cpu" "${qemu_args[@]}" -icount shift=0,align=off,sleep=off \
  -nographic -monitor none \
  -serial none -semihosting-config enable=on,target=native -kernel "$elf"

if [[ -n "$fvp" ]]; then
  if command -v "$fvp" >/dev/null; then
    run_and_judge fvp "$fvp" -C mps3_board.visualisation.disable-visualisation=1 \
      -C mps3_board.telnetterminal0.start_telnet=0 -C mps3_board.uart0.out_file=- \
      -C cpu0.semihosting-enable=1 -C cpu0.semihosting-stack_base=0 -a "$elf"
  else
    echo "qemu_test: [fvp] SKIPPED: $fvp is not on PATH (install Arm's Corstone-300 FVP to run it)"
  fi
fi
echo "qemu_test: PASS"
