"""Kernel test cases: the int8 poolings and transposed convolution of ExecuTorch's Cortex-M
backend (cortex_m::quantized_{max,avg}_pool2d, quantized_transpose_conv2d, and their _nhwc
variants).

Expected outs come from the backend's reference implementations (operators.py's functional
variants), compared bit for bit. The legacy operators take NCHW tensors and the _nhwc ones NHWC
tensors, both contiguous as tinypte's always are; each case is written once in NCHW and given
to the _nhwc operator permuted. Scratch arguments are sized by tinypte.quantize.scratch, as the
memory plan sizes them.
"""

from __future__ import annotations

import torch
from executorch.backends.cortex_m.passes.passes_utils import quantize_multiplier_aot
from kernel_case import ARGS, DTYPE, ArgValue, Case, CaseList, Rng, f32, i8, i32, int8, schema_args, u8

from tinypte.quantize.scratch import scratch_sizes

Args = dict[str, ArgValue]

MAX = "cortex_m::quantized_max_pool2d.out"
MAX_NHWC = "cortex_m::quantized_max_pool2d_nhwc.out"
AVG = "cortex_m::quantized_avg_pool2d.out"
AVG_NHWC = "cortex_m::quantized_avg_pool2d_nhwc.out"
TCONV = "cortex_m::quantized_transpose_conv2d.out"
TCONV_NHWC = "cortex_m::quantized_transpose_conv2d_nhwc.out"


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    cs = CaseList()
    for op in (MAX, MAX_NHWC):
        max_pool(cs, rng, op)
    for op in (AVG, AVG_NHWC):
        avg_pool(cs, rng, op)
    for op in (TCONV, TCONV_NHWC):
        transpose_conv(cs, rng, op)
    return cs.cases


def is_nhwc(op: str) -> bool:
    return "_nhwc." in op


def layout(op: str, x: torch.Tensor) -> torch.Tensor:
    """An NCHW tensor in the operator's layout (contiguous)."""
    return x.permute(0, 2, 3, 1).contiguous() if is_nhwc(op) and x.dim() == 4 else x


def out_shape(op: str, n: int, c: int, h: int, w: int) -> tuple[int, ...]:
    """An out of logical shape (n, c, h, w) in the operator's layout."""
    return (n, h, w, c) if is_nhwc(op) else (n, c, h, w)


def with_scratch(op: str, args: Args) -> Args:
    """`args` with each scratch argument sized by the operator's tinypte.quantize.scratch rule."""
    names = [a.name for a in schema_args(op) if not a.is_out]
    shaped = [tuple(v.shape) if isinstance(v, torch.Tensor) else v for v in (args.get(n) for n in names)]
    sizes = scratch_sizes(op.split(".")[0], shaped)
    if sizes is None:
        raise ValueError(f"{op}: no scratch rule in tinypte.quantize.scratch")
    scratch = [n for n in names if n.endswith("scratch")]
    return {**args, **{n: torch.zeros(size, dtype=u8) for n, size in zip(scratch, sizes, strict=True)}}


# --- Max pool ---------------------------------------------------------------------------
def max_args(
    x: torch.Tensor,
    kernel: list[int],
    stride: list[int],
    padding: list[int] | None = None,
    *,
    dilation: list[int] | None = None,
    ceil_mode: bool = False,
    zp: int = 0,
    out_zp: int | None = None,
    lo: int = -128,
    hi: int = 127,
) -> Args:
    return {
        "input": x,
        "kernel_size": kernel,
        "stride": stride,
        "padding": [0, 0] if padding is None else padding,
        "dilation": [1, 1] if dilation is None else dilation,
        "ceil_mode": ceil_mode,
        "input_zero_point": zp,
        "output_zero_point": zp if out_zp is None else out_zp,
        "activation_min": lo,
        "activation_max": hi,
    }


