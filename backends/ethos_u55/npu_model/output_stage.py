"""The NPU's output stage: the 32/40-bit accumulator scaled by a (scale, shift) pair with one of
three rounding modes, the OFM zero point, the activation clamp and the precision clamp.

Rounding (OFM_PRECISION bits 15:14, IFM_PRECISION bits 15:14 for the input scaling of ADD/SUB;
ethos_u55_regs `rounding`): Vela's regor maps TOSA RESCALE's `double_round` to TFL (0, "DBL")
and single rounding to NATURAL (2), truncating shifts to TRUNCATE (1). They are modelled as:
- NATURAL: (v * scale + 2^(shift-1)) >> shift, an arithmetic shift: ties towards +infinity;
- TFL: as NATURAL, plus 2^30 added (v >= 0) or subtracted (v < 0) when shift > 31: TOSA's
  apply_scale_32 with double rounding, which the mode emulates (TFLite's two roundings);
- TRUNCATE: towards zero.
The scale is an unsigned 32-bit value (Vela's encode_bias asserts 0 <= scale < 2^32), the shift
0..63. Products are exact (Python integers where int64 could overflow).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ethos_u55.npu_model.feature_map import FeatureMap
from ethos_u55.npu_model.memory import RegionBus
from ethos_u55.npu_model.operation import OperationError, ParameterRegisters

TFL, TRUNCATE, NATURAL = 0, 1, 2
ROUNDING_NAMES = {TFL: "TFL", TRUNCATE: "TRUNCATE", NATURAL: "NATURAL"}


def _exact(values: NDArray[Any], scale: NDArray[Any]) -> bool:
    """Whether values * scale fits int64 with room for the rounding term."""
    vmax = int(np.abs(values).max(initial=0))
    smax = int(np.abs(scale).max(initial=0))
    return vmax * smax < (1 << 62)


def scale_shift(
    values: NDArray[Any], scale: NDArray[Any] | int, shift: NDArray[Any] | int, rounding: int
) -> NDArray[Any]:
    """round(values * scale / 2^shift) with the NPU's rounding `rounding`; int64 result.

    `scale` and `shift` broadcast against `values` (per-channel arrays on the last axis)."""
    if rounding not in ROUNDING_NAMES:
        raise ValueError(f"rounding mode {rounding} is reserved")
    v, s, n = np.broadcast_arrays(
        np.asarray(values, dtype=np.int64), np.asarray(scale, dtype=np.int64), np.asarray(shift, dtype=np.int64)
    )
    # int64 when the product and the rounding term fit, Python integers otherwise.
    wide = not _exact(v, s)
    product = v.astype(object) * s.astype(object) if wide else v * s
    if rounding == TRUNCATE:
        magnitude = np.abs(product) >> n
        result = np.where(product < 0, -magnitude, magnitude)
    else:
        half = np.where(n > 0, np.left_shift(1, np.maximum(n - 1, 0)), 0)
        if rounding == TFL:
            half = half + np.where(n > 31, np.where(v >= 0, 1 << 30, -(1 << 30)), 0)
        result = (product + (half.astype(object) if wide else half)) >> n
    return np.asarray(result).astype(np.int64)


def precision_range(bits: int, signed: bool) -> tuple[int, int]:
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def finish(
    values: NDArray[Any],
    zero_point: int,
    act_min: int,
    act_max: int,
    bits: int,
    signed: bool,
    clip: tuple[int, int] | None = None,
) -> NDArray[Any]:
    """Add the OFM zero point, clamp to the activation range (ACTIVATION_MIN/MAX, 16-bit
    registers, apply to 8 and 16-bit OFMs: Vela and regor cap them at the int16 range for
    32-bit OFMs, whose results they do not mean to clip), to a forced clip range
    (ACTIVATION bits 15:12) and to the OFM precision; int64 result."""
    out = np.asarray(values, dtype=np.int64) + zero_point
    lo, hi = precision_range(bits, signed)
    if bits <= 16:
        out = np.clip(out, act_min, act_max)
    if clip is not None:
        out = np.clip(out, clip[0], clip[1])
    return np.clip(out, lo, hi)


def write_ofm(registers: ParameterRegisters, bus: RegionBus, ofm: FeatureMap, values: NDArray[Any]) -> None:
    """How every operation ends: `values` (scaled) through `finish` with the OFM's zero point and
    precision and NPU_SET_ACTIVATION's clamp (its tanh, sigmoid and LUT functions are not
    modelled), written to the OFM."""
    function, act_min, act_max, clip = registers.activation
    if function != 0:
        raise OperationError(f"NPU_SET_ACTIVATION: function {function} (tanh/sigmoid/LUT) is not modelled")
    ofm.write(bus, finish(values, ofm.zero_point, act_min, act_max, 8 * ofm.element_size, ofm.signed, clip))
