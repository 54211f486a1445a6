/* cortex_m::quantized_batch_matmul.out: int8 batched matrix product lhs @ rhs_transposed^T, as the
 * backend's reference (quantized_batch_matmul_impl in executorch/backends/cortex_m/ops/operators.py):
 *     acc = (lhs + lhs_zero_point) @ (rhs_transposed + rhs_zero_point)^T
 *     out = clamp(requantize(acc, output_multiplier, output_shift) + output_zero_point, -128, 127)
 * (the zero points are CMSIS-NN offsets: added). The reference sums in float32; tinypte sums
 * exactly in int32, as CMSIS-NN does, which equals it whenever its float32 sums are exact
 * (depth * (128 + |lhs_zero_point|) * (128 + |rhs_zero_point|) <= 2^24); prepare rejects
 * shapes whose exact sum could leave int32. The product is s8_matmul.h's. The scratch
 * tensor is not needed (no tinypte scratch rule), only checked to be uint8. */
#include "cortex_m/engines/int8_util.h"
#include "cortex_m/engines/s8_matmul_two_cores.h"

/* quantized_batch_matmul.out(Tensor lhs, int lhs_zero_point, Tensor rhs_transposed,
 * int rhs_zero_point, int output_zero_point, int output_multiplier, int output_shift,
 * Tensor scratch, *, Tensor(a!) out) */
enum {
  BM_LHS,
  BM_LHS_ZP,
  BM_RHS,
  BM_RHS_ZP,
  BM_OUT_ZP,
  BM_MULTIPLIER,
  BM_SHIFT,
  BM_SCRATCH,
  BM_OUT,
  BM_NARGS = BM_OUT + 2
};

typedef struct batch_matmul_state {
  tp_s8_matmul mm;
  uint32_t batches;
} batch_matmul_state;

static tp_status batch_matmul_run(const tp_kernel_call *call) {
  const batch_matmul_state *st = call->state;
  const tp_s8_matmul *mm = &st->mm;
  const int8_t *lhs = call->args[BM_LHS]->as.tensor->data;
  const int8_t *rhs = call->args[BM_RHS]->as.tensor->data;
  int8_t *out = call->args[BM_OUT]->as.tensor->data;
  for (uint32_t b = 0; b < st->batches; b++) {
    TP_TRY(tp_s8_matmul_run_any(mm, lhs, rhs, NULL, out));
    lhs += mm->rows * mm->depth;
    rhs += mm->cols * mm->depth;
    out += mm->rows * mm->cols;
  }
  return TP_OK;
}

static tp_status batch_matmul_empty(const tp_kernel_call *call) {
  (void)call;
  return TP_OK;
}

static tp_status zero_point(const tp_kernel_call *call, uint32_t index, int32_t *zp) {
  TP_TRY(tp_arg_i32(call->args, call->nargs, index, zp));
  TP_CHECK_ARGS(*zp >= -255 && *zp <= 255); /* x + zero point fits int16 lanes */
  return TP_OK;
}

TP_KERNEL(cortex_m, quantized_batch_matmul, out, batch_matmul_state) {
  tp_tensor *lhs, *rhs, *scratch, *out, *ret;
  int32_t lhs_zp, rhs_zp, out_zp, multiplier, shift;
  TP_CHECK_ARGS(call->nargs == BM_NARGS);
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, BM_LHS, &lhs));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, BM_RHS, &rhs));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, BM_SCRATCH, &scratch));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, BM_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, BM_OUT + 1, &ret));
  if (scratch->dtype != TP_DTYPE_UINT8) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(zero_point(call, BM_LHS_ZP, &lhs_zp));
  TP_TRY(zero_point(call, BM_RHS_ZP, &rhs_zp));
  TP_TRY(tp_arg_i32(call->args, call->nargs, BM_OUT_ZP, &out_zp));
  TP_TRY(tp_arg_i32(call->args, call->nargs, BM_MULTIPLIER, &multiplier));
  TP_TRY(tp_arg_i32(call->args, call->nargs, BM_SHIFT, &shift));
  TP_CHECK_ARGS(tp_shift_ok(shift));
  TP_CHECK_ARGS(lhs->dim == 3 && rhs->dim == 3);
  const int32_t batches = lhs->sizes[0], rows = lhs->sizes[1], depth = lhs->sizes[2], cols = rhs->sizes[1];
  TP_CHECK_ARGS(rhs->sizes[0] == batches && rhs->sizes[2] == depth);
  const int32_t want[3] = {batches, rows, cols};
  TP_CHECK_ARGS(tp_shape_is(out, 3, want));
  /* |sum| <= depth * (128 + |lhs_zp|) * (128 + |rhs_zp|) stays within int32. */
  const int64_t bound = (int64_t)depth * (128 + (lhs_zp < 0 ? -lhs_zp : lhs_zp)) * (128 + (rhs_zp < 0 ? -rhs_zp : rhs_zp));
  TP_CHECK_ARGS(bound <= INT32_MAX);
  tp_s8_matmul *mm = &state->mm;
  mm->rows = (uint32_t)rows;
  mm->cols = (uint32_t)cols;
  mm->depth = (uint32_t)depth;
  mm->lhs_offset = lhs_zp;
  mm->rhs_offset = rhs_zp;
  mm->multiplier = multiplier;
  mm->shift = shift;
  mm->out_offset = out_zp;
  mm->act_min = -128;
  mm->act_max = 127;
  mm->wide = false;
  state->batches = (uint32_t)batches;
  *run = out->numel > 0 ? batch_matmul_run : batch_matmul_empty;
  return TP_OK;
}
