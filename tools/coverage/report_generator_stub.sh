#!/usr/bin/env bash
# Coverage reports are not generated in tinypte; Bazel only needs this target to exist.
echo "tinypte: coverage report generation is not supported (offline Bazel 4.2.3)." >&2
exit 0
