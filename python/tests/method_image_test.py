"""Unit tests of tinypte.firmware.method_image: the C a method image becomes. Every firmware test
runs the generated image (its outputs checked against PyTorch's); these pin the literal forms that
must be exact (int64 extremes, doubles by their bits) and that a host C compiler accepts the file."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tinypte.firmware import method_image

DOUBLES = [0.0, -0.0, 1.0, 0.1, -2.5e-300, 1e308, 5e-324, float("inf"), float("-inf")]


def bits(value: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def image() -> dict[str, object]:
    return {
        "pool_bytes": 64,
        "values": [
            {"tag": 0},
            {"tag": 1, "int": -(2**63)},
            {"tag": 1, "int": 2**63 - 1},
            {"tag": 2, "bool": 1},
            {"tag": 3, "double_bits": bits(0.1)},
            {"tag": 4, "tensor": 0},
            {"tag": 6, "ints": [1, -2, 3]},
            {"tag": 7, "double_bits": [bits(d) for d in DOUBLES]},
            {"tag": 8, "bools": {"program": 4}, "len": 2},
            {"tag": 10, "tensors": [0, -1]},
            {"tag": 4, "tensor": 1},
        ],
        "tensors": [
            {
                "data": {"buffer": 1, "offset": 16},
                "sizes": {"program": 8},
                "numel": 2,
                "nbytes": 8,
                "dim": 1,
                "dtype": 6,
                "constant": 0,
                "channels_last": 0,
            },
            {
                "data": {"program": 32},
                "sizes": {"program": 8},
                "numel": 2,
                "nbytes": 8,
                "dim": 1,
                "dtype": 6,
                "constant": 1,
                "channels_last": 0,
            },
        ],
        "instructions": [{"kind": 1, "op": 0, "args": [5, 10, 5]}, {"kind": 5}],
    }


def test_literals_are_exact() -> None:
    c = method_image.render(image(), "prog", {1: "buffer_1"}, "forward", "64u")
    assert "(-9223372036854775807LL - 1)" in c and "9223372036854775807LL" in c
    assert ".as.d = 0x1.999999999999ap-4" in c
    assert "__builtin_inf()" in c and "-__builtin_inf()" in c and "0x0.0000000000001p-1022" in c
    assert "(void *)(buffer_1 + 16)" in c and "(const int32_t *)(prog + 8)" in c
    assert ".nargs = 3, .op = 0, .first_arg = 0" in c and "{.kind = 5}" in c
    assert "(tp_value *)&image_values[10]" in c
    assert "return tp_method_init_image(method, program, &image, memory, &tp_selected_kernels);" in c


def test_empty_tables_are_left_out() -> None:
    small = image()
    small["values"] = [{"tag": 4, "tensor": 0}]
    small["tensors"] = small["tensors"][:1]  # type: ignore[index]
    c = method_image.render(small, "prog", {1: "buffer_1"}, "forward", "64u")
    assert "image_ints" not in c and "image_doubles" not in c and "image_tensor_items" not in c


def test_a_host_compiler_takes_it_warning_free(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "a host C compiler (cc) is needed"
    runtime = Path("runtime/include")
    assert (runtime / "tinypte/image.h").is_file(), "the runtime's headers are this test's data"
    c = (
        '#include <stdint.h>\n#include "tinypte/image.h"\n'
        "const uint8_t prog[64] __attribute__((aligned(16)));\nuint8_t buffer_1[32];\n"
        + method_image.render(image(), "prog", {1: "buffer_1"}, "forward", "64u")
    )
    source = tmp_path / "image.c"
    source.write_text(c)
    run = subprocess.run(
        [
            compiler,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-c",
            f"-I{runtime}",
            str(source),
            "-o",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
