/* cortex_m::quantized_linear.out: int8 fully connected layer, as the backend's reference
 * (quantized_linear_impl in executorch/backends/cortex_m/ops/operators.py), which has two modes:
 *  - kernel_sum given (CMSIS-NN's MVE contract; bias is ignored): in int64,
 *        total = x . w + filter_offset * sum(x) + kernel_sum[n]
 *  - otherwise: in int32 (wrapping), total = (x + input_offset) . (w + filter_offset) + bias[n]
 * then requantize(total, multipliers[0], shifts[0]) + output_offset, clamped to
 * [activation_min, activation_max]. The product is s8_matmul.h's (portable, DSP or Helium). */
#include "cortex_m/engines/int8_util.h"
#include "cortex_m/engines/s8_matmul_two_cores.h"

/* quantized_linear.out(Tensor input, Tensor weights, Tensor? bias, Tensor? kernel_sum,
 * int input_offset, int filter_offset, int output_offset, int[] requantize_multipliers,
 * int[] requantize_shifts, int activation_max, int activation_min, *, Tensor(a!) out) */
enum {
  QL_INPUT,
  QL_WEIGHTS,
  QL_BIAS,
  QL_KERNEL_SUM,
  QL_INPUT_OFFSET,
  QL_FILTER_OFFSET,
  QL_OUTPUT_OFFSET,
  QL_MULTIPLIERS,
  QL_SHIFTS,
  QL_ACT_MAX,
  QL_ACT_MIN,
  QL_OUT,
  QL_NARGS = QL_OUT + 2
};

/* What a call keeps in the state pool; the product's description (tp_s8_matmul) follows from
 * the arguments prepare checked, so each run derives it again (derive_product) instead of keeping
 * 48 bytes per call in RAM. */
typedef struct linear_state {
  uint8_t column_term; /* argument slot of the per-output int32 term (bias or kernel_sum), 0: none */
} linear_state;

/* The product a call prepare accepted describes (no checks). */
static void derive_product(const tp_kernel_call *call, tp_s8_matmul *mm) {
  tp_value *const *a = call->args;
  const tp_tensor *in = a[QL_INPUT]->as.tensor, *weights = a[QL_WEIGHTS]->as.tensor, *out = a[QL_OUT]->as.tensor;
  const int32_t n = weights->sizes[0], depth = weights->sizes[1];
  /* An empty sum (depth 0): rows = numel / depth is not defined; outs are the constant. */
  mm->rows = depth > 0 ? in->numel / (uint32_t)depth : out->numel / (n > 0 ? (uint32_t)n : 1u);
  mm->cols = (uint32_t)n;
  mm->depth = (uint32_t)depth;
  mm->rhs_offset = (int32_t)a[QL_FILTER_OFFSET]->as.i;
  mm->multiplier = (int32_t)a[QL_MULTIPLIERS]->as.int_list.items[0];
  mm->shift = (int32_t)a[QL_SHIFTS]->as.int_list.items[0];
  mm->out_offset = (int32_t)a[QL_OUTPUT_OFFSET]->as.i;
  mm->act_min = (int32_t)a[QL_ACT_MIN]->as.i;
  mm->act_max = (int32_t)a[QL_ACT_MAX]->as.i;
  /* With kernel_sum: x . w + filter_offset * sum(x) + kernel_sum, in int64. */
  mm->wide = a[QL_KERNEL_SUM]->tag == TP_TAG_TENSOR;
  mm->lhs_offset = mm->wide ? 0 : (int32_t)a[QL_INPUT_OFFSET]->as.i;
}

static tp_status linear_run(const tp_kernel_call *call) {
  const linear_state *st = call->state;
  tp_s8_matmul mm;
  derive_product(call, &mm);
  const int32_t *column = st->column_term != 0 ? call->args[st->column_term]->as.tensor->data : NULL;
  return tp_s8_matmul_run_any(&mm, call->args[QL_INPUT]->as.tensor->data, call->args[QL_WEIGHTS]->as.tensor->data,
                              column, call->args[QL_OUT]->as.tensor->data);
}

static tp_status linear_empty(const tp_kernel_call *call) {
  (void)call;
  return TP_OK;
}

/* An optional per-output int32 vector of `n` values: [n], or [1, n] as the backend's passes
 * store kernel_sum (the reference adds it to a [rows, n] result by broadcasting). */
static tp_status column_tensor(const tp_kernel_call *call, uint32_t index, int32_t n, tp_tensor **t) {
  TP_TRY(tp_arg_optional_tensor(call->args, call->nargs, index, t));
  if (*t != NULL) {
    if ((*t)->dtype != TP_DTYPE_INT32) {
      return TP_ERR_KERNEL_DTYPE;
    }
    const bool row = (*t)->dim == 2 && (*t)->sizes[0] == 1;
    TP_CHECK_ARGS(((*t)->dim == 1 || row) && (*t)->sizes[(*t)->dim - 1] == n);
  }
  return TP_OK;
}

TP_KERNEL(cortex_m, quantized_linear, out, linear_state) {
  tp_tensor *in, *weights, *bias, *kernel_sum, *out, *ret;
  int32_t input_offset, filter_offset, output_offset, lo, hi;
  const int64_t *multipliers, *shifts;
  uint32_t n_multipliers, n_shifts;
  TP_CHECK_ARGS(call->nargs == QL_NARGS);
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, QL_INPUT, &in));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, QL_WEIGHTS, &weights));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, QL_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, QL_OUT + 1, &ret));
  TP_CHECK_ARGS(in->dim >= 1 && weights->dim == 2);
  const int32_t n = weights->sizes[0], depth = weights->sizes[1];
  TP_CHECK_ARGS(in->sizes[in->dim - 1] == depth && depth <= 65536);
  TP_TRY(column_tensor(call, QL_BIAS, n, &bias));
  TP_TRY(column_tensor(call, QL_KERNEL_SUM, n, &kernel_sum));
  TP_TRY(tp_arg_i32(call->args, call->nargs, QL_INPUT_OFFSET, &input_offset));
  TP_TRY(tp_arg_i32(call->args, call->nargs, QL_FILTER_OFFSET, &filter_offset));
  TP_TRY(tp_arg_i32(call->args, call->nargs, QL_OUTPUT_OFFSET, &output_offset));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, QL_MULTIPLIERS, &multipliers, &n_multipliers));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, QL_SHIFTS, &shifts, &n_shifts));
  TP_CHECK_ARGS(n_multipliers >= 1 && n_shifts >= 1); /* the reference uses element 0 */
  TP_CHECK_ARGS(multipliers[0] >= INT32_MIN && multipliers[0] <= INT32_MAX && tp_shift_ok(shifts[0]));
  TP_TRY(tp_arg_s8_range(call->args, call->nargs, QL_ACT_MIN, QL_ACT_MAX, &lo, &hi));
  /* out: input's sizes with the last one n. */
  TP_CHECK_ARGS(out->dim == in->dim && out->sizes[out->dim - 1] == n);
  for (uint32_t d = 0; d + 1 < in->dim; d++) {
    TP_CHECK_ARGS(out->sizes[d] == in->sizes[d]);
  }
  (void)filter_offset; /* any int32; the product reads it again at each run */
  (void)output_offset;
  if (kernel_sum != NULL) {
    state->column_term = QL_KERNEL_SUM;
  } else {
    TP_CHECK_ARGS(input_offset >= -255 && input_offset <= 255); /* x + offset fits int16 lanes */
    state->column_term = bias != NULL ? QL_BIAS : 0;
  }
  *run = out->numel > 0 ? linear_run : linear_empty;
  return TP_OK;
}
