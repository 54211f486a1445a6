/* aten::sum.IntList_out: sum over dims (None/[] = all, negative dims, keepdim), accumulating in
 * out's type in input order like the portable kernel (integers wrap). Every real or bool self and
 * out but a float self into an integer out; dtype, if given, == out dtype. float32, int32, int64
 * and bool selves into float32, int32 and int64 outs have routines of their own, the rest the
 * dtype extension's (engines/dtypes.h).
 * prepare checks and plans the reduction (tp_reduce_loop); run, one per (self, out) dtype pair,
 * iterates. */
#include "portable/engines/dtypes.h"
#include "kernel_util.h"
#include "util/elem.h"

/* sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 *                 Tensor(a!) out) -> Tensor(a!): args self, dim, keepdim, dtype, out, out. */
enum { SUM_SELF, SUM_DIM, SUM_KEEPDIM, SUM_DTYPE, SUM_OUT, SUM_NARGS = 6 };

/* The run routine for self elements of type TIN into TOUT; ADD(acc, v) combines the accumulator
 * with one input element converted to TOUT. */
#define SUM_RUN(NAME, TIN, TOUT, ADD)                                            \
  static tp_status NAME(const tp_kernel_call *call) {                            \
    const tp_reduce_loop *l = call->state;                                       \
    const TIN *x = (const TIN *)call->args[SUM_SELF]->as.tensor->data;           \
    TOUT *o = (TOUT *)call->args[SUM_OUT]->as.tensor->data;                      \
    tp_reduce_pos pos;                                                           \
    tp_reduce_pos_start(&pos);                                                   \
    for (uint32_t i = 0; i < l->out_numel; i++) {                                \
      TOUT acc = 0;                                                              \
      for (uint32_t r = 0; r < l->red_rows; r++) {                               \
        const TIN *p = x + pos.koff + pos.roff;                                  \
        for (uint32_t j = 0; j < l->red_len; j++) {                              \
          const TOUT v = (TOUT)p[j * l->red_step];                               \
          acc = ADD(acc, v);                                                     \
        }                                                                        \
        tp_reduce_next_row(l, &pos);                                             \
      }                                                                          \
      o[i] = acc;                                                                \
      tp_reduce_next_out(l, &pos);                                               \
    }                                                                            \
    return TP_OK;                                                                \
  }

#define ADD_F32(a, b) ((a) + (b))
#define ADD_I32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define ADD_I64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))

SUM_RUN(sum_f32_f32, float, float, ADD_F32)
SUM_RUN(sum_i32_f32, int32_t, float, ADD_F32)
SUM_RUN(sum_i64_f32, int64_t, float, ADD_F32)
SUM_RUN(sum_bool_f32, uint8_t, float, ADD_F32)
SUM_RUN(sum_i32_i32, int32_t, int32_t, ADD_I32)
SUM_RUN(sum_i64_i32, int64_t, int32_t, ADD_I32)
SUM_RUN(sum_bool_i32, uint8_t, int32_t, ADD_I32)
SUM_RUN(sum_i32_i64, int32_t, int64_t, ADD_I64)
SUM_RUN(sum_i64_i64, int64_t, int64_t, ADD_I64)
SUM_RUN(sum_bool_i64, uint8_t, int64_t, ADD_I64)

/* The other (self, out) pairs: the dtype extension's routine (engines/dtypes.h). */
static tp_status sum_any(const tp_kernel_call *call) {
  return tp_dtypes_sum(call, call->state, call->args[SUM_SELF]->as.tensor, call->args[SUM_OUT]->as.tensor);
}

/* The routines by self dtype (float32, int32, int64, bool) for one out dtype; NULL: float32 into
 * an integer out. */
static const tp_kernel_run_fn sum_f32_runs[4] = {sum_f32_f32, sum_i32_f32, sum_i64_f32, sum_bool_f32};
static const tp_kernel_run_fn sum_i32_runs[4] = {NULL, sum_i32_i32, sum_i64_i32, sum_bool_i32};
static const tp_kernel_run_fn sum_i64_runs[4] = {NULL, sum_i32_i64, sum_i64_i64, sum_bool_i64};

TP_KERNEL_WITH(aten, sum, IntList_out, tp_reduce_loop, TP_KERNEL_DYNAMIC_SHAPES) {
  tp_dim_reduction_args a;
  TP_TRY(tp_dim_reduction_args_get(call->args, call->nargs, &a));
  const tp_tensor *in = a.in;
  const tp_tensor *out = a.out;
  if (a.has_dtype && a.dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_kernel_run_fn *runs = NULL;
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32:
      runs = sum_f32_runs;
      break;
    case TP_DTYPE_INT32:
      runs = sum_i32_runs;
      break;
    case TP_DTYPE_INT64:
      runs = sum_i64_runs;
      break;
    default:
      if (!tp_dtype_is_real_or_bool(out->dtype)) {
        return TP_ERR_KERNEL_DTYPE;
      }
      break;
  }
  uint32_t which = 4; /* the generic routine */
  switch (in->dtype) {
    case TP_DTYPE_FLOAT32:
      which = 0;
      break;
    case TP_DTYPE_INT32:
      which = 1;
      break;
    case TP_DTYPE_INT64:
      which = 2;
      break;
    case TP_DTYPE_BOOL:
      which = 3;
      break;
    default:
      if (!tp_dtype_is_real_or_bool(in->dtype)) {
        return TP_ERR_KERNEL_DTYPE;
      }
      break;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_dim_reduction_plan(&a, &plan));
  if (in->dtype == TP_DTYPE_FLOAT32 && out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE; /* float32 into an integer out */
  }
  *run = runs != NULL && which < 4 ? runs[which] : sum_any;
  if (*run == sum_any && tp_dtypes_sum == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  tp_reduce_loop_init(state, &plan);
  return TP_OK;
}
