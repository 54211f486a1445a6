/* aten::bmm.out: out[b, m, p] = self[b, m, n] @ mat2[b, n, p] per batch, float32 (float sums
 * over k in increasing order, as ExecuTorch's portable kernel; register-blocked in gemm.c) and
 * the integer dtypes (wrapping, the dtype extension's tp_gemm_int). No broadcasting. Takes a fused activation
 * (float32).
 */
#include "portable/engines/dtypes.h"
#include "portable/engines/gemm.h"
#include "util/nn.h"

typedef struct bmm_state {
  tp_gemm gemm;     /* one batch: out[i] = self[i] (m x n) @ mat2[i] (n x p) */
  uint32_t batches; /* b */
} bmm_state;

/* bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!): args self, mat2, out, out. */
enum { BMM_SELF, BMM_MAT2, BMM_OUT, BMM_NARGS = 4 };

static tp_status bmm_run(const tp_kernel_call *call) {
  const bmm_state *st = call->state;
  const tp_gemm *g = &st->gemm;
  const float *x = (const float *)call->args[BMM_SELF]->as.tensor->data;
  const float *y = (const float *)call->args[BMM_MAT2]->as.tensor->data;
  float *z = (float *)call->args[BMM_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->batches; i++) {
    tp_gemm_f32(g, z, x, y, NULL);
    x += g->m * g->n;
    y += g->n * g->p;
    z += g->m * g->p;
  }
  return TP_OK;
}

static tp_status bmm_int_run(const tp_kernel_call *call) {
  const bmm_state *st = call->state;
  const tp_gemm *g = &st->gemm;
  const size_t e = tp_dtype_size(g->dtype);
  const uint8_t *x = (const uint8_t *)call->args[BMM_SELF]->as.tensor->data;
  const uint8_t *y = (const uint8_t *)call->args[BMM_MAT2]->as.tensor->data;
  uint8_t *z = (uint8_t *)call->args[BMM_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->batches; i++) {
    tp_gemm_int(g, z, x, y, NULL);
    x += (size_t)g->m * g->n * e;
    y += (size_t)g->n * g->p * e;
    z += (size_t)g->m * g->p * e;
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, bmm, out, bmm_state, TP_KERNEL_TAKES_CLAMP) {
  tp_tensor *self, *mat2, *out;
  TP_TRY(tp_nn_matmul_args(call->args, call->nargs, &self, &mat2, &out)); /* checks BMM_NARGS */
  TP_CHECK_ARGS(self->dim == 3 && mat2->dim == 3 && self->sizes[0] == mat2->sizes[0] &&
                self->sizes[2] == mat2->sizes[1]);
  const int32_t expect[3] = {self->sizes[0], self->sizes[1], mat2->sizes[2]};
  TP_CHECK_ARGS(tp_nn_has_shape(out, 3, expect));
  state->batches = (uint32_t)expect[0];
  const bool integer = out->dtype != TP_DTYPE_FLOAT32;
  if (integer && call->clamp != NULL) {
    return TP_ERR_KERNEL_DTYPE; /* fused activations are float32's */
  }
  if (integer && tp_gemm_int == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  tp_gemm_init(&state->gemm, (uint32_t)expect[1], (uint32_t)self->sizes[2], (uint32_t)expect[2], call->clamp);
  state->gemm.dtype = (uint8_t)out->dtype;
  *run = integer ? bmm_int_run : bmm_run;
  return TP_OK;
}
