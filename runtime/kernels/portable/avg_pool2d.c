/* aten::avg_pool2d.out for float32 (C, H, W) or (N, C, H, W) inputs: the float sum of each
 * window's elements inside the input (row by row, as ExecuTorch's portable kernel) divided by
 * divisor_override if given, else by the window size clipped to the padded input
 * (count_include_pad) or to the input (not count_include_pad). int64 inputs: the dtype
 * extension's routine (engines/dtypes.h), integer sums and truncating division.
 */
#include "portable/engines/dtypes.h"
#include "util/nn.h"

typedef struct avg_pool_state {
  tp_nn_planes2d planes;  /* plane count, input and output plane sizes */
  int32_t k[2], s[2], p[2]; /* kernel size, stride, padding (height, width) */
  float divisor;          /* divisor_override, when has_divisor */
  int64_t int_divisor;    /* the same for int64 inputs */
  bool has_divisor;
  bool count_include_pad;
} avg_pool_state;

/* avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *   bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *,
 *   Tensor(a!) out) -> Tensor(a!): args self, ..., divisor_override, out, out. */
enum { IN, KERNEL, STRIDE, PADDING, CEIL_MODE, COUNT_INCLUDE_PAD, DIVISOR_OVERRIDE, OUT, NARGS = OUT + 2 };

static tp_status avg_pool_run(const tp_kernel_call *call) {
  const avg_pool_state *st = call->state;
  const int32_t H = st->planes.in[0], W = st->planes.in[1];
  const int32_t OH = st->planes.out[0], OW = st->planes.out[1];
  const int32_t kh = st->k[0], kw = st->k[1], sh = st->s[0], sw = st->s[1], ph = st->p[0], pw = st->p[1];
  const bool has_divisor = st->has_divisor, count_include_pad = st->count_include_pad;
  const float fixed_divisor = st->divisor;
  const float *plane = (const float *)call->args[IN]->as.tensor->data;
  float *o = (float *)call->args[OUT]->as.tensor->data;
  for (uint32_t c = 0; c < st->planes.count; c++, plane += (uint32_t)H * (uint32_t)W) {
    for (int32_t oy = 0; oy < OH; oy++) {
      int32_t y0, y1;
      const int32_t pool_h = tp_nn_avg_span(oy * sh - ph, kh, H, ph, &y0, &y1);
      for (int32_t ox = 0; ox < OW; ox++) {
        int32_t x0, x1;
        const int32_t pool_w = tp_nn_avg_span(ox * sw - pw, kw, W, pw, &x0, &x1);
        float value = 0.0f;
        if (y1 > y0 && x1 > x0) {
          const float sum = tp_nn_window_sum_f32(plane, W, y0, y1, x0, x1);
          const float count = has_divisor         ? fixed_divisor
                              : count_include_pad ? (float)(pool_h * pool_w)
                                                  : (float)((y1 - y0) * (x1 - x0));
          value = sum / count;
        }
        *o++ = value;
      }
    }
  }
  return TP_OK;
}

/* int64: the dtype extension's routine. */
static tp_status avg_pool_i64(const tp_kernel_call *call) {
  const avg_pool_state *st = call->state;
  const tp_dtypes_pool2d pool = {
      .planes = st->planes.count,
      .h = st->planes.in[0],
      .w = st->planes.in[1],
      .oh = st->planes.out[0],
      .ow = st->planes.out[1],
      .k = {st->k[0], st->k[1]},
      .s = {st->s[0], st->s[1]},
      .p = {st->p[0], st->p[1]},
      .divisor = st->int_divisor,
      .has_divisor = st->has_divisor,
      .count_include_pad = st->count_include_pad,
  };
  tp_dtypes_avg_pool_i64(&pool, (const int64_t *)call->args[IN]->as.tensor->data,
                         (int64_t *)call->args[OUT]->as.tensor->data);
  return TP_OK;
}

TP_KERNEL(aten, avg_pool2d, out, avg_pool_state) {
  tp_tensor *in, *out;
  tp_nn_window2d w;
  tp_nn_planes2d *planes = &state->planes;
  bool ceil_mode;
  int64_t divisor;
  TP_CHECK_ARGS(nargs == NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_nn_pool_window(args, nargs, KERNEL, STRIDE, PADDING, UINT32_MAX, &w));
  TP_TRY(tp_arg_bool(args, nargs, CEIL_MODE, &ceil_mode));
  TP_TRY(tp_arg_bool(args, nargs, COUNT_INCLUDE_PAD, &state->count_include_pad));
  TP_TRY(tp_arg_optional_int(args, nargs, DIVISOR_OVERRIDE, &divisor, &state->has_divisor));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  const bool i64 = in->dtype == TP_DTYPE_INT64 && out->dtype == TP_DTYPE_INT64;
  if ((!tp_nn_is_f32(in) || !tp_nn_is_f32(out)) && !i64) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (i64 && tp_dtypes_avg_pool_i64 == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  TP_CHECK_ARGS(!state->has_divisor || divisor != 0);
  TP_TRY(tp_nn_pool_input(in, planes->in));
  for (uint32_t i = 0; i < 2; i++) {
    planes->out[i] = tp_nn_out_size(planes->in[i], w.k[i], w.s[i], w.p[i], 1, ceil_mode);
  }
  TP_CHECK_ARGS(planes->out[0] > 0 && planes->out[1] > 0);
  TP_CHECK_ARGS(tp_nn_is_pooled(in, out, planes->out));
  for (uint32_t i = 0; i < 2; i++) {
    state->k[i] = w.k[i];
    state->s[i] = w.s[i];
    state->p[i] = w.p[i];
  }
  state->divisor = tp_nn_i64_to_f32(divisor);
  state->int_divisor = divisor;
  *run = tp_nn_pool_routine(in, out, planes, i64 ? avg_pool_i64 : avg_pool_run);
  return TP_OK;
}
