"""Unit tests of the AOT toolkit's stages on a tiny model file: training and export are
reproducible, errors in a model file are reported at its file and line, golden data
round-trips (for int8, from the quantize stage's own program), inspect sees the program,
and the header is valid C holding the bytes."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from tiny_model import TINY, write_model

from tinypte.cli import main
from tinypte.golden import format as golden


def run_train(model: Path, out: Path) -> int:
    return main(["train", "--model", str(model), "--weights", str(out / "m.pt"), "--metrics", str(out / "m.json")])


def run_export(model: Path, out: Path) -> int:
    """Train, then export: the two stages a float model's .pte comes from."""
    return run_train(model, out) or main(
        ["export", "--model", str(model), "--weights", str(out / "m.pt"), "--pte", str(out / "m.pte")]
    )


def test_training_and_export_are_bit_identical_run_to_run(tmp_path: Path) -> None:
    model = write_model(tmp_path)
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        assert run_export(model, tmp_path / run) == 0
    for name in ("m.pt", "m.json", "m.pte"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert (tmp_path / "a" / "m.pte").read_bytes()[4:8] == b"ET12"
    assert json.loads((tmp_path / "a" / "m.json").read_text())["metrics"] == {"loss": 1.0}


def test_weights_of_another_model_are_a_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = write_model(tmp_path)
    assert run_train(model, tmp_path) == 0
    (tmp_path / "wider").mkdir()
    layers = "nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)"
    wider = write_model(tmp_path / "wider", TINY.replace(layers, "nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1)"))
    args = ["export", "--model", str(wider), "--weights", str(tmp_path / "m.pt"), "--pte", str(tmp_path / "w.pte")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"error: {tmp_path / 'm.pt'} does not fit the model {wider} builds: '0.weight' is [3, 2] there" in err, err
    assert not (tmp_path / "w.pte").exists()


def test_exception_in_train_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = TINY.replace('    log("tiny: trained")', '    raise ValueError("learning rate is negative")')
    model = write_model(tmp_path, broken)
    line = broken.splitlines().index('    raise ValueError("learning rate is negative")') + 1
    assert run_export(model, tmp_path) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"error: {model}:{line}: train() failed: ValueError: learning rate is negative"


UNEXPORTABLE = TINY.replace(
    "def build():\n    return nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))",
    """class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)
    def forward(self, x):
        y = self.fc(x)
        if y.sum() > 0:  # Python control flow on a tensor value: torch.export refuses it
            return y
        return -y
def build():
    return Branchy()""",
)


def test_export_failure_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = write_model(tmp_path, UNEXPORTABLE)
    line = (
        UNEXPORTABLE.splitlines().index(
            "        if y.sum() > 0:  # Python control flow on a tensor value: torch.export refuses it"
        )
        + 1
    )
    assert run_export(model, tmp_path) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"error: {model}:{line}: ExecuTorch export failed: "), err[-1]


def test_missing_hook_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = write_model(tmp_path, TINY.replace("def build():", "def build_it():"))
    assert run_export(model, tmp_path) == 1
    assert "missing build;" in capsys.readouterr().err


def test_acceptance_failure_gives_the_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = write_model(tmp_path, TINY.replace('{"loss": 1.0}', '{"loss": 12.5}'))
    assert run_export(model, tmp_path) == 1
    assert "loss = 12.5, but ACCEPTANCE needs <= 10" in capsys.readouterr().err


def test_golden_inspect_and_header(tmp_path: Path) -> None:
    model = write_model(tmp_path)
    assert run_export(model, tmp_path) == 0
    out = tmp_path / "golden.bin"
    assert main(["golden", "--model", str(model), "--weights", str(tmp_path / "m.pt"), "--out", str(out)]) == 0
    data = golden.Golden.from_bytes(out.read_bytes())
    assert len(data.inputs) == 5 and data.tolerance == pytest.approx(1e-6)
    assert data.inputs[3][0].tolist() == [[3.0, 1.0]] and data.outputs[0][0].dtype == np.float32
    assert golden.Golden.from_bytes(data.to_bytes()).to_bytes() == out.read_bytes()

    ops, plan = tmp_path / "ops.json", tmp_path / "plan.json"
    assert (
        main(["inspect_pte", "--pte", str(tmp_path / "m.pte"), "--ops-json", str(ops), "--plan-json", str(plan)]) == 0
    )
    names = {o["name"] for o in json.loads(ops.read_text())["operators"]}
    assert "aten::relu" in names
    memory = json.loads(plan.read_text())
    assert memory["non_const_buffer_sizes"][0] == 0
    bound = memory["call_bound"]
    live = max(sum(t["nbytes"] for t in memory["tensors"] if t["first_use"] <= pc <= t["last_use"])
               for pc in range(memory["instructions"]))  # fmt: skip
    assert 0 < bound["bytes"] <= live <= sum(memory["non_const_buffer_sizes"]) and bound["operator"].startswith(
        "aten::"
    )

    h, c = tmp_path / "m_program.h", tmp_path / "m_program.c"
    args = ["--pte", str(tmp_path / "m.pte"), "--name", "m", "--label", "//x:m", "--out-h", str(h), "--out-c", str(c)]
    assert main(["header", *args]) == 0
    pte = (tmp_path / "m.pte").read_bytes()
    assert f"#define M_PTE_SIZE {len(pte)}u" in h.read_text()
    assert f'#define M_PTE_SHA256 "{hashlib.sha256(pte).hexdigest()}"' in h.read_text()
    assert "extern const uint8_t m_pte[M_PTE_SIZE];" in h.read_text()
    source = c.read_text()
    assert '#include "m_program.h"' in source
    assert '__attribute__((section(".rodata.tinypte.model"), aligned(16)))' in source
    body = source[source.index("m_pte[M_PTE_SIZE] =") : source.rindex(";")]
    assert bytes(int(b, 16) for b in re.findall(r"\\x([0-9a-f]{2})", body)) == pte


def test_int8_golden_runs_the_quantize_stage_s_own_program(tmp_path: Path) -> None:
    """The golden stage of an int8 model runs the edge program the quantize stage lowered, and
    gets what that program computed while it was being quantized: its golden inputs are the
    model's, quantized as the program's first step did before its input became int8, and its
    int8 outputs dequantize to the float-I/O program's outputs."""
    import torch

    from tinypte.model import loading
    from tinypte.program_files import edge_file
    from tinypte.quantize import flow

    model = write_model(tmp_path)
    assert run_export(model, tmp_path) == 0
    outs = {name: tmp_path / name for name in ("q.pte", "q.json", "q.edge", "golden.bin")}
    quantize = ["quantize", "--model", str(model), "--weights", str(tmp_path / "m.pt"), "--metrics",
                str(tmp_path / "m.json"), "--float-pte", str(tmp_path / "m.pte"), "--pte", str(outs["q.pte"]),
                "--report", str(outs["q.json"]), "--edge-program", str(outs["q.edge"])]  # fmt: skip
    assert main(quantize) == 0
    golden_args = ["golden", "--model", str(model), "--edge-program", str(outs["q.edge"]), "--out",
                   str(outs["golden.bin"])]  # fmt: skip
    assert main(golden_args) == 1  # the program's I/O quantization is in its .pte
    assert main([*golden_args, "--program", str(outs["q.pte"])]) == 0
    data = golden.Golden.from_bytes(outs["golden.bin"].read_bytes())

    module = loading.load(model)
    loading.deterministic(0)
    trained = loading.trained(model, module, tmp_path / "m.pt")
    reference = flow.quantize_model(model, module, trained, (torch.zeros(1, 2),)).edge.exported_program().module()
    report = json.loads(outs["q.json"].read_text())
    io = {q["kind"]: q for q in report["io"]["quantized"]}
    assert set(io) == {"input", "output"} and report["io"]["float"] == []
    expected_quantization = [(float(np.float32(io[k]["scale"])), io[k]["zero_point"]) for k in ("input", "output")]
    assert data.quantization == expected_quantization
    cases = module.golden_inputs()
    assert len(data.inputs) == len(cases) == 5
    for (real,), inputs, outputs in zip(cases, data.inputs, data.outputs, strict=True):
        q_in = torch.ops.quantized_decomposed.quantize_per_tensor(
            real, io["input"]["scale"], io["input"]["zero_point"], -128, 127, torch.int8
        )
        assert inputs[0].dtype == np.int8 and np.array_equal(inputs[0], q_in.numpy())
        with torch.no_grad():
            expected = reference(real).numpy()
        scale, zero_point = np.float32(io["output"]["scale"]), io["output"]["zero_point"]
        assert outputs[0].dtype == np.int8
        assert np.array_equal((outputs[0].astype(np.float32) - zero_point) * scale, expected)
    assert report["float"]["metrics"] == {"loss": 1.0} and report["int8"]["pte_bytes"] == outs["q.pte"].stat().st_size
    # Same program, same file: no stack traces or ids of the run in it.
    again = tmp_path / "again.edge"
    assert main([*quantize[:-1], str(again)]) == 0
    assert again.read_bytes() == outs["q.edge"].read_bytes()
    assert edge_file.EdgeProgramFile.from_bytes(again.read_bytes(), "again").exported_program.startswith(b"{")
    # --float-io: the program quantizes and dequantizes itself, and its golden data is float.
    float_io = [*quantize[:-1], str(tmp_path / "f.edge"), "--float-io"]
    float_io[float_io.index(str(outs["q.pte"]))] = str(tmp_path / "f.pte")
    assert main(float_io) == 0
    assert json.loads(outs["q.json"].read_text())["io"] == {"quantized": [], "float": ["float I/O asked for"]}
    assert main(["golden", "--model", str(model), "--edge-program", str(tmp_path / "f.edge"), "--program",
                 str(tmp_path / "f.pte"), "--out", str(outs["golden.bin"])]) == 0  # fmt: skip
    data = golden.Golden.from_bytes(outs["golden.bin"].read_bytes())
    assert data.inputs[0][0].dtype == np.float32 and data.outputs[0][0].dtype == np.float32
    assert data.quantization == [None, None]


def test_call_bound_counts_each_planned_tensor_of_a_call_once() -> None:
    from tinypte.inspect_pte.command import call_bound

    def tensor(n: int, planned: bool = True) -> dict[str, object]:
        info = {"memory_id": 1, "memory_offset_low": 0, "memory_offset_high": 0} if planned else None
        return {"val_type": "Tensor", "val": {"scalar_type": "FLOAT", "sizes": [n], "allocation_info": info}}

    values = [tensor(4), tensor(8), tensor(100, planned=False), {"val_type": "TensorList", "val": {"items": [0, 1]}},
              {"val_type": "Int", "val": {"int_val": 3}}, tensor(2)]  # fmt: skip
    calls = [[0, 1, 4], [3, 0, 5, 2], [5]]  # 48 B; 16 + 32 + 8 (0 once, the constant not at all); 8 B
    plan = {"values": values, "operators": [{"name": "aten::cat", "overload": "out"}],
            "chains": [{"instructions": [{"instr_args_type": "KernelCall", "instr_args": {"op_index": 0, "args": a}}
                                         for a in calls]}]}  # fmt: skip
    assert call_bound(plan) == (56, 1, "aten::cat.out")


def test_corrupt_inputs_are_user_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(Exception, match="not golden data"):
        golden.Golden.from_bytes(b"XXXX" + bytes(20))
    bad = tmp_path / "bad.pte"
    bad.write_bytes(b"\0" * 64)
    assert main(["inspect_pte", "--pte", str(bad), "--ops-json", "/dev/null", "--plan-json", "/dev/null"]) == 1
    assert "not an ExecuTorch program" in capsys.readouterr().err
    bad.write_bytes(b"\xff\xff\x00\x00ET12" + bytes(range(256)) * 4)  # the identifier, then garbage
    assert main(["inspect_pte", "--pte", str(bad), "--ops-json", "/dev/null", "--plan-json", "/dev/null"]) == 1
    assert f"error: {bad}: cannot be read as an ExecuTorch program: " in capsys.readouterr().err
    edge = tmp_path / "bad.edge"
    edge.write_bytes(b"TPEP\x01\x00\x00\x00" + bytes(8))  # version 1, one empty blob, then nothing
    args = ["golden", "--model", str(write_model(tmp_path)), "--edge-program", str(edge), "--out", "/dev/null"]
    assert main(args) == 1
    assert f"error: {edge}: truncated edge program file" in capsys.readouterr().err


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
