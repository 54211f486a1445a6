"""The NPU model against tosa_reference_model: each case of npu_cases.py is lowered for the
Ethos-U55 (ExecuTorch's Arm backend, Vela), and run_blob's outputs on seeded random int8
inputs must equal, byte for byte, what the reference model computes from the same lowering's
TOSA flatbuffer. Also the command decoder's errors and the register block's behaviour.

Lowering takes seconds a case, so Bazel runs the test in shards (shard_count:
TEST_TOTAL_SHARDS, TEST_SHARD_INDEX): each compares every N-th case, and must compare all of
them and compare at least MIN_SHARD_VALUES values; the unit tests run in every shard.
"""

from __future__ import annotations

import functools
import os
import struct
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ethos_u55.aot import vela_blob
from ethos_u55.npu_model import output_stage, weights
from ethos_u55.npu_model import registers as regs
from ethos_u55.npu_model.blob_runner import FlatMemory, run_blob
from ethos_u55.npu_model.command_stream import CommandStreamError, decode
from ethos_u55.npu_model.compare import compare_outputs, seeded_inputs
from ethos_u55.npu_model.device import EthosU55
from ethos_u55.npu_model.feature_map import NHCWB16, NHWC, FeatureMap
from ethos_u55.npu_model.lowering import Lowered, lower
from ethos_u55.npu_model.npu_cases import CASES
from tinypte import export_cache, histogram_search, lazy_codegen
from tinypte.errors import TinypteError


def shard() -> tuple[int, int]:
    """(this shard's index, shards) under Bazel's test sharding, which it acknowledges; (0, 1) outside it."""
    total = int(os.environ.get("TEST_TOTAL_SHARDS", "1"))
    if "TEST_SHARD_STATUS_FILE" in os.environ:
        Path(os.environ["TEST_SHARD_STATUS_FILE"]).touch()
    return int(os.environ.get("TEST_SHARD_INDEX", "0")), total


SHARD, SHARDS = shard()
MY_CASES = CASES[SHARD::SHARDS]
# Every case of this shard must run and compare its outputs: at least MIN_VALUES values in an
# unsharded run, at least MIN_SHARD_VALUES in each shard (the shards' cases differ in size: 2,945
# to 5,114 values each of the three).
MIN_CASES = len(MY_CASES)
MIN_VALUES = 10_000
MIN_SHARD_VALUES = 2_500
_COMPARED: dict[str, int] = {}


@functools.cache
def lowered(case: str) -> Lowered:
    """The case's lowering (ExecuTorch + Vela take seconds: once per case and session)."""
    import torch

    export_cache.install()
    lazy_codegen.install()
    histogram_search.install()
    spec = next(c for c in CASES if c.name == case)
    torch.manual_seed(0)
    return lower(spec.build(), tuple(torch.randn(shape) for shape in spec.input_shapes))


@pytest.mark.parametrize("case", [c.name for c in MY_CASES])
def test_matches_reference(case: str) -> None:
    import tosa_reference_model  # type: ignore[import-untyped]

    blob, tosa = lowered(case).blob, lowered(case).tosa
    inputs = seeded_inputs(blob, seed=1234)
    start = time.monotonic()
    got = run_blob(blob, inputs)
    elapsed = time.monotonic() - start
    expected, status = tosa_reference_model.run(tosa, inputs)
    assert status == tosa_reference_model.GraphStatus.TOSA_VALID, status
    report = compare_outputs(got, [np.asarray(e) for e in expected])
    assert report.mismatch is None, f"{case}: {report.mismatch}"
    distinct = len(np.unique(np.concatenate([g.ravel() for g in got])))
    assert distinct > 2, f"{case}: outputs hold only {distinct} distinct values, the case tests too little"
    _COMPARED[case] = report.values
    print(f"{case}: {report.values} values exact in {elapsed:.3f}s")


