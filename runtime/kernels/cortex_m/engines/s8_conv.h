/* The int8 convolutions of the Cortex-M backend: cortex_m::quantized_conv2d(_nhwc).out and
 * cortex_m::quantized_depthwise_conv2d(_nhwc).out share the checks, the state and the routines
 * here.
 *
 * Semantics (quantized_conv2d_impl and quantized_depthwise_conv2d_impl of the backend's
 * operators.py): with x the int8 input plus input_offset, zero outside the input (padding
 * adds zeros after the offset), and w the int8 weight,
 *
 *     acc[n, oc, oy, ox] = bias[oc] + sum over ky, kx and the input channels ci of oc's group
 *                          of x[n, ci, oy * sh - ph + ky * dh, ox * sw - pw + kx * dw] * w[...]
 *     out = clamp(requantize_cmsis(acc, multipliers[oc], shifts[oc]) + output_offset, min, max)
 *
 * in int32 arithmetic that wraps (as torch's int32 tensors do). The weight of a convolution is
 * OHWI [Cout, kh, kw, Cin / groups] (groups = Cin / weight.size(3)); a depthwise weight is
 * [1, kh, kw, Cout], Cout = Cin * depth_multiplier, out channel oc reading input channel
 * oc / depth_multiplier. The legacy operators take NCHW tensors, the _nhwc ones NHWC tensors
 * (tinypte's tensors are contiguous, so each is its memory order too).
 *
 * Accepted offsets are the backend's: input_offset = -zero point in [-127, 128] (so a padded
 * tap can be stored as the int8 value -input_offset) and output_offset in [-128, 127]; shifts
 * in [-31, 30] (tp_shift_ok). Multipliers may be any int32.
 *
 * Routines: a portable one for every layout and group count; for the _nhwc operators with one
 * group, fast ones chosen at compile time: Armv7E-M/Armv8-M DSP (SMLAD on int16 pairs) and
 * Helium (int8 dot products). The scratch tensor holds what the chosen routine needs
 * (tp_s8_conv_scratch_bytes, the rule of python/tinypte/quantize/scratch.py). */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_H

#include <stdbool.h>
#include <stdint.h>

#include "cortex_m/engines/int8_util.h"

typedef struct tp_s8_conv {
  int32_t batches, in_h, in_w, in_c, out_h, out_w, out_c;
  int32_t k_h, k_w, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  int32_t cin_g;  /* input channels each out channel reads (1 for depthwise) */
  int32_t cout_g; /* out channels per group (depthwise: depth_multiplier) */
  /* element strides: input n, c, y, x; out n, c, y, x; weight per out channel, ky, kx, ci */
  int32_t in_sn, in_sc, in_sy, in_sx;
  int32_t out_sn, out_sc, out_sy, out_sx;
  int32_t w_so, w_sy, w_sx, w_si;
  int32_t input_offset, output_offset, act_min, act_max;
  /* argument slots */
  uint8_t a_in, a_w, a_bias, a_mult, a_shift, a_scratch, a_out;
  uint8_t depthwise; /* a depthwise convolution (else one group count, cin_g per group) */
  uint8_t fast;      /* an _nhwc convolution with one group, or an _nhwc depthwise one */
  /* The scratch already holds the per-channel records a routine made for this call (a band of
   * rows after the first of a call run in place: same weights, same records); the DSP and
   * Helium routines then skip making them again. */
  uint8_t prepared;
  /* The same for the worker's scratch (a split band after a split band of the same call). */
  uint8_t worker_prepared;
} tp_s8_conv;

/* The kinds of convolution the four operators are. */
typedef enum tp_s8_conv_kind {
  TP_S8_CONV_NCHW,
  TP_S8_CONV_NHWC,
  TP_S8_DEPTHWISE_NCHW,
  TP_S8_DEPTHWISE_NHWC,
} tp_s8_conv_kind;

/* What a call keeps in the state pool: its kind. Everything tp_s8_conv holds follows from the
 * call's arguments (shapes in the program, scalars and lists in its values), so each run derives
 * it again (tp_s8_conv_derive, a few hundred instructions against the call's thousands of MACs)
 * instead of keeping 156 bytes per call in RAM. */
typedef struct tp_s8_conv_call {
  uint8_t kind; /* a tp_s8_conv_kind */
} tp_s8_conv_call;

/** Whether the program's scratch tensor holds the `need` bytes the fast routine needs. Inline:
 *  derive and prepare (s8_conv_call.c) test it. */
