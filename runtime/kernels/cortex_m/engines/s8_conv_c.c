/* The fast routines of the _nhwc int8 convolutions in portable C, for cores with neither the
 * DSP extension nor Helium (RISC-V, Cortex-M0/M3): int16 windows (input + offset, padding 0);
 * convolutions four columns and two out channels at a time (eight sums in registers);
 * 3 x 3 depthwise with a depth multiplier of 1 in place through a table of taps, others two
 * columns of int16 windows. */
#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if !defined(TP_S8_CONV_MVE) && !defined(TP_S8_CONV_DSP)
/* The window of column j of a pass as int16 values x + input_offset (0 for padding), K = kh *
 * kw * Cin, every fourth value (the four columns interleaved), a tap's Cin values two a step. */
static void im2col_s16(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col) {
  const int32_t cin = st->in_c, off = st->input_offset;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        for (int32_t i = 0; i < cin; i++, col += 4) {
          *col = 0;
        }
        continue;
      }
      const int8_t *const end = src + cin;
      for (; src + 2 <= end; src += 2, col += 8) {
        col[0] = (int16_t)(src[0] + off);
        col[4] = (int16_t)(src[1] + off);
      }
      if (src != end) {
        *col = (int16_t)(*src + off);
        col += 4;
      }
    }
  }
}

/* Two out channels (their weights K bytes apart from w) against the four columns of a pass
 * (their windows interleaved: x[4 k + j]): acc[4 c + j] += w_c . column j. Eight sums in
 * registers (a function of its own so that GCC keeps them there: sixteen would not fit RV32's
 * registers with the pointers), two k a turn: per turn four weight and eight window loads for
 * sixteen multiply-accumulates. */
__attribute__((noinline)) static void block2x4(const int8_t *w, int32_t K, const int16_t *x, uint32_t acc[8]) {
  const int8_t *w0 = w, *w1 = w0 + K;
  uint32_t a00 = acc[0], a01 = acc[1], a02 = acc[2], a03 = acc[3];
  uint32_t a10 = acc[4], a11 = acc[5], a12 = acc[6], a13 = acc[7];
#define TP_STEP2x4(q0, q1, x)          \
  do {                                 \
    const int32_t p0 = (x)[0], p1 = (x)[1], p2 = (x)[2], p3 = (x)[3]; \
    a00 += (uint32_t)((q0) * p0);      \
    a01 += (uint32_t)((q0) * p1);      \
    a02 += (uint32_t)((q0) * p2);      \
    a03 += (uint32_t)((q0) * p3);      \
    a10 += (uint32_t)((q1) * p0);      \
    a11 += (uint32_t)((q1) * p1);      \
    a12 += (uint32_t)((q1) * p2);      \
    a13 += (uint32_t)((q1) * p3);      \
  } while (0)
  const int8_t *const end2 = w0 + (K & ~1);
  for (; w0 != end2; w0 += 2, w1 += 2, x += 8) {
    TP_STEP2x4((int32_t)w0[0], (int32_t)w1[0], x);
    TP_STEP2x4((int32_t)w0[1], (int32_t)w1[1], x + 4);
  }
  if (K & 1) {
    TP_STEP2x4((int32_t)w0[0], (int32_t)w1[0], x);
  }
#undef TP_STEP2x4
  acc[0] = a00, acc[1] = a01, acc[2] = a02, acc[3] = a03;
  acc[4] = a10, acc[5] = a11, acc[6] = a12, acc[7] = a13;
}