def test_compared_enough() -> None:
    """Runs after the comparisons (pytest keeps file order): every case compared, enough values."""
    total, least = sum(_COMPARED.values()), MIN_VALUES if SHARDS == 1 else MIN_SHARD_VALUES
    print(f"shard {SHARD + 1} of {SHARDS}: compared {len(_COMPARED)} cases, {total} values")
    assert len(_COMPARED) >= MIN_CASES, f"only {len(_COMPARED)} of {MIN_CASES} cases compared"
    assert total >= least, f"only {total} values compared, expected at least {least}"


def _words(*words: int) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def test_decode_names_offset_of_unknown_opcode() -> None:
    stream = _words(0x0000_010F | 1 << 16, 0x0000_03FF, 0x0000_0000)
    with pytest.raises(CommandStreamError, match=r"^word 1: unknown cmd0 opcode 0x3ff"):
        decode(stream)


def test_decode_errors() -> None:
    with pytest.raises(CommandStreamError, match=r"^word 0: bad control bits"):
        decode(_words(0x0000_0C02))
    with pytest.raises(CommandStreamError, match=r"^word 2: NPU_SET_IFM_BASE0 has no payload"):
        decode(_words(0x105, 0x105, 0x4000))
    with pytest.raises(CommandStreamError, match=r"^word 1: command stream ends without NPU_OP_STOP"):
        decode(_words(0x105))
    with pytest.raises(CommandStreamError, match=r"^word 0: unknown cmd1 opcode 0x3ff"):
        decode(_words(0x43FF, 0))
    commands = decode(_words(0x4000, 0x1234, 0xFFFF_0000))
    assert [(c.offset, c.name, c.payload) for c in commands] == [
        (0, "NPU_SET_IFM_BASE0", 0x1234),
        (2, "NPU_OP_STOP", None),
    ]


def _device(stream: bytes) -> tuple[EthosU55, FlatMemory]:
    memory = FlatMemory()
    memory.add(0x1000, stream)
    memory.add(0x8000, bytearray(256))
    npu = EthosU55(memory.read, memory.write, macs=128)
    npu.write_register(regs.QBASE0, 0x1000)
    npu.write_register(regs.QSIZE, len(stream))
    npu.write_register(regs.BASEP[2], 0x8000)
    return npu, memory


def test_registers_after_reset() -> None:
    npu, _ = _device(_words(0xFFFF_0000))
    assert npu.read_register(regs.ID_REG) == 0x10066001
    assert npu.read_register(regs.CONFIG) == 0x1807  # 128 MACs (log2 7), 24 KB SHRAM: what Vela compiles for
    assert npu.read_register(regs.STATUS) == 0
    assert npu.read_register(regs.QBASE0) == 0x1000
    npu.write_register(regs.CMD, regs.CLOCK_Q_ENABLE | regs.POWER_Q_ENABLE)
    assert npu.read_register(regs.CMD) == regs.CLOCK_Q_ENABLE | regs.POWER_Q_ENABLE
    npu.write_register(regs.RESET, regs.PENDING_CPL | regs.PENDING_CSL)
    assert npu.read_register(regs.QBASE0) == 0
    assert npu.read_register(regs.STATUS) & regs.RESET_STATUS == 0  # the reset is over at once
    assert npu.read_register(regs.PROT) == 3 and npu.read_register(regs.CMD) == 0
    assert EthosU55(lambda a, n: bytes(n), lambda a, d: None, macs=256).read_register(regs.CONFIG) == 0x3008


def test_status_after_run_and_clear() -> None:
    # A DMA of 4 bytes within region 1, then NPU_OP_STOP with an interrupt mask.
    stream = _words(0x130 | 1 << 16, 0x131 | 1 << 16, 0x4030, 0, 0x4031, 16, 0x4032, 4, 0x010, 0xFFFF_0000)
    npu, memory = _device(stream)
    memory.write(0x8000, b"\x01\x02\x03\x04")
    npu.write_register(regs.CMD, regs.TRANSITION_TO_RUNNING)
    assert npu.error is None
    assert npu.read_register(regs.STATUS) == regs.IRQ_RAISED | regs.CMD_END_REACHED | 0xFFFF << 16
    assert npu.irq_pending
    assert memory.read(0x8010, 4) == b"\x01\x02\x03\x04"
    assert npu.read_register(regs.QREAD) == len(stream)
    npu.write_register(regs.CMD, regs.CLEAR_IRQ | 0xFFFF << 16)
    assert not npu.read_register(regs.STATUS) & regs.IRQ_RAISED
    assert npu.read_register(regs.STATUS) == regs.CMD_END_REACHED


