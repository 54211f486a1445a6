"""Conformance cases of the shape operator family (portable-kernel parity): see cases.py for
how a case is written."""

from __future__ import annotations

from cases import Case

CASES: list[Case] = []