def max_pool(cs: CaseList, rng: Rng, op: str) -> None:
    def ok(label: str, x: torch.Tensor, *a: list[int] | None, **kw: object) -> None:
        cs.ok(op, label, max_args(layout(op, x), *a, **kw))  # type: ignore[arg-type]

    # The digits model: 2x2 windows at stride 2 (the routine for them), even and odd planes.
    ok("2x2_digits", int8(rng, 1, 8, 26, 26), [2, 2], [2, 2])
    ok("2x2_odd_sizes", int8(rng, 2, 3, 7, 9), [2, 2], [2, 2])
    ok("2x2_one_item_lists", int8(rng, 1, 5, 6, 4), [2], [2], [0])
    ok("2x2_relu_range", int8(rng, 1, 4, 6, 6), [2, 2], [2, 2], zp=-20, lo=-20, hi=127)
    ok("2x2_narrow_range_saturates", int8(rng, 2, 3, 4, 6), [2, 2], [2, 2], lo=-10, hi=10)
    ok("2x2_one_channel", int8(rng, 1, 1, 16, 16), [2, 2], [2, 2])
    ok("2x2_many_channels", int8(rng, 1, 37, 4, 4), [2, 2], [2, 2])
    # General windows: padding (never a candidate: all-negative inputs show it), strides.
    ok("3x3_stride2_pad1", int8(rng, 2, 5, 9, 7), [3, 3], [2, 2], [1, 1])
    ok("3x3_stride1_pad1", int8(rng, 1, 3, 5, 6), [3, 3], [1, 1], [1, 1])
    ok("pad_negative_inputs", rng.randint(1, 3, 5, 5, lo=-128, hi=-100, dtype=i8), [2, 2], [1, 1], [1, 1])
    ok("2x3_stride1x2_pad1", int8(rng, 1, 4, 7, 8), [2, 3], [1, 2], [1, 1])
    ok("3x3_stride3", int8(rng, 1, 3, 9, 10), [3, 3], [3, 3])
    ok("stride_beyond_kernel", int8(rng, 1, 2, 10, 11), [2, 2], [3, 3])
    ok("2x2_stride1", int8(rng, 3, 2, 5, 5), [2, 2], [1, 1])
    ok("2x2_pad1", int8(rng, 1, 3, 5, 4), [2, 2], [2, 2], [1, 1])
    ok("1x1", int8(rng, 1, 3, 3, 4), [1, 1], [1, 1])
    ok("window_past_input_edges", int8(rng, 1, 2, 1, 3), [2, 4], [1, 1], [1, 2])
    ok("zero_point_min", int8(rng, 1, 3, 6, 6), [3, 3], [2, 2], [1, 1], zp=-128, lo=-128, hi=127)
    ok("zero_point_max_clamped", int8(rng, 1, 3, 6, 6), [2, 2], [2, 2], zp=127, lo=-100, hi=100)
    ok("global", int8(rng, 2, 6, 5, 5), [5, 5], [5, 5])

    x = layout(op, int8(rng, 1, 2, 6, 6))
    good = out_shape(op, 1, 2, 3, 3), i8

    def err(label: str, status: str, out: tuple[tuple[int, ...], torch.dtype] = good, **kw: ArgValue) -> None:
        cs.err(op, label, status, out, {**max_args(x, [2, 2], [2, 2]), **kw})

    err("int32_input", DTYPE, input=x.to(i32))
    err("uint8_input", DTYPE, input=x.to(u8))
    err("int32_out", DTYPE, (good[0], i32))
    err("float_out", DTYPE, (good[0], f32))
    err("dilation_2", ARGS, dilation=[2, 2])  # the reference supports dilation 1 only
    err("dilation_empty", ARGS, dilation=[])
    err("ceil_mode", ARGS, ceil_mode=True)  # refused by the reference
    err("zero_points_differ", ARGS, output_zero_point=1)
    err("activation_min_below_int8", ARGS, activation_min=-129)
    err("activation_max_above_int8", ARGS, activation_max=128)
    err("activation_range_inverted", ARGS, activation_min=5, activation_max=4)
    err("kernel_zero", ARGS, kernel_size=[0, 2])
    err("kernel_empty", ARGS, kernel_size=[])
    err("kernel_three_items", ARGS, kernel_size=[2, 2, 2])
    err("kernel_huge", ARGS, kernel_size=[1 << 40, 2])
    err("stride_zero", ARGS, stride=[2, 0])
    err("stride_empty", ARGS, stride=[])
    err("stride_negative", ARGS, stride=[-2, 2])
    err("padding_negative", ARGS, padding=[-1, 0])
    err("padding_beyond_half_kernel", ARGS, padding=[0, 2])
    err("padding_empty", ARGS, padding=[])
    err("window_beyond_input", ARGS, (out_shape(op, 1, 2, 1, 1), i8), kernel_size=[7, 7], stride=[7, 7])
    err("input_3d", ARGS, ((2, 3, 3), i8), input=x[0])
    err("input_no_channels", ARGS, (out_shape(op, 1, 0, 3, 3), i8), input=layout(op, torch.zeros(1, 0, 6, 6, dtype=i8)))
    err("out_wrong_height", ARGS, (out_shape(op, 1, 2, 2, 3), i8))
    err("out_other_layout", ARGS, (out_shape(MAX if is_nhwc(op) else MAX_NHWC, 1, 2, 3, 3), i8))
    err("out_3d", ARGS, ((2, 3, 3), i8))


