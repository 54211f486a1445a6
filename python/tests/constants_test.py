"""Constants that C and Python share have one source, and its copies agree with it.

- runtime/README.md's status table is `TP_STATUS_LIST` (status.h), row for row.
- The dtypes of `TP_DTYPE_LIST` (value.h), which tinypte.headers.dtypes reads, carry the numbers
  ExecuTorch's scalar_type.fbs gives their ScalarType names, and map to the NumPy and
  torch dtypes of the same name and element size.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from tinypte.errors import TinypteError
from tinypte.headers import c_constants, dtypes

# The lists hold at least these many entries today; fewer means the parser missed some.
MIN_STATUSES = 15
MIN_DTYPES = 9


def readme() -> Path:
    return c_constants.RUNTIME_INCLUDE.parents[1] / "README.md"


def test_status_codes_are_dense_and_named() -> None:
    statuses = c_constants.read_statuses()
    assert len(statuses) >= MIN_STATUSES, statuses
    assert [s.code for s in statuses] == list(range(len(statuses)))
    assert statuses[0].name == "TP_OK"
    assert all(s.name.startswith("TP_ERR_") and s.message for s in statuses[1:])


def test_readme_status_table_is_the_status_list() -> None:
    rows = re.findall(r"^\| (\d+) \| `(TP_\w+)` \| (.*) \|$", readme().read_text(), re.MULTILINE)
    expected = [(str(s.code), s.name, s.message) for s in c_constants.read_statuses()]
    assert rows == expected, "runtime/README.md's status table differs from TP_STATUS_LIST in status.h"


def executorch_scalar_types() -> dict[str, int]:
    spec = importlib.util.find_spec("executorch")
    assert spec is not None and spec.submodule_search_locations
    fbs = Path(next(iter(spec.submodule_search_locations))) / "schema" / "scalar_type.fbs"
    body = fbs.read_text().split("enum ScalarType", 1)[1].split("}", 1)[0]
    return {name: int(number) for name, number in re.findall(r"^\s*(\w+) = (\d+),", body, re.MULTILINE)}


def test_dtypes_have_executorchs_scalar_type_numbers() -> None:
    assert len(dtypes.DTYPES) >= MIN_DTYPES
    fbs = executorch_scalar_types()
    for dtype in dtypes.DTYPES:
        assert fbs[dtype.fbs_name] == dtype.scalar_type, dtype


@pytest.mark.parametrize("dtype", dtypes.DTYPES, ids=lambda d: d.name)
def test_dtype_maps_to_numpy_and_torch(dtype: dtypes.Dtype) -> None:
    assert dtype.numpy.itemsize == dtype.size
    assert torch.empty((), dtype=dtype.torch).element_size() == dtype.size
    assert dtypes.by_numpy(dtype.numpy) is dtype
    assert dtypes.by_torch(dtype.torch) is dtype
    assert dtypes.by_scalar_type(dtype.scalar_type) is dtype
    assert dtypes.by_fbs_name(dtype.fbs_name.lower()) is dtype


def test_unknown_dtype_is_a_clear_error() -> None:
    with pytest.raises(TinypteError, match=r"'bfloat16' is not a dtype tinypte knows \(uint8, int8"):
        dtypes.by_name("bfloat16")
    with pytest.raises(TinypteError, match="numpy dtype 'complex64'"):
        dtypes.by_numpy(np.dtype("complex64"))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
