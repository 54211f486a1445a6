"""Kernel test cases: the int8 convolutions of ExecuTorch's Cortex-M backend.

cortex_m::quantized_conv2d(_nhwc).out and cortex_m::quantized_depthwise_conv2d(_nhwc).out;
expected outs come from the backend's reference implementations (operators.py). The legacy
operators take NCHW tensors, the _nhwc ones NHWC tensors (contiguous: tinypte's only layout).
Scratch arguments are sized with tinypte's own rule (tinypte.quantize.scratch), as the
quantize step sizes them; per-channel multipliers and shifts come from the backend's
quantize_multiplier_aot where they are meant to be realistic.

No OK case uses dilation: the reference's F.conv2d on int32 tensors has no dilated
implementation ("slow_conv_dilated<>" not implemented for 'Int'); the firmware test
(runtime/kernels/tests/s8_conv_paths.c) checks dilated calls of the fast routines against the portable
one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from kernel_case import ARGS, DTYPE, ArgValue, Case, CaseList, Rng, f32, i8, i32, i64, u8

from tinypte.quantize.scratch import scratch_sizes

Args = dict[str, ArgValue]

CONV = "cortex_m::quantized_conv2d.out"
CONV_NHWC = "cortex_m::quantized_conv2d_nhwc.out"
DEPTHWISE = "cortex_m::quantized_depthwise_conv2d.out"
DEPTHWISE_NHWC = "cortex_m::quantized_depthwise_conv2d_nhwc.out"

CONV_ARGS = ["input", "weight", "bias", "stride", "padding", "dilation", "input_offset", "output_offset",
             "requantize_multipliers", "requantize_shifts", "activation_min", "activation_max", "scratch"]  # fmt: skip
DEPTHWISE_ARGS = [*CONV_ARGS[:6], "depth_multiplier", *CONV_ARGS[6:]]


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    cs = CaseList()
    for op in (CONV, CONV_NHWC):
        conv_cases(cs, rng, op)
    for op in (DEPTHWISE, DEPTHWISE_NHWC):
        depthwise_cases(cs, rng, op)
    return cs.cases


def is_depthwise(op: str) -> bool:
    return "depthwise" in op


def is_nhwc(op: str) -> bool:
    return "_nhwc" in op


def scratch_for(op: str, args: Args) -> torch.Tensor:
    """A scratch tensor of the size tinypte's rule gives the call."""
    names = DEPTHWISE_ARGS if is_depthwise(op) else CONV_ARGS
    shaped = [tuple(v.shape) if isinstance(v, torch.Tensor) else v for v in (args.get(n) for n in names)]
    sizes = scratch_sizes(op.split(".")[0], shaped)
    if sizes is None:
        raise ValueError(f"{op}: no scratch rule in tinypte.quantize.scratch")
    return torch.zeros(sizes[0], dtype=u8)


