/* aten::argmax.out: index (int64) of the first maximum along dim, or over the flattened tensor
 * when dim is None (keepdim then keeps every dim as 1). As ATen/ExecuTorch, NaN counts as the
 * maximum (the first NaN wins). self float32, int32 or int64; an empty reduction is an error. */
#include <math.h>

#include "kernel_util.h"

/* GREATER(v, acc): whether v replaces the current maximum acc. */
#define ARGMAX_LOOP(T, GREATER)                                                            \
  do {                                                                                     \
    const T *x = (const T *)in->data;                                                      \
    int64_t *o = (int64_t *)out->data;                                                     \
    uint32_t kidx[TP_MAX_DIM] = {0};                                                       \
    uint32_t koff = 0;                                                                     \
    for (uint32_t i = 0; i < plan.out_numel; i++) {                                        \
      uint32_t ridx[TP_MAX_DIM] = {0};                                                     \
      uint32_t roff = 0;                                                                   \
      T acc = x[koff];                                                                     \
      int64_t best = 0;                                                                    \
      for (uint32_t r = 0; r < plan.red_numel; r++) {                                      \
        const T v = x[koff + roff];                                                        \
        if (GREATER(v, acc)) {                                                             \
          acc = v;                                                                         \
          best = r;                                                                        \
        }                                                                                  \
        roff = tp_index_next(plan.red_dim, plan.red_sizes, plan.red_strides, ridx, roff);  \
      }                                                                                    \
      o[i] = best;                                                                         \
      koff = tp_index_next(plan.kept_dim, plan.kept_sizes, plan.kept_strides, kidx, koff); \
    }                                                                                      \
  } while (0)

/* !isnan(acc) && (isnan(v) || v > acc), written as the portable kernel does. */
#define GREATER_F(v, acc) (!isnan(acc) && !((v) <= (acc)))
#define GREATER_I(v, acc) ((v) > (acc))

/* argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, argmax, out) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *in, *out, *ret;
  int64_t dim;
  bool has_dim, keepdim;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_optional_int(args, nargs, 1, &dim, &has_dim));
  TP_TRY(tp_arg_bool(args, nargs, 2, &keepdim));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  if (out->dtype != TP_DTYPE_INT64) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_reduce_plan_init(&plan, in, has_dim ? &dim : NULL, has_dim ? 1 : 0, keepdim));
  TP_CHECK_ARGS(tp_shape_is(out, plan.out_dim, plan.out_sizes));
  /* "cannot perform reduction function argmax on a tensor with no elements" */
  TP_CHECK_ARGS(plan.red_numel > 0);
  switch (in->dtype) {
    case TP_DTYPE_FLOAT32:
      ARGMAX_LOOP(float, GREATER_F);
      return TP_OK;
    case TP_DTYPE_INT32:
      ARGMAX_LOOP(int32_t, GREATER_I);
      return TP_OK;
    case TP_DTYPE_INT64:
      ARGMAX_LOOP(int64_t, GREATER_I);
      return TP_OK;
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
