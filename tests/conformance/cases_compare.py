"""Conformance cases of the comparison, bitwise and logical operators (portable-kernel parity):
see cases.py for how a case is written."""

from __future__ import annotations

from cases import Case

CASES: list[Case] = []
