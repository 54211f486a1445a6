/* aten::index_put.out and index_put_.default (in place): out = self, then out[indices] = values
 * (or += with accumulate), values broadcast to the indexed result's shape (engines/adv_index.h). Any
 * real dtype or bool (accumulate: real dtypes; floats add in float32, integers wrap). Elements
 * named twice take the last write (or both additions), in index order. */
#include <string.h>

#include "portable/engines/adv_index.h"

typedef struct index_put_state {
  tp_adv_index_plan plan;
  uint32_t value_strides[TP_MAX_DIM]; /* values' strides over the result (0 where it repeats) */
  uint32_t esize;
  uint8_t dtype;
  uint8_t out;        /* argument slot written: out, or self for index_put_ */
  bool accumulate;
} index_put_state;

/* index_put.out(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False, *, Tensor(a!) out)
 * -> Tensor(a!): args self, indices, values, accumulate, out, out. */
enum { INDEX_PUT_SELF, INDEX_PUT_INDICES, INDEX_PUT_VALUES, INDEX_PUT_ACCUMULATE, INDEX_PUT_OUT };

static tp_status index_put_run(const tp_kernel_call *call) {
  const index_put_state *st = call->state;
  const tp_tensor *self = call->args[INDEX_PUT_SELF]->as.tensor;
  tp_tensor *const *indices = call->args[INDEX_PUT_INDICES]->as.tensor_list.items;
  const uint8_t *v = (const uint8_t *)call->args[INDEX_PUT_VALUES]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[st->out]->as.tensor->data;
  if (o != self->data) {
    memmove(o, self->data, self->nbytes);
  }
  uint32_t coord[TP_MAX_DIM] = {0};
  for (uint32_t i = 0; i < st->plan.res_numel; i++) {
    uint32_t at, vat = 0;
    TP_TRY(tp_adv_index_offset(&st->plan, indices, coord, &at));
    for (uint32_t d = 0; d < st->plan.res_dim; d++) {
      vat += coord[d] * st->value_strides[d];
    }
    if (!st->accumulate) {
      memmove(o + (size_t)at * st->esize, v + (size_t)vat * st->esize, st->esize);
    } else if (st->dtype == TP_DTYPE_FLOAT32) {
      ((float *)o)[at] += ((const float *)v)[vat];
    } else {
      const uint64_t sum = (uint64_t)tp_elem_load_i64(o, st->dtype, at) + (uint64_t)tp_elem_load_i64(v, st->dtype, vat);
      tp_elem_store_i64(o, st->dtype, at, (int64_t)sum);
    }
    tp_adv_index_next(&st->plan, coord);
  }
  return TP_OK;
}

/* Check self, indices, values and accumulate, with `out` the tensor written (at args[out_slot]). */
static tp_status index_put_prepare(const tp_kernel_call *call, index_put_state *state, tp_kernel_run_fn *run,
                                   tp_tensor *self, tp_tensor *out, uint32_t out_slot) {
  tp_tensor *values;
  tp_tensor *const *indices;
  uint32_t n;
  TP_TRY(tp_arg_index_list(call, INDEX_PUT_INDICES, &indices, &n));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, INDEX_PUT_VALUES, &values));
  TP_TRY(tp_arg_bool(call->args, call->nargs, INDEX_PUT_ACCUMULATE, &state->accumulate));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || self->dtype != out->dtype || values->dtype != self->dtype ||
      (state->accumulate && !tp_dtype_is_real(self->dtype))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out));
  TP_TRY(tp_adv_index_plan_init(&state->plan, self, indices, n));
  /* values broadcast to the result, aligned at the last dimension */
  const tp_adv_index_plan *p = &state->plan;
  TP_CHECK_ARGS(values->dim <= p->res_dim);
  uint32_t stride = 1;
  for (uint32_t d = p->res_dim; d-- > 0;) {
    const int vd = (int)d - (int)(p->res_dim - values->dim);
    const uint32_t size = vd >= 0 ? (uint32_t)values->sizes[vd] : 1u;
    TP_CHECK_ARGS(size == 1 || size == p->res_sizes[d]);
    state->value_strides[d] = size == 1 ? 0u : stride;
    stride *= size;
  }
  state->esize = (uint32_t)esize;
  state->dtype = (uint8_t)self->dtype;
  state->out = (uint8_t)out_slot;
  *run = index_put_run;
  return TP_OK;
}

TP_KERNEL(aten, index_put, out, index_put_state) {
  tp_tensor *self, *out;
  TP_TRY(tp_elementwise_args(call, INDEX_PUT_OUT, &self, &out));
  return index_put_prepare(call, state, run, self, out, INDEX_PUT_OUT);
}

/* index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!):
 * args self, indices, values, accumulate, and the returned self. The in-place form (export
 * functionalizes it into index_put.out; a program reaches it only when written by hand). */
TP_KERNEL(aten, index_put_, default, index_put_state) {
  tp_tensor *self, *ret;
  TP_CHECK_ARGS(call->nargs == INDEX_PUT_OUT + 1);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, INDEX_PUT_SELF, &self));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, INDEX_PUT_OUT, &ret));
  return index_put_prepare(call, state, run, self, self, INDEX_PUT_SELF);
}
