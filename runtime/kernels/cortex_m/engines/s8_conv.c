/* The int8 convolutions (see s8_conv.h): the description of a call (its checks: s8_conv_call.c),
 * a band of its out rows and the portable routine for every layout. The fast routines of the
 * _nhwc operators are in s8_conv_c.c (portable C blocked 2 x 2), s8_conv_dsp.c (Armv7E-M/Armv8-M
 * DSP) and s8_conv_mve.c (Helium); one of them is compiled for a given core. */
#include "cortex_m/engines/s8_conv.h"

#include <string.h>

#include "cortex_m/engines/s8_conv_args.h"
#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

/* A convolution's scratch for a window of K values: eight columns' bytes (the DSP routine's
 * four of int16 values, Helium's four of int8 values, the portable routine's two of int16
 * values), 16 bytes per out channel (the DSP routine's records: start value, requantization)
 * and K bytes rounded up to 4 (its gathered column). */
static uint32_t conv_scratch(int32_t K, int32_t cout) {
  return 9u * (uint32_t)round_up(K, 4) + 16u * (uint32_t)cout;
}

uint32_t tp_s8_conv_scratch_bytes(const tp_s8_conv *st, bool fast) {
  if (!fast || !st->fast) {
    return 0;
  }
  /* A convolution: conv_scratch. A depthwise one: two columns of int16 taps per channel, and
   * at least 16 + 3 kh kw bytes per channel, the DSP routine's per-channel records and border
   * window (a depth multiplier of 1, s8_conv_dsp_dw1.c). */
  if (st->depthwise) {
    const int32_t kk = st->k_h * st->k_w, per_channel = 4 * round_up(kk, 2);
    const uint32_t bytes = (uint32_t)st->in_c * (uint32_t)(per_channel > 16 + 3 * kk ? per_channel : 16 + 3 * kk);
    /* One input channel: the DSP routine runs it as a convolution, its weights transposed, and
     * Helium too, the filter padded to a multiple of 16 taps (its window: four columns of them,
     * the records, one gathered column). */
    const int32_t kp = round_up(kk, 16);
    const uint32_t as_conv = (uint32_t)round_up(st->out_c * kk, 4) + conv_scratch(kk, st->out_c);
    const uint32_t as_conv16 = (uint32_t)round_up(st->out_c * kp, 4) + 5u * (uint32_t)kp + 12u * (uint32_t)st->out_c;
    const uint32_t one_input = as_conv > as_conv16 ? as_conv : as_conv16;
    return st->in_c == 1 && one_input > bytes ? one_input : bytes;
  }
  return conv_scratch(st->k_h * st->k_w * st->in_c, st->out_c);
}

/* The fast routine needs its scratch (tinypte's exporter plans it: quantize/scratch.py). A
 * program planned by another exporter (ExecuTorch plans CMSIS-NN's sizes: none for a 1x1
 * convolution) may give less: up to TP_S8_CONV_STACK_SCRATCH bytes come from the stack
 * (tp_s8_conv_run_fast_stack), and beyond that the portable routine, which needs none, computes
 * the same result. Clears st->fast in that last case. */
static void choose_fast(tp_s8_conv *st, const tp_tensor *scratch) {
  if (st->fast) {
    const uint32_t need = tp_s8_conv_scratch_bytes(st, true);
    st->fast = tp_s8_conv_scratch_planned(need, scratch) || need <= TP_S8_CONV_STACK_SCRATCH;
  }
}

