/* The fast routines of the _nhwc int8 convolutions on Helium (MVE) cores: int8 dot products
 * over each column's window, tail-predicated; requantization four lanes at a time. */
#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_MVE)
/* ---- Helium: int8 dot products over the window, tail-predicated ---- */

/* The window of a column as int8, K = kh * kw * Cin values; padding taps hold -input_offset,
 * which the offset brings to 0. The dot product adds input_offset * sum(w) afterwards. */
static void im2col_s8(const tp_s8_conv *st, const int8_t *in, column c, int8_t *col) {
  const int32_t cin = st->in_c;
  const int8x16_t pad = vdupq_n_s8((int8_t)-st->input_offset);
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      for (int32_t i = 0; i < cin; i += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(cin - i));
        vstrbq_p_s8(col + i, src != NULL ? vldrbq_z_s8(src + i, p) : pad, p);
      }
      col += cin;
    }
  }
}

/* Four requantized accumulators of out channel oc to four columns' out bytes. */
static void store4(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t oc, const uint32_t acc[4],
                   int8_t *const outs[4], int32_t ncols) {
  const int32_t mult = d->mult[oc], shift = d->shift[oc];
  if (ncols == 4 && shift <= 0 && mult != INT32_MIN) {
    /* (acc * mult + 2^30) >> 31 is VQRDMULH (which saturates only for INT32_MIN squared);
     * VRSHL rounds half up, so negative values first move down by one: half away from zero,
     * as requantize_cmsis. */
    int32x4_t v = vqrdmulhq_n_s32(vldrwq_s32((const int32_t *)acc), mult);
    if (shift < 0) {
      v = vrshlq_n_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), shift);
    }
    v = vaddq_n_s32(v, st->output_offset);
    v = vmaxq_s32(v, vdupq_n_s32(st->act_min));
    v = vminq_s32(v, vdupq_n_s32(st->act_max));
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)st->out_c);
    vstrbq_scatter_offset_s32(outs[0], offs, v);
    return;
  }
  for (int32_t j = 0; j < ncols; j++) {
    *outs[j] = finish(st, acc[j], mult, shift);
  }
}

void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w;
  const uint32_t off = (uint32_t)st->input_offset;
  int8_t *cols = (int8_t *)d->scratch;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      const int32_t ncols = npos - pos < 4 ? npos - pos : 4;
      int8_t *outs[4];
      const int8_t *c[4];
      for (int32_t j = 0; j < 4; j++) {
        const int32_t jj = j < ncols ? j : 0;
        const column cl = column_at(st, out, pos + jj);
        c[j] = cols + jj * K;
        outs[j] = cl.out;
        if (j < ncols) {
          im2col_s8(st, in, cl, cols + j * K);
        }
      }
      const int8_t *wr = d->w;
      for (int32_t oc = 0; oc < st->out_c; oc++, wr += K) {
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, ws = 0;
        int32_t k = 0;
        for (; k + 16 <= K; k += 16) { /* whole vectors, unpredicated */
          const int8x16_t wv = vldrbq_s8(wr + k);
          a0 = vmladavaq_s8(a0, vldrbq_s8(c[0] + k), wv);
          a1 = vmladavaq_s8(a1, vldrbq_s8(c[1] + k), wv);
          a2 = vmladavaq_s8(a2, vldrbq_s8(c[2] + k), wv);
          a3 = vmladavaq_s8(a3, vldrbq_s8(c[3] + k), wv);
          ws = vaddvaq_s8(ws, wv);
        }
        if (k < K) {
          const mve_pred16_t p = vctp8q((uint32_t)(K - k));
          const int8x16_t wv = vldrbq_z_s8(wr + k, p);
          a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(c[0] + k, p), wv, p);
          a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(c[1] + k, p), wv, p);
          a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(c[2] + k, p), wv, p);
          a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(c[3] + k, p), wv, p);
          ws = vaddvaq_p_s8(ws, wv, p);
        }
        const uint32_t base = (d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + off * (uint32_t)ws;
        const uint32_t acc[4] = {base + (uint32_t)a0, base + (uint32_t)a1, base + (uint32_t)a2,
                                 base + (uint32_t)a3};
        int8_t *o[4] = {outs[0] + oc, outs[1] + oc, outs[2] + oc, outs[3] + oc};
        store4(st, d, oc, acc, o, ncols);
      }
    }
  }
}

