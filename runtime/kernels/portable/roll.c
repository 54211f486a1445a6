/* aten::roll.out: self's elements shifted cyclically by shifts[k] along dims[k] (positive: toward
 * higher indices); with no dims, the flattened tensor rolls by shifts[0]. Any dtype
 * (tp_remap_run; the flattened roll is a one-dimensional remap of the same bytes). */
#include "portable/engines/remap.h"

/* roll.out(Tensor self, SymInt[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!): args self,
 * shifts, dims, out, out. */
enum { ROLL_SELF, ROLL_SHIFTS, ROLL_DIMS, ROLL_OUT };

/* The self index an out index i reads: (i - shift) mod size, as an added shift in [0, size). */
static uint32_t roll_shift(int64_t shift, uint32_t size) {
  const int64_t s = size == 0 ? 0 : shift % (int64_t)size;
  return (uint32_t)(s <= 0 ? -s : (int64_t)size - s);
}

TP_KERNEL(aten, roll, out, tp_remap_state) {
  tp_tensor *in, *out;
  const int64_t *shifts, *dims;
  uint32_t nshifts, ndims;
  TP_TRY(tp_elementwise_args(call, ROLL_OUT, &in, &out));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, ROLL_SHIFTS, &shifts, &nshifts));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, ROLL_DIMS, &dims, &ndims));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  TP_TRY(tp_remap_init(state, in, out, ROLL_OUT));
  if (ndims == 0) {
    TP_CHECK_ARGS(nshifts == 1);
    state->dim = 1;
    state->in_sizes[0] = in->numel;
    state->out_sizes[0] = in->numel;
    state->shift[0] = roll_shift(shifts[0], in->numel);
  } else {
    TP_CHECK_ARGS(nshifts == ndims);
    for (uint32_t k = 0; k < ndims; k++) {
      uint32_t d;
      TP_TRY(tp_normalize_dim(dims[k], in->dim, &d));
      state->shift[d] = roll_shift(shifts[k], state->in_sizes[d]);
    }
  }
  *run = tp_remap_run;
  return TP_OK;
}
