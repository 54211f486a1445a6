"""How many scratch bytes tinypte's int8 kernels need: the sizes the memory plan gives them.

Some cortex_m::* operators take `scratch` tensors (uint8, 1-D): working memory the kernel
may use during one call (an im2col buffer, widened weights or inputs, ...). ExecuTorch's
Cortex-M passes size them for CMSIS-NN; tinypte's kernels are its own, so before memory
planning `tinypte.quantize.cortex_m` resizes every scratch allocation with the rule registered here
for its operator. A rule returns the most any of tinypte's code paths needs (portable C,
Armv8-M/Armv7E-M DSP, Helium): one .pte serves every board. Each kernel's prepare checks
that its scratch holds at least what its own path needs (TP_ERR_KERNEL_ARGS otherwise), and
the kernel tests size their scratch arguments with these same rules.

A rule receives the operator's arguments in schema order (without the out), every tensor
replaced by its shape, and returns the bytes of each scratch argument, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

ScratchRule = Callable[[Sequence[Any]], tuple[int, ...]]

RULES: dict[str, ScratchRule] = {}


def rule(*operators: str) -> Callable[[ScratchRule], ScratchRule]:
    """Register a rule for operators named as "cortex_m::quantized_conv2d" (any overload)."""

    def register(fn: ScratchRule) -> ScratchRule:
        for op in operators:
            RULES[op] = fn
        return fn

    return register


def scratch_sizes(operator: str, args: Sequence[Any]) -> tuple[int, ...] | None:
    """The scratch bytes of a call of `operator` with `args` (tensors as shapes), or None when
    tinypte has no rule for it (the backend's own sizes then stay)."""
    fn = RULES.get(operator)
    return None if fn is None else fn(args)


def _round_up(v: int, m: int) -> int:
    return (v + m - 1) // m * m


@rule("cortex_m::quantized_conv2d", "cortex_m::quantized_conv2d_nhwc")
def _conv2d(args: Sequence[Any]) -> tuple[int, ...]:
    """Eight columns' bytes of the window (kh * kw * Cin/groups values): four of int16 values in
    groups of four (DSP), two of int16 values (portable) or four of int8 values (Helium); 16
    bytes per out channel, the DSP
    routine's records (start value, requantization); and the window's bytes again (rounded up
    to 4), the DSP routine's gathered column.
    runtime/kernels/cortex_m/engines/s8_conv_{c,dsp,mve}.c."""
    weight = args[1]
    return (_conv_bytes(weight[1] * weight[2] * weight[3], weight[0]),)


def _conv_bytes(window: int, out_channels: int) -> int:
    return 9 * _round_up(window, 4) + 16 * out_channels


@rule("cortex_m::quantized_depthwise_conv2d", "cortex_m::quantized_depthwise_conv2d_nhwc")
def _depthwise_conv2d(args: Sequence[Any]) -> tuple[int, ...]:
    """Four columns of every input channel's taps (kh * kw, rounded up to even): two of int16
    values (DSP, portable) or four of int8 values (Helium); and at least 16 + 3 * kh * kw bytes
    per channel, the DSP routine's per-channel records (start value, requantization, widened
    weights) and border window (runtime/kernels/cortex_m/engines/s8_conv_dsp_dw1.c). With one
    input channel the DSP and Helium routines run it as a convolution: its weights transposed
    (Helium: padded to a multiple of 16 taps) and a convolution's scratch (Helium: four columns
    of the padded taps, 12 bytes per out channel, one gathered column). Cin = Cout /
    depth_multiplier, whatever the layout."""
    weight, depth_multiplier = args[1], args[6]
    channels = weight[3] // max(int(depth_multiplier), 1)
    taps = weight[1] * weight[2]
    size = channels * max(4 * _round_up(taps, 2), 16 + 3 * taps)
    if channels == 1:  # run as a convolution, its weights transposed (Helium: padded to 16 taps)
        padded = _round_up(taps, 16)
        size = max(
            size,
            _round_up(weight[3] * taps, 4) + _conv_bytes(taps, weight[3]),
            _round_up(weight[3] * padded, 4) + 5 * padded + 12 * weight[3],
        )
    return (size,)


# --- Rules -------------------------------------------------------------------------------
@rule("cortex_m::quantized_avg_pool2d", "cortex_m::quantized_avg_pool2d_nhwc")
def _avg_pool2d(args: Sequence[Any]) -> tuple[int, ...]:
    """Average pooling sums each window in registers: no scratch."""
    del args
    return (0,)


@rule("cortex_m::quantized_transpose_conv2d", "cortex_m::quantized_transpose_conv2d_nhwc")
def _transpose_conv2d(args: Sequence[Any]) -> tuple[int, ...]:
    """The transposed convolution gathers each out element's taps directly: no scratch and no
    output scratch."""
    del args
    return (0, 0)
