/* aten::cumsum.out: running sums along dim, out[..., i, ...] = sum of self[..., 0..i, ...]; self
 * any real dtype or bool, out of the dtype the program asks for (int64 for integer self unless
 * dtype is given). Accumulates in out's type as ExecuTorch's portable kernel: float in float32,
 * integers in int64 (wrapping into out's dtype). */
#include "util/elem.h"
#include "kernel_util.h"

typedef struct cumsum_state {
  uint32_t outer, size, inner; /* self viewed as (outer, size along dim, inner) */
  uint8_t in, out;             /* dtypes */
} cumsum_state;

/* cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!): args self,
 * dim, dtype, out, out. */
enum { CUMSUM_SELF, CUMSUM_DIM, CUMSUM_DTYPE, CUMSUM_OUT };

static tp_status cumsum_run(const tp_kernel_call *call) {
  const cumsum_state *st = call->state;
  const void *x = call->args[CUMSUM_SELF]->as.tensor->data;
  void *o = call->args[CUMSUM_OUT]->as.tensor->data;
  const bool in_float = st->out == TP_DTYPE_FLOAT32;
  for (uint32_t a = 0; a < st->outer; a++) {
    for (uint32_t c = 0; c < st->inner; c++) {
      float facc = 0.0f;
      uint64_t iacc = 0;
      for (uint32_t i = 0; i < st->size; i++) {
        const uint32_t at = (a * st->size + i) * st->inner + c;
        if (in_float) {
          facc += (float)tp_elem_load_f64(x, st->in, at);
          ((float *)o)[at] = facc;
        } else {
          iacc += (uint64_t)tp_elem_load_i64(x, st->in, at);
          tp_elem_store_i64(o, st->out, at, (int64_t)iacc);
        }
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, cumsum, out, cumsum_state) {
  tp_tensor *in, *out;
  int64_t dim_arg;
  uint32_t dim;
  TP_TRY(tp_elementwise_args(call, CUMSUM_OUT, &in, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, CUMSUM_DIM, &dim_arg));
  if (!tp_dtype_is_real_or_bool(in->dtype) || !tp_dtype_is_real(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  state->size = in->dim > 0 ? (uint32_t)in->sizes[dim] : 1u;
  tp_dim_blocks(in, dim, &state->outer, &state->inner);
  state->in = (uint8_t)in->dtype;
  state->out = (uint8_t)out->dtype;
  *run = cumsum_run;
  return TP_OK;
}
