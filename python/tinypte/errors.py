"""Errors of tinypte's AOT tools.

`TinypteError` (and subclasses) are user errors: the message says what is wrong and how to
fix it, and the CLI (tinypte.cli) prints it as one `error: ...` line with exit status 1.
Anything else is a bug in tinypte and keeps its traceback (`InternalError` marks ones we
detect).
"""

from __future__ import annotations


class TinypteError(Exception):
    """A problem with the user's input (model, .pte, board): the message is for them."""


class InternalError(Exception):
    """A broken invariant inside tinypte: please report it with the traceback."""


def innermost(error: BaseException) -> BaseException:
    """The innermost exception of a chain: what ExecuTorch's pass managers wrap in their own."""
    while (error.__cause__ or error.__context__) is not None:
        error = error.__cause__ or error.__context__  # type: ignore[assignment]
    return error
