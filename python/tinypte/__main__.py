"""`python -m tinypte SUBCOMMAND ARGS...`: the same command line as //python:tinypte."""

import sys

from tinypte.cli import main

sys.exit(main())