def test_status_on_malformed_stream() -> None:
    npu, _ = _device(_words(0x105, 0x3FF, 0xFFFF_0000))
    npu.write_register(regs.CMD, regs.TRANSITION_TO_RUNNING)
    assert npu.read_register(regs.STATUS) & regs.CMD_PARSE_ERROR
    assert npu.irq_pending
    assert npu.error is not None and npu.error.startswith("word 1: unknown cmd0 opcode")
    npu.write_register(regs.CMD, regs.CLEAR_IRQ)
    assert npu.read_register(regs.STATUS) == regs.CMD_PARSE_ERROR  # sticky until a reset or run
    npu.write_register(regs.RESET, 0)
    assert npu.read_register(regs.STATUS) == 0 and npu.error is None


def test_status_on_bus_fault() -> None:
    # DMA from region 1 offset 0x1000: past the 256 bytes of memory there.
    stream = _words(0x130 | 1 << 16, 0x131 | 1 << 16, 0x4030, 0x1000, 0x4031, 0, 0x4032, 4, 0x010, 0xFFFF_0000)
    npu, _ = _device(stream)
    npu.write_register(regs.CMD, regs.TRANSITION_TO_RUNNING)
    status = npu.read_register(regs.STATUS)
    assert status & regs.BUS_STATUS and not status & regs.CMD_END_REACHED
    assert npu.error is not None and npu.error.startswith("word 8 (NPU_OP_DMA_START): bus fault")


def test_run_blob_refuses_wrong_inputs() -> None:
    blob = lowered(MY_CASES[0].name).blob  # a lowering this shard makes anyway
    with pytest.raises(Exception, match="inputs, got 0"):
        run_blob(blob, [])


@pytest.mark.parametrize("brick", [False, True])
def test_tiled_addresses_match_vela(brick: bool) -> None:
    """Four tiles (a map split at HEIGHT0/HEIGHT1/WIDTH0), NHWC and NHCWB16: every element's
    offset is the one Vela's register_command_stream_util.get_address gives."""
    from ethosu.vela import api  # type: ignore[import-untyped]
    from ethosu.vela.register_command_stream_util import get_address  # type: ignore[import-untyped]

    height, width, depth, size = 7, 9, 20, 2
    strides = (width * 32 * size, 16 * size, width * 16 * size) if brick else (width * depth * size, depth * size, size)
    bases = (0x100, 0x2000, 0x4000, 0x6000)
    fm = api.NpuFeatureMap()
    fm.data_type = api.NpuDataType.INT16
    fm.shape = api.NpuShape3D(height=height, width=width, depth=depth)
    fm.tiles = api.NpuTileBox(height_0=3, height_1=5, width_0=4, addresses=list(bases))
    fm.layout = api.NpuLayout.NHCWB16 if brick else api.NpuLayout.NHWC
    fm.strides = api.NpuShape3D(height=strides[0], width=strides[1], depth=strides[2])
    ours = FeatureMap("IFM", 1, bases, 3, 5, 4, *strides, size, True, NHCWB16 if brick else NHWC, 0)
    offsets = ours.offsets(height, width, depth)
    for y in range(height):
        for x in range(width):
            for c in range(depth):
                assert offsets[y, x, c] == get_address(fm, fm.strides, y, x, c), (y, x, c)


