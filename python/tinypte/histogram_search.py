"""HistogramObserver's min/max search, with the same answer in a fraction of the time.

pt2e calibration with a HistogramObserver (CortexMQuantizer's activations) ends in
`_non_linear_param_search`: it walks the quantile bounds alpha and beta towards each other in
steps of 1e-5 (up to 100,000 steps), and at every step scans the cumulative histogram for the
bins the bounds fall in, comparing a 0-dim float32 tensor with a Python float each time. That
Python loop over tensor elements is a fifth of lowering one of ExecuTorch's Cortex-M test cases.

`install()` replaces the method with the same walk over a list of the cumulative counts: the
same steps of alpha and beta (the same Python float arithmetic), the bins found by binary search
in the non-decreasing cumulative counts, and each comparison made as torch makes it (a float32
tensor against a Python float compares in float32: the float is rounded to float32 first). The
quantization error of a candidate range is still torch's own `_compute_quantization_error`, so
the chosen range, and every program quantized with it, are bit-identical
(python/tests/histogram_search_test.py compares both on 150 histograms of many shapes).
"""

from __future__ import annotations

import bisect
import importlib
import itertools
import struct
from typing import Any

# The observer classes whose search install() replaces (torchao's pt2e one is the one
# ExecuTorch's quantizers use; torch.ao's is its older twin).
OBSERVERS = (
    ("torchao.quantization.pt2e.observer", "HistogramObserver"),
    ("torch.ao.quantization.observer", "HistogramObserver"),
)
METHOD = "_non_linear_param_search"
STEP = 1e-5  # the search's granularity, as torch's


def to_float32(value: float) -> float:
    """`value` rounded to the nearest float32 (ties to even), as torch casts a Python scalar."""
    result: float = struct.unpack("<f", struct.pack("<f", value))[0]
    return result


def first_at_least(cumulative: list[float], bound: float, start: int, end: int) -> int:
    """The first bin in [start, end) whose cumulative count is not below `bound`, else `end`."""
    return bisect.bisect_left(cumulative, bound, start, end)


def last_at_most(cumulative: list[float], bound: float, start: int, end: int) -> int:
    """The last bin in (start, end] whose cumulative count is not above `bound`, else `start`."""
    return bisect.bisect_right(cumulative, bound, start + 1, end + 1) - 1


def search(observer: Any) -> tuple[Any, Any]:
    """The observer's new (min, max): what torch's `_non_linear_param_search` returns."""
    import torch

    assert observer.histogram.size()[0] == observer.bins, "bins mismatch"
    bin_width = (observer.max_val - observer.min_val) / observer.bins
    total = torch.sum(observer.histogram).item()
    cumulative: list[float] = torch.cumsum(observer.histogram, dim=0).tolist()
    if any(b < a for a, b in itertools.pairwise(cumulative)):  # negative counts: no bisection
        result: tuple[Any, Any] = observer.torch_non_linear_param_search()
        return result
    alpha, beta = 0.0, 1.0
    start_bin, end_bin = 0, observer.bins - 1
    norm_min = float("inf")
    while alpha < beta:
        next_alpha = alpha + STEP
        next_beta = beta - STEP
        left = first_at_least(cumulative, to_float32(next_alpha * total), start_bin, end_bin)
        right = last_at_most(cumulative, to_float32(next_beta * total), start_bin, end_bin)
        next_start_bin, next_end_bin = start_bin, end_bin
        if left - start_bin > end_bin - right:
            next_start_bin = left
            alpha = next_alpha
        else:
            next_end_bin = right
            beta = next_beta
        if next_start_bin == start_bin and next_end_bin == end_bin:
            continue
        norm = observer._compute_quantization_error(next_start_bin, next_end_bin)
        if norm > norm_min:
            break
        norm_min = norm
        start_bin, end_bin = next_start_bin, next_end_bin
    return observer.min_val + bin_width * start_bin, observer.min_val + bin_width * (end_bin + 1)


def observer_classes() -> list[Any]:
    """The installed observer classes that have the method install() replaces."""
    found = []
    for module_name, class_name in OBSERVERS:
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):
            continue
        if callable(getattr(cls, METHOD, None)) and callable(getattr(cls, "_compute_quantization_error", None)):
            found.append(cls)
    return found


def install() -> bool:
    """Replace the search in every observer class found (idempotent); False if none is found."""
    classes = observer_classes()
    for cls in classes:
        if getattr(cls, METHOD) is not search:
            cls.torch_non_linear_param_search = getattr(cls, METHOD)
            setattr(cls, METHOD, search)
    return bool(classes)
