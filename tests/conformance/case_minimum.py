"""The exit status of a test that runs a suite of cases: it fails when the suite checked fewer
cases than the test requires (a suite that shrank must not pass unnoticed), and on any problem.

    return exit_status(problems, cases, min_cases, "coverage: ", "cases")
"""

from __future__ import annotations

from collections.abc import Sized


def min_cases(argv: list[str]) -> int:
    """N of the `--min-cases=N` argument."""
    return int(next(a for a in argv if a.startswith("--min-cases=")).removeprefix("--min-cases="))


def exit_status(problems: Sized, cases: int, minimum: int, prefix: str, counted: str) -> int:
    """1 (printing "<prefix>FAIL only <cases> <counted>, at least <minimum> required") when
    fewer than `minimum` cases were checked; else 1 when there are problems, 0 when none."""
    if cases < minimum:
        print(f"{prefix}FAIL only {cases} {counted}, at least {minimum} required")
        return 1
    return 1 if len(problems) else 0
