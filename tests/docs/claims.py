"""What the README tests share: a claim (a pattern the README must match exactly once, whose
groups must equal what the code or the build gives), its check, and the figures no check covers.
readme_test.py (the top README) and readmes_test.py (every other) build their claims and their
other ways of checking a figure on these."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Span = tuple[int, int]


@dataclass(frozen=True)
class Claim:
    what: str
    pattern: str  # groups: the quoted values
    expected: Callable[[], list[str]]
    said_by: str = "the code and build"  # where the expected values come from, for the message
    normalize: Callable[[str], str] = str  # how a quoted value is compared (e.g. as a float)


def check_claims(prefix: str, text: str, claims: list[Claim]) -> tuple[list[str], list[Span]]:
    """(problems, the spans of the README the claims matched); `prefix` starts each problem."""
    problems: list[str] = []
    covered: list[Span] = []
    for claim in claims:
        matches = list(re.finditer(claim.pattern, text, re.MULTILINE))
        if len(matches) != 1:
            problems.append(
                f"{prefix}{claim.what}: /{claim.pattern}/ matches the README {len(matches)} times, not once"
            )
            continue
        quoted, expected = [claim.normalize(q) for q in matches[0].groups()], claim.expected()
        if quoted != expected:
            problems.append(f"{prefix}{claim.what}: the README says {quoted}; {claim.said_by}: {expected}")
        covered.append(matches[0].span())
    return problems, covered


def unchecked_figures(
    text: str,
    figure: re.Pattern[str],
    covered: list[Span],
    checked_otherwise: Callable[[re.Match[str]], bool] = lambda _: False,
) -> tuple[list[tuple[int, str]], int]:
    """((line, figure) of each figure no covered span holds and `checked_otherwise` does not accept,
    how many figures there are)."""
    unchecked: list[tuple[int, str]] = []
    count = 0
    for found in figure.finditer(text):
        count += 1
        if any(start <= found.start() and found.end() <= end for start, end in covered):
            continue
        if not checked_otherwise(found):
            unchecked.append((text.count("\n", 0, found.start()) + 1, found.group()))
    return unchecked, count
