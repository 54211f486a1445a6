/* cortex_m::transpose.out: an int8 tensor with its dimensions permuted,
 * out[i0, i1, ...] = input[...] with out dimension k taken from input dimension perm[k]
 * (input.permute(perm).contiguous(); negative dims allowed). prepare plans the gather. */
#include "cortex_m/engines/int8_util.h"

/* transpose.out(Tensor input, int[] perm, *, Tensor(a!) out) -> Tensor(a!) */
enum { TR_INPUT, TR_PERM, TR_OUT, TR_NARGS = 4 };

TP_KERNEL(cortex_m, transpose, out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  const int64_t *perm;
  uint32_t len;
  TP_CHECK_ARGS(nargs == TR_NARGS);
  TP_TRY(tp_arg_s8_tensor(args, nargs, TR_INPUT, &in));
  TP_TRY(tp_arg_int_list(args, nargs, TR_PERM, &perm, &len));
  TP_TRY(tp_arg_s8_tensor(args, nargs, TR_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, TR_OUT + 1, &ret));
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  TP_TRY(tp_permutation(in, perm, len, sizes, strides));
  TP_CHECK_ARGS(tp_shape_is(out, len, sizes));
  tp_gather_plan(state, len, sizes, strides, 1, TR_OUT, run);
  return TP_OK;
}
