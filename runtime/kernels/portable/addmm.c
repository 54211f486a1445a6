/* aten::addmm.out: out = beta * self + alpha * (mat1 @ mat2), float32 (and the integer dtypes,
 * wrapping, alpha and beta converted to the integer type: the dtype extension's tp_gemm_int);
 * self broadcasts to [m, p] ([p], [1, p], [m, 1], [m, p] or a scalar). Like ExecuTorch's portable kernel each
 * element is a float dot product over k in increasing order, then sum * alpha + self * beta
 * (with alpha == beta == 1 that is exactly sum + self). beta == 0 still multiplies self, so
 * NaN/inf in self propagate as in the portable kernel (ATen would ignore self).
 */
#include "portable/engines/dtypes.h"
#include "portable/engines/gemm.h"
#include "util/nn.h"

/* A Scalar argument converted straight to float, as the portable kernel's convert<float>()
 * (int64 -> float rounds once; going through tp_arg_scalar's double would round twice and
 * pull soft-double helpers into small firmware). */
TP_SCALAR_READER(scalar_f32, float, tp_nn_i64_to_f32)

/* addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1,
 *           Tensor(a!) out) -> Tensor(a!): args self, mat1, mat2, beta, alpha, out, out. */
enum { ADDMM_SELF, ADDMM_MAT1, ADDMM_MAT2, ADDMM_BETA, ADDMM_ALPHA, ADDMM_OUT, ADDMM_NARGS = 7 };

/* What a call keeps in the state pool: the product's sizes, its dtype, and whether alpha or
 * beta is not 1 and which of self's dimensions are not broadcast. That is 8 bytes, the pool's
 * alignment, so it costs no more RAM than a byte would; the rest of the product's description
 * (tp_gemm, 48 bytes) is filled in from it each run (the scalars are converted only when they
 * scale). A size past 65535 does not fit: then m, n and p are 0 and each run reads the sizes
 * from the tensors. */
typedef struct addmm_call {
  uint16_t m, n, p;
  uint8_t dtype;
  uint8_t flags; /* ADDMM_* */
} addmm_call;

enum {
  ADDMM_SCALED = 1,    /* alpha or beta is not 1 */
  ADDMM_SELF_ROWS = 2, /* self has m rows (else one, broadcast) */
  ADDMM_SELF_COLS = 4, /* self has p columns (else one, broadcast) */
};

/* alpha and beta of a call that scales, converted as the portable kernel converts them. */
static TP_NN_NOINLINE void addmm_scalars(const tp_kernel_call *call, tp_gemm *g) {
  tp_value *const *args = call->args;
  if (tp_gemm_int_dtype(g->dtype)) {
    (void)tp_dtypes_int_scalar_f32(args, call->nargs, ADDMM_BETA, &g->beta);
    (void)tp_dtypes_int_scalar_f32(args, call->nargs, ADDMM_ALPHA, &g->alpha);
  } else {
    (void)scalar_f32(args[ADDMM_BETA], &g->beta);
    (void)scalar_f32(args[ADDMM_ALPHA], &g->alpha);
  }
}

/* The product of a call prepare accepted, from its kept state: no checks. Inlined into each
 * run (a few dozen instructions a call). */
static inline __attribute__((always_inline)) void addmm_derive(const tp_kernel_call *call, tp_gemm *g) {
  const addmm_call *kept = call->state;
  uint32_t m = kept->m, n = kept->n, p = kept->p;
  if (m == 0) { /* a size past 65535 (or an empty product): the tensors have them */
    const tp_tensor *mat1 = call->args[ADDMM_MAT1]->as.tensor, *mat2 = call->args[ADDMM_MAT2]->as.tensor;
    m = (uint32_t)mat1->sizes[0], n = (uint32_t)mat1->sizes[1], p = (uint32_t)mat2->sizes[1];
  }
  tp_gemm_init(g, m, n, p, call->clamp);
  const unsigned flags = kept->flags;
  g->dtype = kept->dtype;
  g->scaled = (flags & ADDMM_SCALED) != 0;
  g->alpha = 1.0f;
  g->beta = 1.0f;
  if (g->scaled) {
    addmm_scalars(call, g);
  }
  /* self's steps between rows and columns; a broadcast dimension steps 0. */
  g->bias_col = (flags & ADDMM_SELF_COLS) != 0 ? 1 : 0;
  g->bias_row = (flags & ADDMM_SELF_ROWS) == 0 ? 0 : (flags & ADDMM_SELF_COLS) != 0 ? p : 1;
}

