/* The int8 convolution operators' prepare and run (s8_conv_call.h): what a kernel call of
 * cortex_m::quantized_conv2d and its siblings does with the engine (s8_conv.h), in place
 * (extensions/s8_conv_in_place.c, when linked) or not, on one core or two (s8_conv_band.h). */
#include "cortex_m/engines/s8_conv_call.h"

#include "cortex_m/engines/s8_conv_band.h"
#include "extensions/s8_conv_in_place.h"
#include "tinypte/two_cores.h"
#include "tinypte/two_cores_hand_over.h"

/* Compiled for speed like s8_conv.c (its reasons). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

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
  TP_TRY(tp_s8_conv_check(call, kind));
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
