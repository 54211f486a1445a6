/* aten::mul.out and aten::mul.Scalar_out: out = self * other, with ATen broadcasting for the
 * tensor overload. float32 multiplies in float; int32/int64 wrap around and need an integral
 * Scalar. All tensors share one dtype (no type promotion). */
#include "broadcast.h"
#include "kernel_util.h"

/* mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, mul, out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *a, *b, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &a));
  TP_TRY(tp_arg_tensor(args, nargs, 1, &b));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  if (a->dtype != out->dtype || b->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_bcast bc;
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32:
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, float, a->data, float, b->data, float, out->data, x * y);
      return TP_OK;
    case TP_DTYPE_INT32:
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, int32_t, a->data, int32_t, b->data, int32_t, out->data,
                     (int32_t)((uint32_t)x * (uint32_t)y));
      return TP_OK;
    case TP_DTYPE_INT64:
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, int64_t, a->data, int64_t, b->data, int64_t, out->data,
                     (int64_t)((uint64_t)x * (uint64_t)y));
      return TP_OK;
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}

/* mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, mul, Scalar_out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *a, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &a));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  if (a->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double other;
      TP_TRY(tp_arg_scalar(args, nargs, 1, &other));
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const float c = (float)other;
      const float *x = (const float *)a->data;
      float *o = (float *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = x[i] * c;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT32: {
      int64_t other;
      TP_TRY(tp_arg_int_scalar(args, nargs, 1, &other));
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const uint32_t c = (uint32_t)other;
      const int32_t *x = (const int32_t *)a->data;
      int32_t *o = (int32_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = (int32_t)((uint32_t)x[i] * c);
      }
      return TP_OK;
    }
    case TP_DTYPE_INT64: {
      int64_t other;
      TP_TRY(tp_arg_int_scalar(args, nargs, 1, &other));
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const uint64_t c = (uint64_t)other;
      const int64_t *x = (const int64_t *)a->data;
      int64_t *o = (int64_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = (int64_t)((uint64_t)x[i] * c);
      }
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
