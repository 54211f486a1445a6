"""Tensors laid out as a program's tensors are: in the memory order their dim order names.

A program's tensor with dim order (0, 2, 3, 1) (channels-last) keeps its sizes N, C, H, W but
holds its elements N, H, W, C: data handed to the runtime for it, and data compared with what
the runtime wrote, must be in that order. Used by the golden stage (program_golden.py) and the
ExecuTorch Cortex-M suite (tests/executorch_cortex_m/lower.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def in_memory_order(tensor: Any, dim_order: list[int]) -> npt.NDArray[Any]:
    """A torch tensor's elements in the memory order `dim_order` names (row-major for an empty or
    identity order), as a C-contiguous array shaped as the tensor's logical sizes."""
    values = tensor.detach()
    if dim_order and dim_order != sorted(dim_order):
        values = values.permute(*dim_order)
    return np.ascontiguousarray(values.contiguous().numpy()).reshape(tuple(tensor.shape))
