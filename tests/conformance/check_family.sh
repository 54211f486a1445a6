#!/bin/bash
# Quick loop while writing kernels and cases: cross-compile every kernel for the M33 and
# rv32imafc (-Wall -Wextra -Werror), build pte_run, generate the cases whose name matches
# REGEX (export with ExecuTorch, expected outputs from its host runtime) and run them through
# pte_run on the host. The full suite (every board under QEMU) is
# `bazel test //tests/conformance/...`.
#
# usage: tests/conformance/check_family.sh REGEX [OUT_DIR]
set -euo pipefail
regex=${1:?usage: check_family.sh REGEX [OUT_DIR]}
out=${2:-$(mktemp -d)}
cd "$(dirname "$0")/../.."
for board in mps2_an505 rv32imafc; do
  bazel build --noshow_progress --platforms=//platforms/$board:$board //runtime/kernels:portable
done
bazel build --noshow_progress //runtime/tools:pte_run
rm -rf "$out/cases" && mkdir -p "$out/cases"
bazel run --noshow_progress //tests/conformance:generate -- --out "$out/cases" --only "$regex"
venv=$(ls -d ~/.cache/tinypte/venvs/py311-* | head -1)
PYTHONPATH=python:tests/conformance "$venv/bin/python" tests/conformance/host_conformance_test.py \
  "$PWD/bazel-bin/runtime/tools/pte_run" "$out/cases" --min-cases=1
