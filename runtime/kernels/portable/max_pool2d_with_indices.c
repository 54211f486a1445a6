/* aten::max_pool2d_with_indices.out for float32 and integer (uint8, int8, int16, int32, int64)
 * (C, H, W) or (N, C, H, W) inputs (the fast routines are float32's; the integer routine is an
 * extension, extensions/max_pool_int.c, linked for programs that need it): the max
 * over each (dilated) window and its index h * W + w within the input plane (int64), as ATen.
 * Windows skip the padding. Like ExecuTorch's portable kernel, the first element of a window
 * starts the max and later ones replace it only when strictly greater (so the first of equal
 * maxima wins, and a NaN is only kept when it comes first); a window that lies entirely in
 * the padding gives 0 with index 0. A float32 channels-last input (with out and indices
 * channels-last too) is pooled in place by another extension (extensions/max_pool_nhwc.c).
 */
#include "portable/engines/max_pool.h"

typedef tp_max_pool_state max_pool_state;

/* max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[],
 *   int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out,
 *   Tensor(b!) indices) -> (Tensor(a!), Tensor(b!)): the returns are one tensor list or two
 *   tensors (tp_nn_check_multi_out_nargs). */
enum {
  IN = TP_MAX_POOL_IN,
  KERNEL,
  STRIDE,
  PADDING,
  DILATION,
  CEIL_MODE,
  OUT = TP_MAX_POOL_OUT,
  INDICES = TP_MAX_POOL_INDICES,
};

/* The general routine of float32 (every window shape, padding, ceil mode). */
static tp_status max_pool_run(const tp_kernel_call *call) {
  tp_max_pool_f32(call, 1u);
  return TP_OK;
}

/* No padding and floor mode: every window lies inside its plane, so the taps need no range
 * checks. Same visiting order and comparison as max_pool_run. */
static tp_status max_pool_inside(const tp_kernel_call *call) {
  const max_pool_state *st = call->state;
  const int32_t W = st->planes.in[1], OH = st->planes.out[0], OW = st->planes.out[1];
  const int32_t KH = st->w.k[0], KW = st->w.k[1];
  const int32_t row_step = st->w.s[0] * W, col_step = st->w.s[1];
  const int32_t tap_row = st->w.d[0] * W, tap_col = st->w.d[1];
  const uint32_t plane_size = (uint32_t)st->planes.in[0] * (uint32_t)W;
  const float *plane = (const float *)call->args[IN]->as.tensor->data;
  float *o = (float *)call->args[OUT]->as.tensor->data;
  int64_t *oi = (int64_t *)call->args[INDICES]->as.tensor->data;
  for (uint32_t c = 0; c < st->planes.count; c++, plane += plane_size) {
    for (int32_t oy = 0, start_row = 0; oy < OH; oy++, start_row += row_step) {
      for (int32_t ox = 0, start = start_row; ox < OW; ox++, start += col_step) {
        float best = plane[start];
        int32_t best_idx = start;
        for (int32_t ky = 0, row = start; ky < KH; ky++, row += tap_row) {
          for (int32_t kx = 0, at = row; kx < KW; kx++, at += tap_col) {
            const float v = plane[at];
            if (v > best) {
              best = v;
              best_idx = at;
            }
          }
        }
        *o++ = best;
        *oi++ = best_idx;
      }
    }
  }
  return TP_OK;
}

/* The common 2x2 window with no padding, unrolled: taps in max_pool_run's order. */
static tp_status max_pool_2x2(const tp_kernel_call *call) {
  const max_pool_state *st = call->state;
  const int32_t W = st->planes.in[1], OH = st->planes.out[0], OW = st->planes.out[1];
  const int32_t row_step = st->w.s[0] * W, col_step = st->w.s[1];
  const int32_t down = st->w.d[0] * W, right = st->w.d[1];
  const uint32_t plane_size = (uint32_t)st->planes.in[0] * (uint32_t)W;
  const float *plane = (const float *)call->args[IN]->as.tensor->data;
  float *o = (float *)call->args[OUT]->as.tensor->data;
  int64_t *oi = (int64_t *)call->args[INDICES]->as.tensor->data;
  for (uint32_t c = 0; c < st->planes.count; c++, plane += plane_size) {
    for (int32_t oy = 0; oy < OH; oy++) {
      const float *p = plane + oy * row_step;
      for (int32_t ox = 0; ox < OW; ox++, p += col_step) {
        const float *best = p;
        best = p[right] > *best ? p + right : best;
        best = p[down] > *best ? p + down : best;
        best = p[down + right] > *best ? p + down + right : best;
        *o++ = *best;
        *oi++ = best - plane;
      }
    }
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, max_pool2d_with_indices, out, max_pool_state, TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out, *indices;
  tp_nn_window2d *w = &state->w;
  tp_nn_planes2d *planes = &state->planes;
  bool ceil_mode;
  TP_TRY(tp_nn_check_multi_out_nargs(args, nargs, OUT, 2));
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_nn_pool_window(args, nargs, KERNEL, STRIDE, PADDING, DILATION, w));
  TP_TRY(tp_arg_bool(args, nargs, CEIL_MODE, &ceil_mode));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, INDICES, &indices));
  const bool integer = in->dtype == TP_DTYPE_UINT8 || in->dtype == TP_DTYPE_INT8 || in->dtype == TP_DTYPE_INT16 ||
                       in->dtype == TP_DTYPE_INT32 || in->dtype == TP_DTYPE_INT64;
  if ((!tp_nn_is_f32(in) && !integer) || out->dtype != in->dtype || indices->dtype != TP_DTYPE_INT64) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_nn_pool_input(in, planes->in));
  for (uint32_t i = 0; i < 2; i++) {
    planes->out[i] = tp_nn_out_size(planes->in[i], w->k[i], w->s[i], w->p[i], w->d[i], ceil_mode);
  }
  TP_CHECK_ARGS(planes->out[0] > 0 && planes->out[1] > 0);
  TP_CHECK_ARGS(tp_nn_is_pooled(in, out, planes->out) && tp_nn_is_pooled(in, indices, planes->out));
  const bool channels_last = in->channels_last || out->channels_last || indices->channels_last;
  if (!tp_same_memory_order(in, out) || !tp_same_memory_order(indices, out)) {
    return TP_ERR_DIM_ORDER;
  }
  if (channels_last && (integer || in->dim != 4)) {
    return TP_ERR_DIM_ORDER; /* channels-last: float32 N, C, H, W with out and indices alike */
  }
  if ((integer && tp_max_pool_int_run == NULL) || (channels_last && tp_max_pool_nhwc_run == NULL)) {
    return TP_ERR_UNSUPPORTED; /* the routine is an extension this firmware lacks */
  }
  state->channels = channels_last ? (uint32_t)in->sizes[1] : 0u;
  tp_kernel_run_fn routine = channels_last ? tp_max_pool_nhwc_run : integer ? tp_max_pool_int_run : max_pool_run;
  if (!integer && !channels_last && w->p[0] == 0 && w->p[1] == 0 && !ceil_mode) {
    routine = w->k[0] == 2 && w->k[1] == 2 ? max_pool_2x2 : max_pool_inside;
  }
  *run = tp_nn_pool_routine(in, out, planes, routine);
  return TP_OK;
}
