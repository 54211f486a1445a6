/* The int8 convolution operators' prepare and run (s8_conv_call.h): every check of a call, and
 * what a kernel call of cortex_m::quantized_conv2d and its siblings does with the engine
 * (s8_conv.h), in place (extensions/s8_conv_in_place.c, when linked) or not, on one core or two
 * (s8_conv_band.h). */
#include "cortex_m/engines/s8_conv_call.h"

#include "cortex_m/engines/s8_conv_args.h"
#include "cortex_m/engines/s8_conv_band.h"
#include "extensions/s8_conv_in_place.h"
#include "tinypte/two_cores.h"
#include "tinypte/two_cores_hand_over.h"

/* Compiled for speed like s8_conv.c (its reasons). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

static tp_status pair(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t lo, int32_t *a, int32_t *b) {
  const int64_t *items;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, index, &items, &len));
  TP_CHECK_ARGS(len == 2 && items[0] >= lo && items[1] >= lo && items[0] <= INT16_MAX && items[1] <= INT16_MAX);
  *a = (int32_t)items[0];
  *b = (int32_t)items[1];
  return TP_OK;
}

/* A per-channel int32 tensor of `n` elements (requantize multipliers, shifts, bias). */
static tp_status channel_tensor(tp_tensor *t, int32_t n) {
  if (t->dtype != TP_DTYPE_INT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(t->dim == 1 && t->sizes[0] == n);
  return TP_OK;
}

/* One out size: (in + 2 pad - dil (k - 1) - 1) / stride + 1, at least 1. */
static tp_status out_size(int32_t in, int32_t k, int32_t stride, int32_t pad, int32_t dil, int32_t *out) {
  const int64_t span = (int64_t)in + 2 * (int64_t)pad - (int64_t)dil * (k - 1) - 1;
  TP_CHECK_ARGS(span >= 0);
  *out = (int32_t)(span / stride + 1);
  return TP_OK;
}

/* Every check of a call, on the arguments themselves, before anything is derived from them. */
static tp_status check_args(const tp_kernel_call *call, tp_s8_conv_kind kind) {
  tp_value *const *args = call->args;
  const uint32_t n = call->nargs;
  const bool dw = is_depthwise(kind), nhwc = is_nhwc(kind);
  const uint32_t o = dw ? 1u : 0u;
  tp_tensor *in, *w, *bias, *mult, *shift, *scratch, *out, *ret;
  int32_t sh, sw, ph, pw, dh, dw_, in_offset, out_offset, lo, hi, depth_multiplier = 0;
  TP_CHECK_ARGS(n == A_NARGS + o);
  TP_TRY(tp_arg_s8_tensor(args, n, A_IN, &in));
  TP_TRY(tp_arg_s8_tensor(args, n, A_W, &w));
  TP_TRY(tp_arg_optional_tensor(args, n, A_BIAS, &bias));
  TP_TRY(pair(args, n, A_STRIDE, 1, &sh, &sw));
  TP_TRY(pair(args, n, A_PADDING, 0, &ph, &pw));
  TP_TRY(pair(args, n, A_DILATION, 1, &dh, &dw_));
  if (dw) {
    TP_TRY(tp_arg_i32(args, n, A_DEPTH_MULTIPLIER, &depth_multiplier));
  }
  TP_TRY(tp_arg_i32(args, n, A_IN_OFFSET + o, &in_offset));
  TP_TRY(tp_arg_i32(args, n, A_OUT_OFFSET + o, &out_offset));
  TP_TRY(tp_arg_tensor(args, n, A_MULT + o, &mult));
  TP_TRY(tp_arg_tensor(args, n, A_SHIFT + o, &shift));
  TP_TRY(tp_arg_s8_range(args, n, A_MIN + o, A_MAX + o, &lo, &hi));
  TP_TRY(tp_arg_tensor(args, n, A_SCRATCH + o, &scratch));
  TP_TRY(tp_arg_s8_tensor(args, n, A_OUT + o, &out));
  TP_TRY(tp_arg_tensor(args, n, A_OUT + o + 1, &ret));
  if (scratch->dtype != TP_DTYPE_UINT8) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in_offset >= -127 && in_offset <= 128);
  TP_CHECK_ARGS(out_offset >= -128 && out_offset <= 127);
  TP_CHECK_ARGS(in->dim == 4 && w->dim == 4 && scratch->dim == 1);
  const int32_t in_c = in->sizes[nhwc ? 3 : 1], in_h = in->sizes[nhwc ? 1 : 2], in_w = in->sizes[nhwc ? 2 : 3];
  const int32_t k_h = w->sizes[1], k_w = w->sizes[2];
  TP_CHECK_ARGS(in_c > 0 && in_h > 0 && in_w > 0 && k_h > 0 && k_w > 0);
  int32_t out_c;
  if (dw) {
    out_c = w->sizes[3];
    TP_CHECK_ARGS(w->sizes[0] == 1 && out_c > 0 && out_c % in_c == 0);
    TP_CHECK_ARGS(depth_multiplier == out_c / in_c);
  } else {
    out_c = w->sizes[0];
    const int32_t cin_g = w->sizes[3];
    TP_CHECK_ARGS(out_c > 0 && cin_g > 0 && in_c % cin_g == 0);
    TP_CHECK_ARGS(out_c % (in_c / cin_g) == 0);
  }
  int32_t out_h, out_w;
  TP_TRY(out_size(in_h, k_h, sh, ph, dh, &out_h));
  TP_TRY(out_size(in_w, k_w, sw, pw, dw_, &out_w));
  const int32_t want[4] = {in->sizes[0], nhwc ? out_h : out_c, nhwc ? out_w : out_h, nhwc ? out_c : out_w};
  TP_CHECK_ARGS(tp_shape_is(out, 4, want));
  if (bias != NULL) {
    TP_TRY(channel_tensor(bias, out_c));
  }
  TP_TRY(channel_tensor(mult, out_c));
  TP_TRY(channel_tensor(shift, out_c));
  const int32_t *shifts = (const int32_t *)shift->data;
  for (int32_t c = 0; c < out_c; c++) {
    TP_CHECK_ARGS(tp_shift_ok(shifts[c]));
  }
  TP_CHECK_ARGS(!(nhwc && (in->channels_last || out->channels_last)));
  return TP_OK;
}

