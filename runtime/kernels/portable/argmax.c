/* aten::argmax.out: index (int64) of the first maximum along dim, or over the flattened tensor
 * when dim is None (keepdim then keeps every dim as 1). As ATen/ExecuTorch, NaN counts as the
 * maximum (the first NaN wins). self float32 or any integer dtype; an empty reduction is an error.
 * prepare checks and plans the reduction (tp_reduce_loop); run, one per self dtype, iterates. */
#include <math.h>

#include "kernel_util.h"

/* argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!):
 * args self, dim, keepdim, out, out. */
enum { ARGMAX_SELF, ARGMAX_DIM, ARGMAX_KEEPDIM, ARGMAX_OUT, ARGMAX_NARGS = 5 };

/* The run routine for self elements of type T; GREATER(v, acc): whether v replaces the current
 * maximum acc. r counts the reduced elements of one output in order (the index it returns). */
#define ARGMAX_RUN(NAME, T, GREATER)                                             \
  static tp_status NAME(const tp_kernel_call *call) {                            \
    const tp_reduce_loop *l = call->state;                                       \
    const T *x = (const T *)call->args[ARGMAX_SELF]->as.tensor->data;            \
    int64_t *o = (int64_t *)call->args[ARGMAX_OUT]->as.tensor->data;            \
    tp_reduce_pos pos;                                                           \
    tp_reduce_pos_start(&pos);                                                   \
    for (uint32_t i = 0; i < l->out_numel; i++) {                                \
      T acc = x[pos.koff];                                                       \
      int64_t best = 0;                                                          \
      uint32_t r = 0;                                                            \
      for (uint32_t row = 0; row < l->red_rows; row++) {                         \
        const T *p = x + pos.koff + pos.roff;                                    \
        for (uint32_t j = 0; j < l->red_len; j++, r++) {                         \
          const T v = p[j * l->red_step];                                        \
          if (GREATER(v, acc)) {                                                 \
            acc = v;                                                             \
            best = r;                                                            \
          }                                                                      \
        }                                                                        \
        tp_reduce_next_row(l, &pos);                                             \
      }                                                                          \
      o[i] = best;                                                               \
      tp_reduce_next_out(l, &pos);                                               \
    }                                                                            \
    return TP_OK;                                                                \
  }

/* !isnan(acc) && (isnan(v) || v > acc), written as the portable kernel does. */
#define GREATER_F(v, acc) (!isnan(acc) && !((v) <= (acc)))
#define GREATER_I(v, acc) ((v) > (acc))

ARGMAX_RUN(argmax_f32, float, GREATER_F)
ARGMAX_RUN(argmax_i32, int32_t, GREATER_I)
ARGMAX_RUN(argmax_i64, int64_t, GREATER_I)
ARGMAX_RUN(argmax_i16, int16_t, GREATER_I)
ARGMAX_RUN(argmax_i8, int8_t, GREATER_I)
ARGMAX_RUN(argmax_u8, uint8_t, GREATER_I)

TP_KERNEL(aten, argmax, out, tp_reduce_loop) {
  TP_CHECK_ARGS(nargs == ARGMAX_NARGS);
  tp_tensor *in, *out, *ret;
  int64_t dim;
  bool has_dim, keepdim;
  TP_TRY(tp_arg_tensor(args, nargs, ARGMAX_SELF, &in));
  TP_TRY(tp_arg_optional_int(args, nargs, ARGMAX_DIM, &dim, &has_dim));
  TP_TRY(tp_arg_bool(args, nargs, ARGMAX_KEEPDIM, &keepdim));
  TP_TRY(tp_arg_tensor(args, nargs, ARGMAX_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, ARGMAX_OUT + 1, &ret));
  if (out->dtype != TP_DTYPE_INT64) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_reduce_plan_init(&plan, in, has_dim ? &dim : NULL, has_dim ? 1 : 0, keepdim));
  TP_CHECK_ARGS(tp_shape_is(out, plan.out_dim, plan.out_sizes));
  /* "cannot perform reduction function argmax on a tensor with no elements" */
  TP_CHECK_ARGS(plan.red_numel > 0);
  *run = in->dtype == TP_DTYPE_INT16 ? argmax_i16 : in->dtype == TP_DTYPE_INT8 ? argmax_i8
       : in->dtype == TP_DTYPE_UINT8 ? argmax_u8 : NULL;
  if (*run == NULL) {
    TP_TRY(tp_pick_run(in->dtype, argmax_f32, argmax_i32, argmax_i64, run));
  }
  tp_reduce_loop_init(state, &plan);
  return TP_OK;
}
