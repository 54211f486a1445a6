"""Errors of tinypte's AOT tools, and how command-line entry points report them.

`TinypteError` (and subclasses) are user errors: the message says what is wrong and how to
fix it, and the CLI prints it as one `error: ...` line with exit status 1. Anything else
is a bug in tinypte and keeps its traceback (`InternalError` marks ones we detect).
"""

from __future__ import annotations

import sys
from collections.abc import Callable


class TinypteError(Exception):
    """A problem with the user's input (model, .pte, board): the message is for them."""


class InternalError(Exception):
    """A broken invariant inside tinypte: please report it with the traceback."""


def run_cli(body: Callable[[], None]) -> int:
    """Run a CLI body; TinypteError -> one `error:` line on stderr and status 1."""
    try:
        body()
    except TinypteError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
