/* aten::nonzero.out: the multi-indices of self's non-zero elements (NaN counts as non-zero),
 * in row-major order: out is int64 [count, self.dim()]. The count depends on the data, so out
 * is a dynamic tensor planned for its bound (every element non-zero) and run gives it its
 * sizes (tp_tensor_resize) after counting. Any real or bool dtype. */
#include "util/elem.h"
#include "kernel_util.h"

typedef struct nonzero_state {
  uint32_t numel;             /* self's elements */
  uint32_t dim;               /* self's dimensions: the length of every out row */
  uint32_t sizes[TP_MAX_DIM]; /* self's sizes */
  uint8_t dtype;              /* self's dtype */
} nonzero_state;

/* nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
enum { NONZERO_SELF, NONZERO_OUT };

static bool is_nonzero(const void *data, int dtype, uint32_t i) {
  return dtype == TP_DTYPE_FLOAT32 ? ((const float *)data)[i] != 0.0f : tp_elem_load_i64(data, dtype, i) != 0;
}

static tp_status nonzero_run(const tp_kernel_call *call) {
  const nonzero_state *st = call->state;
  const void *x = call->args[NONZERO_SELF]->as.tensor->data;
  tp_tensor *out = call->args[NONZERO_OUT]->as.tensor;
  uint32_t count = 0;
  for (uint32_t i = 0; i < st->numel; i++) {
    count += is_nonzero(x, st->dtype, i) ? 1u : 0u;
  }
  const int32_t shape[2] = {(int32_t)count, (int32_t)st->dim};
  TP_TRY(tp_tensor_resize(out, 2, shape));
  int64_t *o = out->data;
  uint32_t index[TP_MAX_DIM] = {0};
  for (uint32_t i = 0; i < st->numel; i++) {
    if (is_nonzero(x, st->dtype, i)) {
      for (uint32_t d = 0; d < st->dim; d++) {
        *o++ = index[d];
      }
    }
    for (uint32_t d = st->dim; d-- > 0;) { /* the next multi-index, last dimension fastest */
      if (++index[d] < st->sizes[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, nonzero, out, nonzero_state, TP_KERNEL_DYNAMIC_SHAPES) {
  tp_tensor *self, *out;
  TP_TRY(tp_elementwise_args(call, NONZERO_OUT, &self, &out));
  if (!tp_dtype_is_real_or_bool(self->dtype) || out->dtype != TP_DTYPE_INT64) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(out->dim == 2);
  state->numel = self->numel;
  state->dim = self->dim;
  state->dtype = (uint8_t)self->dtype;
  for (uint32_t d = 0; d < self->dim; d++) {
    state->sizes[d] = (uint32_t)self->sizes[d];
  }
  *run = nonzero_run;
  return TP_OK;
}
