/* Helpers shared by the neural-network kernels (matmul, convolution, pooling, normalization):
 * argument-count checks for multi-output ops, pooling parameter parsing and input checks,
 * output-size and window-range arithmetic, the plane geometry prepare keeps in a pooling's
 * state (the float32 matrix product is gemm.h's).
 */
#ifndef TINYPTE_KERNELS_UTIL_NN_H
#define TINYPTE_KERNELS_UTIL_NN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel_util.h"

/* Keeps a hot inner loop in its own function so it does not compete for registers with the
 * caller's index math (GCC otherwise inlines single-use static functions and spills). */
#if defined(__GNUC__)
#define TP_NN_NOINLINE __attribute__((noinline))
#else
#define TP_NN_NOINLINE
#endif


/* acc += a * b, the step of every float32 dot product in the GEMM and convolution loops. Where
 * the FPU has a multiply-add that rounds once (RISC-V F: fmadd.s) it is used, which saves an
 * instruction per MAC and rounds each step once instead of twice (results then differ from
 * ExecuTorch's by float rounding; runtime/README.md lists it). Elsewhere a product and then a
 * sum, each rounded, exactly as ExecuTorch's portable kernels (Cortex-M: one vmla.f32). */
#if defined(__riscv) && defined(__riscv_flen) && __riscv_flen >= 32
#define TP_MAC(acc, a, b) ((acc) = __builtin_fmaf((a), (b), (acc)))
#else
#define TP_MAC(acc, a, b) ((acc) += (a) * (b))
#endif

/* 1 where float arithmetic is in hardware. Without an FPU (rv32imac) every float operation is
 * a library call, so routines that trade extra multiply-adds for simpler loops (the padded
 * 3x3 convolution multiplies its zero padding) are not chosen there. */
#if (defined(__riscv) && !defined(__riscv_flen)) || defined(__SOFTFP__)
#define TP_NN_HARD_FLOAT 0
#else
#define TP_NN_HARD_FLOAT 1
#endif

/* 1 on Arm cores with a single-precision FPU (Cortex-M33, M55, M7), where the hot loops load
 * runs of consecutive floats into consecutive registers with one vldmia (GCC emits one vldr
 * per value). Elsewhere the same loops in plain C. */
#if defined(__arm__) && defined(__thumb2__) && defined(__ARM_FP) && (__ARM_FP & 4) && !defined(__SOFTFP__)
#define TP_NN_VLDM 1
#else
#define TP_NN_VLDM 0
#endif

/** true when t is float32. */
static inline bool tp_nn_is_f32(const tp_tensor *t) { return t->dtype == TP_DTYPE_FLOAT32; }

/**
 * int64 -> float rounded once to nearest-even, like a C cast, but without the soft-float
 * helpers (__aeabi_l2f pulls in __aeabi_fadd) an int64 cast costs on Cortex-M: values in
 * int32 range use the FPU's int32 conversion; larger ones are shifted into 32 bits with a
 * sticky bit, converted, and scaled back by powers of two (exact).
 */
static inline float tp_nn_i64_to_f32(int64_t x) {
  if (x >= INT32_MIN && x <= INT32_MAX) {
    return (float)(int32_t)x;
  }
  uint64_t u = x < 0 ? 0u - (uint64_t)x : (uint64_t)x;
  uint32_t sticky = 0;
  uint32_t shift = 0;
  while ((u >> 32) != 0) {
    sticky |= (uint32_t)u & 1u;
    u >>= 1;
    shift++;
  }
  float f = (float)((uint32_t)u | sticky);
  for (; shift != 0; shift--) {
    f *= 2.0f;
  }
  return x < 0 ? -f : f;
}

/**
 * Checks the argument count of an out variant with `n_in` arguments before its `n_out` out
 * tensors. ExecuTorch emits a multi-output op's returns as one TensorList value (nargs ==
 * n_in + n_out + 1, last value a tensor list); one tensor value per returned tensor (nargs ==
 * n_in + 2 * n_out) is accepted too.
 */
tp_status tp_nn_check_multi_out_nargs(tp_value *const *args, uint32_t nargs, uint32_t n_in, uint32_t n_out);

/** true when t has `dim` dimensions of the given sizes. */
bool tp_nn_has_shape(const tp_tensor *t, uint32_t dim, const int32_t *sizes);

/** The tensors of `(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)` (mm, bmm): four
 *  arguments (else TP_ERR_KERNEL_ARGS), all float32 or all of one integer dtype (else
 *  TP_ERR_KERNEL_DTYPE). */
tp_status tp_nn_matmul_args(tp_value *const *args, uint32_t nargs, tp_tensor **self, tp_tensor **mat2,
                            tp_tensor **out);

/* 2-D window parameters, index 0 = height, 1 = width. */
typedef struct tp_nn_window2d {
  int32_t k[2]; /* kernel size, >= 1 */
  int32_t s[2]; /* stride, >= 1 */
  int32_t p[2]; /* padding, >= 0 */
  int32_t d[2]; /* dilation, >= 1 */
} tp_nn_window2d;

/**
 * Reads a 2-D pooling window: kernel_size (1 or 2 items), stride (empty = kernel_size),
 * padding (1 or 2 items; empty = 0) and, unless dilation_index is UINT32_MAX, dilation
 * (1 or 2 items; empty = 1). A single item applies to both dimensions, as in ATen.
 * Padding must be at most half the kernel size (ATen and ExecuTorch enforce this).
 */
tp_status tp_nn_pool_window(tp_value *const *args, uint32_t nargs, uint32_t kernel_index, uint32_t stride_index,
                            uint32_t padding_index, uint32_t dilation_index, tp_nn_window2d *w);

