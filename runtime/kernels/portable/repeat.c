/* aten::repeat.out: self tiled repeats[d] times along each dimension (self's shape is padded with
 * leading 1s to len(repeats) dimensions); any dtype (tp_remap_run: out index mod self size). */
#include "portable/engines/remap.h"

/* repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!): args self, repeats, out, out. */
enum { REPEAT_SELF, REPEAT_REPEATS, REPEAT_OUT };

TP_KERNEL(aten, repeat, out, tp_remap_state) {
  tp_tensor *in, *out;
  const int64_t *repeats;
  uint32_t n;
  TP_TRY(tp_elementwise_args(call, REPEAT_OUT, &in, &out));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, REPEAT_REPEATS, &repeats, &n));
  TP_CHECK_ARGS(n >= in->dim && n <= TP_MAX_DIM && out->dim == n);
  TP_TRY(tp_remap_init(state, in, out, REPEAT_OUT));
  state->dim = (uint8_t)n;
  const uint32_t pad = n - in->dim;
  for (uint32_t d = 0; d < n; d++) {
    const uint32_t size = d < pad ? 1u : (uint32_t)in->sizes[d - pad];
    TP_CHECK_ARGS(repeats[d] >= 0 && repeats[d] <= INT32_MAX && (int64_t)size * repeats[d] == out->sizes[d]);
    state->in_sizes[d] = size;
    state->out_sizes[d] = (uint32_t)out->sizes[d];
    state->shift[d] = 0;
  }
  *run = tp_remap_run;
  return TP_OK;
}
