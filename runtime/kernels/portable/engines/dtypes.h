/* The kernels' routines for their less common dtypes, an extension (extensions/dtypes.c): int8,
 * uint8, int16 and bool arithmetic, integer matrix products, and an integer or bool self promoted
 * to a float32 out (ATen's type promotion). Each is a weak reference, NULL when the firmware does
 * not link the extension: a kernel whose call needs one checks it in prepare and fails with
 * TP_ERR_UNSUPPORTED without it. The kernel registry lists the extension (so firmware links
 * it) for programs with such calls (python/tinypte/inspect_pte/extensions.py), and only those:
 * firmware of float32 and int32/int64 programs carries none of it. */
#ifndef TINYPTE_KERNELS_ENGINES_DTYPES_H
#define TINYPTE_KERNELS_ENGINES_DTYPES_H

#include "portable/engines/binary.h"
#include "portable/engines/gemm.h"
#include "util/broadcast.h"
#include "util/reduce.h"
#include "kernel_util.h"

/** The arithmetic of tp_dtypes_bcast and tp_dtypes_scalar (DIV: tp_dtypes_scalar's float outs only). */
typedef enum tp_dtypes_op { TP_DTYPES_ADD, TP_DTYPES_MUL, TP_DTYPES_DIV } tp_dtypes_op;

/** out = x + k * y (ADD) or x * y (MUL) over the broadcast `bc`, a, b and out all of `dtype`
 *  (int8, uint8, int16 or bool), wrapping as the dtype's arithmetic does (bool: nonzero). */
void tp_dtypes_bcast(const tp_bcast *bc, int dtype, tp_dtypes_op op, const void *a, const void *b, void *out,
                     int64_t k) __attribute__((weak));

/** o[i] = x[i] + c, x[i] * c or x[i] / c (op) for n elements, x of `self` dtype and o of `out`
 *  dtype: a float32 out computes (float)x[i] op cf (ATen's promotion of an integer or bool self);
 *  an integer or bool out (ADD, MUL) computes modulo 2^64 with ci and stores wrapping. */
void tp_dtypes_scalar(tp_dtypes_op op, const void *x, int self, void *o, int out, uint32_t n, float cf, uint64_t ci)
    __attribute__((weak));

/** o[i] = x[i] converted to float (ATen's promotion of an integer or bool self), n elements:
 *  the float kernels then run on o in place. */
void tp_dtypes_to_f32(const void *x, int dtype, float *o, uint32_t n) __attribute__((weak));

/** o[i] = min(max(x[i], lo), hi) for n elements of an integer dtype (a bound applies when its
 *  has_ flag is set): relu and hardtanh on integers. */
void tp_dtypes_clamp_int(const void *x, void *o, int dtype, uint32_t n, int64_t lo, bool has_lo, int64_t hi,
                         bool has_hi) __attribute__((weak));

/** sum.IntList_out's generic routine (any real or bool self and out but float into integer):
 *  a float32 out accumulates in float, an integer out in int64, wrapped to out's type. */
tp_status tp_dtypes_sum(const tp_kernel_call *call, const tp_reduce_loop *loop, const tp_tensor *in, tp_tensor *out)
    __attribute__((weak));

/** tp_gemm_f32 for the integer dtypes (g->dtype): sums over k in increasing order, z = sum * alpha
 *  + bias * beta (just sum without a bias), wrapping as the dtype's arithmetic does. No clamp. */
void tp_gemm_int(const tp_gemm *g, void *z, const void *x, const void *y, const void *bias) __attribute__((weak));

/** addmm's alpha or beta for an integer product: the Scalar converted to the integer type as ATen
 *  does (a float truncates toward zero), at most 2^24 in magnitude, kept as float (exact). */
tp_status tp_dtypes_int_scalar_f32(tp_value *const *args, uint32_t nargs, uint32_t index, float *out)
    __attribute__((weak));

/** The window geometry of avg_pool2d for tp_dtypes_avg_pool_i64. */
typedef struct tp_dtypes_pool2d {
  uint32_t planes;                 /* N * C */
  int32_t h, w, oh, ow;            /* input and output plane sizes */
  int32_t k[2], s[2], p[2];        /* kernel size, stride, padding (height, width) */
  int64_t divisor;                 /* divisor_override when has_divisor */
  bool has_divisor, count_include_pad;
} tp_dtypes_pool2d;

/** avg_pool2d on int64 planes, as ExecuTorch's portable kernel: each window's int64 sum (wrapping)
 *  divided, truncating toward zero, by divisor_override or by the window's element count (clipped
 *  to the padded input with count_include_pad, else to the input); 0 for a window outside it. */
void tp_dtypes_avg_pool_i64(const tp_dtypes_pool2d *pool, const int64_t *in, int64_t *out) __attribute__((weak));

/** pow.Tensor_Scalar_out for the dtypes its own routines lack: the binary engine with
 *  pow.Tensor_Tensor_out's functions (tp_pow_fns) and ATen's type promotion. */
tp_status tp_dtypes_pow_scalar(const tp_kernel_call *call, tp_binary_state *state, tp_kernel_run_fn *run)
    __attribute__((weak));

/** pow.Tensor_Tensor_out's functions (portable/pow.c). */
extern const tp_binary_fns tp_pow_fns;

#endif /* TINYPTE_KERNELS_ENGINES_DTYPES_H */
