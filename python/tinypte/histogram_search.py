"""HistogramObserver's min/max search, with the same answer in a fraction of the time.

pt2e calibration with a HistogramObserver (CortexMQuantizer's activations) ends in
`_non_linear_param_search`: it walks the quantile bounds alpha and beta towards each other in
steps of 1e-5 (up to 100,000 steps), and at every step scans the cumulative histogram for the
bins the bounds fall in, comparing a 0-dim float32 tensor with a Python float each time. That
Python loop over tensor elements is a fifth of lowering one of ExecuTorch's Cortex-M test cases.

`install()` replaces the method with the same walk, taken in strides. The values alpha and beta
take are the same Python float sums as torch's (`ALPHAS`, `BETAS`: each the previous one plus or
minus 1e-5, computed once); each step's bounds are rounded to float32 as torch compares them
(a float32 tensor against a Python float compares in float32) and the bins they fall in are found
for all steps at once by binary search in the non-decreasing cumulative counts. A run of steps
that only moves beta without changing the bins (most of them) is skipped in one jump to the next
step that changes a bin or ends the walk. The quantization error of a candidate range is still
torch's own `_compute_quantization_error`, so the chosen range, and every program quantized with
it, are bit-identical (python/tests/histogram_search_test.py compares both on 150 histograms of
many shapes).
"""

from __future__ import annotations

import bisect
import importlib
import itertools
import operator
from typing import Any

import numpy as np
import numpy.typing as npt

# The observer classes whose search install() replaces (torchao's pt2e one is the one
# ExecuTorch's quantizers use; torch.ao's is its older twin).
OBSERVERS = (
    ("torchao.quantization.pt2e.observer", "HistogramObserver"),
    ("torch.ao.quantization.observer", "HistogramObserver"),
)
METHOD = "_non_linear_param_search"
STEP = 1e-5  # the search's granularity, as torch's


def to_float32(values: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """`values` rounded to the nearest float32 (ties to even), as torch casts a Python scalar to
    compare it with a float32 tensor; as float64, to compare with float64 counts exactly."""
    return np.asarray(values, dtype=np.float64).astype(np.float32).astype(np.float64)


# The values alpha and beta take, step by step, as torch's walk computes them (Python floats,
# summed one step at a time; lists for the walk, arrays for the bins of all steps at once).
# Alpha and beta meet after at most 1/STEP steps in all.
STEPS = int(1 / STEP) + 2
ALPHA_VALUES = list(itertools.accumulate(itertools.repeat(STEP, STEPS), initial=0.0))
BETA_VALUES = list(itertools.accumulate(itertools.repeat(STEP, STEPS), operator.sub, initial=1.0))
ALPHAS = np.array(ALPHA_VALUES)
BETAS = np.array(BETA_VALUES)


def bins_of(
    cumulative: npt.NDArray[np.float64], fractions: npt.NDArray[np.float64], total: float, side: str
) -> npt.NDArray[np.int64]:
    """For each fraction, where fraction * total (rounded to float32, as torch compares it) falls
    in the cumulative counts: the first bin at least it (side "left") or the last bin at most it
    (side "right"), over all bins; the walk clamps them to its current range."""
    bounds = to_float32(fractions * total)
    found: npt.NDArray[np.int64] = np.searchsorted(cumulative, bounds, side=side)  # type: ignore[call-overload]
    return found if side == "left" else found - 1


def search(observer: Any) -> tuple[Any, Any]:
    """The observer's new (min, max): what torch's `_non_linear_param_search` returns."""
    import torch

    assert observer.histogram.size()[0] == observer.bins, "bins mismatch"
    bin_width = (observer.max_val - observer.min_val) / observer.bins
    total = torch.sum(observer.histogram).item()
    cumulative = torch.cumsum(observer.histogram, dim=0).double().numpy()
    if bool(np.any(cumulative[1:] < cumulative[:-1])):  # negative counts: no binary search
        result: tuple[Any, Any] = observer.torch_non_linear_param_search()
        return result
    lefts = bins_of(cumulative, ALPHAS, total, "left").tolist()  # lefts[i]: alpha after i steps
    rights = bins_of(cumulative, BETAS, total, "right")  # rights[j]: beta after j steps
    falling_rights = -rights  # non-decreasing, for the jumps
    alphas, betas = ALPHA_VALUES, BETA_VALUES
    i = j = 0  # steps alpha and beta have taken
    start_bin, end_bin = 0, observer.bins - 1
    norm_min = float("inf")
    while alphas[i] < betas[j]:
        left = min(max(lefts[i + 1], start_bin), end_bin)
        if left == start_bin and int(rights[j + 1]) >= end_bin:
            # beta steps without changing a bin until the first step whose right bin is below
            # end_bin (rights[k] < end_bin), unless alpha and beta meet first (betas[m] <= alpha)
            k = int(np.searchsorted(falling_rights, -end_bin, side="right"))
            m = bisect.bisect_left(betas, -alphas[i], lo=j, key=operator.neg)
            if m <= k - 1:
                break
            j = k - 1
        right = min(max(int(rights[j + 1]), start_bin), end_bin)
        next_start_bin, next_end_bin = start_bin, end_bin
        if left - start_bin > end_bin - right:
            next_start_bin = left
            i += 1
        else:
            next_end_bin = right
            j += 1
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
