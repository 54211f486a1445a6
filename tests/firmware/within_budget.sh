#!/usr/bin/env bash
# Passes when a firmware fits budgets tighter than its board's regions (tinypte size).
# usage: within_budget.sh TINYPTE FIRMWARE.elf BOARD_FILES... --max-flash N --max-ram N
# (BOARD_FILES are the board's _info outputs; the .board.json among them is used).
set -euo pipefail
tinypte=$1 elf=$2
shift 2
board=""
while (($#)) && [[ "$1" != --* ]]; do
  [[ "$1" == *.board.json ]] && board=$1
  shift
done
[[ -n "$board" ]] || { echo "within_budget: no .board.json among the board files"; exit 1; }
"$tinypte" size --elf "$elf" --board "$board" --name "$elf" "$@"
