/* aten::mean.out (mean.dtype_out is at the end): mean over dims (None or [] = all dims; negative
 * dims; keepdim), as ExecuTorch's portable kernel: float accumulation in input order, then sum /
 * count (an empty reduction gives NaN). out is float32; self float32, int32, int64 or bool; dtype
 * must be None or float32. prepare checks and plans the reduction (tp_reduce_loop); run, one per
 * self dtype, iterates. */
#include "portable/engines/fold.h"
#include "kernel_util.h"

/* mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 *          Tensor(a!) out) -> Tensor(a!): args self, dim, keepdim, dtype, out, out. */
enum { MEAN_SELF, MEAN_DIM, MEAN_KEEPDIM, MEAN_DTYPE, MEAN_OUT, MEAN_NARGS = 6 };

/* The run routine for self elements of type TIN. */
#define MEAN_RUN(NAME, TIN)                                                      \
  static tp_status NAME(const tp_kernel_call *call) {                            \
    const tp_reduce_loop *l = call->state;                                       \
    const TIN *x = (const TIN *)call->args[MEAN_SELF]->as.tensor->data;          \
    float *o = (float *)call->args[MEAN_OUT]->as.tensor->data;                   \
    const float count = (float)l->red_numel;                                     \
    tp_reduce_pos pos;                                                           \
    tp_reduce_pos_start(&pos);                                                   \
    for (uint32_t i = 0; i < l->out_numel; i++) {                                \
      float sum = 0.0f;                                                          \
      for (uint32_t r = 0; r < l->red_rows; r++) {                               \
        const TIN *p = x + pos.koff + pos.roff;                                  \
        for (uint32_t j = 0; j < l->red_len; j++) {                              \
          sum = sum + (float)p[j * l->red_step];                                 \
        }                                                                        \
        tp_reduce_next_row(l, &pos);                                             \
      }                                                                          \
      o[i] = sum / count;                                                        \
      tp_reduce_next_out(l, &pos);                                               \
    }                                                                            \
    return TP_OK;                                                                \
  }

MEAN_RUN(mean_f32, float)
MEAN_RUN(mean_i32, int32_t)
MEAN_RUN(mean_i64, int64_t)
MEAN_RUN(mean_bool, uint8_t)

TP_KERNEL_WITH(aten, mean, out, tp_reduce_loop, TP_KERNEL_DYNAMIC_SHAPES) {
  tp_dim_reduction_args a;
  TP_TRY(tp_dim_reduction_args_get(call->args, call->nargs, &a));
  const tp_tensor *in = a.in;
  const tp_tensor *out = a.out;
  if (out->dtype != TP_DTYPE_FLOAT32 || (a.has_dtype && a.dtype != TP_DTYPE_FLOAT32)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_dim_reduction_plan(&a, &plan));
  switch (in->dtype) {
    case TP_DTYPE_FLOAT32:
      *run = mean_f32;
      break;
    case TP_DTYPE_INT32:
      *run = mean_i32;
      break;
    case TP_DTYPE_INT64:
      *run = mean_i64;
      break;
    case TP_DTYPE_BOOL:
      *run = mean_bool;
      break;
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
  tp_reduce_loop_init(state, &plan);
  return TP_OK;
}

/* --- mean.dtype_out: the mean of every element (a fold in double; engines/fold.h) --- */

static void mean_all_start(tp_fold *f) { f->acc = 0.0; }

static void mean_all_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  (void)iv;
  (void)r;
  f->acc += v;
}

static double mean_all_result(const tp_fold *f) { return f->acc / (double)f->count; }

static const tp_fold_fns mean_all_fns = {mean_all_start, mean_all_step, 0, 0, mean_all_result, false};

/* mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!): args self, dtype,
 * out, out. float32 self and out (an empty self gives NaN). */
TP_KERNEL(aten, mean, dtype_out, tp_fold_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, 2, &in, &out));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  return tp_fold_prepare(state, &mean_all_fns, in, 0, 0, false, out, 2, 0, 0, true, run);
}