def realistic_requant(rng: Rng, channels: int, window: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-channel multipliers and shifts of quantize_multiplier_aot for scales that bring a
    window's sums of int8 products to about the int8 range."""
    from executorch.backends.cortex_m.passes.passes_utils import quantize_multiplier_aot

    u = rng.rand_milli(channels, lo=0.4, hi=1.6)
    pairs = [quantize_multiplier_aot(float(s) * 0.012 / math.sqrt(window)) for s in u]
    return torch.tensor([m for m, _ in pairs], dtype=i32), torch.tensor([s for _, s in pairs], dtype=i32)


@dataclass
class Conv:
    """One convolution's shapes and constants; args() draws its tensors."""

    n: int = 1
    h: int = 5
    w: int = 5
    cin: int = 4
    cout: int = 4
    kh: int = 3
    kw: int = 3
    stride: tuple[int, int] = (1, 1)
    padding: tuple[int, int] = (0, 0)
    dilation: tuple[int, int] = (1, 1)
    groups: int = 1  # convolutions; depthwise: depth multiplier = cout / cin
    bias: bool = True
    input_offset: int = 3
    output_offset: int = -5
    act: tuple[int, int] = (-128, 127)
    bias_scale: int = 2000
    requant: str = "realistic"  # or "extreme"

    def args(self, rng: Rng, op: str) -> Args:
        dw = is_depthwise(op)
        x_shape = (self.n, self.h, self.w, self.cin) if is_nhwc(op) else (self.n, self.cin, self.h, self.w)
        x = rng.randint(*x_shape, lo=-128, hi=128, dtype=i8)
        w_shape = (1, self.kh, self.kw, self.cout) if dw else (self.cout, self.kh, self.kw, self.cin // self.groups)
        weight = rng.randint(*w_shape, lo=-128, hi=128, dtype=i8)
        bias = rng.randint(self.cout, lo=-self.bias_scale, hi=self.bias_scale + 1, dtype=i32)
        window = self.kh * self.kw * (1 if dw else self.cin // self.groups)
        if self.requant == "realistic":
            mult, shift = realistic_requant(rng, self.cout, window)
        else:  # every extreme of the multiplier and the shift, in turn
            mults = [2**31 - 1, -(2**31), 1, -1, 1 << 30, 0x5A5A5A5A, -12345, 77]
            shifts = [30, -31, 0, -1, 1, -20, 17, -31]
            mult = torch.tensor([mults[c % len(mults)] for c in range(self.cout)], dtype=i32)
            shift = torch.tensor([shifts[c % len(shifts)] for c in range(self.cout)], dtype=i32)
        args: Args = {
            "input": x,
            "weight": weight,
            "bias": bias if self.bias else None,
            "stride": list(self.stride),
            "padding": list(self.padding),
            "dilation": list(self.dilation),
            "input_offset": self.input_offset,
            "output_offset": self.output_offset,
            "requantize_multipliers": mult,
            "requantize_shifts": shift,
            "activation_min": self.act[0],
            "activation_max": self.act[1],
        }
        if dw:
            args["depth_multiplier"] = self.cout // self.cin
        args["scratch"] = scratch_for(op, args)
        return args

    def out_shape(self, op: str) -> tuple[int, ...]:
        def size(i: int, k: int, s: int, p: int, d: int) -> int:
            return (i + 2 * p - d * (k - 1) - 1) // s + 1

        oh = size(self.h, self.kh, self.stride[0], self.padding[0], self.dilation[0])
        ow = size(self.w, self.kw, self.stride[1], self.padding[1], self.dilation[1])
        return (self.n, oh, ow, self.cout) if is_nhwc(op) else (self.n, self.cout, oh, ow)


def common_ok(cs: CaseList, rng: Rng, op: str, configs: dict[str, Conv]) -> None:
    for label, conv in configs.items():
        cs.ok(op, label, conv.args(rng, op), out_dtype=i8)


def conv_cases(cs: CaseList, rng: Rng, op: str) -> None:
    configs = {
        "digits_conv2_8to16_3x3_pad1": Conv(
            h=4, w=4, cin=8, cout=16, padding=(1, 1), input_offset=128, output_offset=-128
        ),
        "cin3_odd_cout_stride2_no_bias": Conv(h=7, w=6, cin=3, cout=5, stride=(2, 2), padding=(1, 1), bias=False),
        "pointwise_1x1": Conv(h=3, w=4, cin=16, cout=8, kh=1, kw=1),
        "stride_1x2_pad_2": Conv(h=7, w=8, cin=4, cout=6, padding=(2, 2), stride=(1, 2)),
        "cin19_tail_2x3_kernel": Conv(h=4, w=5, cin=19, cout=4, kh=2, kw=3, padding=(1, 0), input_offset=-127),
        "batch2_cin1": Conv(n=2, h=5, w=3, cin=1, cout=3, padding=(1, 1)),
        "saturates_narrow_range": Conv(h=4, w=4, cin=6, cout=7, padding=(1, 1), act=(-100, 90), bias_scale=200000),
        "extreme_multipliers_shifts": Conv(h=3, w=3, cin=5, cout=8, padding=(1, 1), requant="extreme"),
        "kernel_covers_input": Conv(h=3, w=3, cin=2, cout=2, kh=3, kw=3),
        "groups2": Conv(h=5, w=5, cin=6, cout=4, groups=2, padding=(1, 1)),
        "groups_eq_cin": Conv(h=4, w=4, cin=4, cout=8, groups=4, padding=(1, 1), stride=(2, 1)),
    }
    common_ok(cs, rng, op, configs)
    base = Conv(h=5, w=5, cin=4, cout=3, padding=(1, 1))
    error_cases(cs, rng, op, base)
    args = base.args(rng, op)
    out = (base.out_shape(op), i8)
    cs.err(op, "cin_not_multiple_of_weight_cin", ARGS, out, {**args, "weight": torch.zeros(3, 3, 3, 3, dtype=i8)})
    cs.err(op, "cout_not_multiple_of_groups", ARGS, out, {**args, "weight": torch.zeros(3, 3, 3, 2, dtype=i8)})
    cs.err(op, "empty_weight_cin", ARGS, out, {**args, "weight": torch.zeros(3, 3, 3, 0, dtype=i8)})


def depthwise_cases(cs: CaseList, rng: Rng, op: str) -> None:
    configs = {
        "digits_conv1_dm8_3x3_pad1": Conv(
            h=8, w=8, cin=1, cout=8, padding=(1, 1), input_offset=128, output_offset=-128
        ),
        "dm1_cin5": Conv(h=5, w=6, cin=5, cout=5, padding=(1, 1)),
        "dm2_stride2_pad_2x1": Conv(h=9, w=7, cin=3, cout=6, stride=(2, 2), padding=(2, 1)),
        "pointwise_1x1_dm3": Conv(h=3, w=3, cin=2, cout=6, kh=1, kw=1, bias=False),
        "kernel5x5_taps_beyond_16": Conv(h=6, w=6, cin=3, cout=3, kh=5, kw=5, padding=(2, 2), input_offset=-127),
        "wide_channels_dm1": Conv(h=3, w=3, cin=40, cout=40, padding=(1, 1)),
        "batch2_saturates": Conv(n=2, h=4, w=4, cin=2, cout=4, padding=(1, 1), act=(-50, 60), bias_scale=100000),
        "extreme_multipliers_shifts": Conv(h=4, w=3, cin=4, cout=8, padding=(1, 1), requant="extreme"),
    }
    common_ok(cs, rng, op, configs)
    base = Conv(h=5, w=5, cin=2, cout=4, padding=(1, 1))
    error_cases(cs, rng, op, base)
    args = base.args(rng, op)
    out = (base.out_shape(op), i8)
    cs.err(op, "depth_multiplier_mismatch", ARGS, out, {**args, "depth_multiplier": 3})
    cs.err(op, "weight_dim0_not_1", ARGS, out, {**args, "weight": torch.zeros(2, 3, 3, 4, dtype=i8)})
    cs.err(op, "cout_not_multiple_of_cin", ARGS, out, {**args, "weight": torch.zeros(1, 3, 3, 3, dtype=i8)})


def error_cases(cs: CaseList, rng: Rng, op: str, base: Conv) -> None:
    """The errors every convolution rejects, as mutations of one valid call."""
    args = base.args(rng, op)
    shape = base.out_shape(op)
    out = (shape, i8)
    x, w = args["input"], args["weight"]
    assert isinstance(x, torch.Tensor) and isinstance(w, torch.Tensor)
    cout = base.cout
    mutations: list[tuple[str, str, Args, tuple[tuple[int, ...], torch.dtype]]] = [
        ("int16_input", DTYPE, {"input": x.to(torch.int16)}, out),
        ("int32_weight", DTYPE, {"weight": w.to(i32)}, out),
        ("int64_bias", DTYPE, {"bias": torch.zeros(cout, dtype=i64)}, out),
        ("int64_multipliers", DTYPE, {"requantize_multipliers": torch.ones(cout, dtype=i64)}, out),
        ("float_shifts", DTYPE, {"requantize_shifts": torch.zeros(cout, dtype=f32)}, out),
        ("int8_scratch", DTYPE, {"scratch": torch.zeros(4096, dtype=i8)}, out),
        ("int32_out", DTYPE, {}, (shape, i32)),
        ("input_3d", ARGS, {"input": x[0]}, out),
        ("weight_3d", ARGS, {"weight": w[0]}, out),
        ("stride_zero", ARGS, {"stride": [0, 1]}, out),
        ("stride_one_entry", ARGS, {"stride": [1]}, out),
        ("padding_negative", ARGS, {"padding": [1, -1]}, out),
        ("dilation_zero", ARGS, {"dilation": [1, 0]}, out),
        ("input_offset_129", ARGS, {"input_offset": 129}, out),
        ("input_offset_minus_128", ARGS, {"input_offset": -128}, out),
        ("output_offset_128", ARGS, {"output_offset": 128}, out),
        ("activation_range_inverted", ARGS, {"activation_min": 10, "activation_max": 9}, out),
        ("activation_min_below_int8", ARGS, {"activation_min": -129}, out),
        ("bias_one_short", ARGS, {"bias": torch.zeros(cout - 1, dtype=i32)}, out),
        ("multipliers_one_long", ARGS, {"requantize_multipliers": torch.ones(cout + 1, dtype=i32)}, out),
        ("shifts_2d", ARGS, {"requantize_shifts": torch.zeros(1, cout, dtype=i32)}, out),
        ("shift_31", ARGS, {"requantize_shifts": torch.full((cout,), 31, dtype=i32)}, out),
        ("shift_minus_32", ARGS, {"requantize_shifts": torch.full((cout,), -32, dtype=i32)}, out),
        ("kernel_beyond_padded_input", ARGS, {"padding": [0, 0], "dilation": [4, 1]}, out),
        ("scratch_2d", ARGS, {"scratch": torch.zeros(1, 4096, dtype=u8)}, out),
    ]
    n, a, b, c = shape
    wrong: list[tuple[str, tuple[int, ...]]] = [("out_batch_wrong", (n + 1, a, b, c)), ("out_3d", (a, b, c))]
    wrong.append(("out_channels_wrong", (n, a, b, c + 1) if is_nhwc(op) else (n, a + 1, b, c)))
    for label, bad in wrong:
        mutations.append((label, ARGS, {}, (bad, i8)))
    scratch = args["scratch"]
    assert isinstance(scratch, torch.Tensor)
    for label, status, change, outs in mutations:
        cs.err(op, label, status, outs, {**args, **change})
    # Less scratch than the fast routine wants (a program planned by another exporter): the
    # portable routine computes the same result.
    if is_nhwc(op) and scratch.numel() > 0:
        cs.ok(op, "scratch_one_byte_short", {**args, "scratch": scratch[: scratch.numel() - 1]})
