#!/usr/bin/env bash
# Runs a command that must FAIL and checks that it failed for the right reason.
# usage: expect_failure.sh EXPECTED_MESSAGE_REGEX COMMAND [ARGS...]
set -uo pipefail
expected=$1
shift
output=$("$@" 2>&1)
status=$?
echo "$output"
echo "---"
if ((status == 0)); then
  echo "expect_failure: FAIL '$*' succeeded, but it must fail"
  exit 1
fi
if ! grep -Eq -- "$expected" <<<"$output"; then
  echo "expect_failure: FAIL '$*' failed (status $status) without a line matching /$expected/"
  exit 1
fi
echo "expect_failure: ok, '$*' failed (status $status) with /$expected/"
