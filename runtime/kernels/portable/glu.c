/* aten::glu.out: the gated linear unit: self split in halves a, b along dim, out = a * sigmoid(b);
 * float32 (sigmoid as 1 / (1 + expf(-b)), as ExecuTorch's portable kernel). */
#include <math.h>

#include "kernel_util.h"

typedef struct glu_state {
  uint32_t outer, half, inner; /* self as (outer, 2 * half, inner) */
} glu_state;

/* glu.out(Tensor self, int dim=-1, *, Tensor(a!) out) -> Tensor(a!): args self, dim, out, out. */
enum { GLU_SELF, GLU_DIM, GLU_OUT };

static tp_status glu_f32(const tp_kernel_call *call) {
  const glu_state *st = call->state;
  const float *x = (const float *)call->args[GLU_SELF]->as.tensor->data;
  float *o = (float *)call->args[GLU_OUT]->as.tensor->data;
  const uint32_t block = st->half * st->inner;
  for (uint32_t a = 0; a < st->outer; a++) {
    const float *first = x + (size_t)a * 2 * block;
    const float *gate = first + block;
    for (uint32_t i = 0; i < block; i++) {
      *o++ = first[i] * (1.0f / (1.0f + expf(-gate[i])));
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, glu, out, glu_state) {
  tp_tensor *in, *out;
  int64_t dim_arg;
  uint32_t dim;
  TP_TRY(tp_elementwise_args(call, GLU_OUT, &in, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, GLU_DIM, &dim_arg));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim > 0);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  TP_CHECK_ARGS(in->sizes[dim] % 2 == 0);
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0; d < in->dim; d++) {
    sizes[d] = d == dim ? in->sizes[d] / 2 : in->sizes[d];
  }
  tp_dim_blocks(in, dim, &state->outer, &state->inner);
  TP_CHECK_ARGS(tp_shape_is(out, in->dim, sizes));
  state->half = (uint32_t)sizes[dim];
  *run = glu_f32;
  return TP_OK;
}
