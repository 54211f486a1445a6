/* aten::tril.out: self's lower triangle in its last two dimensions: element (i, j) is kept where
 * j - i <= diagonal and zeroed elsewhere; any real dtype or bool. */
#include <string.h>

#include "kernel_util.h"

typedef struct tril_state {
  int64_t diagonal;
  uint32_t mats, rows, cols; /* matrices (the leading dimensions), and their shape */
  uint32_t esize;
} tril_state;

/* tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!): args self, diagonal, out, out. */
enum { TRIL_SELF, TRIL_DIAGONAL, TRIL_OUT };

static tp_status tril_run(const tp_kernel_call *call) {
  const tril_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[TRIL_SELF]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[TRIL_OUT]->as.tensor->data;
  const size_t es = st->esize;
  for (uint32_t m = 0; m < st->mats; m++) {
    for (uint32_t i = 0; i < st->rows; i++) {
      /* columns [0, keep) stay, the rest are zero */
      const int64_t last = (int64_t)i + st->diagonal + 1;
      const uint32_t keep = last < 0 ? 0u : last > (int64_t)st->cols ? st->cols : (uint32_t)last;
      const size_t row = ((size_t)m * st->rows + i) * st->cols * es;
      if (o != x) {
        memmove(o + row, x + row, keep * es);
      }
      memset(o + row + keep * es, 0, (st->cols - keep) * es);
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, tril, out, tril_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, TRIL_OUT, &in, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, TRIL_DIAGONAL, &state->diagonal));
  if (in->dtype != out->dtype || tp_dtype_size(in->dtype) == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out) && in->dim >= 2);
  /* beyond the matrix either way the result is the same: keep the arithmetic in range */
  if (state->diagonal < -INT32_MAX || state->diagonal > INT32_MAX) {
    state->diagonal = state->diagonal < 0 ? -INT32_MAX : INT32_MAX;
  }
  state->rows = (uint32_t)in->sizes[in->dim - 2];
  state->cols = (uint32_t)in->sizes[in->dim - 1];
  state->mats = state->rows * state->cols == 0 ? 0u : in->numel / (state->rows * state->cols);
  state->esize = (uint32_t)tp_dtype_size(in->dtype);
  *run = tril_run;
  return TP_OK;
}
