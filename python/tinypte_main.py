"""Entry point of the toolkit binaries: //python:tinypte and every stage's tool (python/defs.bzl).

usage: tinypte SUBCOMMAND [ARGS...]   (`tinypte --help` lists the subcommands; see tinypte.cli)
"""

from __future__ import annotations

import sys

from tinypte.cli import main

if __name__ == "__main__":
    sys.exit(main())
