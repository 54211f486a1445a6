/* Helpers shared by the neural-network kernels (see util/nn.h). */
#include "util/nn.h"

#include "util/elem.h"

tp_status tp_nn_check_multi_out_nargs(tp_value *const *args, uint32_t nargs, uint32_t n_in, uint32_t n_out) {
  if (nargs == n_in + n_out + 1) {
    TP_CHECK_ARGS(args[nargs - 1]->tag == TP_TAG_TENSOR_LIST);
    return TP_OK;
  }
  TP_CHECK_ARGS(nargs == n_in + 2 * n_out);
  for (uint32_t i = n_in + n_out; i < nargs; i++) {
    TP_CHECK_ARGS(args[i]->tag == TP_TAG_TENSOR);
  }
  return TP_OK;
}

bool tp_nn_has_shape(const tp_tensor *t, uint32_t dim, const int32_t *sizes) {
  if (t->dim != dim) {
    return false;
  }
  for (uint32_t i = 0; i < dim; i++) {
    if (t->sizes[i] != sizes[i]) {
      return false;
    }
  }
  return true;
}

/* Reads an int list of 0, 1 or 2 items into v[2]; 0 items give `empty`, 1 item both. */
static tp_status pair(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t empty, int64_t min,
                      int32_t v[2]) {
  const int64_t *items;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, index, &items, &len));
  TP_CHECK_ARGS(len <= 2);
  for (uint32_t i = 0; i < 2; i++) {
    int64_t x = len == 0 ? empty : items[len == 1 ? 0 : i];
    TP_CHECK_ARGS(x >= min && x <= INT32_MAX / 4);
    v[i] = (int32_t)x;
  }
  return TP_OK;
}

tp_status tp_nn_pool_window(tp_value *const *args, uint32_t nargs, uint32_t kernel_index, uint32_t stride_index,
                            uint32_t padding_index, uint32_t dilation_index, tp_nn_window2d *w) {
  const int64_t *items;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, kernel_index, &items, &len));
  TP_CHECK_ARGS(len == 1 || len == 2);
  TP_TRY(pair(args, nargs, kernel_index, 1, 1, w->k));
  TP_TRY(tp_arg_int_list(args, nargs, stride_index, &items, &len));
  if (len == 0) {
    w->s[0] = w->k[0];
    w->s[1] = w->k[1];
  } else {
    TP_TRY(pair(args, nargs, stride_index, 1, 1, w->s));
  }
  TP_TRY(pair(args, nargs, padding_index, 0, 0, w->p));
  if (dilation_index == UINT32_MAX) {
    w->d[0] = 1;
    w->d[1] = 1;
  } else {
    TP_TRY(pair(args, nargs, dilation_index, 1, 1, w->d));
  }
  TP_CHECK_ARGS(w->p[0] <= w->k[0] / 2 && w->p[1] <= w->k[1] / 2);
  return TP_OK;
}

int32_t tp_nn_out_size(int32_t in, int32_t k, int32_t s, int32_t p, int32_t d, bool ceil_mode) {
  int64_t num = (int64_t)in + 2 * (int64_t)p - (int64_t)d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  if (num < 0) {
    return 0; /* floor(num / s) + 1 <= 0 */
  }
  int64_t out = num / s + 1;
  /* In ceil mode the last window must start inside the input or left padding. */
  if (ceil_mode && (out - 1) * s >= (int64_t)in + p) {
    out--;
  }
  return out > 0 && out <= INT32_MAX ? (int32_t)out : 0;
}

tp_status tp_nn_matmul_args(tp_value *const *args, uint32_t nargs, tp_tensor **self, tp_tensor **mat2,
                            tp_tensor **out) {
  TP_CHECK_ARGS(nargs == 4);
  TP_TRY(tp_arg_tensor(args, nargs, 0, self));
  TP_TRY(tp_arg_tensor(args, nargs, 1, mat2));
  TP_TRY(tp_arg_tensor(args, nargs, 2, out));
  const bool f32 = tp_nn_is_f32(*self) && tp_nn_is_f32(*mat2) && tp_nn_is_f32(*out);
  const bool same = (*self)->dtype == (*mat2)->dtype && (*mat2)->dtype == (*out)->dtype;
  if (!f32 && !(same && tp_dtype_is_integer((*out)->dtype))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  return TP_OK;
}

tp_status tp_nn_run_nothing(const tp_kernel_call *call) {
  (void)call;
  return TP_OK;
}

tp_status tp_nn_pool_input(const tp_tensor *in, int32_t in_hw[2]) {
  TP_CHECK_ARGS(in->dim == 3 || in->dim == 4);
  in_hw[0] = in->sizes[in->dim - 2];
  in_hw[1] = in->sizes[in->dim - 1];
  TP_CHECK_ARGS(in->sizes[in->dim - 3] > 0 && in_hw[0] > 0 && in_hw[1] > 0);
  return TP_OK;
}

bool tp_nn_is_pooled(const tp_tensor *in, const tp_tensor *t, const int32_t out_hw[2]) {
  const uint32_t dim = in->dim;
  if (t->dim != dim || t->sizes[dim - 2] != out_hw[0] || t->sizes[dim - 1] != out_hw[1]) {
    return false;
  }
  for (uint32_t i = 0; i < dim - 2; i++) {
    if (t->sizes[i] != in->sizes[i]) {
      return false;
    }
  }
  return true;
}

tp_kernel_run_fn tp_nn_pool_routine(const tp_tensor *in, const tp_tensor *out, tp_nn_planes2d *planes,
                                    tp_kernel_run_fn routine) {
  if (out->numel == 0) {
    return tp_nn_run_nothing;
  }
  planes->count = in->numel / ((uint32_t)planes->in[0] * (uint32_t)planes->in[1]);
  return routine;
}
