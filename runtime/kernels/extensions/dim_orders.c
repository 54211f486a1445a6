/* Extension of the runtime: reading dim orders other than 0..n-1, and keeping channels-last
 * tensors from kernels that do not know them (runtime/src/dim_order.c). The loader and
 * tp_method_init call that code through weak references; this registry entry references it,
 * so firmware links it when a kernel registry lists tinypte::dim_orders.ext, which it does for
 * programs that have such a tensor (python/tinypte/inspect_pte/extensions.py). Never a
 * program's operator. */
#include <stdbool.h>

#include "kernel_util.h"

/* runtime/src/dim_order.c (declared in the runtime's internal.h): referenced here, strongly. */
tp_status tp_dim_order_read(const uint8_t *order, const int32_t *sizes, uint32_t dim, bool dynamic,
                            bool *channels_last);

/* Kernels ask this only of channels-last programs (util/shape.h). */
bool tp_tensor_order_free(const tp_tensor *t) {
  if (t->dim < 4 || t->dim > 5) {
    return false;
  }
  int32_t spatial = 1;
  for (uint32_t d = 2; d < t->dim; d++) {
    spatial *= t->sizes[d];
  }
  return t->sizes[1] == 1 || spatial == 1;
}

typedef struct dim_orders_state {
  uint8_t unused;
} dim_orders_state;

TP_KERNEL(tinypte, dim_orders, ext, dim_orders_state) {
  (void)call;
  (void)state;
  (void)run;
  /* The call keeps dim_order.c linked (its tp_dim_order_check_call comes with it); an empty
   * order reads as contiguous and touches nothing. */
  bool channels_last;
  (void)tp_dim_order_read(NULL, NULL, 0, false, &channels_last);
  return TP_ERR_UNSUPPORTED;
}
