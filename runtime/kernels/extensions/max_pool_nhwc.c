/* Extension of aten::max_pool2d_with_indices.out: its routine for float32 channels-last tensors
 * (a program exported with channels-last inputs pools them in place). The kernel calls
 * tp_max_pool_nhwc_run through a weak reference; this file is linked when a kernel registry
 * lists tinypte::max_pool_nhwc.ext, which it does for programs that need it
 * (python/tinypte/inspect_pte/extensions.py). The extension kernel is never a program's
 * operator. */
#include "portable/engines/max_pool.h"

/* Channels-last float32 (input, out and indices N, H, W, C in memory): the kernel's windows,
 * visiting order and comparison, for each channel of an output position in turn; indices are
 * still h * W + w within the channel's plane. */
tp_status tp_max_pool_nhwc_run(const tp_kernel_call *call) {
  const tp_max_pool_state *st = call->state;
  const tp_nn_window2d w = st->w;
  const int32_t H = st->planes.in[0], W = st->planes.in[1];
  const int32_t OH = st->planes.out[0], OW = st->planes.out[1];
  const uint32_t C = st->channels;
  const float *image = (const float *)call->args[TP_MAX_POOL_IN]->as.tensor->data;
  float *o = (float *)call->args[TP_MAX_POOL_OUT]->as.tensor->data;
  int64_t *oi = (int64_t *)call->args[TP_MAX_POOL_INDICES]->as.tensor->data;
  for (uint32_t n = 0; n < st->planes.count / C; n++, image += (uint32_t)H * (uint32_t)W * C) {
    for (int32_t oy = 0; oy < OH; oy++) {
      const int32_t iy0 = oy * w.s[0] - w.p[0];
      int32_t ky_lo, ky_hi;
      tp_nn_taps(iy0, w.k[0], w.d[0], H, &ky_lo, &ky_hi);
      for (int32_t ox = 0; ox < OW; ox++) {
        const int32_t ix0 = ox * w.s[1] - w.p[1];
        int32_t kx_lo, kx_hi;
        tp_nn_taps(ix0, w.k[1], w.d[1], W, &kx_lo, &kx_hi);
        const bool empty = ky_hi <= ky_lo || kx_hi <= kx_lo;
        const int32_t x_first = ix0 + kx_lo * w.d[1];
        const int32_t x_end = ix0 + kx_hi * w.d[1];
        for (uint32_t c = 0; c < C; c++) {
          float best = 0.0f;
          int32_t best_idx = 0;
          if (!empty) {
            int32_t row = (iy0 + ky_lo * w.d[0]) * W;
            best_idx = row + x_first;
            best = image[(uint32_t)best_idx * C + c];
            for (int32_t ky = ky_lo; ky < ky_hi; ky++, row += w.d[0] * W) {
              for (int32_t x = x_first; x != x_end; x += w.d[1]) {
                const float v = image[(uint32_t)(row + x) * C + c];
                if (v > best) {
                  best = v;
                  best_idx = row + x;
                }
              }
            }
          }
          *o++ = best;
          *oi++ = best_idx;
        }
      }
    }
  }
  return TP_OK;
}

/* The extension's registry entry: what makes firmware link this file. Never a program's operator. */
TP_KERNEL(tinypte, max_pool_nhwc, ext, tp_max_pool_state) {
  (void)call;
  (void)state;
  (void)run;
  return TP_ERR_UNSUPPORTED;
}
