"""The tensor dtypes tinypte knows, with their ExecuTorch ScalarType numbers and sizes.

There is one table, `TP_DTYPE_LIST` in runtime/include/tinypte/value.h: this module reads
it, so Python (golden data, conformance cases, kernel test cases) and C cannot disagree.
NumPy and torch dtypes are found by name ("float32" -> numpy.float32, torch.float32).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tinypte.errors import TinypteError
from tinypte.headers.c_constants import read_dtypes

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class Dtype:
    name: str  # "float32"
    scalar_type: int  # ExecuTorch ScalarType number, as stored in a .pte and in golden data
    size: int  # bytes per element
    fbs_name: str  # "FLOAT": the ScalarType enum name in scalar_type.fbs

    @property
    def c_enum(self) -> str:
        """The C enumerator, e.g. `TP_DTYPE_FLOAT32`."""
        return "TP_DTYPE_" + self.name.upper()

    @property
    def numpy(self) -> np.dtype[Any]:
        return np.dtype(self.name)

    @property
    def torch(self) -> torch.dtype:
        import torch

        value = getattr(torch, self.name)
        assert isinstance(value, torch.dtype)
        return value


DTYPES: tuple[Dtype, ...] = tuple(Dtype(d.name, d.scalar_type, d.size, d.fbs_name) for d in read_dtypes())


def _find(what: str, key: object, matches: list[Dtype]) -> Dtype:
    if not matches:
        known = ", ".join(d.name for d in DTYPES)
        raise TinypteError(f"{what} {key!r} is not a dtype tinypte knows ({known})")
    return matches[0]


def by_name(name: str) -> Dtype:
    return _find("dtype", name, [d for d in DTYPES if d.name == name])


def by_scalar_type(number: int) -> Dtype:
    return _find("ScalarType", number, [d for d in DTYPES if d.scalar_type == number])


def by_fbs_name(fbs_name: str) -> Dtype:
    return _find("ScalarType", fbs_name, [d for d in DTYPES if d.fbs_name == fbs_name.upper()])


def by_numpy(dtype: np.dtype[Any]) -> Dtype:
    return _find("numpy dtype", str(dtype), [d for d in DTYPES if d.numpy == dtype])


def by_torch(dtype: torch.dtype) -> Dtype:
    return _find("torch dtype", str(dtype), [d for d in DTYPES if d.name == str(dtype).removeprefix("torch.")])
