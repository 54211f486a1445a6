"""Weight and scale streams of convolutions: the compressed weight stream (decoded with Vela's
ethosu.mlw_codec.decode) put back into an OHWI kernel, and the per-OFM-channel scale records.

The decoded stream lists the weights (zero point already subtracted by Vela) in the order the
MAC array consumes them: OFM blocks of OFM_BLK_DEPTH channels; in each, IFM blocks (32 deep, or
16 for part-kernel-first or 16-bit IFMs; one for depthwise); sub-kernels of at most 8x8 (/
dilation); then either (depth first) kernel elements, IFM micro-blocks, OFM micro-block
channels, IFM micro-block channels, or (part-kernel first, KERNEL_STRIDE bit 2) IFM
micro-blocks, OFM micro-blocks, kernel elements padded to a multiple of 4 (2 for 16-bit), OFM
micro-block channels, IFM micro-block channels. Depthwise kernels pad their elements to a
multiple of 4. Positions beyond the kernel, IFM or OFM depth hold zeros. The micro-block depths
are the accelerator's (ethosu/vela/architecture_features.py: OFM 8 deep, 4 on the 32-MAC U55;
IFM 8 deep).

A scale record is 10 bytes (weight_compressor.encode_bias): a signed 40-bit bias, an unsigned
32-bit scale, a 6-bit shift.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from ethosu import mlw_codec  # type: ignore[import-untyped]
from numpy.typing import NDArray

SCALE_RECORD_BYTES = 10


class WeightStreamError(Exception):
    """A weight or scale stream that does not fit the operation."""


@dataclass(frozen=True)
class Layout:
    """What decides the order of a weight stream."""

    ofm_depth: int
    kernel_height: int
    kernel_width: int
    ifm_depth: int
    ofm_block_depth: int
    depthwise: bool
    part_kernel: bool
    ifm_bits: int
    dilation_x: int
    dilation_y: int
    ofm_ublock_depth: int
    ifm_ublock_depth: int = 8


def _round_up(value: int, multiple: int) -> int:
    return (value + multiple - 1) // multiple * multiple


@functools.lru_cache(maxsize=256)
def stream_order(layout: Layout) -> NDArray[Any]:
    """For each position of the decoded stream, the flat OHWI index it holds (-1 for a zero pad).
    A depthwise kernel is indexed as (C, H, W, 1)."""
    lay = layout
    ifm_depth = 1 if lay.depthwise else lay.ifm_depth
    ifm_block_depth = 16 if (lay.part_kernel or lay.ifm_bits == 16) else 32
    decomp_h, decomp_w = 8 // lay.dilation_y, 8 // lay.dilation_x
    iu, ou = lay.ifm_ublock_depth, lay.ofm_ublock_depth
    pieces: list[NDArray[Any]] = []
    ou_z = np.arange(ou)[:, None]
    iu_z = np.arange(1 if lay.depthwise else iu)[None, :]
    for ofm_block in range(0, lay.ofm_depth, lay.ofm_block_depth):
        ofm_block_len = min(lay.ofm_block_depth, lay.ofm_depth - ofm_block)
        for ifm_block in range(0, 1 if lay.depthwise else lay.ifm_depth, ifm_block_depth):
            if lay.depthwise:
                ifm_block_len = iu
            elif lay.part_kernel:
                ifm_block_len = min(ifm_block_depth, lay.ifm_depth - ifm_block)
            else:
                ifm_block_len = ifm_block_depth
            for sub_y in range(0, lay.kernel_height, decomp_h):
                sub_h = min(lay.kernel_height - sub_y, decomp_h)
                for sub_x in range(0, lay.kernel_width, decomp_w):
                    sub_w = min(lay.kernel_width - sub_x, decomp_w)
                    elements = sub_w * sub_h
                    if lay.part_kernel:
                        elements = _round_up(elements, 2 if lay.ifm_bits == 16 else 4)
                    elif lay.depthwise:
                        elements = _round_up(elements, 4)
                    outer = ifm_block_len if lay.part_kernel else 1
                    inner = 1 if lay.part_kernel else ifm_block_len
                    for ifm_outer in range(0, outer, iu):
                        for ofm_ub in range(0, ofm_block_len, ou):
                            for element in range(elements):
                                kx, ky = element % sub_w, element // sub_w
                                for ifm_inner in range(0, inner, iu):
                                    ifm_z = ifm_block + ifm_inner + ifm_outer + iu_z
                                    ofm_z = ofm_block + ofm_ub + ou_z
                                    wy, wx = sub_y + ky, sub_x + kx
                                    flat = (
                                        (ofm_z * lay.kernel_height + wy) * lay.kernel_width + wx
                                    ) * ifm_depth + ifm_z
                                    valid = (ifm_z < ifm_depth) & (ofm_z < lay.ofm_depth) & (ky < sub_h)
                                    pieces.append(np.where(valid, flat, -1).ravel())
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)


def decode_kernel(stream: bytes, layout: Layout) -> NDArray[Any]:
    """The OHWI kernel (int64; depthwise as (C, H, W, 1)) a compressed weight stream holds."""
    try:
        decoded = np.asarray(mlw_codec.decode(bytearray(stream)), dtype=np.int64)
    except Exception as error:
        raise WeightStreamError(f"weight stream does not decode: {error}") from error
    order = stream_order(layout)
    if decoded.size < order.size:
        raise WeightStreamError(f"weight stream holds {decoded.size} weights, the operation needs {order.size}")
    ifm_depth = 1 if layout.depthwise else layout.ifm_depth
    kernel = np.zeros(layout.ofm_depth * layout.kernel_height * layout.kernel_width * ifm_depth, dtype=np.int64)
    used = order >= 0
    kernel[order[used]] = decoded[: order.size][used]
    return kernel.reshape(layout.ofm_depth, layout.kernel_height, layout.kernel_width, ifm_depth)


@dataclass(frozen=True)
class Scales:
    """Per-OFM-channel bias, scale and shift."""

    bias: NDArray[Any]
    scale: NDArray[Any]
    shift: NDArray[Any]


def decode_scales(data: bytes, channels: int) -> Scales:
    """The first `channels` records of a scale stream."""
    if len(data) < channels * SCALE_RECORD_BYTES:
        raise WeightStreamError(f"scale stream is {len(data)} bytes, {channels} channels need {channels * 10}")
    records = (
        np.frombuffer(data[: channels * SCALE_RECORD_BYTES], dtype=np.uint8).reshape(channels, 10).astype(np.int64)
    )
    bias = np.zeros(channels, dtype=np.int64)
    for i in range(5):
        bias |= records[:, i] << (8 * i)
    bias = np.where(bias >= 1 << 39, bias - (1 << 40), bias)
    scale = np.zeros(channels, dtype=np.int64)
    for i in range(4):
        scale |= records[:, 5 + i] << (8 * i)
    return Scales(bias=bias, scale=scale, shift=records[:, 9] & 0x3F)