static inline bool tp_s8_conv_scratch_planned(uint32_t need, const tp_tensor *scratch) {
  return need <= scratch->numel && (need == 0 || ((uintptr_t)scratch->data & 3u) == 0);
}

/** The full description of a call prepare accepted (call->state is its tp_s8_conv_call); no checks. */
void tp_s8_conv_derive(const tp_kernel_call *call, tp_s8_conv *st);

/* The most scratch the fast routine takes from the stack when the program's is too small (a
 * program another exporter planned): a 1x1 convolution over up to 128 channels, or a small
 * filter over a few; larger calls take the portable routine. */
#define TP_S8_CONV_STACK_SCRATCH 512u

/* The raw operands of one convolution, as the routines read them (for tests of the fast
 * paths against the portable one). */
typedef struct tp_s8_conv_data {
  const int8_t *in;
  const int8_t *w;
  const int32_t *bias; /* or NULL */
  const int32_t *mult;
  const int32_t *shift;
  void *scratch;
  int8_t *out;
} tp_s8_conv_data;

/** The portable computation of `st` on `d`. */
void tp_s8_conv_portable(const tp_s8_conv *st, const tp_s8_conv_data *d);

/* The fast path's routines (one of s8_conv_c.c, s8_conv_dsp.c, s8_conv_mve.c is compiled):
 * tp_s8_conv_fast calls the one for st. */
void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d);
void tp_s8_conv_fast_depthwise(const tp_s8_conv *st, const tp_s8_conv_data *d);

/** The fast computation of `st` on `d` this core has (DSP or Helium), or the portable one;
 *  st must be an _nhwc convolution with one group or an _nhwc depthwise one, and d->scratch
 *  must hold tp_s8_conv_scratch_bytes(st, true) bytes, 4-byte aligned. Inline: the band
 *  (s8_conv_band.c), the stack-scratch run (s8_conv_call.c) and the split parts call it for
 *  every convolution, straight to the routine. */
static inline void tp_s8_conv_fast(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (st->depthwise) {
    tp_s8_conv_fast_depthwise(st, d);
  } else {
    tp_s8_conv_fast_conv(st, d);
  }
}

/** Out rows [o0, o1) of `st` on `d` as a convolution of their own (*sub on *sd): what a band of
 *  rows (in place) and each core's part of a split call compute. */
void tp_s8_conv_rows(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t o0, int32_t o1, tp_s8_conv *sub,
                     tp_s8_conv_data *sd);

/** Whether a call can split over two cores: a fast call of one batch. */
static inline bool tp_s8_conv_splittable(const tp_s8_conv *st) { return st->fast && st->batches == 1; }

/** A call's multiply-adds: what splitting it saves. */
static inline uint64_t tp_s8_conv_work(const tp_s8_conv *st) {
  return (uint64_t)st->out_h * (uint64_t)st->out_w * (uint64_t)st->out_c * (uint64_t)(st->k_h * st->k_w * st->cin_g);
}

/** Scratch bytes the routine for `st` needs on this core (`fast`: the fast routine). Pure (reads
 *  *st only): a caller that asks twice, as prepare does, computes it once. */
uint32_t tp_s8_conv_scratch_bytes(const tp_s8_conv *st, bool fast) __attribute__((pure));

/* In place: a call whose out is stored over its input, computed in bands of rows through a ring
 * of out rows (the routine is an extension: runtime/kernels/extensions/s8_conv_in_place.h). */

/** Whether `st` can run in place: a fast call, one batch, stride 1 along the height, NHWC rows,
 *  out rows no longer than input rows and no more of them. */
bool tp_s8_conv_in_place_geometry(const tp_s8_conv *st);

/** How many out rows of `st` a ring of `ring_bytes` holds; running in place needs more than
 *  st->pad_h of them (the rows that wait, plus at least one for a band). */
static inline int32_t tp_s8_conv_in_place_ring_rows(const tp_s8_conv *st, uint32_t ring_bytes) {
  const uint32_t rb_out = (uint32_t)st->out_sy;
  return rb_out == 0 ? 0 : (int32_t)(ring_bytes / rb_out < INT32_MAX ? ring_bytes / rb_out : INT32_MAX);
}

/** The name of this core's fast path: "dsp", "mve" or "portable". */
const char *tp_s8_conv_fast_path_name(void);

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_H */