void tp_s8_conv_derive(const tp_kernel_call *call, tp_s8_conv *st) {
  const tp_s8_conv_kind kind = (tp_s8_conv_kind)((const tp_s8_conv_call *)call->state)->kind;
  tp_value *const *args = call->args;
  const bool dw = is_depthwise(kind), nhwc = is_nhwc(kind);
  const uint32_t o = dw ? 1u : 0u;
  const tp_tensor *in = args[A_IN]->as.tensor, *w = args[A_W]->as.tensor, *out = args[A_OUT + o]->as.tensor;
  const int64_t *stride = args[A_STRIDE]->as.int_list.items, *pad = args[A_PADDING]->as.int_list.items,
                *dil = args[A_DILATION]->as.int_list.items;
  memset(st, 0, sizeof *st);
  st->stride_h = (int32_t)stride[0];
  st->stride_w = (int32_t)stride[1];
  st->pad_h = (int32_t)pad[0];
  st->pad_w = (int32_t)pad[1];
  st->dil_h = (int32_t)dil[0];
  st->dil_w = (int32_t)dil[1];
  st->input_offset = (int32_t)args[A_IN_OFFSET + o]->as.i;
  st->output_offset = (int32_t)args[A_OUT_OFFSET + o]->as.i;
  st->act_min = (int32_t)args[A_MIN + o]->as.i;
  st->act_max = (int32_t)args[A_MAX + o]->as.i;
  st->batches = in->sizes[0];
  st->in_c = in->sizes[nhwc ? 3 : 1];
  st->in_h = in->sizes[nhwc ? 1 : 2];
  st->in_w = in->sizes[nhwc ? 2 : 3];
  st->k_h = w->sizes[1];
  st->k_w = w->sizes[2];
  if (dw) {
    st->out_c = w->sizes[3];
    st->cin_g = 1;
    st->cout_g = st->out_c / st->in_c;
    st->w_so = 1;
    st->w_sy = st->k_w * st->out_c;
    st->w_sx = st->out_c;
    st->w_si = 0;
  } else {
    st->out_c = w->sizes[0];
    st->cin_g = w->sizes[3];
    st->cout_g = st->out_c / (st->in_c / st->cin_g);
    st->w_si = 1;
    st->w_sx = st->cin_g;
    st->w_sy = st->k_w * st->cin_g;
    st->w_so = st->k_h * st->w_sy;
  }
  /* The out's shape is what the convolution gives (prepare checked it): no division here. */
  st->out_h = out->sizes[nhwc ? 1 : 2];
  st->out_w = out->sizes[nhwc ? 2 : 3];
  /* Memory order: an _nhwc operator's tensors are NHWC-shaped and contiguous; a legacy one's
   * are NCHW-shaped, laid out NCHW (contiguous) or NHWC (channels-last, read in place). */
  const bool legacy_last = !nhwc && (in->channels_last || out->channels_last);
  const bool in_nhwc = nhwc || in->channels_last || (legacy_last && tp_tensor_order_free(in));
  const bool out_nhwc = nhwc || out->channels_last || (legacy_last && tp_tensor_order_free(out));
  const int32_t hw_in = st->in_h * st->in_w, hw_out = st->out_h * st->out_w;
  st->in_sn = hw_in * st->in_c;
  st->in_sc = in_nhwc ? 1 : hw_in;
  st->in_sy = in_nhwc ? st->in_w * st->in_c : st->in_w;
  st->in_sx = in_nhwc ? st->in_c : 1;
  st->out_sn = hw_out * st->out_c;
  st->out_sc = out_nhwc ? 1 : hw_out;
  st->out_sy = out_nhwc ? st->out_w * st->out_c : st->out_w;
  st->out_sx = out_nhwc ? st->out_c : 1;
  st->depthwise = dw;
  st->fast = in_nhwc && out_nhwc && (dw || st->cin_g == st->in_c);
  st->a_in = A_IN;
  st->a_w = A_W;
  st->a_bias = A_BIAS;
  st->a_mult = (uint8_t)(A_MULT + o);
  st->a_shift = (uint8_t)(A_SHIFT + o);
  st->a_scratch = (uint8_t)(A_SCRATCH + o);
  st->a_out = (uint8_t)(A_OUT + o);
  choose_fast(st, args[st->a_scratch]->as.tensor);
}

/* --- In place (the routine: extensions/s8_conv_in_place.c; prepare: s8_conv_call.c) --- */

bool tp_s8_conv_in_place_geometry(const tp_s8_conv *st) {
  const int64_t rb_in = (int64_t)st->in_w * st->in_c, rb_out = (int64_t)st->out_w * st->out_c;
  return st->fast && st->batches == 1 && st->stride_h == 1 && rb_out <= rb_in && st->out_h <= st->in_h &&
         st->in_sy == rb_in && st->out_sy == rb_out;
}

/* --- Part of a call: its out rows (a band in place, each core's part of a split call; one row's
 * columns: s8_conv_two_cores.c) --- */

void tp_s8_conv_rows(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t o0, int32_t o1, tp_s8_conv *sub,
                     tp_s8_conv_data *sd) {
  /* Rows [o0, o1) as a convolution of their own: the input from the first row they read (at
   * the top, the padding rows instead), the same taps and bounds for each out position. */
  const int32_t top = o0 * st->stride_h - st->pad_h, first = top > 0 ? top : 0;
  *sub = *st;
  sub->in_h = st->in_h - first;
  sub->pad_h = first - top;
  sub->out_h = o1 - o0;
  sub->in_sn = sub->in_h * st->in_sy;
  sub->out_sn = sub->out_h * st->out_sy;
  *sd = *d;
  sd->in = d->in + first * st->in_sy;
  sd->out = d->out + o0 * st->out_sy;
}

/* --- Portable: every layout --- */

void tp_s8_conv_portable(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t off = st->input_offset;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t oy = 0; oy < st->out_h; oy++) {
      for (int32_t ox = 0; ox < st->out_w; ox++) {
        const int32_t y0 = oy * st->stride_h - st->pad_h, x0 = ox * st->stride_w - st->pad_w;
        for (int32_t oc = 0; oc < st->out_c; oc++) {
          const int32_t ci0 = oc / st->cout_g * st->cin_g;
          const int8_t *wo = d->w + oc * st->w_so;
          uint32_t acc = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u;
          for (int32_t ky = 0; ky < st->k_h; ky++) {
            const int32_t iy = y0 + ky * st->dil_h;
            if (iy < 0 || iy >= st->in_h) {
              continue;
            }
            for (int32_t kx = 0; kx < st->k_w; kx++) {
              const int32_t ix = x0 + kx * st->dil_w;
              if (ix < 0 || ix >= st->in_w) {
                continue;
              }
              const int8_t *xp = in + iy * st->in_sy + ix * st->in_sx + ci0 * st->in_sc;
              const int8_t *wp = wo + ky * st->w_sy + kx * st->w_sx;
              for (int32_t ci = 0; ci < st->cin_g; ci++) {
                acc += (uint32_t)((xp[ci * st->in_sc] + off) * wp[ci * st->w_si]);
              }
            }
          }
          out[oy * st->out_sy + ox * st->out_sx + oc * st->out_sc] = finish(st, acc, d->mult[oc], d->shift[oc]);
        }
      }
    }
  }
}
