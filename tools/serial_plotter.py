"""`bazel run //tools:serial_plotter -- ARGS`: `tinypte plotter ARGS`, run from the user's directory.

`bazel run` starts programs inside their runfiles tree; relative paths given on the
command line (a log to plot, a PNG to write) mean the directory the user ran it from.
"""

from __future__ import annotations

import os
import sys

from tinypte.cli import main

if __name__ == "__main__":
    os.chdir(os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd()))
    sys.exit(main(["plotter", *sys.argv[1:]]))
