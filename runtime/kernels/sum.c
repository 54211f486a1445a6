/* aten::sum.IntList_out: sum over dims (None/[] = all, negative dims, keepdim), accumulating in
 * out's type in input order like the portable kernel (integers wrap). out float32/int32/int64,
 * self float32/int32/int64/bool (not float into an integer out); dtype, if given, == out dtype. */
#include "kernel_util.h"

/* ADD(acc, v) combines the accumulator with one input element converted to TOUT. */
#define SUM_LOOP(TIN, TOUT, ADD)                                                           \
  do {                                                                                     \
    const TIN *x = (const TIN *)in->data;                                                  \
    TOUT *o = (TOUT *)out->data;                                                           \
    uint32_t kidx[TP_MAX_DIM] = {0};                                                       \
    uint32_t koff = 0;                                                                     \
    for (uint32_t i = 0; i < plan.out_numel; i++) {                                        \
      TOUT acc = 0;                                                                        \
      uint32_t ridx[TP_MAX_DIM] = {0};                                                     \
      uint32_t roff = 0;                                                                   \
      for (uint32_t r = 0; r < plan.red_numel; r++) {                                      \
        const TOUT v = (TOUT)x[koff + roff];                                               \
        acc = ADD(acc, v);                                                                 \
        roff = tp_index_next(plan.red_dim, plan.red_sizes, plan.red_strides, ridx, roff);  \
      }                                                                                    \
      o[i] = acc;                                                                          \
      koff = tp_index_next(plan.kept_dim, plan.kept_sizes, plan.kept_strides, kidx, koff); \
    }                                                                                      \
  } while (0)

#define ADD_F32(a, b) ((a) + (b))
#define ADD_I32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define ADD_I64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))

/* SUM_LOOP for every supported input dtype with one out type. */
#define SUM_IN(TOUT, ADD, allow_float)            \
  switch (in->dtype) {                            \
    case TP_DTYPE_FLOAT32:                        \
      if (!(allow_float)) {                       \
        return TP_ERR_KERNEL_DTYPE;               \
      }                                           \
      SUM_LOOP(float, TOUT, ADD);                 \
      return TP_OK;                               \
    case TP_DTYPE_INT32:                          \
      SUM_LOOP(int32_t, TOUT, ADD);               \
      return TP_OK;                               \
    case TP_DTYPE_INT64:                          \
      SUM_LOOP(int64_t, TOUT, ADD);               \
      return TP_OK;                               \
    case TP_DTYPE_BOOL:                           \
      SUM_LOOP(uint8_t, TOUT, ADD);               \
      return TP_OK;                               \
    default:                                      \
      return TP_ERR_KERNEL_DTYPE;                 \
  }

/* sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 *                 Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, sum, IntList_out) {
  tp_dim_reduction_args a;
  TP_TRY(tp_dim_reduction_args_get(args, nargs, &a));
  const tp_tensor *in = a.in;
  tp_tensor *out = a.out;
  if (a.has_dtype && a.dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (out->dtype != TP_DTYPE_FLOAT32 && out->dtype != TP_DTYPE_INT32 && out->dtype != TP_DTYPE_INT64) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (in->dtype != TP_DTYPE_FLOAT32 && in->dtype != TP_DTYPE_INT32 && in->dtype != TP_DTYPE_INT64 &&
      in->dtype != TP_DTYPE_BOOL) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_dim_reduction_plan(&a, &plan));
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32:
      SUM_IN(float, ADD_F32, true)
    case TP_DTYPE_INT32:
      SUM_IN(int32_t, ADD_I32, false)
    default:
      SUM_IN(int64_t, ADD_I64, false)
  }
}