/* Depthwise: the window of each input channel of a column, tap after tap (kh * kw int8
 * values; padding -input_offset); the weights of out channel oc, kh * kw taps Cout apart,
 * gathered 16 at a time (byte offsets: needs 15 * Cout <= 255, else the portable routine). */
static void im2col_dw_s8(const tp_s8_conv *st, const int8_t *in, column c, int8_t *col) {
  const int32_t kk = st->k_h * st->k_w, cin = st->in_c;
  const int8_t pad = (int8_t)-st->input_offset;
  int32_t t = 0;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++, t++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      int8_t *dst = col + t;
      for (int32_t ci = 0; ci < cin; ci++, dst += kk) {
        *dst = src != NULL ? src[ci] : pad;
      }
    }
  }
}

bool tp_s8_conv_shifts_right(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  bool quick = true;
  for (int32_t c = 0; c < st->out_c; c++) {
    quick = quick && d->shift[c] < 0 && d->mult[c] != INT32_MIN;
  }
  return quick;
}

/* Depthwise with one input channel (Cout = depth_multiplier): four out channels per vector,
 * their weights contiguous in each tap, times the tap's value (x + input_offset); the taps
 * inside the image only, no window. */
static void depthwise_c1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t cout = st->out_c, off = st->input_offset, kh = st->k_h, kw = st->k_w;
  const int32_t dil_h = st->dil_h, dil_w = st->dil_w, in_h = st->in_h, in_w = st->in_w;
  const int32_t in_sy = st->in_sy, in_sx = st->in_sx, out_h = st->out_h, out_w = st->out_w;
  const int32_t stride_h = st->stride_h, stride_w = st->stride_w, pad_h = st->pad_h, pad_w = st->pad_w;
  const int32_t step_y = in_sy * dil_h, step_x = in_sx * dil_w, w_row = kw * cout;
  const int32_t out_off = st->output_offset, lo = st->act_min, hi = st->act_max;
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  const bool quick = tp_s8_conv_shifts_right(st, d); /* the vector requantization, every channel shifting right */
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t oy = 0; oy < out_h; oy++) {
      const int32_t y0 = oy * stride_h - pad_h;
      const int32_t ky0 = first_tap(y0, dil_h), ky1 = end_tap(y0, in_h, kh, dil_h);
      for (int32_t ox = 0; ox < out_w; ox++, out += cout) {
        const int32_t x0 = ox * stride_w - pad_w;
        const int32_t kx0 = first_tap(x0, dil_w), kx1 = end_tap(x0, in_w, kw, dil_w);
        const int8_t *x00 = in + (y0 + ky0 * dil_h) * in_sy + (x0 + kx0 * dil_w) * in_sx;
        const int8_t *w00 = d->w + ky0 * w_row + kx0 * cout;
        int32_t oc = 0;
        for (; quick && oc + 8 <= cout; oc += 8) {
          /* Eight channels unpredicated: two vectors share each tap's value. */
          int32x4_t acc0 = vdupq_n_s32(0), acc1 = acc0;
          if (bias != NULL) {
            acc0 = vldrwq_s32(bias + oc);
            acc1 = vldrwq_s32(bias + oc + 4);
          }
          const int8_t *xr = x00, *wr = w00 + oc;
          for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
              const int32_t v = *xp + off;
              acc0 = vmlaq_n_s32(acc0, vldrbq_s32(wp), v);
              acc1 = vmlaq_n_s32(acc1, vldrbq_s32(wp + 4), v);
            }
          }
          int32x4_t v0 = vqrdmulhq_s32(acc0, vldrwq_s32(mult + oc));
          int32x4_t v1 = vqrdmulhq_s32(acc1, vldrwq_s32(mult + oc + 4));
          v0 = vrshlq_s32(vaddq_s32(v0, vshrq_n_s32(v0, 31)), vldrwq_s32(shift + oc));
          v1 = vrshlq_s32(vaddq_s32(v1, vshrq_n_s32(v1, 31)), vldrwq_s32(shift + oc + 4));
          v0 = vminq_s32(vmaxq_s32(vaddq_n_s32(v0, out_off), vdupq_n_s32(lo)), vdupq_n_s32(hi));
          v1 = vminq_s32(vmaxq_s32(vaddq_n_s32(v1, out_off), vdupq_n_s32(lo)), vdupq_n_s32(hi));
          vstrbq_s32(out + oc, v0);
          vstrbq_s32(out + oc + 4, v1);
        }
        for (; oc < cout; oc += 4) {
          const mve_pred16_t p = vctp32q((uint32_t)(cout - oc));
          int32x4_t acc = bias != NULL ? vldrwq_z_s32(bias + oc, p) : vdupq_n_s32(0);
          const int8_t *xr = x00, *wr = w00 + oc;
          for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
              acc = vmlaq_n_s32(acc, vldrbq_z_s32(wp, p), *xp + off);
            }
          }
          if (quick) {
            int32x4_t v = vqrdmulhq_s32(acc, vldrwq_z_s32(mult + oc, p));
            v = vrshlq_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), vldrwq_z_s32(shift + oc, p));
            v = vaddq_n_s32(v, out_off);
            v = vmaxq_s32(v, vdupq_n_s32(lo));
            v = vminq_s32(v, vdupq_n_s32(hi));
            vstrbq_p_s32(out + oc, v, p);
          } else {
            int32_t a[4];
            vstrwq_s32(a, acc);
            const int32_t n = cout - oc < 4 ? cout - oc : 4;
            for (int32_t j = 0; j < n; j++) {
              out[oc + j] = finish(st, (uint32_t)a[j], mult[oc + j], shift[oc + j]);
            }
          }
        }
      }
    }
  }
}

