/* Argument checks of the cortex_m::* int8 kernels (see int8_util.h). */
#include "cortex_m/engines/int8_util.h"

tp_status tp_arg_s8_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out) {
  TP_TRY(tp_arg_tensor(args, nargs, index, out));
  return (*out)->dtype == TP_DTYPE_INT8 ? TP_OK : TP_ERR_KERNEL_DTYPE;
}

tp_status tp_arg_i32(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t *out) {
  int64_t v;
  TP_TRY(tp_arg_int(args, nargs, index, &v));
  TP_CHECK_ARGS(v >= INT32_MIN && v <= INT32_MAX);
  *out = (int32_t)v;
  return TP_OK;
}

tp_status tp_arg_s8_range(tp_value *const *args, uint32_t nargs, uint32_t lo_index, uint32_t hi_index,
                          int32_t *lo, int32_t *hi) {
  TP_TRY(tp_arg_i32(args, nargs, lo_index, lo));
  TP_TRY(tp_arg_i32(args, nargs, hi_index, hi));
  TP_CHECK_ARGS(-128 <= *lo && *lo <= *hi && *hi <= 127);
  return TP_OK;
}

tp_status tp_arg_pair(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t pair[2]) {
  const int64_t *items;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, index, &items, &len));
  TP_CHECK_ARGS(len == 1 || len == 2);
  for (uint32_t k = 0; k < 2; k++) {
    const int64_t v = items[len == 2 ? k : 0];
    TP_CHECK_ARGS(v >= INT32_MIN && v <= INT32_MAX);
    pair[k] = (int32_t)v;
  }
  return TP_OK;
}

tp_status tp_arg_unused_scratch(tp_value *const *args, uint32_t nargs, uint32_t index) {
  tp_tensor *scratch;
  TP_TRY(tp_arg_tensor(args, nargs, index, &scratch));
  return scratch->dtype == TP_DTYPE_UINT8 ? TP_OK : TP_ERR_KERNEL_DTYPE;
}

/* quantize/dequantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min,
 * int quant_max, ScalarType dtype, ...) */
enum { QP_SCALE = 1, QP_ZERO_POINT, QP_MIN, QP_MAX, QP_DTYPE };

tp_status tp_quant_params(tp_value *const *args, uint32_t nargs, double *scale, int32_t *zero_point, int32_t *lo,
                          int32_t *hi) {
  int64_t dtype;
  TP_TRY(tp_arg_scalar(args, nargs, QP_SCALE, scale));
  TP_TRY(tp_arg_i32(args, nargs, QP_ZERO_POINT, zero_point));
  TP_TRY(tp_arg_s8_range(args, nargs, QP_MIN, QP_MAX, lo, hi));
  TP_TRY(tp_arg_int(args, nargs, QP_DTYPE, &dtype));
  if (dtype != TP_DTYPE_INT8) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(*scale > 0.0 && *scale <= 3.4e38 && *zero_point >= -128 && *zero_point <= 127);
  return TP_OK;
}

tp_status tp_arg_s8_value(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t *out) {
  TP_TRY(tp_arg_i32(args, nargs, index, out));
  TP_CHECK_ARGS(*out >= -128 && *out <= 127);
  return TP_OK;
}

tp_status tp_s8_binary_prepare(const tp_kernel_call *call, uint32_t other_index, uint32_t out_index,
                               tp_bcast_packed *bcast) {
  tp_tensor *self, *other, *out;
  TP_TRY(tp_elementwise_args(call, out_index, &self, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, other_index, &other));
  if (self->dtype != TP_DTYPE_INT8 || other->dtype != TP_DTYPE_INT8 || out->dtype != TP_DTYPE_INT8) {
    return TP_ERR_KERNEL_DTYPE;
  }
  return tp_bcast_prepare(bcast, self, other, out);
}

int32_t tp_requantize_general(int64_t value, int32_t multiplier, int32_t shift) {
  const uint32_t left = shift > 0 ? (uint32_t)shift : 0u;
  const uint32_t right = shift < 0 ? (uint32_t)-shift : 0u;
  const uint64_t scaled = (uint64_t)value << left;
  const int64_t product = (int64_t)(scaled * (uint64_t)(int64_t)multiplier + (1ull << 30));
  int64_t result = product >> 31; /* arithmetic: GCC's >> on negative values */
  if (right > 0u) {
    const int64_t mask = (int64_t)((1ull << right) - 1u);
    const int64_t remainder = result & mask;
    result >>= right;
    const int64_t threshold = (mask >> 1) + (result < 0 ? 1 : 0);
    result += remainder > threshold ? 1 : 0;
  }
  return (int32_t)(uint32_t)(uint64_t)result;
}

