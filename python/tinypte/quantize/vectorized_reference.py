"""The Cortex-M backend's reference convolutions with their requantization done for all channels
at once: the same integers, for evaluating an int8 program on a test set in seconds.

The backend's reference implementations (executorch.backends.cortex_m.ops.operators) run a
convolution in int32 with torch, then requantize each output channel by itself in a Python loop
(`requantize_cmsis`, a dozen tensor operations a channel): evaluating vww_int8 on its test set
made half a million such calls, most of the quantize stage's time. `vectorized()` is a dispatch
mode that runs `cortex_m::quantized_conv2d`, `quantized_depthwise_conv2d` and their `_nhwc`
forms with the same int32 convolution and the same fixed-point steps (CMSIS-NN's
arm_nn_requantize: shift left, doubling high multiply with rounding, rounding shift right) on
every channel at once, with each channel's multiplier and shift broadcast; every other operator
runs as before. Integer arithmetic only, so the outputs are the reference's bit for bit
(python/tests/vectorized_reference_test.py compares them on random convolutions and programs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

ROUNDING = 1 << 30  # the doubling high multiply's rounding constant (Q31)


def requantize_channels(acc: torch.Tensor, multipliers: torch.Tensor, shifts: torch.Tensor) -> torch.Tensor:
    """`acc` (N, C, H, W) int32 requantized per channel C, as requantize_cmsis does one channel."""
    shape = (1, -1, 1, 1)
    multiplier = multipliers.to(torch.int64).view(shape)
    shift = shifts.to(torch.int64).view(shape)
    left = shift.clamp(min=0)
    right = (-shift).clamp(min=0)
    result = ((acc.to(torch.int64) << left) * multiplier + ROUNDING) >> 31
    mask = (1 << right) - 1
    remainder = result & mask
    result = result >> right
    threshold = (mask >> 1) + (result < 0)
    result = result + (remainder > threshold)
    return result.to(torch.int32)


def _finish(acc: torch.Tensor, multipliers: torch.Tensor, shifts: torch.Tensor, output_offset: int,
            activation_min: int, activation_max: int) -> torch.Tensor:  # fmt: skip
    result = requantize_channels(acc, multipliers, shifts)
    result += output_offset
    result = torch.clamp(result, activation_min, activation_max)
    return result.to(torch.int8, memory_format=torch.channels_last)


def _int32_conv(input: torch.Tensor, weight_oihw: torch.Tensor, bias: torch.Tensor | None, stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], groups: int, input_offset: int) -> torch.Tensor:  # fmt: skip
    """The int32 accumulators of a convolution with the input offset added (the reference's F.conv2d)."""
    channels = weight_oihw.shape[0]
    return F.conv2d(
        input.to(torch.int32) + int(input_offset),
        weight_oihw.to(torch.int32).contiguous(),
        torch.zeros(channels, dtype=torch.int32, device=input.device) if bias is None else bias.to(torch.int32),
        stride=tuple(stride),
        padding=tuple(padding),
        dilation=tuple(dilation),
        groups=groups,
    )


def conv2d(
    input: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, stride: Sequence[int],
    padding: Sequence[int], dilation: Sequence[int], input_offset: int, output_offset: int,
    requantize_multipliers: torch.Tensor, requantize_shifts: torch.Tensor, activation_min: int,
    activation_max: int, scratch: torch.Tensor,
) -> torch.Tensor:  # fmt: skip
    """cortex_m::quantized_conv2d: NCHW int8 input, OHWI int8 weight."""
    if input.dim() != 4 or weight.dim() != 4:
        raise RuntimeError("quantized_conv2d expects 4D input and weight tensors")
    acc = _int32_conv(input, weight.permute(0, 3, 1, 2), bias, stride, padding, dilation,
                      input.shape[1] // weight.shape[3], input_offset)  # fmt: skip
    return _finish(acc, requantize_multipliers, requantize_shifts, output_offset, activation_min, activation_max)


def depthwise_conv2d(
    input: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, stride: Sequence[int],
    padding: Sequence[int], dilation: Sequence[int], depth_multiplier: int, input_offset: int,
    output_offset: int, requantize_multipliers: torch.Tensor, requantize_shifts: torch.Tensor,
    activation_min: int, activation_max: int, scratch: torch.Tensor,
) -> torch.Tensor:  # fmt: skip
    """cortex_m::quantized_depthwise_conv2d: NCHW int8 input, IHWO int8 weight."""
    if input.dim() != 4 or weight.dim() != 4:
        raise RuntimeError("quantized_depthwise_conv2d expects 4D input and weight tensors")
    acc = _int32_conv(input, weight.permute(3, 0, 1, 2), bias, stride, padding, dilation, input.shape[1], input_offset)
    return _finish(acc, requantize_multipliers, requantize_shifts, output_offset, activation_min, activation_max)


def _nhwc(nchw_kernel: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """The `_nhwc` form of a kernel: NHWC input, NHWC (contiguous) output."""

    def kernel(input: torch.Tensor, *args: Any) -> torch.Tensor:
        return nchw_kernel(input.permute(0, 3, 1, 2).contiguous(), *args).permute(0, 2, 3, 1).contiguous()

    return kernel


def kernels() -> dict[Any, Callable[..., torch.Tensor]]:
    """The backend operators `vectorized()` runs itself, by OpOverload."""
    import executorch.backends.cortex_m.passes  # noqa: F401 (defines torch.ops.cortex_m, then its passes)

    ops = torch.ops.cortex_m
    return {
        ops.quantized_conv2d.default: conv2d,
        ops.quantized_conv2d_nhwc.default: _nhwc(conv2d),
        ops.quantized_depthwise_conv2d.default: depthwise_conv2d,
        ops.quantized_depthwise_conv2d_nhwc.default: _nhwc(depthwise_conv2d),
    }


class vectorized(TorchDispatchMode):
    """Within it, the backend's convolutions run with vectorized requantization (see above)."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.kernels = kernels()
        self.calls = 0  # convolutions it ran (for tests)

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kernel = self.kernels.get(func)
        if kernel is None or kwargs:
            return func(*args, **(kwargs or {}))
        self.calls += 1
        return kernel(*args)
