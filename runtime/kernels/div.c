/* aten::div.out and aten::div.Scalar_out: true division out = self / other (rounding_mode None),
 * with ATen broadcasting for the tensor overload. Computes in float like ExecuTorch's portable
 * kernel: out is float32; inputs are float32, or int32/int64 (converted to float first). */
#include "broadcast.h"
#include "kernel_util.h"

/* div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, div, out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *a, *b, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &a));
  TP_TRY(tp_arg_tensor(args, nargs, 1, &b));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  if (out->dtype != TP_DTYPE_FLOAT32 || a->dtype != b->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_bcast bc;
  switch (a->dtype) {
    case TP_DTYPE_FLOAT32:
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, float, a->data, float, b->data, float, out->data, x / y);
      return TP_OK;
    case TP_DTYPE_INT32:
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, int32_t, a->data, int32_t, b->data, float, out->data, (float)x / (float)y);
      return TP_OK;
    case TP_DTYPE_INT64:
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, int64_t, a->data, int64_t, b->data, float, out->data, (float)x / (float)y);
      return TP_OK;
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}

/* div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, div, Scalar_out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *a, *out, *ret;
  double other;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &a));
  TP_TRY(tp_arg_scalar(args, nargs, 1, &other));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  if (out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const float c = (float)other;
  float *o = (float *)out->data;
  switch (a->dtype) {
    case TP_DTYPE_FLOAT32: {
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const float *x = (const float *)a->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = x[i] / c;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT32: {
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const int32_t *x = (const int32_t *)a->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = (float)x[i] / c;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT64: {
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const int64_t *x = (const int64_t *)a->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = (float)x[i] / c;
      }
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
