/* aten::masked_scatter.out: out = self, with the elements where mask (bool, broadcast to self's
 * shape) is true replaced, in row-major order, by source's consecutive elements; any dtype.
 * A mask with more true elements than source holds fails the run with TP_ERR_INDEX_RANGE. */
#include <string.h>

#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef struct masked_scatter_state {
  tp_nary_plan plan; /* self, mask against out */
  uint32_t esize;
  uint32_t source_numel;
} masked_scatter_state;

/* masked_scatter.out(Tensor self, Tensor mask, Tensor source, *, Tensor(a!) out) -> Tensor(a!): args
 * self, mask, source, out, out. */
enum { MASKED_SCATTER_SELF, MASKED_SCATTER_MASK, MASKED_SCATTER_SOURCE, MASKED_SCATTER_OUT };

static tp_status masked_scatter_run(const tp_kernel_call *call) {
  const masked_scatter_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[MASKED_SCATTER_SELF]->as.tensor->data;
  const uint8_t *m = (const uint8_t *)call->args[MASKED_SCATTER_MASK]->as.tensor->data;
  const uint8_t *src = (const uint8_t *)call->args[MASKED_SCATTER_SOURCE]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[MASKED_SCATTER_OUT]->as.tensor->data;
  const size_t es = st->esize;
  uint32_t next = 0; /* source elements used */
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    if (m[pos.off[1]] != 0) {
      if (next >= st->source_numel) {
        return TP_ERR_INDEX_RANGE;
      }
      memmove(o + i * es, src + (size_t)next++ * es, es);
    } else if (o != x) {
      memmove(o + i * es, x + (size_t)pos.off[0] * es, es);
    }
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

TP_KERNEL(aten, masked_scatter, out, masked_scatter_state) {
  tp_tensor *self, *mask, *source, *out;
  TP_TRY(tp_elementwise_args(call, MASKED_SCATTER_OUT, &self, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MASKED_SCATTER_MASK, &mask));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MASKED_SCATTER_SOURCE, &source));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || mask->dtype != TP_DTYPE_BOOL || self->dtype != out->dtype || source->dtype != self->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out));
  const tp_tensor *ins[2] = {self, mask};
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 2, out));
  state->esize = (uint32_t)esize;
  state->source_numel = source->numel;
  *run = masked_scatter_run;
  return TP_OK;
}
