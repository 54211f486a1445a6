/* Elementwise kernels' shared checks and fills (see elementwise.h). */
#include "kernel_util.h"
#include "util/elem.h"

#include <string.h>

tp_status tp_float_map_args(tp_value *const *args, uint32_t nargs, uint32_t out_index, tp_float_map *map) {
  TP_CHECK_ARGS(nargs == out_index + 2);
  tp_tensor *in, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_tensor(args, nargs, out_index, &out));
  TP_TRY(tp_arg_tensor(args, nargs, out_index + 1, &ret));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  if (!tp_same_memory_order(in, out)) {
    return TP_ERR_DIM_ORDER; /* element i of one must be element i of the other */
  }
  map->x = (const float *)in->data;
  map->y = (float *)out->data;
  map->n = out->numel;
  return TP_OK;
}


tp_status tp_float_map_promoted_args(tp_value *const *args, uint32_t nargs, uint32_t out_index, tp_float_map *map,
                                     uint8_t *self_dtype) {
  TP_CHECK_ARGS(nargs == out_index + 2);
  tp_tensor *in, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_tensor(args, nargs, out_index, &out));
  TP_TRY(tp_arg_tensor(args, nargs, out_index + 1, &ret));
  if (!tp_dtype_is_real_or_bool(in->dtype) || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  if (!tp_same_memory_order(in, out)) {
    return TP_ERR_DIM_ORDER;
  }
  map->x = (const float *)in->data; /* of *self_dtype: read with tp_elem_load_f32 unless float32 */
  map->y = (float *)out->data;
  map->n = out->numel;
  *self_dtype = (uint8_t)in->dtype;
  return TP_OK;
}

void tp_fill(void *dst, uint32_t count, const void *elem, size_t esize) {
  const size_t total = (size_t)count * esize;
  uint8_t *o = (uint8_t *)dst;
  if (total == 0) {
    return;
  }
  memcpy(o, elem, esize);
  for (size_t done = esize; done < total;) { /* doubling copies */
    const size_t n = done < total - done ? done : total - done;
    memcpy(o + done, o, n);
    done += n;
  }
}

tp_status tp_elementwise_args(const tp_kernel_call *call, uint32_t out_index, tp_tensor **self, tp_tensor **out) {
  tp_tensor *ret;
  TP_CHECK_ARGS(call->nargs == out_index + 2);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, 0, self));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_index, out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_index + 1, &ret));
  /* Elementwise kernels walk memory: self's and out's must hold the elements in one order. */
  return tp_same_memory_order(*self, *out) ? TP_OK : TP_ERR_DIM_ORDER;
}