/* One out channel against the four columns of a pass (the channels past the blocks of four). */
__attribute__((noinline)) static void block1x4(const int8_t *w, int32_t K, const int16_t *x, uint32_t acc[4]) {
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (const int8_t *const end = w + K; w != end; w++, x += 4) {
    const int32_t q = *w;
    a0 += (uint32_t)(q * x[0]);
    a1 += (uint32_t)(q * x[1]);
    a2 += (uint32_t)(q * x[2]);
    a3 += (uint32_t)(q * x[3]);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/* Columns four at a time (past the last column, a pass repeats it: its bytes are written again,
 * the same values), their windows interleaved; out channels two at a time, then one. */
void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w, cout = st->out_c;
  int16_t *const win = (int16_t *)d->scratch; /* 8 K bytes of the 9 round_up(K, 4) + 16 Cout */
  const epilogue local = epilogue_of(st, d, K), *const ep = &local;
  const int32_t *const mult = d->mult, *const shift = d->shift;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      int8_t *o[4];
      for (int32_t j = 0; j < 4; j++) {
        const column c = column_at(st, out, pos + j < npos ? pos + j : npos - 1);
        im2col_s16(st, in, c, win + j);
        o[j] = c.out;
      }
      int32_t oc = 0;
      for (; oc + 2 <= cout; oc += 2) {
        uint32_t acc[8];
        for (int32_t i = 0; i < 2; i++) {
          const uint32_t bias = d->bias != NULL ? (uint32_t)d->bias[oc + i] : 0u;
          acc[4 * i] = acc[4 * i + 1] = acc[4 * i + 2] = acc[4 * i + 3] = bias;
        }
        block2x4(d->w + oc * K, K, win, acc);
        for (int32_t i = 0; i < 2; i++) {
          for (int32_t j = 0; j < 4; j++) {
            o[j][oc + i] = finish_e(ep, acc[4 * i + j], mult[oc + i], shift[oc + i]);
          }
        }
      }
      for (; oc < cout; oc++) {
        const uint32_t bias = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u;
        uint32_t acc[4] = {bias, bias, bias, bias};
        block1x4(d->w + oc * K, K, win, acc);
        for (int32_t j = 0; j < 4; j++) {
          o[j][oc] = finish_e(ep, acc[j], mult[oc], shift[oc]);
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

/* Four channels of one column of a 3 x 3 depthwise convolution with a depth multiplier of 1,
 * read in place through the column's tap table (each tap's channel 0, or a row of
 * -input_offset bytes): acc[i] += x . w of channel c + i over the nine taps (the raw inputs:
 * the offset is in the start values). */
__attribute__((noinline)) static void dw_taps4(const int8_t *const taps[9], int32_t c, const int8_t *w, int32_t C,
                                               uint32_t acc[4]) {
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (int32_t t = 0; t < 9; t++, w += C) {
    const int8_t *const x = taps[t] + c;
    a0 += (uint32_t)(x[0] * w[0]);
    a1 += (uint32_t)(x[1] * w[1]);
    a2 += (uint32_t)(x[2] * w[2]);
    a3 += (uint32_t)(x[3] * w[3]);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/* Depthwise 3 x 3 with a depth multiplier of 1 and more than one channel (the zoo's), in place:
 * per channel a start value bias + input_offset * (sum of its weights) in the scratch, then the
 * padding row (C bytes of -input_offset, whose term (x + offset) . w is 0); per column a table
 * of its nine taps (fixed offsets from the first when every tap is inside), four channels at a
 * time (dw_taps4), the rest one by one. False (nothing done) for other calls. */
static bool depthwise1_3x3(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (st->cout_g != 1 || st->in_c == 1 || st->k_h != 3 || st->k_w != 3) {
    return false;
  }
  const int32_t C = st->out_c;
  uint32_t *const start = (uint32_t *)d->scratch; /* 4 + 1 bytes a channel of the 4 round_up(9, 2) */
  int8_t *const pad = (int8_t *)(start + C);
  for (int32_t c = 0; c < C; c++) {
    uint32_t sum = 0u;
    for (int32_t t = 0; t < 9; t++) {
      sum += (uint32_t)d->w[t * C + c];
    }
    start[c] = (d->bias != NULL ? (uint32_t)d->bias[c] : 0u) + (uint32_t)st->input_offset * sum;
    pad[c] = (int8_t)-st->input_offset; /* an int8: the offset is -zero_point */
  }
  const epilogue local = epilogue_of(st, d, 9), *const ep = &local;
  int32_t offs[9];
  offsets_3x3(st, offs);
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    const int8_t *taps[9];
    TP_FOR_EACH_COLUMN_3X3(st, in, offs, pad, out, C, y0, x0, taps, {
      int32_t c = 0;
      for (; c + 4 <= C; c += 4) {
        uint32_t acc[4] = {start[c], start[c + 1], start[c + 2], start[c + 3]};
        dw_taps4(taps, c, d->w + c, C, acc);
        for (int32_t i = 0; i < 4; i++) {
          out[c + i] = finish_e(ep, acc[i], d->mult[c + i], d->shift[c + i]);
        }
      }
      for (; c < C; c++) {
        uint32_t acc = start[c];
        for (int32_t t = 0; t < 9; t++) {
          acc += (uint32_t)(taps[t][c] * d->w[t * C + c]);
        }
        out[c] = finish_e(ep, acc, d->mult[c], d->shift[c]);
      }
    });
  }
  return true;
}

void tp_s8_conv_fast_depthwise(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (depthwise1_3x3(st, d)) {
    return;
  }
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
