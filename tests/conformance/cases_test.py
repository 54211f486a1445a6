"""cases.py is well formed; embed.py renders valid tables; one case goes through generate.py.

Does not export every case (generate.py does that): only `add_same`, end to end.

usage: python tests/conformance/cases_test.py   (or pytest on this file)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import all_cases
import cases
import embed
import pytest
import torch

from tinypte.headers import c_constants

OPERATOR = re.compile(r"[a-z_]+::[a-z0-9_]+\.[A-Za-z0-9_]+")
KERNELS = {  # every kernel of the runtime must be exercised by at least one case
    cases.ADDMM, cases.MM, cases.BMM, cases.ADD, cases.SUB, cases.MUL, cases.DIV, cases.RELU, cases.HARDTANH,
    cases.SIGMOID, cases.TANH, cases.GELU, cases.CLAMP, cases.SOFTMAX, cases.LOG_SOFTMAX, cases.PERMUTE,
    cases.VIEW, cases.CLONE, cases.EXPAND, cases.CAT, cases.SQUEEZE, cases.UNSQUEEZE, cases.CONV, cases.MAX_POOL,
    cases.AVG_POOL, cases.MEAN, cases.SUM, cases.LAYER_NORM, cases.BATCH_NORM, cases.PAD, cases.ARGMAX,
    cases.FULL, cases.FULL_LIKE,
}  # fmt: skip


ALL_CASES = all_cases.ALL_CASES


def test_names_are_unique_c_identifiers() -> None:
    names = [c.name for c in ALL_CASES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for name in names:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name


def test_case_count() -> None:
    supported = [c for c in ALL_CASES if c.unsupported is None]
    assert len(supported) >= int(os.environ["TINYPTE_MIN_CASES"]), "cases went missing (MIN_CASES in conformance.bzl)"


def test_every_case_lists_operators() -> None:
    for case in ALL_CASES:
        assert case.operators, case.name
        assert len(set(case.operators)) == len(case.operators), case.name
        for operator in case.operators:
            assert OPERATOR.fullmatch(operator), (case.name, operator)


def test_every_kernel_is_covered_several_times() -> None:
    supported = [c for c in ALL_CASES if c.unsupported is None]
    for kernel in KERNELS:
        count = sum(kernel in c.operators for c in supported)
        assert count >= (1 if kernel in (cases.FULL,) else 2), (kernel, count)


def test_inputs_and_tolerances() -> None:
    dtypes = (torch.float32, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool)
    for case in all_cases.FLOAT_CASES:
        assert case.inputs, case.name
        for tensor in case.inputs:
            assert isinstance(tensor, torch.Tensor) and tensor.dtype in dtypes, case.name
            assert tensor.is_contiguous() or tensor.is_contiguous(memory_format=torch.channels_last), case.name
        assert 0.0 <= case.tolerance.rel <= 1e-4 and 0.0 <= case.tolerance.abs <= 1e-3, case.name
        assert 0 <= case.tolerance.ulps <= 16, case.name
        assert case.unsupported is None or case.unsupported.strip(), case.name
        assert not case.module.training, case.name


def test_cases_are_deterministic() -> None:
    again = cases.case("add_same", cases.Fn(torch.add), [cases.f32(2, 3), cases.f32(2, 3)], [cases.ADD])
    first = next(c for c in cases.CASES if c.name == "add_same")
    for a, b in zip(first.inputs, again.inputs, strict=True):
        assert torch.equal(a, b)


def fake_manifest(directory: Path) -> Path:
    (directory / "k.pte").write_bytes(bytes(range(20)))
    (directory / "k.in0.bin").write_bytes(bytes(8))
    (directory / "k.expected0.bin").write_bytes(bytes(16))
    case = {"name": "k", "pte": "k.pte", "operators": ["aten::add.out"],
            "inputs": [{"file": "k.in0.bin", "dtype": "int32", "shape": [2]}],
            "outputs": [{"file": "k.expected0.bin", "dtype": "int64", "shape": [2]}],
            "tolerance": {"rel": 0, "abs": 0}}  # fmt: skip
    manifest = directory / "manifest.json"
    manifest.write_text(json.dumps({"cases": [case]}))
    return manifest


# What pte_requirements would report: the arena the largest case needs, for a 32-bit layout.
FAKE_MEMORY = embed.Memory(arena_bytes=4096, layout={"sizeof(void *)": 4, "alignof(int64_t)": 8})


def test_embed_renders_aligned_tables(tmp_path: Path) -> None:
    header, source = embed.render(embed.load(fake_manifest(tmp_path), None), "cases.h", FAKE_MEMORY)
    assert "#define TP_CONFORMANCE_ARENA_BYTES 4096u" in header
    assert "_Static_assert(sizeof(void *) == 4, " in source
    assert "extern const tp_conformance_case tp_conformance_cases[];" in header
    assert "static const uint8_t tp_case_k_pte[20] __attribute__((aligned(16))) =" in source
    assert "static const uint8_t tp_case_k_in0[8] __attribute__((aligned(8))) =" in source
    # The bytes as one string literal of hex escapes, exactly the array's length (no null).
    assert '    "' + "".join(f"\\x{b:02x}" for b in range(20)) + '";' in source
    assert '{ "k", tp_case_k_pte, 20u, tp_case_k_in, 1u, tp_case_k_expected, 1u, 0.0f, 0.0f, 0u },' in source
    assert "{ tp_case_k_expected0, 16u, TP_DTYPE_INT64 }," in source
    assert "const uint32_t tp_conformance_case_count = 1u;" in source
    assert str(tmp_path) not in header + source


def test_embed_rejects_a_wrong_size(tmp_path: Path) -> None:
    manifest = fake_manifest(tmp_path)
    (tmp_path / "k.in0.bin").write_bytes(bytes(7))
    with pytest.raises(embed.EmbedError, match="holds 7 B"):
        embed.load(manifest, None)


@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="no arm-none-eabi-gcc")
def test_embed_output_compiles(tmp_path: Path) -> None:
    header, source = embed.render(embed.load(fake_manifest(tmp_path), None), "cases.h", FAKE_MEMORY)
    (tmp_path / "cases.h").write_text(header)
    (tmp_path / "cases.c").write_text(source)
    flags = ["-mcpu=cortex-m33", "-mthumb", "-Os", "-std=c11", "-Wall", "-Wextra", "-Werror"]
    flags.append(f"-I{c_constants.RUNTIME_INCLUDE.parent}")
    subprocess.run(["arm-none-eabi-gcc", *flags, "-c", "cases.c"], cwd=tmp_path, check=True)


def test_generate_one_case(tmp_path: Path) -> None:
    import generate

    assert generate.main(["--out", str(tmp_path), "--only", "^add_same$"]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    [entry] = manifest["cases"]
    assert entry["operators"] == [cases.ADD]
    assert entry["inputs"] == [{"file": "add_same.in0.bin", "dtype": "float32", "shape": [2, 3]},
                               {"file": "add_same.in1.bin", "dtype": "float32", "shape": [2, 3]}]  # fmt: skip
    inputs = [(tmp_path / i["file"]).read_bytes() for i in entry["inputs"]]
    a, b = (torch.frombuffer(bytearray(data), dtype=torch.float32) for data in inputs)
    expected = torch.frombuffer(bytearray((tmp_path / "add_same.expected0.bin").read_bytes()), dtype=torch.float32)
    assert torch.equal(expected, a + b)


if __name__ == "__main__":
    os.environ["TINYPTE_MIN_CASES"] = sys.argv[1].removeprefix("--min-cases=")
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
