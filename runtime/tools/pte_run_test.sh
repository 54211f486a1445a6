#!/usr/bin/env bash
# pte_run's command line: --info, a run, and one clear line for each kind of bad input.
# usage: pte_run_test.sh PTE_RUN SINE.pte NPU.pte TINY_TRANSFORMER.pte
set -uo pipefail
pte_run=$1 sine=$2 npu=$3 transformer=$4
work=${TEST_TMPDIR:-$(mktemp -d)}
failures=0

check() { # check NAME EXPECTED_STATUS REGEX COMMAND...
  local name=$1 want=$2 regex=$3
  shift 3
  local output status
  output=$("$@" 2>&1)
  status=$?
  if [[ $status -ne $want ]] || ! grep -Eq -- "$regex" <<<"$output"; then
    echo "FAIL $name: status $status (want $want), output: $output"
    failures=$((failures + 1))
  else
    echo "ok   $name: $(head -1 <<<"$output")"
  fi
}

printf '\x00\x00\x80\x3f' >"$work/one.bin"   # 1.0f
printf '\x00\x00' >"$work/short.bin"         # 2 bytes, not a float32[1,1]
head -c 100 "$sine" >"$work/truncated.pte"
printf 'ET11xxxxxxxxxxxxxxxxxxxx' | dd bs=1 seek=4 of="$work/old.pte" 2>/dev/null
echo "hello" >"$work/text.pte"

check info 0 'planned buffer 1: 128 B' "$pte_run" "$sine" --info
# sine is linear, relu, linear, relu, linear: both relus fold into the addmm before them.
check fused_relu 0 'instruction 1: aten::relu.out \(fused into the instruction before it\)' "$pte_run" "$sine" --info
check fused_relu_2 0 'instruction 3: aten::relu.out \(fused' "$pte_run" "$sine" --info
check run 0 '^$' "$pte_run" "$sine" "$work/one.bin" --out "$work"
[[ $(stat -c %s "$work/out0.bin") -eq 4 ]] || { echo "FAIL run: out0.bin is not 4 bytes"; failures=$((failures + 1)); }
check wrong_input_size 1 'input 0 has 2 bytes; the program expects float32\[1,1\] \(4 bytes\)' \
  "$pte_run" "$sine" "$work/short.bin" --out "$work"
check missing_input 1 'the program takes 1 inputs, 0 given' "$pte_run" "$sine" --out "$work"
check truncated 1 'TP_ERR_CORRUPT' "$pte_run" "$work/truncated.pte" --info
check old_version 1 'TP_ERR_VERSION: .*re-export' "$pte_run" "$work/old.pte" --info
check not_a_program 1 'TP_ERR_NOT_A_PROGRAM' "$pte_run" "$work/text.pte" --info
check unknown_method 1 'TP_ERR_METHOD_NOT_FOUND' "$pte_run" "$sine" --info --method backward
check usage 2 'usage: pte_run' "$pte_run" "$sine"
# A program with an Ethos-U55 delegate: its backend is linked (and sizes it), but this host has no NPU.
check npu_info_needs_board 1 'init: instruction 0 \(delegate EthosUBackend\): TP_ERR_DELEGATE: .*; this firmware.s board has no Ethos-U55' \
  "$pte_run" "$npu" --info

# --repeat runs the method again on the same inputs: tiny_transformer's plan reuses its token
# buffer for activations, so each run must copy the inputs in again (same outputs as one run).
for i in $(seq 1 16); do printf "\\x$(printf %02x "$i")\\x00\\x00\\x00\\x00\\x00\\x00\\x00"; done >"$work/tokens.bin"
mkdir -p "$work/once" "$work/thrice"
check repeat_once 0 '^$' "$pte_run" "$transformer" "$work/tokens.bin" --out "$work/once"
check repeat_thrice 0 '^$' "$pte_run" "$transformer" "$work/tokens.bin" --out "$work/thrice" --repeat 3
cmp -s "$work/once/out0.bin" "$work/thrice/out0.bin" || { echo "FAIL repeat: three runs' outputs differ from one run's"; failures=$((failures + 1)); }

echo "pte_run_test: $failures failed"
((failures == 0))