/** The run routine of a call with nothing to compute (an empty out): prepare picks it, so the
 *  other routines need no empty-tensor checks. */
tp_status tp_nn_run_nothing(const tp_kernel_call *call);

/* The planes a 2-D pooling maps, as prepare computes them for run: index 0 = height, 1 = width. */
typedef struct tp_nn_planes2d {
  uint32_t count; /* planes: C, or N * C */
  int32_t in[2];  /* input plane H, W */
  int32_t out[2]; /* output plane OH, OW */
} tp_nn_planes2d;

/** Checks a 2-D pooling input: (C, H, W) or (N, C, H, W) with C, H, W >= 1, else
 *  TP_ERR_KERNEL_ARGS. Sets in_hw to {H, W}. */
tp_status tp_nn_pool_input(const tp_tensor *in, int32_t in_hw[2]);

/** true when t has in's shape with the last two sizes replaced by out_hw: a 2-D pooling's out. */
bool tp_nn_is_pooled(const tp_tensor *in, const tp_tensor *t, const int32_t out_hw[2]);

/** What a checked 2-D pooling runs: tp_nn_run_nothing when out is empty, else `routine`, with
 *  planes->count set from in (accepted by tp_nn_pool_input) and planes->in. */
tp_kernel_run_fn tp_nn_pool_routine(const tp_tensor *in, const tp_tensor *out, tp_nn_planes2d *planes,
                                    tp_kernel_run_fn routine);

/**
 * Output length of a sliding window over `in` elements:
 * (in + 2p - d(k-1) - 1 [+ s-1 if ceil]) / s + 1, in ceil mode minus one if the last window
 * would start in the right padding. @return the length, or 0 when the window does not fit.
 */
int32_t tp_nn_out_size(int32_t in, int32_t k, int32_t s, int32_t p, int32_t d, bool ceil_mode);

/**
 * The taps t in [*lo, *hi) of a window starting at `start` with `k` taps `d` apart that land
 * inside [0, n): 0 <= start + t*d < n. Empty ranges come back as *lo == *hi.
 */
static inline void tp_nn_taps(int32_t start, int32_t k, int32_t d, int32_t n, int32_t *lo, int32_t *hi) {
  int32_t a = start < 0 ? (d - 1 - start) / d : 0;
  int32_t b = start < n ? (n - start + d - 1) / d : 0;
  if (b > k) {
    b = k;
  }
  if (a > b) {
    a = b;
  }
  *lo = a;
  *hi = b;
}

/** Along one axis, the avg_pool2d window of an output position starting at `start` (o * stride -
 *  padding), k long, over an input of n with `pad` padding: *lo..*hi clipped to the input; returns
 *  the window's length clipped to the padded input (count_include_pad's divisor factor). */
static inline int32_t tp_nn_avg_span(int32_t start, int32_t k, int32_t n, int32_t pad, int32_t *lo, int32_t *hi) {
  const int32_t end = start + k < n + pad ? start + k : n + pad;
  *lo = start > 0 ? start : 0;
  *hi = end < n ? end : n;
  return end - start;
}

/** The float32 sum of a plane's window: rows [y0, y1), columns [x0, x1) of a plane W wide, added
 *  row by row in increasing order (as ExecuTorch's portable average poolings sum). */
static inline float tp_nn_window_sum_f32(const float *plane, int32_t W, int32_t y0, int32_t y1, int32_t x0,
                                         int32_t x1) {
  float sum = 0.0f;
  const float *row = plane + y0 * W + x0;
  for (int32_t y = y1 - y0; y > 0; y--, row += W) {
    const float *p = row;
    for (int32_t x = x1 - x0; x > 0; x--) {
      sum += *p++;
    }
  }
  return sum;
}

/**
 * The output shape of a 2-D resize (upsample_*2d.vec_out) of NCHW `in` to out: from output_size
 * (`size`, `size_len` items) or from `scales` (a float[] argument, or None; exactly one of the two
 * is given), with in and out 4-D and in's H and W >= 1. Sets sizes to {N, C, OH, OW} (out's shape,
 * checked) and scale[k] to the factor spatial size k grows by (output_size / in for an
 * output_size). TP_ERR_KERNEL_ARGS when any of this does not hold.
 */
static inline tp_status tp_nn_resize2d_shape(const tp_tensor *in, const tp_tensor *out, const int64_t *size,
                                             uint32_t size_len, const tp_value *scales, int32_t sizes[4],
                                             double scale[2]) {
  const bool has_scales = scales->tag == TP_TAG_DOUBLE_LIST;
  TP_CHECK_ARGS(in->dim == 4 && out->dim == 4 && (size_len == 2) != has_scales);
  TP_CHECK_ARGS(!has_scales || scales->as.double_list.len == 2);
  TP_CHECK_ARGS(in->sizes[2] > 0 && in->sizes[3] > 0);
  sizes[0] = in->sizes[0];
  sizes[1] = in->sizes[1];
  for (uint32_t k = 0; k < 2; k++) {
    const double in_size = (double)in->sizes[2 + k];
    if (has_scales) {
      scale[k] = scales->as.double_list.items[k];
      TP_CHECK_ARGS(scale[k] > 0.0 && in_size * scale[k] < 2147483647.0);
      sizes[2 + k] = (int32_t)(in_size * scale[k]);
    } else {
      TP_CHECK_ARGS(size[k] > 0 && size[k] <= INT32_MAX);
      sizes[2 + k] = (int32_t)size[k];
      scale[k] = (double)size[k] / in_size;
    }
  }
  TP_CHECK_ARGS(tp_shape_is(out, 4, sizes));
  return TP_OK;
}

#endif /* TINYPTE_KERNELS_UTIL_NN_H */
