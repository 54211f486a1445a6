/* aten::mean.out: mean over dims (None or [] = all dims; negative dims; keepdim), as ExecuTorch's
 * portable kernel: float accumulation in input order, then sum / count (an empty reduction gives
 * NaN). out is float32; self float32, int32, int64 or bool; dtype must be None or float32. */
#include "kernel_util.h"

#define MEAN_LOOP(TIN)                                                                     \
  do {                                                                                     \
    const TIN *x = (const TIN *)in->data;                                                  \
    float *o = (float *)out->data;                                                         \
    uint32_t kidx[TP_MAX_DIM] = {0};                                                       \
    uint32_t koff = 0;                                                                     \
    for (uint32_t i = 0; i < plan.out_numel; i++) {                                        \
      float sum = 0.0f;                                                                    \
      uint32_t ridx[TP_MAX_DIM] = {0};                                                     \
      uint32_t roff = 0;                                                                   \
      for (uint32_t r = 0; r < plan.red_numel; r++) {                                      \
        sum = sum + (float)x[koff + roff];                                                 \
        roff = tp_index_next(plan.red_dim, plan.red_sizes, plan.red_strides, ridx, roff);  \
      }                                                                                    \
      o[i] = sum / (float)plan.red_numel;                                                  \
      koff = tp_index_next(plan.kept_dim, plan.kept_sizes, plan.kept_strides, kidx, koff); \
    }                                                                                      \
  } while (0)

/* mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 *          Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, mean, out) {
  tp_dim_reduction_args a;
  TP_TRY(tp_dim_reduction_args_get(args, nargs, &a));
  const tp_tensor *in = a.in;
  tp_tensor *out = a.out;
  if (out->dtype != TP_DTYPE_FLOAT32 || (a.has_dtype && a.dtype != TP_DTYPE_FLOAT32)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_dim_reduction_plan(&a, &plan));
  switch (in->dtype) {
    case TP_DTYPE_FLOAT32:
      MEAN_LOOP(float);
      return TP_OK;
    case TP_DTYPE_INT32:
      MEAN_LOOP(int32_t);
      return TP_OK;
    case TP_DTYPE_INT64:
      MEAN_LOOP(int64_t);
      return TP_OK;
    case TP_DTYPE_BOOL:
      MEAN_LOOP(uint8_t);
      return TP_OK;
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
