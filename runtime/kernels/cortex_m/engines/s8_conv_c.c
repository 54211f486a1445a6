/* The fast routines of the _nhwc int8 convolutions in portable C, for cores with neither the
 * DSP extension nor Helium (RISC-V, Cortex-M0/M3): convolutions eight columns and two out
 * channels at a time (sixteen sums in registers; on RV32 the inner loop in assembly; a last pass
 * of at most four columns four or one) over raw int8 windows, the input offset folded into
 * per-channel start values kept for a call's later bands; the quick epilogue with its shift
 * taken once per channel; 3 x 3 depthwise with a depth multiplier of 1 in place through a table
 * of taps, four channels a turn over weights laid out per group; one input channel eight out
 * channels a turn; others two columns of int16 windows. */
#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
/* Without the first instruction scheduling pass: on RV32 it hoists a block's loads ahead of its
 * multiplies and then spills the sums to the stack. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns", "no-schedule-insns")

#if !defined(TP_S8_CONV_MVE) && !defined(TP_S8_CONV_DSP)
/* Columns a pass of the convolution forms together: their windows interleaved in the scratch. */
enum { COLS = 8 };

/* The quick epilogue (epilogue_of) of one sum, for a channel whose right shift r (1..31) and
 * rounding term 2^(r-1) are at hand: rq_quick's (2 acc mult + 2^31) >> 32 is the high word of
 * the product plus the top bit of its low word (the carry of adding 2^31), two multiplies and
 * two instructions on RV32 instead of a 64-bit addition. */
static inline int8_t finish_quick(const epilogue *e, uint32_t acc, int32_t mult, int32_t half, int32_t r) {
  const int64_t p = (int64_t)(int32_t)(acc * 2u) * mult;
  const int32_t h = (int32_t)(p >> 32) + (int32_t)((uint32_t)(uint64_t)p >> 31);
  const int32_t v = (h + (h >> 31) + half) >> r;
  return (int8_t)tp_clamp_i32((int32_t)((uint32_t)v + (uint32_t)e->out_off), e->lo, e->hi);
}

/* Out channel oc of the columns o[0..n) from their sums acc[0..n). */
static inline void finish_columns(const epilogue *e, const uint32_t *acc, int32_t n, int8_t *const o[],
                                  int32_t oc, int32_t mult, int32_t shift) {
  if (e->quick) {
    const int32_t r = -shift, half = 1 << (r - 1);
    for (int32_t j = 0; j < n; j++) {
      o[j][oc] = finish_quick(e, acc[j], mult, half, r);
    }
  } else {
    for (int32_t j = 0; j < n; j++) {
      o[j][oc] = finish_e(e, acc[j], mult, shift);
    }
  }
}

/* The window of column j of a pass as raw int8 values (the input offset is in the start values),
 * K = kh * kw * Cin, every COLS-th byte (the pass's columns interleaved); a tap outside the
 * image is Cin bytes of -input_offset (an int8: the offset is -zero_point), whose terms
 * (x + offset) * w are 0. */
static void im2col_s8(const tp_s8_conv *st, const int8_t *in, column c, int8_t *col) {
  const int32_t cin = st->in_c;
  const int8_t pad = (int8_t)-st->input_offset;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        for (int32_t i = 0; i < cin; i++, col += COLS) {
          *col = pad;
        }
        continue;
      }
      const int8_t *const end2 = src + (cin & ~1);
      for (; src != end2; src += 2, col += 2 * COLS) {
        const int8_t v0 = src[0], v1 = src[1];
        col[0] = v0;
        col[COLS] = v1;
      }
      if (cin & 1) {
        *col = *src;
        col += COLS;
      }
    }
  }
}

/* Two out channels (their weights K bytes apart from w) against the eight columns of a pass
 * (their raw windows interleaved: x[8 k + j]): acc[8 c + j] += w_c . column j. Sixteen sums in
 * registers; per k two weight and eight window loads for sixteen multiply-accumulates. */