/* The products (float sums over k), then sum * alpha + self * beta per element (just
 * sum + self when both are 1: the same value), then a fused activation: one pass. */
static tp_status addmm_run(const tp_kernel_call *call) {
  tp_gemm g;
  addmm_derive(call, &g);
  tp_gemm_f32(&g, (float *)call->args[ADDMM_OUT]->as.tensor->data,
              (const float *)call->args[ADDMM_MAT1]->as.tensor->data,
              (const float *)call->args[ADDMM_MAT2]->as.tensor->data,
              (const float *)call->args[ADDMM_SELF]->as.tensor->data);
  return TP_OK;
}

static tp_status addmm_int_run(const tp_kernel_call *call) {
  tp_gemm g;
  addmm_derive(call, &g);
  tp_gemm_int(&g, call->args[ADDMM_OUT]->as.tensor->data, call->args[ADDMM_MAT1]->as.tensor->data,
              call->args[ADDMM_MAT2]->as.tensor->data, call->args[ADDMM_SELF]->as.tensor->data);
  return TP_OK;
}

TP_KERNEL_WITH(aten, addmm, out, addmm_call, TP_KERNEL_TAKES_CLAMP) {
  tp_tensor *self, *mat1, *mat2, *out;
  TP_CHECK_ARGS(nargs == ADDMM_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, ADDMM_SELF, &self));
  TP_TRY(tp_arg_tensor(args, nargs, ADDMM_MAT1, &mat1));
  TP_TRY(tp_arg_tensor(args, nargs, ADDMM_MAT2, &mat2));
  TP_TRY(tp_arg_tensor(args, nargs, ADDMM_OUT, &out));
  const int dtype = out->dtype;
  const bool integer = tp_gemm_int_dtype(dtype);
  if (self->dtype != dtype || mat1->dtype != dtype || mat2->dtype != dtype ||
      (dtype != TP_DTYPE_FLOAT32 && !integer) || (integer && call->clamp != NULL)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (integer && (tp_gemm_int == NULL || tp_dtypes_int_scalar_f32 == NULL)) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  float alpha, beta;
  if (integer) {
    TP_TRY(tp_dtypes_int_scalar_f32(args, nargs, ADDMM_BETA, &beta));
    TP_TRY(tp_dtypes_int_scalar_f32(args, nargs, ADDMM_ALPHA, &alpha));
  } else {
    TP_TRY(scalar_f32(args[ADDMM_BETA], &beta));
    TP_TRY(scalar_f32(args[ADDMM_ALPHA], &alpha));
  }
  TP_CHECK_ARGS(mat1->dim == 2 && mat2->dim == 2 && out->dim == 2 && self->dim <= 2);
  const int32_t m = mat1->sizes[0], n = mat1->sizes[1], p = mat2->sizes[1];
  TP_CHECK_ARGS(mat2->sizes[0] == n && out->sizes[0] == m && out->sizes[1] == p);
  /* self's rows and columns; a size of 1 broadcasts. */
  const int32_t rows = self->dim == 2 ? self->sizes[0] : 1;
  const int32_t cols = self->dim >= 1 ? self->sizes[self->dim - 1] : 1;
  TP_CHECK_ARGS((rows == 1 || rows == m) && (cols == 1 || cols == p));
  state->dtype = (uint8_t)dtype;
  state->flags = (uint8_t)((alpha != 1.0f || beta != 1.0f ? ADDMM_SCALED : 0) | (rows != 1 ? ADDMM_SELF_ROWS : 0) |
                           (cols != 1 ? ADDMM_SELF_COLS : 0));
  if (m <= UINT16_MAX && n <= UINT16_MAX && p <= UINT16_MAX) {
    state->m = (uint16_t)m, state->n = (uint16_t)n, state->p = (uint16_t)p;
  } /* else m = n = p = 0 (the state is zeroed): each run reads the sizes */
  *run = integer ? addmm_int_run : addmm_run;
  return TP_OK;
}
