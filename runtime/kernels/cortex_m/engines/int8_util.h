/* Integer arithmetic and argument checks shared by the cortex_m::* int8 kernels.
 *
 * The semantics are those of ExecuTorch's Cortex-M backend reference implementations
 * (executorch/backends/cortex_m/ops/operators.py and passes/passes_utils.py), which the
 * kernel tests and conformance cases check bit for bit: requantization is CMSIS-NN's
 * multiplier/shift scheme with round-half-away-from-zero on the right shift, and int64
 * intermediate values wrap as torch's int64 tensors do. */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_INT8_UTIL_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_INT8_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "util/broadcast.h"
#include "kernel_util.h"

/** requantize_cmsis of any int64 value, any shift (int8_util.c): the general case of
 *  tp_requantize and tp_requantize_wide. */
int32_t tp_requantize_general(int64_t value, int32_t multiplier, int32_t shift);

/* value * multiplier * 2^shift / 2^31, rounded: `requantize_cmsis` of passes_utils.py.
 * The left shift and the product are computed modulo 2^64 (as torch's int64 tensors wrap),
 * then `(product + 2^30) >> 31`; a negative shift divides by 2^-shift rounding half away
 * from zero; the result is truncated to int32. Inlined: the 32-bit fast path below, else
 * tp_requantize_general. */
__attribute__((always_inline)) static inline int32_t tp_requantize(int32_t value, int32_t multiplier,
                                                                  int32_t shift) {
  if (shift <= 0 && shift >= -31) {
    /* The common case (the backend's multipliers stand for scales below 1): value * multiplier
     * needs no wrapping (|product| <= 2^62) and (product + 2^30) >> 31 takes 33 bits; when it
     * fits in 32, the rounding shift below on 32 bits is the same arithmetic as on 64 (the low
     * bits and the sign agree): one SMULL and about fifteen instructions instead of 64-bit
     * shifts and multiplies. */
    const int64_t high = ((int64_t)value * multiplier + (1ll << 30)) >> 31;
    if (high == (int64_t)(int32_t)high) {
      int32_t result = (int32_t)high;
      const uint32_t right = (uint32_t)-shift;
      if (right > 0u) {
        const int32_t mask = (int32_t)((1u << right) - 1u);
        const int32_t remainder = result & mask;
        result >>= right;
        result += remainder > (mask >> 1) + (result < 0 ? 1 : 0) ? 1 : 0;
      }
      return result;
    }
  }
  return tp_requantize_general((int64_t)value, multiplier, shift);
}

/* requantize_cmsis of an int64 value (quantized_linear's kernel_sum mode sums in int64):
 * tp_requantize's arithmetic, modulo 2^64, on all 64 bits of `value`. */
static inline int32_t tp_requantize_wide(int64_t value, int32_t multiplier, int32_t shift) {
  if (value == (int64_t)(int32_t)value) {
    return tp_requantize((int32_t)value, multiplier, shift); /* the same arithmetic, and its fast path */
  }
  return tp_requantize_general(value, multiplier, shift);
}

/* v clamped to [lo, hi] (the activation range, within int8's). */
static inline int32_t tp_clamp_i32(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

/** An int8 tensor argument (TP_ERR_KERNEL_DTYPE when it is another dtype). */
tp_status tp_arg_s8_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out);

/** An int argument that must fit in int32 (TP_ERR_KERNEL_ARGS otherwise). */
tp_status tp_arg_i32(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t *out);

/** An activation range: two int arguments with -128 <= lo <= hi <= 127. */
tp_status tp_arg_s8_range(tp_value *const *args, uint32_t nargs, uint32_t lo_index, uint32_t hi_index,
                          int32_t *lo, int32_t *hi);

/** An int[] argument of one or two items (a single item stands for both), each fitting in
 *  int32: the (height, width) pairs of the pooling and convolution kernels, which the
 *  backend's reference reads with _ensure_tuple2 (TP_ERR_KERNEL_ARGS for other lengths). */
tp_status tp_arg_pair(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t pair[2]);

/** A `scratch` argument of a kernel that needs no scratch memory: any uint8 tensor
 *  (TP_ERR_KERNEL_DTYPE otherwise; python/tinypte/quantize/scratch.py sizes it 0 bytes). */
tp_status tp_arg_unused_scratch(tp_value *const *args, uint32_t nargs, uint32_t index);

/** The arguments quantize_per_tensor and dequantize_per_tensor take after their input (args
 *  1..5): scale (> 0, finite), zero point and range (within int8), dtype (int8 only, else
 *  TP_ERR_KERNEL_DTYPE). */
tp_status tp_quant_params(tp_value *const *args, uint32_t nargs, double *scale, int32_t *zero_point, int32_t *lo,
                          int32_t *hi);

/** A requantization shift: -31..30 (shifts beyond them are not produced by the backend's
 *  quantize_multiplier and would overflow the kernels' 64-bit intermediate values). */
static inline bool tp_shift_ok(int64_t shift) { return shift >= -31 && shift <= 30; }

/** An int argument that must be an int8 value, -128..127 (a zero point, a pad value). */
tp_status tp_arg_s8_value(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t *out);

/** The tensors of an int8 elementwise binary kernel op(Tensor self, ..., Tensor other, ..., *,
 *  Tensor(a!) out) -> Tensor(a!): nargs == out_index + 2, self (args[0]), other, out and the
 *  returned out tensors (else TP_ERR_KERNEL_ARGS), self, other and out int8 (else
 *  TP_ERR_KERNEL_DTYPE), and out of their broadcast shape (else TP_ERR_KERNEL_ARGS); packs the
 *  broadcast plan. */
tp_status tp_s8_binary_prepare(const tp_kernel_call *call, uint32_t other_index, uint32_t out_index,
                               tp_bcast_packed *bcast);

/* out[i] = EXPR over the broadcast int8 elements `x` (of args[0]) and `y` (of args[other]),
 * into the int8 args[out], as packed in `packed` by tp_s8_binary_prepare. */
#define TP_S8_BINARY_APPLY(call, packed, other, out, EXPR)                                         \
  do {                                                                                          \
    tp_bcast tp_bc_;                                                                            \
    tp_bcast_unpack((packed), &tp_bc_);                                                         \
    TP_BCAST_APPLY(tp_bc_, int8_t, (call)->args[0]->as.tensor->data, int8_t,                    \
                   (call)->args[(other)]->as.tensor->data, int8_t, (call)->args[(out)]->as.tensor->data, \
                   (EXPR));                                                                     \
  } while (0)

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_INT8_UTIL_H */
