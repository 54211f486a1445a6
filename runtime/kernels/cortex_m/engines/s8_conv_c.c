/* The fast routines of the _nhwc int8 convolutions in portable C, for cores with neither the
 * DSP extension nor Helium (RISC-V, Cortex-M0/M3): int16 windows (input + offset, padding 0)
 * of two columns, two out channels at a time, so GCC keeps four sums in registers. */
#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if !defined(TP_S8_CONV_MVE) && !defined(TP_S8_CONV_DSP)
/* The window of a column as int16 values x + input_offset (0 for padding), K = kh * kw * Cin. */
static void im2col_s16(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col) {
  const int32_t cin = st->in_c, off = st->input_offset;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        memset(col, 0, (size_t)cin * sizeof *col);
      } else {
        for (int32_t i = 0; i < cin; i++) {
          col[i] = (int16_t)(src[i] + off);
        }
      }
      col += cin;
    }
  }
}

void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c, ks = round_up(K, 4);
  const int32_t npos = st->out_h * st->out_w, cout = st->out_c;
  int16_t *col0 = (int16_t *)d->scratch, *col1 = col0 + ks;
  const epilogue ep = epilogue_of(st, d, K);
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const bool two = pos + 1 < npos;
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, two ? pos + 1 : pos);
      im2col_s16(st, in, c0, col0);
      if (two) {
        im2col_s16(st, in, c1, col1);
      } else {
        memcpy(col1, col0, (size_t)K * sizeof *col0);
      }
      int32_t oc = 0;
      for (; oc + 2 <= cout; oc += 2) {
        const int8_t *w0 = d->w + oc * K, *w1 = w0 + K;
        const int16_t *x0 = col0, *x1 = col1;
        const uint32_t b0 = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u;
        const uint32_t b1 = d->bias != NULL ? (uint32_t)d->bias[oc + 1] : 0u;
        uint32_t a00 = b0, a01 = b0, a10 = b1, a11 = b1;
        int32_t k = 0;
        for (; k < K; k++) {
          const int32_t wa = w0[k], wb = w1[k], p = x0[k], q = x1[k];
          a00 += (uint32_t)(wa * p);
          a01 += (uint32_t)(wa * q);
          a10 += (uint32_t)(wb * p);
          a11 += (uint32_t)(wb * q);
        }
        c0.out[oc] = finish_e(&ep, a00, d->mult[oc], d->shift[oc]);
        c0.out[oc + 1] = finish_e(&ep, a10, d->mult[oc + 1], d->shift[oc + 1]);
        if (two) {
          c1.out[oc] = finish_e(&ep, a01, d->mult[oc], d->shift[oc]);
          c1.out[oc + 1] = finish_e(&ep, a11, d->mult[oc + 1], d->shift[oc + 1]);
        }
      }
      if (oc < cout) {
        const int8_t *w0 = d->w + oc * K;
        const uint32_t b0 = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u;
        uint32_t a00 = b0, a01 = b0;
        int32_t k = 0;
        for (; k < K; k++) {
          a00 += (uint32_t)(w0[k] * col0[k]);
          a01 += (uint32_t)(w0[k] * col1[k]);
        }
        c0.out[oc] = finish_e(&ep, a00, d->mult[oc], d->shift[oc]);
        if (two) {
          c1.out[oc] = finish_e(&ep, a01, d->mult[oc], d->shift[oc]);
        }
      }
    }
  }
}


/* Four out channels' sums over the taps of one position inside the image (ny rows of nx taps
 * from xr, their weights from wr): acc[0..3] += (x + off) * w[.., 0..3]. A function of its own so
 * that the sums and pointers stay in registers. */
