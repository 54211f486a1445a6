"""The program header's converters (tinypte.firmware.io_header) against the Cortex-M backend's quantize.

The header's `<name>_input0_quantize` must give what the program's own first step gave before
its input became int8 (`cortex_m::quantize_per_tensor`, which is quantized_decomposed's): this
compiles a header for several quantizations with the host C compiler and checks every value of
a sweep (random reals, exact halfway points, range ends, infinities) against it, and that
`<name>_output0_dequantize` is (q - zero_point) * scale for every q.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from tinypte.firmware import io_header
from tinypte.program_files.io_quantization import IoQuantization

QUANTIZATIONS = [(0.024627910926938057, -128), (0.012440258637070656, -33), (0.00799888651818037, -1), (1.0, 0),
                 (0.5, 127), (3.0e-5, 5)]  # fmt: skip
MIN_VALUES_PER_QUANTIZATION = 17_000

MAIN = r"""
#include <stdio.h>
#include "io.h"
int main(void) {
  float x;
  while (fread(&x, 4, 1, stdin) == 1) {
    int8_t q = t_input0_quantize(x);
    float back = t_output0_dequantize(q);
    fwrite(&q, 1, 1, stdout);
    fwrite(&back, 4, 1, stdout);
  }
  return 0;
}
"""


def sweep(scale: float, generator: np.random.Generator) -> npt.NDArray[np.float32]:
    """Reals to quantize: spread over the range and past it, halfway points, ends, infinities."""
    spread = generator.normal(0.0, 200.0 * scale, 16_000).astype(np.float32)
    halves = ((np.arange(-300, 300) + 0.5) * np.float32(scale)).astype(np.float32)
    steps = (np.arange(-300, 300) * np.float32(scale)).astype(np.float32)
    ends = np.array([np.inf, -np.inf, 0.0, -0.0, 1e30, -1e30], dtype=np.float32)
    reciprocal = np.float32(1.0 / scale)
    exact_halves = (np.arange(-200, 200) + np.float32(0.5)) / reciprocal  # x * reciprocal lands on k + 0.5
    return np.concatenate([spread, halves, steps, ends, exact_halves.astype(np.float32)])


@pytest.mark.parametrize(("scale", "zero_point"), QUANTIZATIONS)
def test_converters_match_the_reference(scale: float, zero_point: int, tmp_path: Path) -> None:
    import torch
    import torch.ao.quantization.fx._decomposed

    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "a host C compiler (cc) is needed"
    quantized = [IoQuantization("input", 0, scale, zero_point, -128, 127, "int8"),
                 IoQuantization("output", 0, scale, zero_point, -128, 127, "int8")]  # fmt: skip
    (tmp_path / "io.h").write_text("#include <stdint.h>\n" + io_header.render(quantized, "t"))
    (tmp_path / "main.c").write_text(MAIN)
    binary = tmp_path / "convert"
    subprocess.run([compiler, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-ffp-contract=off", "-o", str(binary),
                    str(tmp_path / "main.c")], check=True)  # fmt: skip
    values = sweep(scale, np.random.default_rng(7))
    out = subprocess.run([str(binary)], input=values.tobytes(), capture_output=True, check=True).stdout
    records = np.frombuffer(out, dtype=np.dtype([("q", np.int8), ("back", "<f4")]))
    assert len(records) == len(values) >= MIN_VALUES_PER_QUANTIZATION
    expected = torch.ops.quantized_decomposed.quantize_per_tensor(
        torch.from_numpy(values), scale, zero_point, -128, 127, torch.int8
    ).numpy()
    wrong = np.flatnonzero(records["q"] != expected)
    assert wrong.size == 0, (
        f"{wrong.size} values differ, first {values[wrong[0]]!r}: {records['q'][wrong[0]]} vs {expected[wrong[0]]}"
    )
    back = (records["q"].astype(np.int32) - zero_point).astype(np.float32) * np.float32(scale)
    assert np.array_equal(records["back"], back)


def test_float_literals_read_back_exactly() -> None:
    for value in (0.024627910926938057, 1.0, 3.0e-5, 40.60433578491211, 1e-38):
        text = io_header.c_float(value).removesuffix("f")
        assert np.float32(float(text)) == np.float32(value), text


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
