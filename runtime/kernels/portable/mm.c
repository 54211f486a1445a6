/* aten::mm.out: out[m, p] = self[m, n] @ mat2[n, p], float32 (float sums over k in increasing
 * order, as ExecuTorch's portable kernel; register-blocked in gemm.c) and the integer dtypes
 * (wrapping, the dtype extension's tp_gemm_int). Takes a fused activation (float32).
 */
#include "portable/engines/dtypes.h"
#include "portable/engines/gemm.h"
#include "util/nn.h"

/* mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!): args self, mat2, out, out. */
enum { MM_SELF, MM_MAT2, MM_OUT, MM_NARGS = 4 };

static tp_status mm_run(const tp_kernel_call *call) {
  tp_gemm_f32(call->state, (float *)call->args[MM_OUT]->as.tensor->data,
              (const float *)call->args[MM_SELF]->as.tensor->data,
              (const float *)call->args[MM_MAT2]->as.tensor->data, NULL);
  return TP_OK;
}

static tp_status mm_int_run(const tp_kernel_call *call) {
  tp_gemm_int(call->state, call->args[MM_OUT]->as.tensor->data, call->args[MM_SELF]->as.tensor->data,
              call->args[MM_MAT2]->as.tensor->data, NULL);
  return TP_OK;
}

TP_KERNEL_WITH(aten, mm, out, tp_gemm, TP_KERNEL_TAKES_CLAMP) {
  tp_tensor *self, *mat2, *out;
  TP_TRY(tp_nn_matmul_args(call->args, call->nargs, &self, &mat2, &out)); /* checks MM_NARGS */
  TP_CHECK_ARGS(self->dim == 2 && mat2->dim == 2 && self->sizes[1] == mat2->sizes[0]);
  const int32_t expect[2] = {self->sizes[0], mat2->sizes[1]};
  TP_CHECK_ARGS(tp_nn_has_shape(out, 2, expect));
  const bool integer = out->dtype != TP_DTYPE_FLOAT32;
  if (integer && call->clamp != NULL) {
    return TP_ERR_KERNEL_DTYPE; /* fused activations are float32's */
  }
  if (integer && tp_gemm_int == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  tp_gemm_init(state, (uint32_t)expect[0], (uint32_t)self->sizes[1], (uint32_t)expect[1], call->clamp);
  state->dtype = (uint8_t)out->dtype;
  *run = integer ? mm_int_run : mm_run;
  return TP_OK;
}