#if defined(__riscv) && __riscv_xlen == 32 && defined(__riscv_mul)
/* RV32: the loop in assembly, two k a turn (88 instructions for 32 MACs; GCC hoists a turn's
 * loads and spills the sums): the sums in s0-s11 and t3-t6, the weights in t0 and t1, a window
 * byte in t2, a product in a7; the last k of an odd K in C. */
__attribute__((noinline)) static void block2x8(const int8_t *w, int32_t K, const int8_t *x, uint32_t acc[16]) {
  const int8_t *w0 = w, *w1 = w0 + K;
  const int8_t *const end2 = w0 + (K & ~1);
  if (w0 != end2) {
#define TP_RV_COL(j, o, r0, r1)                                                                         \
  "lb t2, " #o "+" #j "(%[x])\n\tmul a7, t0, t2\n\tadd " #r0 ", " #r0 ", a7\n\tmul a7, t1, t2\n\tadd " #r1 \
  ", " #r1 ", a7\n\t"
#define TP_RV_K(o, ox)                                                                                     \
  "lb t0, " #o "(%[w0])\n\tlb t1, " #o "(%[w1])\n\t" TP_RV_COL(0, ox, s0, s8) TP_RV_COL(1, ox, s1, s9)    \
      TP_RV_COL(2, ox, s2, s10) TP_RV_COL(3, ox, s3, s11) TP_RV_COL(4, ox, s4, t3) TP_RV_COL(5, ox, s5, t4) \
          TP_RV_COL(6, ox, s6, t5) TP_RV_COL(7, ox, s7, t6)
    __asm__ volatile(
        "lw s0, 0(%[s])\n\tlw s1, 4(%[s])\n\tlw s2, 8(%[s])\n\tlw s3, 12(%[s])\n\t"
        "lw s4, 16(%[s])\n\tlw s5, 20(%[s])\n\tlw s6, 24(%[s])\n\tlw s7, 28(%[s])\n\t"
        "lw s8, 32(%[s])\n\tlw s9, 36(%[s])\n\tlw s10, 40(%[s])\n\tlw s11, 44(%[s])\n\t"
        "lw t3, 48(%[s])\n\tlw t4, 52(%[s])\n\tlw t5, 56(%[s])\n\tlw t6, 60(%[s])\n"
        "1:\n\t" TP_RV_K(0, 0) TP_RV_K(1, 8)
        "addi %[w0], %[w0], 2\n\taddi %[w1], %[w1], 2\n\taddi %[x], %[x], 16\n\t"
        "bne %[w0], %[end], 1b\n\t"
        "sw s0, 0(%[s])\n\tsw s1, 4(%[s])\n\tsw s2, 8(%[s])\n\tsw s3, 12(%[s])\n\t"
        "sw s4, 16(%[s])\n\tsw s5, 20(%[s])\n\tsw s6, 24(%[s])\n\tsw s7, 28(%[s])\n\t"
        "sw s8, 32(%[s])\n\tsw s9, 36(%[s])\n\tsw s10, 40(%[s])\n\tsw s11, 44(%[s])\n\t"
        "sw t3, 48(%[s])\n\tsw t4, 52(%[s])\n\tsw t5, 56(%[s])\n\tsw t6, 60(%[s])\n\t"
        : [w0] "+r"(w0), [w1] "+r"(w1), [x] "+r"(x)
        : [end] "r"(end2), [s] "r"(acc)
        : "memory", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t0", "t1", "t2",
          "t3", "t4", "t5", "t6", "a7");
#undef TP_RV_K
#undef TP_RV_COL
  }
  if (K & 1) {
    const int32_t q0 = w0[0], q1 = w1[0];
    for (int32_t j = 0; j < COLS; j++) {
      acc[j] += (uint32_t)(q0 * x[j]);
      acc[COLS + j] += (uint32_t)(q1 * x[j]);
    }
  }
}
#else
__attribute__((noinline)) static void block2x8(const int8_t *w, int32_t K, const int8_t *x, uint32_t acc[16]) {
  const int8_t *const w0 = w, *const w1 = w0 + K;
  for (int32_t k = 0; k < K; k++, x += COLS) {
    const int32_t q0 = w0[k], q1 = w1[k];
    for (int32_t j = 0; j < COLS; j++) {
      acc[j] += (uint32_t)(q0 * x[j]);
      acc[COLS + j] += (uint32_t)(q1 * x[j]);
    }
  }
}
#endif

