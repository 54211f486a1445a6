/* Dim orders: where a tensor's elements are, for the two layouts tinypte runs (value.h). */
#include "tinypte/value.h"

void tp_tensor_strides(const tp_tensor *t, int32_t strides[TP_MAX_DIM]) {
  const uint32_t dim = t->dim;
  if (!t->channels_last) {
    int32_t step = 1;
    for (uint32_t d = dim; d-- > 0;) {
      strides[d] = step;
      step *= t->sizes[d];
    }
    return;
  }
  /* Memory order N, spatial dims in order, C: C is innermost, then the last spatial dim. */
  int32_t step = 1;
  strides[1] = step;
  step *= t->sizes[1];
  for (uint32_t d = dim; d-- > 2;) {
    strides[d] = step;
    step *= t->sizes[d];
  }
  strides[0] = step;
}
