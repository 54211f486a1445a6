/* cortex_m::pad.out: an int8 tensor of rank <= 4 padded with pad_value; pre_pad and post_pad
 * hold 4 non-negative counts for the dimensions of the input aligned at the last of 4 (a rank-r
 * input uses their last r entries).
 *
 * As the backend's reference: when the input "looks channels-last" to it (rank 4 with sizes[1]
 * == 1, or sizes[2] == sizes[3] == 1; a contiguous tensor of such a shape is both), the pads are
 * taken to be in NHWC order and moved to the NCHW dimensions: dimension d gets entry
 * {0, 3, 1, 2}[d]. A channels-last input and out (NHWC in memory) take the pads as they are, in
 * memory order. prepare checks and plans in memory order; run fills out with the value, then
 * copies the input's rows into it. */
#include <string.h>

#include "cortex_m/engines/int8_util.h"

enum { PAD_RANK = 4 };

typedef struct pad_state {
  uint32_t numel;                 /* out elements (filled with the value) */
  uint32_t rows, row_len;         /* the input's rows (0: empty) of row_len elements */
  uint32_t first;                 /* out offset of the input's first element */
  uint32_t dim;                   /* dimensions above the row */
  uint32_t sizes[PAD_RANK - 1];   /* their input sizes */
  uint32_t strides[PAD_RANK - 1]; /* and out element strides */
  int8_t value;
} pad_state;

/* pad.out(Tensor input, int[] pre_pad, int[] post_pad, int pad_value, *, Tensor(a!) out) -> Tensor(a!) */
enum { PAD_INPUT, PAD_PRE, PAD_POST, PAD_VALUE, PAD_OUT, PAD_NARGS = 6 };

static tp_status pad_run(const tp_kernel_call *call) {
  const pad_state *st = call->state;
  const int8_t *x = (const int8_t *)call->args[PAD_INPUT]->as.tensor->data;
  int8_t *o = (int8_t *)call->args[PAD_OUT]->as.tensor->data;
  memset(o, (uint8_t)st->value, st->numel);
  uint32_t index[PAD_RANK - 1] = {0};
  uint32_t off = st->first;
  for (uint32_t r = 0; r < st->rows; r++) {
    memcpy(o + off, x + r * st->row_len, st->row_len);
    off = tp_index_next(st->dim, st->sizes, st->strides, index, off);
  }
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, pad, out, pad_state, TP_KERNEL_DIM_ORDERS) {
  static const uint8_t nhwc_to_nchw[PAD_RANK] = {0, 3, 1, 2};
  tp_tensor *in, *out, *ret;
  const int64_t *pre, *post;
  uint32_t npre, npost;
  int32_t value;
  TP_CHECK_ARGS(nargs == PAD_NARGS);
  TP_TRY(tp_arg_s8_tensor(args, nargs, PAD_INPUT, &in));
  TP_TRY(tp_arg_int_list(args, nargs, PAD_PRE, &pre, &npre));
  TP_TRY(tp_arg_int_list(args, nargs, PAD_POST, &post, &npost));
  TP_TRY(tp_arg_s8_value(args, nargs, PAD_VALUE, &value));
  TP_TRY(tp_arg_s8_tensor(args, nargs, PAD_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, PAD_OUT + 1, &ret));
  const uint32_t rank = in->dim;
  bool channels_last;
  TP_CHECK_ARGS(rank <= PAD_RANK && npre == PAD_RANK && npost == PAD_RANK);
  TP_TRY(tp_in_out_channels_last(call, &channels_last));
  const bool nhwc = rank == 4 && (in->sizes[1] == 1 || (in->sizes[2] == 1 && in->sizes[3] == 1));
  /* Everything below is in memory order: dim d of memory is logical dim at[d]. */
  static const uint8_t memory_nhwc[PAD_RANK] = {0, 2, 3, 1};
  int32_t in_sizes[PAD_RANK], out_sizes[PAD_RANK], logical_out[PAD_RANK];
  uint32_t before[PAD_RANK];
  for (uint32_t d = 0; d < rank; d++) {
    const uint32_t at = channels_last ? memory_nhwc[d] : d;
    const uint32_t k = channels_last ? d : nhwc ? nhwc_to_nchw[d] : PAD_RANK - rank + d;
    in_sizes[d] = in->sizes[at];
    TP_CHECK_ARGS(pre[k] >= 0 && post[k] >= 0 && pre[k] <= INT32_MAX && post[k] <= INT32_MAX);
    TP_CHECK_ARGS(pre[k] + post[k] <= INT32_MAX - in_sizes[d]);
    before[d] = (uint32_t)pre[k];
    out_sizes[d] = in_sizes[d] + (int32_t)(pre[k] + post[k]);
    logical_out[at] = out_sizes[d];
  }
  TP_CHECK_ARGS(tp_shape_is(out, rank, logical_out));
  /* out element strides; the input's first element lands at the sum of before * stride */
  uint32_t strides[PAD_RANK];
  uint32_t stride = 1;
  state->first = 0;
  for (uint32_t d = rank; d-- > 0;) {
    strides[d] = stride;
    state->first += before[d] * stride;
    stride *= (uint32_t)out_sizes[d];
  }
  state->numel = out->numel;
  state->value = (int8_t)value;
  state->row_len = rank > 0 ? (uint32_t)in_sizes[rank - 1] : 1u;
  state->rows = state->row_len > 0 ? in->numel / state->row_len : 0u;
  state->dim = rank > 0 ? rank - 1 : 0u;
  for (uint32_t d = 0; d < state->dim; d++) {
    state->sizes[d] = (uint32_t)in_sizes[d];
    state->strides[d] = strides[d];
  }
  *run = pad_run;
  return TP_OK;
}