/* Two out channels against the first four columns of a pass (the windows still COLS bytes a
 * k): the last pass of a call when at most four columns are left (a 3 x 3 or 6 x 6 image's). */
__attribute__((noinline)) static void block2x4(const int8_t *w, int32_t K, const int8_t *x, uint32_t acc[16]) {
  const int8_t *w0 = w, *w1 = w0 + K;
  uint32_t a00 = acc[0], a01 = acc[1], a02 = acc[2], a03 = acc[3];
  uint32_t a10 = acc[COLS], a11 = acc[COLS + 1], a12 = acc[COLS + 2], a13 = acc[COLS + 3];
  for (const int8_t *const end = w0 + K; w0 != end; w0++, w1++, x += COLS) {
    const int32_t q0 = *w0, q1 = *w1, p0 = x[0], p1 = x[1], p2 = x[2], p3 = x[3];
    a00 += (uint32_t)(q0 * p0);
    a01 += (uint32_t)(q0 * p1);
    a02 += (uint32_t)(q0 * p2);
    a03 += (uint32_t)(q0 * p3);
    a10 += (uint32_t)(q1 * p0);
    a11 += (uint32_t)(q1 * p1);
    a12 += (uint32_t)(q1 * p2);
    a13 += (uint32_t)(q1 * p3);
  }
  acc[0] = a00, acc[1] = a01, acc[2] = a02, acc[3] = a03;
  acc[COLS] = a10, acc[COLS + 1] = a11, acc[COLS + 2] = a12, acc[COLS + 3] = a13;
}

/* Two out channels against the first column of a pass (a last pass of one column). */
__attribute__((noinline)) static void block2x1(const int8_t *w, int32_t K, const int8_t *x, uint32_t acc[16]) {
  const int8_t *w0 = w, *w1 = w0 + K;
  uint32_t a0 = acc[0], a1 = acc[COLS];
  for (const int8_t *const end = w0 + K; w0 != end; w0++, w1++, x += COLS) {
    const int32_t p = x[0];
    a0 += (uint32_t)(*w0 * p);
    a1 += (uint32_t)(*w1 * p);
  }
  acc[0] = a0, acc[COLS] = a1;
}

