/* Extension of aten::max_pool2d_with_indices.out: its routine for integer inputs (what the
 * Cortex-M backend leaves of an int8 max pool it cannot lower). The kernel calls
 * tp_max_pool_int_run through a weak reference; this file is linked when a kernel registry
 * lists tinypte::max_pool_int.ext, which it does for programs that need it
 * (python/tinypte/inspect_pte/extensions.py). The extension kernel is never a program's
 * operator. */
#include "portable/engines/max_pool.h"

/* Element i of integer data of `dtype` (one of the five max_pool_run_int takes), as int64. */
static int64_t load_int(const void *data, int dtype, uint32_t i) {
  switch (dtype) {
    case TP_DTYPE_UINT8:
      return ((const uint8_t *)data)[i];
    case TP_DTYPE_INT8:
      return ((const int8_t *)data)[i];
    case TP_DTYPE_INT16:
      return ((const int16_t *)data)[i];
    case TP_DTYPE_INT32:
      return ((const int32_t *)data)[i];
    default:
      return ((const int64_t *)data)[i];
  }
}

/* Store v (a value of that dtype, read by load_int) as element i. */
static void store_int(void *data, int dtype, uint32_t i, int64_t v) {
  switch (dtype) {
    case TP_DTYPE_UINT8:
      ((uint8_t *)data)[i] = (uint8_t)v;
      break;
    case TP_DTYPE_INT8:
      ((int8_t *)data)[i] = (int8_t)v;
      break;
    case TP_DTYPE_INT16:
      ((int16_t *)data)[i] = (int16_t)v;
      break;
    case TP_DTYPE_INT32:
      ((int32_t *)data)[i] = (int32_t)v;
      break;
    default:
      ((int64_t *)data)[i] = v;
      break;
  }
}

/* The integer dtypes (uint8, int8, int16, int32, int64), read and written through int64 (exact
 * for all of them): the same windows, order and comparison as the float32 routine of
 * portable/max_pool2d_with_indices.c. */
tp_status tp_max_pool_int_run(const tp_kernel_call *call) {
  const tp_tensor *in = call->args[TP_MAX_POOL_IN]->as.tensor;
  void *out = call->args[TP_MAX_POOL_OUT]->as.tensor->data;
  const int dtype = in->dtype;
  int64_t *oi = (int64_t *)call->args[TP_MAX_POOL_INDICES]->as.tensor->data;
  uint32_t at = 0, plane = 0;
#define AT(i) load_int(in->data, dtype, plane + (i))
#define PUT(best, best_idx) (store_int(out, dtype, at++, best), *oi++ = (best_idx))
  TP_MAX_POOL_LOOPS((const tp_max_pool_state *)call->state, 1u, plane, int64_t, AT, PUT);
#undef AT
#undef PUT
  return TP_OK;
}

/* The extension's registry entry: what makes firmware link this file. Never a program's operator. */
TP_KERNEL(tinypte, max_pool_int, ext, tp_max_pool_state) {
  (void)call;
  (void)state;
  (void)run;
  return TP_ERR_UNSUPPORTED;
}
