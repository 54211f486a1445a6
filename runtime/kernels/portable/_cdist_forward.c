/* aten::_cdist_forward.out: out[..., i, j] = the p-norm distance between row i of x1 (..., P, M)
 * and row j of x2 (..., R, M), batch dimensions broadcast; float32 (engines/distance.h). */
#include "portable/engines/distance.h"
#include "kernel_util.h"

typedef struct cdist_state {
  double p;
  uint32_t p_rows, r_rows, m;      /* P, R, M */
  uint32_t batch_dim;              /* out's batch dimensions */
  uint32_t batch_sizes[TP_MAX_DIM];
  uint32_t x1_strides[TP_MAX_DIM]; /* per batch dim, in x1 matrices (0: broadcast) */
  uint32_t x2_strides[TP_MAX_DIM];
  uint32_t batches;
} cdist_state;

/* _cdist_forward.out(Tensor x1, Tensor x2, float p, int? compute_mode, *, Tensor(a!) out) -> Tensor(a!):
 * args x1, x2, p, compute_mode, out, out. */
enum { CDIST_X1, CDIST_X2, CDIST_P, CDIST_MODE, CDIST_OUT };

static tp_status cdist_run(const tp_kernel_call *call) {
  const cdist_state *st = call->state;
  const float *x1 = (const float *)call->args[CDIST_X1]->as.tensor->data;
  const float *x2 = (const float *)call->args[CDIST_X2]->as.tensor->data;
  float *o = (float *)call->args[CDIST_OUT]->as.tensor->data;
  uint32_t index[TP_MAX_DIM] = {0};
  for (uint32_t b = 0; b < st->batches; b++) {
    uint32_t m1 = 0, m2 = 0; /* matrix numbers in x1 and x2 */
    for (uint32_t d = 0; d < st->batch_dim; d++) {
      m1 += index[d] * st->x1_strides[d];
      m2 += index[d] * st->x2_strides[d];
    }
    const float *a = x1 + (size_t)m1 * st->p_rows * st->m;
    const float *c = x2 + (size_t)m2 * st->r_rows * st->m;
    for (uint32_t i = 0; i < st->p_rows; i++) {
      for (uint32_t j = 0; j < st->r_rows; j++) {
        *o++ = tp_distance(a + (size_t)i * st->m, c + (size_t)j * st->m, st->m, st->p);
      }
    }
    for (uint32_t d = st->batch_dim; d-- > 0;) {
      if (++index[d] < st->batch_sizes[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  return TP_OK;
}

/* Strides (in matrices) of t's batch dimensions against out's `dim` batch dimensions. */
static tp_status cdist_batch_strides(const tp_tensor *t, const tp_tensor *out, uint32_t dim, uint32_t *strides) {
  const uint32_t tdim = t->dim - 2;
  TP_CHECK_ARGS(tdim <= dim);
  uint32_t stride = 1;
  for (uint32_t d = dim; d-- > 0;) {
    const int td = (int)d - (int)(dim - tdim);
    const uint32_t size = td >= 0 ? (uint32_t)t->sizes[td] : 1u;
    TP_CHECK_ARGS(size == 1 || size == (uint32_t)out->sizes[d]);
    strides[d] = size == 1 ? 0u : stride;
    stride *= size;
  }
  return TP_OK;
}

TP_KERNEL(aten, _cdist_forward, out, cdist_state) {
  tp_tensor *x1, *x2, *out;
  TP_TRY(tp_elementwise_args(call, CDIST_OUT, &x1, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, CDIST_X2, &x2));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, CDIST_P, &state->p));
  if (x1->dtype != TP_DTYPE_FLOAT32 || x2->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(x1->dim >= 2 && x2->dim >= 2 && out->dim >= 2 && state->p >= 0.0);
  TP_CHECK_ARGS(x1->sizes[x1->dim - 1] == x2->sizes[x2->dim - 1]);
  state->p_rows = (uint32_t)x1->sizes[x1->dim - 2];
  state->r_rows = (uint32_t)x2->sizes[x2->dim - 2];
  state->m = (uint32_t)x1->sizes[x1->dim - 1];
  TP_CHECK_ARGS((uint32_t)out->sizes[out->dim - 2] == state->p_rows);
  TP_CHECK_ARGS((uint32_t)out->sizes[out->dim - 1] == state->r_rows);
  state->batch_dim = out->dim - 2;
  state->batches = 1;
  for (uint32_t d = 0; d < state->batch_dim; d++) {
    state->batch_sizes[d] = (uint32_t)out->sizes[d];
    state->batches *= (uint32_t)out->sizes[d];
  }
  TP_TRY(cdist_batch_strides(x1, out, state->batch_dim, state->x1_strides));
  TP_TRY(cdist_batch_strides(x2, out, state->batch_dim, state->x2_strides));
  *run = cdist_run;
  return TP_OK;
}
