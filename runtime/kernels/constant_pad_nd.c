/* aten::constant_pad_nd.out: pad self with `value`; pad = (before, after) pairs starting from the
 * last dimension. Negative pads crop, as ATen (the result size must stay >= 0); any dtype (the
 * value is cast to it, and must fit when something is actually padded). */
#include <string.h>

#include "kernel_util.h"

/* constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, constant_pad_nd, out) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *in, *out, *ret;
  const int64_t *pad;
  uint32_t len;
  double value_d;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_int_list(args, nargs, 1, &pad, &len));
  TP_TRY(tp_arg_scalar(args, nargs, 2, &value_d));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const uint32_t dim = in->dim;
  /* "Length of pad must be even but instead it equals ..." / "... too large for input dims" */
  TP_CHECK_ARGS(len % 2 == 0 && len / 2 <= dim && dim <= TP_MAX_DIM);

  int32_t out_sizes[TP_MAX_DIM];
  int64_t before[TP_MAX_DIM] = {0};
  int64_t after[TP_MAX_DIM] = {0};
  bool positive = false;
  for (uint32_t d = 0; d < dim; d++) {
    const uint32_t p = dim - 1 - d; /* pad pair index */
    if (p < len / 2) {
      before[d] = pad[2 * p];
      after[d] = pad[2 * p + 1];
    }
    /* bound the pads so the sums below cannot overflow */
    TP_CHECK_ARGS(before[d] >= -(int64_t)INT32_MAX && before[d] <= INT32_MAX);
    TP_CHECK_ARGS(after[d] >= -(int64_t)INT32_MAX && after[d] <= INT32_MAX);
    positive = positive || before[d] > 0 || after[d] > 0;
    const int64_t size = (int64_t)in->sizes[d] + before[d] + after[d];
    TP_CHECK_ARGS(size >= 0 && size <= INT32_MAX);
    /* the kept part of the input (ATen narrows by the negative pads) must not be negative */
    const int64_t kept = (int64_t)in->sizes[d] + (before[d] < 0 ? before[d] : 0) + (after[d] < 0 ? after[d] : 0);
    TP_CHECK_ARGS(kept >= 0);
    out_sizes[d] = (int32_t)size;
  }
  uint8_t value[8];
  if (positive) { /* ATen ignores the value when it only crops */
    TP_TRY(tp_arg_scalar_as(args, nargs, 2, in->dtype, value));
  }
  (void)value_d;
  TP_CHECK_ARGS(tp_shape_is(out, dim, out_sizes));
  if (out->numel == 0) {
    return TP_OK;
  }
  uint8_t *o = (uint8_t *)out->data;
  const uint8_t *x = (const uint8_t *)in->data;
  if (dim == 0) {
    memcpy(o, x, esize);
    return TP_OK;
  }

  /* Fill everything with the value, then copy the kept block of the input. */
  if (positive) {
    tp_fill(o, out->numel, value, esize);
  }

  uint32_t block[TP_MAX_DIM];   /* kept block sizes */
  uint32_t in_str[TP_MAX_DIM];  /* element strides */
  uint32_t out_str[TP_MAX_DIM];
  size_t in_off = 0;
  size_t out_off = 0;
  uint32_t si = 1;
  uint32_t so = 1;
  uint32_t rows = 1;
  for (uint32_t d = dim; d-- > 0;) {
    in_str[d] = si;
    out_str[d] = so;
    si *= (uint32_t)in->sizes[d];
    so *= (uint32_t)out_sizes[d];
    block[d] = (uint32_t)((int64_t)in->sizes[d] + (before[d] < 0 ? before[d] : 0) + (after[d] < 0 ? after[d] : 0));
    in_off += (size_t)(before[d] < 0 ? -before[d] : 0) * in_str[d];
    out_off += (size_t)(before[d] > 0 ? before[d] : 0) * out_str[d];
    if (d < dim - 1) {
      rows *= block[d];
    }
  }
  const uint32_t row_len = block[dim - 1];
  if (row_len == 0 || rows == 0) {
    return TP_OK;
  }
  uint32_t in_index[TP_MAX_DIM] = {0};
  uint32_t out_index[TP_MAX_DIM] = {0};
  uint32_t ri = 0;
  uint32_t ro = 0;
  for (uint32_t r = 0; r < rows; r++) {
    memmove(o + (out_off + ro) * esize, x + (in_off + ri) * esize, (size_t)row_len * esize);
    ri = tp_index_next(dim - 1, block, in_str, in_index, ri);
    ro = tp_index_next(dim - 1, block, out_str, out_index, ro);
  }
  return TP_OK;
}
