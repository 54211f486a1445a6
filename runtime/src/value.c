/* Questions about a value's tensors, asked by the optional parts of the method (dim_order.c,
 * dynamic.c): below them and method.c, so neither calls back up into the method. */
#include "internal.h"

bool tp_value_has_tensor(const tp_value *v, bool (*test)(const tp_tensor *tensor)) {
  if (v->tag == TP_TAG_TENSOR) {
    return test(v->as.tensor);
  }
  if (v->tag == TP_TAG_TENSOR_LIST || v->tag == TP_TAG_OPTIONAL_TENSOR_LIST) {
    for (uint32_t i = 0; i < v->as.tensor_list.len; i++) {
      const tp_tensor *t = v->as.tensor_list.items[i];
      if (t != NULL && test(t)) {
        return true;
      }
    }
  }
  return false;
}