__attribute__((noinline)) static void dw_c1_acc4(const int8_t *xr, const int8_t *wr, int32_t ny, int32_t nx,
                                                 int32_t step_y, int32_t step_x, int32_t w_row, int32_t cout,
                                                 int32_t off, uint32_t acc[4]) {
  if (ny <= 0 || nx <= 0) {
    return;
  }
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int32_t wspan = nx * cout;
  for (int32_t y = 0; y < ny; y++, xr += step_y, wr += w_row) {
    const int8_t *xp = xr, *wp = wr, *const wend = wr + wspan;
    do {
      const int32_t v = *xp + off;
      xp += step_x;
      a0 += (uint32_t)(v * wp[0]);
      a1 += (uint32_t)(v * wp[1]);
      a2 += (uint32_t)(v * wp[2]);
      a3 += (uint32_t)(v * wp[3]);
      wp += cout;
    } while (wp != wend);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

/* Depthwise with one input channel (a first layer: Cout = depth_multiplier): out[p, oc] =
 * sum over the taps t inside the image of (x[p + t] + input_offset) * w[t, oc], the weights of
 * a tap being Cout contiguous bytes. No window is built: four out channels at a time keep
 * their sums in registers while the taps go by. */
static void depthwise_c1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  /* Locals: the stores of int8 outputs may alias anything, so fields read through st would be
   * loaded again after each. */
  const int32_t cout = st->out_c, off = st->input_offset, kh = st->k_h, kw = st->k_w;
  const int32_t dil_h = st->dil_h, dil_w = st->dil_w, in_h = st->in_h, in_w = st->in_w;
  const int32_t in_sy = st->in_sy, in_sx = st->in_sx, out_h = st->out_h, out_w = st->out_w;
  const int32_t stride_h = st->stride_h, stride_w = st->stride_w, pad_h = st->pad_h, pad_w = st->pad_w;
  const epilogue ep = epilogue_of(st, d, kh * kw);
  const int32_t step_y = in_sy * dil_h, step_x = in_sx * dil_w, w_row = kw * cout;
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    column c = {0, 0, out};
    for (int32_t oy = 0; oy < out_h; oy++) {
     c.y0 = oy * stride_h - pad_h;
     const int32_t ky0 = first_tap(c.y0, dil_h), ky1 = end_tap(c.y0, in_h, kh, dil_h);
     for (int32_t ox = 0; ox < out_w; ox++, c.out += cout) {
      c.x0 = ox * stride_w - pad_w;
      const int32_t kx0 = first_tap(c.x0, dil_w), kx1 = end_tap(c.x0, in_w, kw, dil_w);
      const int8_t *x00 = in + (c.y0 + ky0 * dil_h) * in_sy + (c.x0 + kx0 * dil_w) * in_sx;
      const int8_t *w00 = d->w + ky0 * w_row + kx0 * cout;
      int32_t oc = 0;
      for (; oc + 4 <= cout; oc += 4) {
        uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        if (bias != NULL) {
          a0 = (uint32_t)bias[oc];
          a1 = (uint32_t)bias[oc + 1];
          a2 = (uint32_t)bias[oc + 2];
          a3 = (uint32_t)bias[oc + 3];
        }
        uint32_t acc4[4] = {a0, a1, a2, a3};
        dw_c1_acc4(x00, w00 + oc, ky1 - ky0, kx1 - kx0, step_y, step_x, w_row, cout, off, acc4);
        a0 = acc4[0];
        a1 = acc4[1];
        a2 = acc4[2];
        a3 = acc4[3];
        c.out[oc] = finish_e(&ep, a0, mult[oc], shift[oc]);
        c.out[oc + 1] = finish_e(&ep, a1, mult[oc + 1], shift[oc + 1]);
        c.out[oc + 2] = finish_e(&ep, a2, mult[oc + 2], shift[oc + 2]);
        c.out[oc + 3] = finish_e(&ep, a3, mult[oc + 3], shift[oc + 3]);
      }
      for (; oc < cout; oc++) {
        uint32_t acc = bias != NULL ? (uint32_t)bias[oc] : 0u;
        const int8_t *xr = x00, *wr = w00 + oc;
        for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
          const int8_t *xp = xr, *wp = wr;
          for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
            acc += (uint32_t)((*xp + off) * *wp);
          }
        }
        c.out[oc] = finish_e(&ep, acc, mult[oc], shift[oc]);
      }
     }
    }
  }
}

void tp_s8_conv_fast_depthwise(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, kp = round_up(kk, 2), cout = st->out_c, dm = st->cout_g;
  if (st->in_c == 1) {
    depthwise_c1(st, d);
    return;
  }
  const int32_t npos = st->out_h * st->out_w, block = st->in_c * kp;
  const epilogue ep = epilogue_of(st, d, kk);
  int16_t *col0 = (int16_t *)d->scratch, *col1 = col0 + block;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const bool two = pos + 1 < npos;
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, two ? pos + 1 : pos);
      im2col_dw_s16(st, in, c0, col0);
      im2col_dw_s16(st, in, c1, col1);
      int32_t oc = 0;
      for (; oc < cout; oc++) {
        const int32_t x = oc / dm * kp;
        const int16_t *p = col0 + x, *q = col1 + x;
        const int8_t *wp = d->w + oc;
        uint32_t a0 = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u, a1 = a0;
        for (int32_t t = 0; t < kk; t++, wp += cout) {
          a0 += (uint32_t)(*wp * p[t]);
          a1 += (uint32_t)(*wp * q[t]);
        }
        c0.out[oc] = finish_e(&ep, a0, d->mult[oc], d->shift[oc]);
        if (two) {
          c1.out[oc] = finish_e(&ep, a1, d->mult[oc], d->shift[oc]);
        }
      }
    }
  }
}

const char *tp_s8_conv_fast_path_name(void) { return "portable"; }
#endif
