"""A generated .bzl file of models/ (fits.bzl, stacks.bzl): written by `bazel run`, checked by a test.

Its tool computes the text; `--write PATH` puts it into the workspace, `--check PATH` fails,
showing what the file should say and the command that rewrites it, when the file differs.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def add_mode_arguments(parser: argparse.ArgumentParser) -> None:
    """--check FILE (a test) or --write FILE (the workspace's, under `bazel run`)."""
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", type=Path)
    mode.add_argument("--write", type=Path)


def write_or_check(args: argparse.Namespace, text: str, tool: str, measured: str) -> int:
    """Write `text` or compare the file with it; the exit status. `tool` names the tool (and its
    `bazel run //models:update_<tool>` target), `measured` what the text was computed from."""
    if args.write:
        target = Path(os.environ.get("BUILD_WORKSPACE_DIRECTORY", ".")) / args.write
        target.write_text(text)
        print(f"{tool}: wrote {target} ({measured})")
        return 0
    if args.check.read_text() != text:
        print(f"{tool}: models/{args.check.name} is stale ({measured}); it should read:\n{text}")
        print(f"{tool}: run `bazel run //models:update_{tool}` to rewrite it")
        return 1
    print(f"{tool}: models/{args.check.name} is up to date ({measured})")
    return 0
