/* The arithmetic shared by aten::add and aten::sub (out and Scalar_out overloads):
 * out = self + sign * alpha * other, with ATen broadcasting for the tensor overload.
 * float32 computes in float (as ExecuTorch's portable kernels); int32/int64 wrap around
 * and need an integral alpha/other. All tensors share one dtype (no promotion).
 * Negating alpha is exact, so sub gives the same bits as computing x - alpha * y. */
#include "add_sub.h"

#include "broadcast.h"

/* add.out / sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
tp_status tp_add_sub_out(tp_value *const *args, uint32_t nargs, int sign) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *a, *b, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &a));
  TP_TRY(tp_arg_tensor(args, nargs, 1, &b));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  if (a->dtype != out->dtype || b->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_bcast bc;
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double alpha_d;
      TP_TRY(tp_arg_scalar(args, nargs, 2, &alpha_d));
      const float alpha = (float)(sign * alpha_d);
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, float, a->data, float, b->data, float, out->data, x + alpha * y);
      return TP_OK;
    }
    case TP_DTYPE_INT32: {
      int64_t alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, 2, &alpha));
      const uint32_t al = ((uint32_t)alpha * (uint32_t)sign);
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, int32_t, a->data, int32_t, b->data, int32_t, out->data,
                     (int32_t)((uint32_t)x + al * (uint32_t)y));
      return TP_OK;
    }
    case TP_DTYPE_INT64: {
      int64_t alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, 2, &alpha));
      const uint64_t al = ((uint64_t)alpha * (uint64_t)(int64_t)sign);
      TP_TRY(tp_bcast_init(&bc, a, b, out));
      TP_BCAST_APPLY(bc, int64_t, a->data, int64_t, b->data, int64_t, out->data,
                     (int64_t)((uint64_t)x + al * (uint64_t)y));
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}

/* add.Scalar_out / sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!) */
tp_status tp_add_sub_scalar_out(tp_value *const *args, uint32_t nargs, int sign) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *a, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &a));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  if (a->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double other_d, alpha_d;
      TP_TRY(tp_arg_scalar(args, nargs, 1, &other_d));
      TP_TRY(tp_arg_scalar(args, nargs, 2, &alpha_d));
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const float c = (float)(sign * alpha_d) * (float)other_d;
      const float *x = (const float *)a->data;
      float *o = (float *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = x[i] + c;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT32: {
      int64_t other, alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, 1, &other));
      TP_TRY(tp_arg_int_scalar(args, nargs, 2, &alpha));
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const uint32_t c = ((uint32_t)alpha * (uint32_t)sign) * (uint32_t)other;
      const int32_t *x = (const int32_t *)a->data;
      int32_t *o = (int32_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = (int32_t)((uint32_t)x[i] + c);
      }
      return TP_OK;
    }
    case TP_DTYPE_INT64: {
      int64_t other, alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, 1, &other));
      TP_TRY(tp_arg_int_scalar(args, nargs, 2, &alpha));
      TP_CHECK_ARGS(tp_same_shape(a, out));
      const uint64_t c = ((uint64_t)alpha * (uint64_t)(int64_t)sign) * (uint64_t)other;
      const int64_t *x = (const int64_t *)a->data;
      int64_t *o = (int64_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = (int64_t)((uint64_t)x[i] + c);
      }
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