void tp_s8_conv_fast_depthwise(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, cout = st->out_c;
  if (st->in_c == 1) {
    depthwise_c1(st, d);
    return;
  }
  if (st->cout_g == 1) {
    tp_s8_conv_mve_depthwise1(st, d);
    return;
  }
  if ((kk < 16 ? kk - 1 : 15) * cout > 255) {
    tp_s8_conv_portable(st, d); /* NHWC, no scratch needed */
    return;
  }
  const int32_t npos = st->out_h * st->out_w, block = st->in_c * kk;
  const uint32_t off = (uint32_t)st->input_offset;
  const uint8x16_t woffs = vmulq_n_u8(vidupq_n_u8(0, 1), (uint8_t)cout);
  int8_t *cols = (int8_t *)d->scratch;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      const int32_t ncols = npos - pos < 4 ? npos - pos : 4;
      int8_t *outs[4];
      const int8_t *c[4];
      for (int32_t j = 0; j < 4; j++) {
        const int32_t jj = j < ncols ? j : 0;
        const column cl = column_at(st, out, pos + jj);
        c[j] = cols + jj * block;
        outs[j] = cl.out;
        if (j < ncols) {
          im2col_dw_s8(st, in, cl, cols + j * block);
        }
      }
      for (int32_t oc = 0; oc < cout; oc++) {
        const int32_t x = oc / st->cout_g * kk;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, ws = 0;
        for (int32_t t = 0; t < kk; t += 16) {
          const mve_pred16_t p = vctp8q((uint32_t)(kk - t));
          const int8x16_t wv = vldrbq_gather_offset_z_s8(d->w + t * cout + oc, woffs, p);
          a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(c[0] + x + t, p), wv, p);
          a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(c[1] + x + t, p), wv, p);
          a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(c[2] + x + t, p), wv, p);
          a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(c[3] + x + t, p), wv, p);
          ws = vaddvaq_p_s8(ws, wv, p);
        }
        const uint32_t base = (d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + off * (uint32_t)ws;
        const uint32_t acc[4] = {base + (uint32_t)a0, base + (uint32_t)a1, base + (uint32_t)a2,
                                 base + (uint32_t)a3};
        int8_t *o[4] = {outs[0] + oc, outs[1] + oc, outs[2] + oc, outs[3] + oc};
        store4(st, d, oc, acc, o, ncols);
      }
    }
  }
}

const char *tp_s8_conv_fast_path_name(void) { return "mve"; }
#endif
