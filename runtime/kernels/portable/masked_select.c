/* aten::masked_select.out: the elements of self where the bool mask is true, self and mask
 * broadcast against each other, in row-major order of the broadcast shape: out is 1-D with
 * self's dtype (any) and as many elements as the broadcast mask has true values. That count
 * depends on the data, so out is a dynamic tensor planned for its bound and run gives it its
 * size (tp_tensor_resize) after counting. */
#include <string.h>

#include "util/broadcast.h"
#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef struct masked_select_state {
  tp_nary_plan plan; /* self (operand 0) and mask (operand 1) over their broadcast shape */
  uint32_t esize;    /* bytes per element of self and out */
} masked_select_state;

/* masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!): args self,
 * mask, out, out. */
enum { MASKED_SELECT_SELF, MASKED_SELECT_MASK, MASKED_SELECT_OUT };

static tp_status masked_select_run(const tp_kernel_call *call) {
  const masked_select_state *st = call->state;
  const uint8_t *x = call->args[MASKED_SELECT_SELF]->as.tensor->data;
  const uint8_t *mask = call->args[MASKED_SELECT_MASK]->as.tensor->data;
  tp_tensor *out = call->args[MASKED_SELECT_OUT]->as.tensor;
  tp_nary_pos pos;
  uint32_t count = 0;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++, tp_nary_next(&st->plan, &pos)) {
    count += mask[pos.off[1]] != 0 ? 1u : 0u;
  }
  const int32_t size = (int32_t)count;
  TP_TRY(tp_tensor_resize(out, 1, &size));
  uint8_t *o = out->data;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++, tp_nary_next(&st->plan, &pos)) {
    if (mask[pos.off[1]] != 0) {
      memcpy(o, x + (size_t)pos.off[0] * st->esize, st->esize);
      o += st->esize;
    }
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, masked_select, out, masked_select_state, TP_KERNEL_DYNAMIC_SHAPES) {
  tp_tensor *self, *mask, *out;
  TP_TRY(tp_elementwise_args(call, MASKED_SELECT_OUT, &self, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MASKED_SELECT_MASK, &mask));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || out->dtype != self->dtype || mask->dtype != TP_DTYPE_BOOL) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(out->dim == 1);
  /* The broadcast shape as a tensor without data, to plan the walk over it. */
  int32_t sizes[TP_MAX_DIM];
  uint32_t dim;
  TP_TRY(tp_broadcast_shape(self, mask, &dim, sizes));
  uint64_t numel = 1;
  for (uint32_t d = 0; d < dim; d++) {
    numel *= (uint64_t)sizes[d];
    TP_CHECK_ARGS(numel <= 0x7fffffffu); /* a corrupt program's shapes */
  }
  tp_tensor shape = {NULL, sizes, (uint32_t)numel, 0, (uint8_t)dim, self->dtype, 0, 0, 0};
  const tp_tensor *ins[2] = {self, mask};
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 2, &shape));
  state->esize = (uint32_t)esize;
  *run = masked_select_run;
  return TP_OK;
}
