/* The dimension-wise remapping copy of engines/remap.h: an odometer over out's coordinates. */
#include "portable/engines/remap.h"

#include <string.h>

tp_status tp_remap_init(tp_remap_state *st, const tp_tensor *in, const tp_tensor *out, uint32_t out_slot) {
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0 || esize > 255) {
    return TP_ERR_KERNEL_DTYPE;
  }
  st->dim = (uint8_t)in->dim;
  st->flip = 0;
  st->esize = (uint8_t)esize;
  st->out = (uint8_t)out_slot;
  st->numel = out->numel;
  for (uint32_t d = 0; d < in->dim; d++) {
    st->in_sizes[d] = (uint32_t)in->sizes[d];
    st->out_sizes[d] = (uint32_t)in->sizes[d];
    st->shift[d] = 0;
  }
  return TP_OK;
}

tp_status tp_remap_run(const tp_kernel_call *call) {
  const tp_remap_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[0]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[st->out]->as.tensor->data;
  uint32_t index[TP_MAX_DIM] = {0};
  for (uint32_t i = 0; i < st->numel; i++) {
    uint32_t off = 0;
    for (uint32_t d = 0; d < st->dim; d++) {
      const uint32_t size = st->in_sizes[d];
      uint32_t k = (st->flip >> d) & 1u ? size - 1u - index[d] : (index[d] % size + st->shift[d]) % size;
      off = off * size + k;
    }
    memmove(o + (size_t)i * st->esize, x + (size_t)off * st->esize, st->esize);
    for (uint32_t d = st->dim; d-- > 0;) {
      if (++index[d] < st->out_sizes[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  return TP_OK;
}
