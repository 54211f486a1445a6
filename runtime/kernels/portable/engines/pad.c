/* The padding engine of engines/pad.h. */
#include "portable/engines/pad.h"

#include <string.h>

enum { PAD_SELF, PAD_PADDING, PAD_OUT };

/* The self coordinate an out coordinate o reads along one dimension. */
static uint32_t pad_source(const tp_pad_state *st, uint32_t d, uint32_t o) {
  const int64_t n = st->in_sizes[d];
  int64_t i = (int64_t)o - st->before[d];
  if (st->mode == TP_PAD_REFLECT) {
    if (i < 0) {
      i = -i;
    }
    if (i >= n) {
      i = 2 * (n - 1) - i;
    }
  } else {
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
  }
  return (uint32_t)i;
}

static tp_status pad_run(const tp_kernel_call *call) {
  const tp_pad_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[PAD_SELF]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[PAD_OUT]->as.tensor->data;
  uint32_t coord[TP_MAX_DIM] = {0};
  for (uint32_t k = 0; k < st->numel; k++) {
    uint32_t off = 0;
    for (uint32_t d = 0; d < st->dim; d++) {
      off = off * st->in_sizes[d] + pad_source(st, d, coord[d]);
    }
    memmove(o + (size_t)k * st->esize, x + (size_t)off * st->esize, st->esize);
    for (uint32_t d = st->dim; d-- > 0;) {
      if (++coord[d] < st->out_sizes[d]) {
        break;
      }
      coord[d] = 0;
    }
  }
  return TP_OK;
}

tp_status tp_pad_prepare(const tp_kernel_call *call, tp_pad_state *state, tp_kernel_run_fn *run, uint32_t padded,
                         tp_pad_mode mode) {
  tp_tensor *in, *out;
  const int64_t *padding;
  uint32_t n;
  TP_TRY(tp_elementwise_args(call, PAD_OUT, &in, &out));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, PAD_PADDING, &padding, &n));
  const size_t esize = tp_dtype_size(in->dtype);
  if (esize == 0 || esize > 255 || in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(n == 2 * padded && in->dim >= padded && out->dim == in->dim);
  state->dim = (uint8_t)in->dim;
  state->mode = (uint8_t)mode;
  state->esize = (uint8_t)esize;
  state->numel = out->numel;
  for (uint32_t d = 0; d < in->dim; d++) {
    const uint32_t size = (uint32_t)in->sizes[d];
    int64_t before = 0, after = 0;
    if (d + padded >= in->dim) { /* padded: pair (in->dim - 1 - d) */
      const uint32_t pair = in->dim - 1 - d;
      before = padding[2 * pair];
      after = padding[2 * pair + 1];
      TP_CHECK_ARGS(before >= 0 && after >= 0);
      TP_CHECK_ARGS(mode == TP_PAD_REFLECT ? before < (int64_t)size && after < (int64_t)size : size > 0);
    }
    TP_CHECK_ARGS(out->sizes[d] == (int64_t)size + before + after);
    state->in_sizes[d] = size;
    state->out_sizes[d] = (uint32_t)out->sizes[d];
    state->before[d] = (uint32_t)before;
  }
  *run = pad_run;
  return TP_OK;
}
