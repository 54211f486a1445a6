"""Every conformance case, in one list: the hand-written core (cases.py), the operator families
of the portable-kernel parity work (cases_<family>.py), the channels-last ones and the int8 programs (cases_int8.py).

generate.py, cases_test.py and the coverage test read ALL_CASES; names are unique across files.
"""

from __future__ import annotations

import cases
import cases_binary
import cases_channels_last
import cases_compare
import cases_index
import cases_int8
import cases_reduce
import cases_shape
import cases_spatial
import cases_unary
from cases import Case

FLOAT_CASES: list[Case] = (
    cases.CASES
    + cases_unary.CASES
    + cases_binary.CASES
    + cases_compare.CASES
    + cases_reduce.CASES
    + cases_shape.CASES
    + cases_index.CASES
    + cases_spatial.CASES
    + cases_channels_last.CASES
)
ALL_CASES: list[Case] = FLOAT_CASES + cases_int8.INT8_CASES