def test_rounding_modes() -> None:
    """Ties: NATURAL rounds up, TRUNCATE towards zero, TFL away from zero when shift > 31
    (TOSA's double rounding); products beyond int64 stay exact."""
    ties = np.array([5, -5, 6, -6, 7])
    assert output_stage.scale_shift(ties, 1, 1, output_stage.NATURAL).tolist() == [3, -2, 3, -3, 4]
    assert output_stage.scale_shift(ties, 1, 1, output_stage.TRUNCATE).tolist() == [2, -2, 3, -3, 3]
    assert output_stage.scale_shift(ties, 1, 1, output_stage.TFL).tolist() == [3, -2, 3, -3, 4]
    halves = np.array([3, -3])
    assert output_stage.scale_shift(halves, 1 << 31, 32, output_stage.NATURAL).tolist() == [2, -1]
    assert output_stage.scale_shift(halves, 1 << 31, 32, output_stage.TFL).tolist() == [2, -2]
    big = np.array([(1 << 39) - 1, -(1 << 39)])
    assert output_stage.scale_shift(big, 0xFFFFFFFF, 40, output_stage.NATURAL).tolist() == [
        ((((1 << 39) - 1) * 0xFFFFFFFF) + (1 << 39)) >> 40,
        ((-(1 << 39) * 0xFFFFFFFF) + (1 << 39)) >> 40,
    ]
    per_channel = output_stage.scale_shift(
        np.array([[10, 10]]), np.array([3, 5]), np.array([1, 2]), output_stage.NATURAL
    )
    assert per_channel.tolist() == [[15, 13]]


@pytest.mark.parametrize(
    ("ofm", "height", "width", "ifm", "block", "depthwise", "part_kernel", "dilation"),
    [
        (8, 3, 3, 3, 8, False, True, 1),
        (16, 3, 3, 8, 16, False, False, 1),
        (17, 3, 3, 5, 8, False, True, 1),
        (17, 3, 3, 1, 8, True, False, 1),
        (33, 3, 3, 70, 32, False, False, 1),
        (8, 3, 3, 8, 8, False, False, 2),
        (5, 10, 3, 4, 8, False, True, 1),
    ],
)
def test_weight_order_inverts_vela_encoder(
    ofm: int, height: int, width: int, ifm: int, block: int, depthwise: bool, part_kernel: bool, dilation: int
) -> None:
    """decode_kernel(Vela's mlw_codec.reorder_encode(kernel)) == kernel, kernels over 8x8 and odd depths included."""
    from ethosu import mlw_codec  # type: ignore[import-untyped]

    kernel = np.random.default_rng(ofm * ifm).integers(-255, 256, (ofm, height, width, ifm)).astype(np.int16)
    encoded, _ = mlw_codec.reorder_encode(8, 8, kernel, block, depthwise, part_kernel, 8, 8 // dilation, 8 // dilation)
    layout = weights.Layout(ofm, height, width, ifm, block, depthwise, part_kernel, 8, dilation, dilation, 8)
    assert np.array_equal(weights.decode_kernel(bytes(encoded), layout), kernel.astype(np.int64))


def test_blob_parser_errors() -> None:
    blob = lowered(MY_CASES[0].name).blob  # a lowering this shard makes anyway
    parsed = vela_blob.parse(blob)
    assert parsed.payload.config == 0x1807 and parsed.command_stream[-4:] == struct.pack("<I", 0xFFFF0000)
    assert parsed.blocks[0].name == "vela_bin_stream" and parsed.inputs[0].region == 1
    with pytest.raises(TinypteError, match=r"^Ethos-U blob: truncated block header at byte"):
        vela_blob.parse(blob[:-8])
    with pytest.raises(TinypteError, match=r"^Ethos-U blob: 1 bytes follow the vela_end_stream block"):
        vela_blob.parse(blob + b"x")
    with pytest.raises(TinypteError, match=r"^Ethos-U blob: does not start with a vela_bin_stream block"):
        vela_blob.parse(blob[32:])
    cop1 = blob.index(b"COP1")
    with pytest.raises(TinypteError, match=r"^Ethos-U blob: cmd_data does not start with the COP1 fourcc"):
        vela_blob.parse(blob[:cop1] + b"COP2" + blob[cop1 + 4 :])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v", "-s", "-p", "no:cacheprovider"]))
