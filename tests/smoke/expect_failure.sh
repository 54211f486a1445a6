#!/usr/bin/env bash
# Runs a test executable that must FAIL and checks that it failed for the right reason.
# usage: expect_failure.sh TEST_EXECUTABLE EXPECTED_MESSAGE_REGEX
set -uo pipefail
test_bin=$1
expected=$2
output=$("$test_bin" 2>&1)
status=$?
echo "$output"
echo "---"
if ((status == 0)); then
  echo "expect_failure: FAIL $test_bin passed, but it runs a misbehaving firmware"
  exit 1
fi
if ! grep -Eq -- "$expected" <<<"$output"; then
  echo "expect_failure: FAIL $test_bin failed (status $status) without a line matching /$expected/"
  exit 1
fi
echo "expect_failure: ok, $test_bin failed (status $status) with /$expected/"
