/* aten::constant_pad_nd.out: pad self with `value`; pad = (before, after) pairs starting from the
 * last dimension. Negative pads crop, as ATen (the result size must stay >= 0); any dtype (the
 * value is cast to it, and must fit when something is actually padded).
 * prepare checks, converts the value and plans the copy of the kept block of self; run fills
 * out with the value (when something is padded), then copies the block row by row. */
#include <string.h>

#include "kernel_util.h"

typedef struct pad_state {
  uint8_t value[8];                 /* the pad value as one out element */
  uint32_t fill;                    /* out elements to fill with it first (0: it only crops) */
  uint32_t esize;                   /* bytes per element */
  uint32_t in_off, out_off;         /* byte offsets of the kept block in self and out */
  uint32_t rows;                    /* rows of the kept block (0: nothing kept) */
  uint32_t row_bytes;               /* bytes per row (the last dimension) */
  uint32_t dim;                     /* dimensions above the row */
  uint32_t block[TP_MAX_DIM - 1];   /* their kept sizes */
  uint32_t in_str[TP_MAX_DIM - 1];  /* and byte strides in self */
  uint32_t out_str[TP_MAX_DIM - 1]; /* and in out */
} pad_state;

/* constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *, Tensor(a!) out) -> Tensor(a!):
 * args self, pad, value, out, out. */
enum { PAD_SELF, PAD_PAD, PAD_VALUE, PAD_OUT, PAD_NARGS = 5 };

static tp_status pad_run(const tp_kernel_call *call) {
  const pad_state *st = call->state;
  uint8_t *o = (uint8_t *)call->args[PAD_OUT]->as.tensor->data;
  const uint8_t *x = (const uint8_t *)call->args[PAD_SELF]->as.tensor->data;
  /* Fill everything with the value, then copy the kept block of the input. */
  if (st->fill > 0) {
    tp_fill(o, st->fill, st->value, st->esize);
  }
  uint32_t in_index[TP_MAX_DIM] = {0};
  uint32_t out_index[TP_MAX_DIM] = {0};
  uint32_t ri = st->in_off;
  uint32_t ro = st->out_off;
  for (uint32_t r = 0; r < st->rows; r++) {
    memmove(o + ro, x + ri, st->row_bytes);
    ri = tp_index_next(st->dim, st->block, st->in_str, in_index, ri);
    ro = tp_index_next(st->dim, st->block, st->out_str, out_index, ro);
  }
  return TP_OK;
}

TP_KERNEL(aten, constant_pad_nd, out, pad_state) {
  TP_CHECK_ARGS(nargs == PAD_NARGS);
  tp_tensor *in, *out, *ret;
  const int64_t *pad;
  uint32_t len;
  double value_d;
  TP_TRY(tp_arg_tensor(args, nargs, PAD_SELF, &in));
  TP_TRY(tp_arg_int_list(args, nargs, PAD_PAD, &pad, &len));
  TP_TRY(tp_arg_scalar(args, nargs, PAD_VALUE, &value_d));
  TP_TRY(tp_arg_tensor(args, nargs, PAD_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, PAD_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const uint32_t dim = in->dim;
  /* "Length of pad must be even but instead it equals ..." / "... too large for input dims" */
  TP_CHECK_ARGS(len % 2 == 0 && len / 2 <= dim && dim <= TP_MAX_DIM);

  int32_t out_sizes[TP_MAX_DIM];
  int64_t before[TP_MAX_DIM] = {0};
  int64_t after[TP_MAX_DIM] = {0};
  uint32_t block[TP_MAX_DIM]; /* kept block sizes */
  bool positive = false;
  for (uint32_t d = 0; d < dim; d++) {
    const uint32_t p = dim - 1 - d; /* pad pair index */
    if (p < len / 2) {
      before[d] = pad[2 * p];
      after[d] = pad[2 * p + 1];
    }
    /* bound the pads so the sums below cannot overflow */
    TP_CHECK_ARGS(before[d] >= -(int64_t)INT32_MAX && before[d] <= INT32_MAX);
    TP_CHECK_ARGS(after[d] >= -(int64_t)INT32_MAX && after[d] <= INT32_MAX);
    positive = positive || before[d] > 0 || after[d] > 0;
    const int64_t size = (int64_t)in->sizes[d] + before[d] + after[d];
    TP_CHECK_ARGS(size >= 0 && size <= INT32_MAX);
    /* the kept part of the input (ATen narrows by the negative pads) must not be negative */
    const int64_t kept = (int64_t)in->sizes[d] + (before[d] < 0 ? before[d] : 0) + (after[d] < 0 ? after[d] : 0);
    TP_CHECK_ARGS(kept >= 0);
    out_sizes[d] = (int32_t)size;
    block[d] = (uint32_t)kept;
  }
  if (positive) { /* ATen ignores the value when it only crops */
    TP_TRY(tp_arg_scalar_as(args, nargs, PAD_VALUE, in->dtype, state->value));
  }
  (void)value_d;
  TP_CHECK_ARGS(tp_shape_is(out, dim, out_sizes));
  *run = pad_run;
  state->esize = (uint32_t)esize;
  if (out->numel == 0) {
    return TP_OK; /* nothing to fill or copy */
  }
  if (dim == 0) { /* one element, copied */
    state->rows = 1;
    state->row_bytes = (uint32_t)esize;
    return TP_OK;
  }
  state->fill = positive ? out->numel : 0;

  /* The kept block: rows of its last dimension, walked over the others. */
  uint32_t in_str[TP_MAX_DIM]; /* element strides */
  uint32_t out_str[TP_MAX_DIM];
  size_t in_off = 0;
  size_t out_off = 0;
  uint32_t si = 1;
  uint32_t so = 1;
  uint32_t rows = 1;
  for (uint32_t d = dim; d-- > 0;) {
    in_str[d] = si;
    out_str[d] = so;
    si *= (uint32_t)in->sizes[d];
    so *= (uint32_t)out_sizes[d];
    in_off += (size_t)(before[d] < 0 ? -before[d] : 0) * in_str[d];
    out_off += (size_t)(before[d] > 0 ? before[d] : 0) * out_str[d];
    if (d < dim - 1) {
      rows *= block[d];
    }
  }
  const uint32_t row_len = block[dim - 1];
  if (row_len == 0 || rows == 0) {
    return TP_OK; /* only the fill */
  }
  state->rows = rows;
  state->row_bytes = row_len * (uint32_t)esize;
  state->in_off = (uint32_t)(in_off * esize);
  state->out_off = (uint32_t)(out_off * esize);
  state->dim = dim - 1;
  for (uint32_t d = 0; d + 1 < dim; d++) {
    state->block[d] = block[d];
    state->in_str[d] = in_str[d] * (uint32_t)esize;
    state->out_str[d] = out_str[d] * (uint32_t)esize;
  }
  return TP_OK;
}