/* One out channel against the eight columns of a pass (the last channel of an odd count). */
__attribute__((noinline)) static void block1x8(const int8_t *w, int32_t K, const int8_t *x, uint32_t acc[COLS]) {
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
  for (const int8_t *const end = w + K; w != end; w++, x += COLS) {
    const int32_t q = *w;
    a0 += (uint32_t)(q * x[0]);
    a1 += (uint32_t)(q * x[1]);
    a2 += (uint32_t)(q * x[2]);
    a3 += (uint32_t)(q * x[3]);
    a4 += (uint32_t)(q * x[4]);
    a5 += (uint32_t)(q * x[5]);
    a6 += (uint32_t)(q * x[6]);
    a7 += (uint32_t)(q * x[7]);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3, acc[4] = a4, acc[5] = a5, acc[6] = a6, acc[7] = a7;
}

/* Per out channel a start value bias + input_offset * (sum of its weights) (modulo 2^32, as the
 * sums): the raw windows' dot products then add up to the sums over x + input_offset. Columns
 * eight at a time (past the last column, a pass repeats it: its bytes are written again, the
 * same values), their raw windows interleaved; out channels two at a time, then one. */
void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w, cout = st->out_c;
  int8_t *const win = (int8_t *)d->scratch; /* 8 K + 4 Cout bytes of the 9 round_up(K, 4) + 16 Cout */
  uint32_t *const start = (uint32_t *)(win + COLS * K);
  for (int32_t oc = 0; oc < cout && !st->prepared; oc++) { /* prepared: an earlier band made them */
    const int8_t *const w = d->w + oc * K;
    uint32_t sum = 0u;
    for (int32_t k = 0; k < K; k++) {
      sum += (uint32_t)w[k];
    }
    start[oc] = (d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + (uint32_t)st->input_offset * sum;
  }
  const epilogue local = epilogue_of(st, d, K), *const ep = &local;
  const int32_t *const mult = d->mult, *const shift = d->shift;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += COLS) {
      /* a last pass of at most four columns forms four (block2x4), or one */
      const int32_t n = npos - pos < COLS ? npos - pos : COLS, ncols = n <= 4 ? 4 : COLS;
      int8_t *o[COLS];
      for (int32_t j = 0; j < ncols; j++) {
        const column c = column_at(st, out, pos + j < npos ? pos + j : npos - 1);
        im2col_s8(st, in, c, win + j);
        o[j] = c.out;
      }
      int32_t oc = 0;
      for (; oc + 2 <= cout; oc += 2) {
        uint32_t acc[2 * COLS];
        for (int32_t j = 0; j < COLS; j++) {
          acc[j] = start[oc];
          acc[COLS + j] = start[oc + 1];
        }
        if (ncols == COLS) {
          block2x8(d->w + oc * K, K, win, acc);
        } else if (n == 1) {
          block2x1(d->w + oc * K, K, win, acc);
        } else {
          block2x4(d->w + oc * K, K, win, acc);
        }
        finish_columns(ep, acc, n, o, oc, mult[oc], shift[oc]);
        finish_columns(ep, acc + COLS, n, o, oc + 1, mult[oc + 1], shift[oc + 1]);
      }
      for (; oc < cout; oc++) {
        uint32_t acc[COLS];
        for (int32_t j = 0; j < COLS; j++) {
          acc[j] = start[oc];
        }
        block1x8(d->w + oc * K, K, win, acc);
        finish_columns(ep, acc, n, o, oc, mult[oc], shift[oc]);
      }
    }
  }
}

/* Eight out channels' sums over the taps of one position inside the image (as dw_c1_acc4
 * below, for eight): per tap one input load for eight multiply-adds. */
__attribute__((noinline)) static void dw_c1_acc8(const int8_t *xr, const int8_t *wr, int32_t ny, int32_t nx,
                                                 int32_t step_y, int32_t step_x, int32_t w_row, int32_t cout,
                                                 int32_t off, uint32_t acc[8]) {
  if (ny <= 0 || nx <= 0) {
    return;
  }
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
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
      a4 += (uint32_t)(v * wp[4]);
      a5 += (uint32_t)(v * wp[5]);
      a6 += (uint32_t)(v * wp[6]);
      a7 += (uint32_t)(v * wp[7]);
      wp += cout;
    } while (wp != wend);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3, acc[4] = a4, acc[5] = a5, acc[6] = a6, acc[7] = a7;
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
      for (; oc + 8 <= cout; oc += 8) {
        uint32_t acc8[8];
        for (int32_t i = 0; i < 8; i++) {
          acc8[i] = bias != NULL ? (uint32_t)bias[oc + i] : 0u;
        }
        dw_c1_acc8(x00, w00 + oc, ky1 - ky0, kx1 - kx0, step_y, step_x, w_row, cout, off, acc8);
        for (int32_t i = 0; i < 8; i++) {
          c.out[oc + i] = finish_e(&ep, acc8[i], mult[oc + i], shift[oc + i]);
        }
      }
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

/* The sums of one column of a 3 x 3 depthwise convolution with a depth multiplier of 1, four
 * channels a turn over its groups of four: sum[c] = start[c] + x . w of channel c over the nine
 * taps (each tap's channel 0, or the padding row), the weights laid out per group as nine taps
 * of four bytes (36 bytes a group, read at fixed offsets). The nine tap pointers walk along the
 * channels in registers. */
