"""Entry point of //python:tinypte, the AOT toolkit binary that Bazel actions run.

usage: tinypte SUBCOMMAND [ARGS...]   (`tinypte --help` lists the subcommands; see tinypte.cli)
"""

from __future__ import annotations

import sys

from tinypte.cli import main

if __name__ == "__main__":
    sys.exit(main())