# --- Average pool -----------------------------------------------------------------------
def avg_args(
    op: str,
    x: torch.Tensor,
    kernel: list[int],
    stride: list[int],
    padding: list[int] | None = None,
    *,
    ceil_mode: bool = False,
    zp: int = 0,
    scale: float = 0.05,
) -> Args:
    multiplier, shift = quantize_multiplier_aot(scale)
    args: Args = {
        "input": x,
        "kernel_size": kernel,
        "stride": stride,
        "padding": [0, 0] if padding is None else padding,
        "ceil_mode": ceil_mode,
        "zero_point": zp,
        "multiplier": multiplier,
        "shift": shift,
    }
    return with_scratch(op, args)


def avg_pool(cs: CaseList, rng: Rng, op: str) -> None:
    def ok(label: str, x: torch.Tensor, *a: list[int] | None, **kw: object) -> None:
        cs.ok(op, label, avg_args(op, layout(op, x), *a, **kw))  # type: ignore[arg-type]

    ok("2x2", int8(rng, 1, 8, 8, 8), [2, 2], [2, 2], zp=-3, scale=0.0392157)
    ok("2x2_odd_sizes", int8(rng, 2, 3, 7, 9), [2, 2], [2, 2], zp=11, scale=0.0213)
    ok("3x3_stride2_pad1", int8(rng, 2, 3, 9, 7), [3, 3], [2, 2], [1, 1], zp=-7, scale=0.117)
    ok("3x3_stride1_pad1", int8(rng, 1, 4, 6, 5), [3, 3], [1, 1], [1, 1], zp=4, scale=0.0061)
    ok("ceil_mode", int8(rng, 1, 3, 7, 7), [2, 2], [2, 2], ceil_mode=True, zp=-1, scale=0.0473)
    ok("ceil_mode_pad1", int8(rng, 2, 3, 8, 8), [3, 3], [2, 2], [1, 1], ceil_mode=True, zp=9, scale=0.0301)
    ok("ceil_mode_last_window_dropped", int8(rng, 1, 2, 6, 6), [2, 2], [3, 3], [1, 1], ceil_mode=True, scale=0.09)
    ok("3x2_stride1x2_pad1x0", int8(rng, 1, 5, 7, 8), [3, 2], [1, 2], [1, 0], zp=-60, scale=0.0137)
    ok("stride_beyond_kernel", int8(rng, 1, 2, 10, 11), [2, 2], [3, 3], zp=20, scale=0.25)
    ok("one_item_lists", int8(rng, 1, 3, 6, 6), [3], [2], [1], zp=2, scale=0.0155)
    ok("global_7x7", int8(rng, 1, 16, 7, 7), [7, 7], [7, 7], zp=-5, scale=0.0823)
    ok("many_channels", int8(rng, 1, 19, 4, 5), [2, 2], [2, 2], zp=3, scale=0.0377)
    ok("zero_point_min", int8(rng, 1, 3, 6, 6), [3, 3], [2, 2], [1, 1], zp=-128, scale=0.0039215689)
    ok("zero_point_max", int8(rng, 1, 3, 6, 6), [2, 2], [1, 1], zp=127, scale=0.0039215689)
    ok("all_max_zp_min", torch.full((1, 2, 4, 4), 127, dtype=i8), [3, 3], [1, 1], [1, 1], zp=-128, scale=0.0731)
    ok("all_min_zp_max", torch.full((1, 2, 4, 4), -128, dtype=i8), [3, 3], [1, 1], [1, 1], zp=127, scale=0.0731)
    # Unit scale: the sums are integers and every odd two-element sum is a tie (half to even).
    ok("unit_scale_ties", int8(rng, 1, 4, 6, 6), [1, 2], [1, 2], scale=1.0)
    ok("tiny_scale", int8(rng, 1, 3, 5, 5), [2, 2], [1, 1], zp=1, scale=3.1e-6)
    ok("large_scale", int8(rng, 1, 3, 5, 5), [2, 3], [2, 1], [1, 1], zp=-2, scale=173.25)
    ok("batch", int8(rng, 3, 2, 4, 4), [2, 2], [2, 2], zp=0, scale=0.0625)

    x = layout(op, int8(rng, 1, 2, 6, 6))
    good = out_shape(op, 1, 2, 3, 3), i8
    base = avg_args(op, x, [2, 2], [2, 2], zp=1, scale=0.02)

    def err(label: str, status: str, out: tuple[tuple[int, ...], torch.dtype] = good, **kw: ArgValue) -> None:
        cs.err(op, label, status, out, {**base, **kw})

    err("int32_input", DTYPE, input=x.to(i32))
    err("float_input", DTYPE, input=x.to(f32))
    err("int32_out", DTYPE, (good[0], i32))
    err("scratch_int8", DTYPE, scratch=torch.zeros(0, dtype=i8))
    err("scratch_float", DTYPE, scratch=torch.zeros(4, dtype=f32))
    err("multiplier_zero", ARGS, multiplier=0)
    err("multiplier_negative", ARGS, multiplier=-(1 << 30))
    err("multiplier_beyond_int32", ARGS, multiplier=1 << 31)
    err("shift_31", ARGS, shift=31)
    err("shift_minus_32", ARGS, shift=-32)
    err("zero_point_above_int8", ARGS, zero_point=128)
    err("zero_point_below_int8", ARGS, zero_point=-129)
    err("kernel_zero", ARGS, kernel_size=[2, 0])
    err("kernel_three_items", ARGS, kernel_size=[2, 2, 2])
    err("stride_zero", ARGS, stride=[0, 2])
    err("stride_empty", ARGS, stride=[])
    err("padding_negative", ARGS, padding=[0, -1])
    err("padding_beyond_half_kernel", ARGS, padding=[2, 0])
    err("window_beyond_input", ARGS, (out_shape(op, 1, 2, 1, 1), i8), kernel_size=[7, 7], stride=[7, 7])
    err("input_3d", ARGS, ((2, 3, 3), i8), input=x[0])
    err("out_wrong_width", ARGS, (out_shape(op, 1, 2, 3, 4), i8))
    err("out_other_layout", ARGS, (out_shape(AVG if is_nhwc(op) else AVG_NHWC, 1, 2, 3, 3), i8))
    # ceil_mode makes the 7-wide plane's out 4 wide: the floor-mode out is wrong.
    y = layout(op, int8(rng, 1, 2, 7, 7))
    err("ceil_mode_out_floor_sized", ARGS, (out_shape(op, 1, 2, 3, 3), i8), input=y, ceil_mode=True)