/* Whether two int8 tensors share a byte. */
static bool overlap(const tp_tensor *a, const tp_tensor *b) {
  const uintptr_t a0 = (uintptr_t)a->data, b0 = (uintptr_t)b->data;
  return a->numel > 0 && b->numel > 0 && a0 < b0 + b->numel && b0 < a0 + a->numel;
}

/* The in-place ring of a call: its scratch's bytes after what its fast routine needs (the scratch
 * holds that need: scratch_planned), *rows of its out rows. */
static int8_t *ring_of(const tp_s8_conv *st, const tp_tensor *scratch, int32_t *rows) {
  const uint32_t need = tp_s8_conv_scratch_bytes(st, true);
  *rows = tp_s8_conv_in_place_ring_rows(st, scratch->numel - need);
  return (int8_t *)scratch->data + need;
}

/* At prepare: the worker's scratch a split run of the call takes (what the firmware's build
 * sizes it by: pte_requirements reports the most any call notes). */
static void note_worker_scratch(const tp_s8_conv *st) {
  if (tp_s8_conv_splittable(st) && tp_two_cores_worth_it(st->out_h * st->out_w, tp_s8_conv_work(st))) {
    tp_two_cores_note_scratch(tp_s8_conv_scratch_bytes(st, true));
  }
}

