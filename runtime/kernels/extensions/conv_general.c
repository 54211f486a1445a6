/* Extension of aten::convolution.out: its general routine (portable/engines/conv_nd.h) for transposed,
 * 3-D and channels-last convolutions. convolution.c calls tp_conv_general_prepare through a
 * weak reference; this file is linked when a kernel registry lists tinypte::conv_general.ext,
 * which it does for programs that need it (python/tinypte/inspect_pte/extensions.py). The
 * extension kernel itself is never an operator of a program. */
#include "portable/engines/conv_nd.h"
#include "util/nn.h"

/* A stride/padding/dilation/output_padding list: 1 item (every dim) or `ndim` items, each in
 * [min, INT32_MAX / 4]. */
static tp_status nd_param(tp_value *const *args, uint32_t nargs, uint32_t index, uint32_t ndim, int64_t min,
                          int32_t *v) {
  const int64_t *items;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, index, &items, &len));
  TP_CHECK_ARGS(len == 1 || len == ndim);
  for (uint32_t i = 0; i < ndim; i++) {
    const int64_t x = items[len == 1 ? 0 : i];
    TP_CHECK_ARGS(x >= min && x <= INT32_MAX / 4);
    v[i] = (int32_t)x;
  }
  return TP_OK;
}

tp_status tp_conv_general_prepare(const tp_kernel_call *call, tp_conv_nd *st, tp_kernel_run_fn *run) {
  tp_value *const *args = call->args;
  const uint32_t nargs = call->nargs;
  tp_tensor *in, *weight, *bias, *out;
  bool transposed;
  int64_t groups64;
  TP_TRY(tp_arg_tensor(args, nargs, TP_CONV_IN, &in));
  TP_TRY(tp_arg_tensor(args, nargs, TP_CONV_WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, TP_CONV_BIAS, &bias));
  TP_TRY(tp_arg_bool(args, nargs, TP_CONV_TRANSPOSED, &transposed));
  TP_TRY(tp_arg_int(args, nargs, TP_CONV_GROUPS, &groups64));
  TP_TRY(tp_arg_tensor(args, nargs, TP_CONV_OUT, &out));
  TP_CHECK_ARGS(in->dim >= 3 && in->dim <= 2 + TP_CONV_ND_MAX_SPATIAL && weight->dim == in->dim);
  const uint32_t sp = in->dim - 2u;
  int32_t op[TP_CONV_ND_MAX_SPATIAL] = {0, 0, 0};
  TP_TRY(nd_param(args, nargs, TP_CONV_STRIDE, sp, 1, st->s));
  TP_TRY(nd_param(args, nargs, TP_CONV_PADDING, sp, 0, st->p));
  TP_TRY(nd_param(args, nargs, TP_CONV_DILATION, sp, 1, st->d));
  if (transposed) {
    TP_TRY(nd_param(args, nargs, TP_CONV_OUTPUT_PADDING, sp, 0, op));
  }
  TP_CHECK_ARGS(groups64 >= 1 && groups64 <= INT32_MAX);
  const int32_t G = (int32_t)groups64, C = in->sizes[1];
  const int32_t OC = transposed ? weight->sizes[1] * G : weight->sizes[0];
  TP_CHECK_ARGS(C % G == 0 && OC % G == 0 && OC > 0);
  st->cg = C / G;
  st->ocg = OC / G;
  TP_CHECK_ARGS(transposed ? weight->sizes[0] == C : weight->sizes[1] == st->cg);
  int32_t expect[2 + TP_CONV_ND_MAX_SPATIAL] = {in->sizes[0], OC};
  for (uint32_t a = 0; a < sp; a++) {
    st->in[a] = in->sizes[2 + a];
    st->k[a] = weight->sizes[2 + a];
    TP_CHECK_ARGS(st->k[a] >= 1);
    if (transposed) {
      TP_CHECK_ARGS(op[a] < st->s[a] || op[a] < st->d[a]); /* ATen's output_padding rule */
      const int64_t size = ((int64_t)st->in[a] - 1) * st->s[a] - 2 * (int64_t)st->p[a] +
                           (int64_t)st->d[a] * (st->k[a] - 1) + op[a] + 1;
      TP_CHECK_ARGS(size > 0 && size <= INT32_MAX / 4);
      st->out[a] = (int32_t)size;
    } else {
      st->out[a] = tp_nn_out_size(st->in[a], st->k[a], st->s[a], st->p[a], st->d[a], false);
      TP_CHECK_ARGS(st->out[a] > 0);
    }
    expect[2 + a] = st->out[a];
  }
  TP_CHECK_ARGS(tp_shape_is(out, in->dim, expect));
  TP_CHECK_ARGS(bias == NULL || (bias->dim == 1 && bias->sizes[0] == OC && !bias->channels_last));
  st->spatial = (uint8_t)sp;
  st->transposed = transposed;
  st->has_bias = bias != NULL;
  st->clamped = call->clamp != NULL;
  if (call->clamp != NULL) {
    st->clamp = *call->clamp;
  }
  *run = out->numel == 0 ? tp_nn_run_nothing : tp_conv_nd_run;
  return TP_OK;
}


TP_KERNEL(tinypte, conv_general, ext, tp_conv_nd) { return tp_conv_general_prepare(call, state, run); }