# --- Transposed convolution -------------------------------------------------------------
def requantize_params(rng: Rng, channels: int, in_scale: float, out_scale: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-channel multipliers and shifts as the backend computes them, from weight scales
    drawn in [0.002, 0.012)."""
    w_scales = rng.rand_milli(channels, lo=2.0, hi=12.0) / 1000
    pairs = [quantize_multiplier_aot(in_scale * float(ws) / out_scale) for ws in w_scales]
    return torch.tensor([m for m, _ in pairs], dtype=i32), torch.tensor([s for _, s in pairs], dtype=i32)


def tconv_args(
    rng: Rng,
    op: str,
    x: torch.Tensor,
    out_channels: int,
    kernel: tuple[int, int],
    stride: list[int],
    padding: list[int] | None = None,
    output_padding: list[int] | None = None,
    dilation: list[int] | None = None,
    *,
    bias: bool = True,
    in_zp: int = 3,
    out_zp: int = -5,
    lo: int = -128,
    hi: int = 127,
    out_scale: float = 0.05,
) -> Args:
    """Random OHWI weights (and bias) for the NCHW input x, given in the operator's layout."""
    weight = int8(rng, out_channels, kernel[0], kernel[1], x.shape[1])
    mult, shift = requantize_params(rng, out_channels, 0.02, out_scale)
    args: Args = {
        "input": layout(op, x),
        "weight": weight,
        "bias": rng.randint(out_channels, lo=-5000, hi=5000, dtype=i32) if bias else None,
        "stride": stride,
        "padding": [0, 0] if padding is None else padding,
        "output_padding": [0, 0] if output_padding is None else output_padding,
        "dilation": [1, 1] if dilation is None else dilation,
        "input_offset": -in_zp,
        "output_offset": out_zp,
        "requantize_multipliers": mult,
        "requantize_shifts": shift,
        "activation_min": lo,
        "activation_max": hi,
    }
    return with_scratch(op, args)


def transpose_conv(cs: CaseList, rng: Rng, op: str) -> None:
    def ok(label: str, x: torch.Tensor, co: int, *a: object, **kw: object) -> None:
        cs.ok(op, label, tconv_args(rng, op, x, co, *a, **kw))  # type: ignore[arg-type]

    ok("2x2_stride2_upsample", int8(rng, 1, 3, 4, 5), 4, (2, 2), [2, 2])
    ok("3x3_stride2_pad1_outpad1", int8(rng, 1, 4, 5, 5), 3, (3, 3), [2, 2], [1, 1], [1, 1], bias=False)
    ok("3x3_stride1_pad1", int8(rng, 2, 3, 4, 6), 5, (3, 3), [1, 1], [1, 1])
    ok("3x2_stride2x1_pad1x0_outpad1x0", int8(rng, 1, 2, 5, 4), 3, (3, 2), [2, 1], [1, 0], [1, 0])
    ok("dilation2_outpad1_stride1", int8(rng, 1, 3, 4, 4), 2, (3, 3), [1, 1], [1, 1], [1, 1], [2, 2])
    ok("dilation2_stride3", int8(rng, 1, 2, 3, 4), 3, (2, 3), [3, 3], [0, 1], [2, 0], [2, 2])
    ok("padding_beyond_kernel", int8(rng, 1, 2, 5, 5), 2, (3, 3), [2, 2], [3, 3])
    ok("one_item_lists", int8(rng, 1, 3, 3, 3), 2, (3, 3), [2], [1], [1], [1])
    ok("relu_range_batch", int8(rng, 2, 3, 3, 4), 4, (2, 2), [2, 2], lo=-5, hi=127)
    ok("zero_points_min_max", int8(rng, 1, 3, 4, 4), 3, (3, 3), [2, 2], [1, 1], in_zp=-128, out_zp=127)
    ok("zero_points_max_min", int8(rng, 1, 3, 4, 4), 3, (3, 3), [2, 2], [1, 1], in_zp=127, out_zp=-128)
    ok("saturates", int8(rng, 1, 4, 4, 4), 3, (3, 3), [1, 1], [1, 1], out_scale=0.002)
    ok("positive_shifts", int8(rng, 1, 2, 3, 3), 2, (2, 2), [2, 2], out_scale=1e-5, lo=-100, hi=90)
    ok("one_channel", int8(rng, 1, 1, 6, 5), 1, (4, 4), [2, 2], [1, 1])
    ok("many_channels", int8(rng, 1, 17, 3, 3), 6, (3, 3), [2, 2], [1, 1], [1, 1], out_scale=0.4)
    ok("1x1_stride2", int8(rng, 1, 5, 3, 4), 3, (1, 1), [2, 2], out_scale=0.02)

    x = int8(rng, 1, 3, 4, 4)
    base = tconv_args(rng, op, x, 2, (3, 3), [2, 2], [1, 1], [1, 1])  # out 8x8
    good = out_shape(op, 1, 2, 8, 8), i8
    mult, shift = base["requantize_multipliers"], base["requantize_shifts"]
    assert isinstance(mult, torch.Tensor) and isinstance(shift, torch.Tensor)

    def err(label: str, status: str, out: tuple[tuple[int, ...], torch.dtype] = good, **kw: ArgValue) -> None:
        cs.err(op, label, status, out, {**base, **kw})

    weight = int8(rng, 2, 3, 3, 3)
    err("int32_input", DTYPE, input=layout(op, x).to(i32))
    err("int32_weight", DTYPE, weight=weight.to(i32))
    err("int64_bias", DTYPE, bias=torch.zeros(2, dtype=torch.int64))
    err("int64_multipliers", DTYPE, requantize_multipliers=mult.to(torch.int64))
    err("int8_shifts", DTYPE, requantize_shifts=shift.to(i8))
    err("int8_scratch", DTYPE, scratch=torch.zeros(0, dtype=i8))
    err("float_output_scratch", DTYPE, output_scratch=torch.zeros(1, dtype=f32))
    err("int32_out", DTYPE, (good[0], i32))
    err("weight_grouped", ARGS, weight=int8(rng, 2, 3, 3, 1))  # groups > 1: the reference fails
    err("weight_3d", ARGS, weight=weight[0])
    err("input_3d", ARGS, ((2, 8, 8), i8), input=layout(op, x)[0])
    err("bias_wrong_length", ARGS, bias=torch.zeros(3, dtype=i32))
    err("multipliers_wrong_length", ARGS, requantize_multipliers=mult[:1])
    err("shifts_2d", ARGS, requantize_shifts=shift.reshape(1, 2))
    err("shift_beyond_30", ARGS, requantize_shifts=torch.tensor([31, -8], dtype=i32))
    err("stride_zero", ARGS, stride=[0, 2])
    err("stride_empty", ARGS, stride=[])
    err("dilation_zero", ARGS, dilation=[1, 0])
    err("padding_negative", ARGS, padding=[-1, 1])
    err("output_padding_not_below_stride", ARGS, (out_shape(op, 1, 2, 9, 9), i8), output_padding=[2, 2])
    err("output_padding_negative", ARGS, output_padding=[1, -1])
    err("out_too_small", ARGS, (out_shape(op, 1, 2, 1, 1), i8), padding=[5, 5])
    err("input_offset_beyond_int8", ARGS, input_offset=129)
    err("output_offset_beyond_int8", ARGS, output_offset=128)
    err("activation_range_inverted", ARGS, activation_min=1, activation_max=0)
    err("out_wrong_height", ARGS, (out_shape(op, 1, 2, 7, 8), i8))
    err("out_other_layout", ARGS, (out_shape(TCONV if is_nhwc(op) else TCONV_NHWC, 1, 2, 8, 8), i8))