tp_status tp_s8_conv_prepare(const tp_kernel_call *call, tp_s8_conv_kind kind, tp_s8_conv_call *state,
                             tp_kernel_run_fn *run) {
  TP_TRY(check_args(call, kind));
  state->kind = (uint8_t)kind;
  tp_s8_conv st;
  tp_s8_conv_derive(call, &st);
  const tp_tensor *in = call->args[st.a_in]->as.tensor, *out = call->args[st.a_out]->as.tensor;
  if (overlap(in, out)) {
    /* The out stored over the input (tinypte's planner does it when the input dies here): only
     * exactly over it, for a call that runs in place, with the ring in its scratch. */
    const tp_tensor *scratch = call->args[st.a_scratch]->as.tensor;
    if (tp_s8_conv_fast_in_place == NULL) {
      return TP_ERR_UNSUPPORTED; /* the extension, which this firmware lacks */
    }
    TP_CHECK_ARGS(in->data == out->data && tp_s8_conv_in_place_geometry(&st) &&
                  tp_s8_conv_scratch_planned(tp_s8_conv_scratch_bytes(&st, true), scratch));
    int32_t rows;
    (void)ring_of(&st, scratch, &rows);
    TP_CHECK_ARGS(rows > st.pad_h);
    note_worker_scratch(&st);
    *run = tp_s8_conv_run_fast;
    return TP_OK;
  }
  const bool on_stack =
      st.fast && !tp_s8_conv_scratch_planned(tp_s8_conv_scratch_bytes(&st, true), call->args[st.a_scratch]->as.tensor);
  *run = on_stack ? tp_s8_conv_run_fast_stack : st.fast ? tp_s8_conv_run_fast : tp_s8_conv_run_portable;
  if (*run == tp_s8_conv_run_fast) {
    note_worker_scratch(&st);
  }
  return TP_OK;
}

static void load_data(const tp_kernel_call *call, const tp_s8_conv *st, tp_s8_conv_data *d) {
  tp_value *const *a = call->args;
  d->in = (const int8_t *)a[st->a_in]->as.tensor->data;
  d->w = (const int8_t *)a[st->a_w]->as.tensor->data;
  d->bias = a[st->a_bias]->tag == TP_TAG_TENSOR ? (const int32_t *)a[st->a_bias]->as.tensor->data : NULL;
  d->mult = (const int32_t *)a[st->a_mult]->as.tensor->data;
  d->shift = (const int32_t *)a[st->a_shift]->as.tensor->data;
  d->scratch = a[st->a_scratch]->as.tensor->data;
  d->out = (int8_t *)a[st->a_out]->as.tensor->data;
}

tp_status tp_s8_conv_run_portable(const tp_kernel_call *call) {
  tp_s8_conv st;
  tp_s8_conv_derive(call, &st);
  tp_s8_conv_data d;
  load_data(call, &st, &d);
  tp_s8_conv_portable(&st, &d);
  return TP_OK;
}

tp_status tp_s8_conv_run_fast(const tp_kernel_call *call) {
  tp_s8_conv st;
  tp_s8_conv_derive(call, &st);
  tp_s8_conv_data d;
  load_data(call, &st, &d);
  if ((const void *)d.out == (const void *)d.in) { /* in place: prepare checked the ring */
    int32_t rows;
    int8_t *const ring = ring_of(&st, call->args[st.a_scratch]->as.tensor, &rows);
    return tp_s8_conv_fast_in_place(&st, &d, ring, rows);
  }
  bool split;
  return tp_s8_conv_fast_split_band(&st, &d, &split);
}

tp_status tp_s8_conv_run_fast_stack(const tp_kernel_call *call) {
  tp_s8_conv st;
  tp_s8_conv_derive(call, &st);
  uint32_t scratch[TP_S8_CONV_STACK_SCRATCH / 4];
  tp_s8_conv_data d;
  load_data(call, &st, &d);
  d.scratch = scratch;
  tp_s8_conv_fast(&st, &d);
  return TP_OK;
}