__attribute__((noinline)) static void dw3x3_sums(const int8_t *const taps[9], const int8_t *wg, const uint32_t *start,
                                                 uint32_t *sum, int32_t groups) {
  const int8_t *t0 = taps[0], *t1 = taps[1], *t2 = taps[2], *t3 = taps[3], *t4 = taps[4], *t5 = taps[5];
  const int8_t *t6 = taps[6], *t7 = taps[7], *t8 = taps[8];
  for (int32_t g = 0; g < groups; g++, wg += 36, start += 4, sum += 4) {
    uint32_t a0 = start[0], a1 = start[1], a2 = start[2], a3 = start[3];
#define TP_TAP(tp, k)                             \
  do {                                            \
    a0 += (uint32_t)((tp)[0] * wg[4 * (k)]);      \
    a1 += (uint32_t)((tp)[1] * wg[4 * (k) + 1]);  \
    a2 += (uint32_t)((tp)[2] * wg[4 * (k) + 2]);  \
    a3 += (uint32_t)((tp)[3] * wg[4 * (k) + 3]);  \
    (tp) += 4;                                    \
  } while (0)
    TP_TAP(t0, 0);
    TP_TAP(t1, 1);
    TP_TAP(t2, 2);
    TP_TAP(t3, 3);
    TP_TAP(t4, 4);
    TP_TAP(t5, 5);
    TP_TAP(t6, 6);
    TP_TAP(t7, 7);
    TP_TAP(t8, 8);
#undef TP_TAP
    sum[0] = a0, sum[1] = a1, sum[2] = a2, sum[3] = a3;
  }
}

/* Depthwise 3 x 3 with a depth multiplier of 1 and more than one channel (the zoo's), in place:
 * per channel a start value bias + input_offset * (sum of its weights) in the scratch, the
 * weights of each group of four channels laid out tap by tap (dw3x3_sums), then the padding
 * row (C bytes of -input_offset, whose term (x + offset) . w is 0); per column a table of its
 * nine taps (fixed offsets from the first when every tap is inside), the sums of the groups of
 * four channels, the rest one by one, then the epilogue channel by channel. False (nothing
 * done) for other calls. */
static bool depthwise1_3x3(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (st->cout_g != 1 || st->in_c == 1 || st->k_h != 3 || st->k_w != 3) {
    return false;
  }
  /* 18 bytes a channel (+ 3) of the 4 round_up(9, 2) = 40 */
  const int32_t C = st->out_c, groups = C / 4;
  uint32_t *const start = (uint32_t *)d->scratch;
  uint32_t *const sum = start + C;
  int8_t *const wg = (int8_t *)(sum + C);
  int8_t *const pad = wg + 36 * groups;
  for (int32_t c = 0; c < C && !st->prepared; c++) { /* prepared: an earlier band made them */
    uint32_t total = 0u;
    for (int32_t t = 0; t < 9; t++) {
      const int8_t w = d->w[t * C + c];
      total += (uint32_t)w;
      if (c < 4 * groups) {
        wg[c / 4 * 36 + 4 * t + c % 4] = w;
      }
    }
    start[c] = (d->bias != NULL ? (uint32_t)d->bias[c] : 0u) + (uint32_t)st->input_offset * total;
    pad[c] = (int8_t)-st->input_offset; /* an int8: the offset is -zero_point */
  }
  const epilogue local = epilogue_of(st, d, 9), *const ep = &local;
  const int32_t *const mult = d->mult, *const shift = d->shift;
  int32_t offs[9];
  offsets_3x3(st, offs);
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    const int8_t *taps[9];
    TP_FOR_EACH_COLUMN_3X3(st, in, offs, pad, out, C, y0, x0, taps, {
      dw3x3_sums(taps, wg, start, sum, groups);
      for (int32_t c = 4 * groups; c < C; c++) {
        uint32_t acc = start[c];
        for (int32_t t = 0; t < 9; t++) {
          acc += (uint32_t)(taps[t][c] * d->w[t * C + c]);
        }
        sum[c] = acc;
      }
      if (ep->quick) {
        for (int32_t c = 0; c < C; c++) {
          const int32_t r = -shift[c];
          out[c] = finish_quick(ep, sum[c], mult[c], 1 << (r - 1), r);
        }
      } else {
        for (int32_t c = 0; c < C; c++) {
          out[c] = finish_e(ep, sum[c], mult[c], shift[c]);
        }
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
