/* Row loops of the 3-wide convolution (see conv_rows.h). Outputs whose taps are all inside the
 * input row run four at a time with the filter and the partial sums in registers; the few at
 * the edges (within `pad` of either end) take the taps that exist one by one. The 3x3 "same"
 * convolution (padding 1) has a whole-plane routine, its edges unrolled, the filter in
 * registers for the whole plane. */
#include "portable/engines/conv_rows.h"

#include "util/nn.h"

/* The outputs [*lo, *hi) whose three taps ox - pad + {0, 1, 2} are all inside [0, in_w). */
static void interior(int32_t out_w, int32_t in_w, int32_t pad, int32_t *lo, int32_t *hi) {
  int32_t a = pad < out_w ? pad : out_w;
  int32_t b = in_w - 2 + pad; /* one past the last interior output */
  b = b > out_w ? out_w : b;
  *lo = a;
  *hi = b > a ? b : a;
}

/* One edge output: the taps of `rows` filter rows that fall inside the input. */
static void edge(float *out, const float *r, const float *w, int32_t rows, int32_t ox, int32_t in_w, int32_t pad) {
  float acc = out[ox];
  for (int32_t ky = 0; ky < rows; ky++, r += in_w, w += 3) {
    for (int32_t kx = 0; kx < 3; kx++) {
      const int32_t ix = ox - pad + kx;
      if (ix >= 0 && ix < in_w) {
        TP_MAC(acc, r[ix], w[kx]);
      }
    }
  }
  out[ox] = acc;
}

/* out[0..n) += the taps of one filter row (w0, w1, w2) over x[0..n+2). */
#define ROW_TAPS(a, x, w0, w1, w2)                                            \
  do {                                                                        \
    TP_MAC(a##0, x##0, w0), TP_MAC(a##0, x##1, w1), TP_MAC(a##0, x##2, w2);   \
    TP_MAC(a##1, x##1, w0), TP_MAC(a##1, x##2, w1), TP_MAC(a##1, x##3, w2);   \
    TP_MAC(a##2, x##2, w0), TP_MAC(a##2, x##3, w1), TP_MAC(a##2, x##4, w2);   \
    TP_MAC(a##3, x##3, w0), TP_MAC(a##3, x##4, w1), TP_MAC(a##3, x##5, w2);   \
  } while (0)

/* Loads x0..x5 from r[0..6). */
#define LOAD6(x, r) (x##0 = (r)[0], x##1 = (r)[1], x##2 = (r)[2], x##3 = (r)[3], x##4 = (r)[4], x##5 = (r)[5])

/* a + the taps of a 3x3 filter over input rows p0, p0 + in_w, p0 + 2 * in_w: one output. */
static float valid3x3_one(const float *p0, const float *w, int32_t in_w, float a) {
  const float *p1 = p0 + in_w, *p2 = p1 + in_w;
  TP_MAC(a, p0[0], w[0]), TP_MAC(a, p0[1], w[1]), TP_MAC(a, p0[2], w[2]);
  TP_MAC(a, p1[0], w[3]), TP_MAC(a, p1[1], w[4]), TP_MAC(a, p1[2], w[5]);
  TP_MAC(a, p2[0], w[6]), TP_MAC(a, p2[1], w[7]), TP_MAC(a, p2[2], w[8]);
  return a;
}

static TP_NN_NOINLINE void row3_interior(float *o, const float *r, const float *w, int32_t n) {
  const float w0 = w[0], w1 = w[1], w2 = w[2];
  for (; n >= 4; n -= 4, o += 4, r += 4) {
    float a0 = o[0], a1 = o[1], a2 = o[2], a3 = o[3];
    const float x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3], x4 = r[4], x5 = r[5];
    ROW_TAPS(a, x, w0, w1, w2);
    o[0] = a0, o[1] = a1, o[2] = a2, o[3] = a3;
  }
  for (; n > 0; n--, o++, r++) {
    float a = o[0];
    TP_MAC(a, r[0], w0), TP_MAC(a, r[1], w1), TP_MAC(a, r[2], w2);
    o[0] = a;
  }
}

static TP_NN_NOINLINE void rows3x3_interior(float *o, const float *r, const float *w, int32_t n, int32_t in_w) {
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7], w8 = w[8];
  const float *r1 = r + in_w, *r2 = r1 + in_w;
  for (; n >= 4; n -= 4, o += 4, r += 4, r1 += 4, r2 += 4) {
    float a0 = o[0], a1 = o[1], a2 = o[2], a3 = o[3];
    float x0, x1, x2, x3, x4, x5;
    LOAD6(x, r);
    ROW_TAPS(a, x, w0, w1, w2);
    LOAD6(x, r1);
    ROW_TAPS(a, x, w3, w4, w5);
    LOAD6(x, r2);
    ROW_TAPS(a, x, w6, w7, w8);
    o[0] = a0, o[1] = a1, o[2] = a2, o[3] = a3;
  }
  for (; n > 0; n--, o++, r++) {
    o[0] = valid3x3_one(r, w, in_w, o[0]);
  }
}

/* Runs `rows` (1 or 3) filter rows over a whole output row: edges, then the interior. */
static void rows(float *out, const float *r, const float *w, int32_t rows, int32_t out_w, int32_t in_w,
                 int32_t pad) {
  int32_t lo, hi;
  interior(out_w, in_w, pad, &lo, &hi);
  for (int32_t ox = 0; ox < lo; ox++) {
    edge(out, r, w, rows, ox, in_w, pad);
  }
  for (int32_t ox = hi; ox < out_w; ox++) {
    edge(out, r, w, rows, ox, in_w, pad);
  }
  if (hi > lo) {
    if (rows == 3) {
      rows3x3_interior(out + lo, r + lo - pad, w, hi - lo, in_w);
    } else {
      row3_interior(out + lo, r + lo - pad, w, hi - lo);
    }
  }
}

void tp_conv_row3(float *out, const float *r, const float *w, int32_t out_w, int32_t in_w, int32_t pad) {
  rows(out, r, w, 1, out_w, in_w, pad);
}

void tp_conv_rows3x3(float *out, const float *r, const float *w, int32_t out_w, int32_t in_w, int32_t pad) {
  rows(out, r, w, 3, out_w, in_w, pad);
}

void tp_conv_plane3x3_pad1(float *out, const float *in, const float *w, int32_t h, int32_t in_w) {
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7], w8 = w[8];
  const int32_t last = in_w - 1;
  for (int32_t oy = 0; oy < h; oy++, out += in_w) {
    const float *r1 = in + oy * in_w;
    const float *r0 = oy > 0 ? r1 - in_w : NULL;      /* the row above, if inside */
    const float *r2 = oy + 1 < h ? r1 + in_w : NULL;  /* the row below, if inside */
    float a = out[0]; /* left edge: filter columns 1 and 2 over input columns 0 and 1 */
    if (r0 != NULL) {
      TP_MAC(a, r0[0], w1), TP_MAC(a, r0[1], w2);
    }
    TP_MAC(a, r1[0], w4), TP_MAC(a, r1[1], w5);
    if (r2 != NULL) {
      TP_MAC(a, r2[0], w7), TP_MAC(a, r2[1], w8);
    }
    out[0] = a;
    a = out[last]; /* right edge: filter columns 0 and 1 over the last two input columns */
    if (r0 != NULL) {
      TP_MAC(a, r0[last - 1], w0), TP_MAC(a, r0[last], w1);
    }
    TP_MAC(a, r1[last - 1], w3), TP_MAC(a, r1[last], w4);
    if (r2 != NULL) {
      TP_MAC(a, r2[last - 1], w6), TP_MAC(a, r2[last], w7);
    }
    out[last] = a;
    /* the interior, outputs 1 .. in_w - 2, four at a time: input columns ox - 1 .. ox + 1 */
    float *o = out + 1;
    int32_t n = in_w - 2, at = 0;
    for (; n >= 4; n -= 4, o += 4, at += 4) {
      float a0 = o[0], a1 = o[1], a2 = o[2], a3 = o[3];
      float x0, x1, x2, x3, x4, x5;
      if (r0 != NULL) {
        LOAD6(x, r0 + at);
        ROW_TAPS(a, x, w0, w1, w2);
      }
      LOAD6(x, r1 + at);
      ROW_TAPS(a, x, w3, w4, w5);
      if (r2 != NULL) {
        LOAD6(x, r2 + at);
        ROW_TAPS(a, x, w6, w7, w8);
      }
      o[0] = a0, o[1] = a1, o[2] = a2, o[3] = a3;
    }
    for (; n > 0; n--, o++, at++) {
      a = o[0];
      if (r0 != NULL) {
        TP_MAC(a, r0[at], w0), TP_MAC(a, r0[at + 1], w1), TP_MAC(a, r0[at + 2], w2);
      }
      TP_MAC(a, r1[at], w3), TP_MAC(a, r1[at + 1], w4), TP_MAC(a, r1[at + 2], w5);
      if (r2 != NULL) {
        TP_MAC(a, r2[at], w6), TP_MAC(a, r2[at + 1], w7), TP_MAC(a, r2[at + 2], w8);
      }
      o[0] = a;
    }
  }
}

/* The sum over `channels` input planes (in_plane floats apart, filters 9 apart) of one output. */
static float valid3x3_sum(const float *p, const float *w, int32_t channels, uint32_t in_plane, int32_t in_w) {
  float a = 0.0f;
  for (int32_t c = 0; c < channels; c++, p += in_plane, w += 9) {
    a = valid3x3_one(p, w, in_w, a);
  }
  return a;
}

/* bias, then the clamp, on a finished sum */
#define FINISH(v)                     \
  do {                                \
    if (biased) {                     \
      v += bias;                      \
    }                                 \
    if (clamped) {                    \
      v = v < lo ? lo : v;            \
      v = hi < v ? hi : v;            \
    }                                 \
  } while (0)

#define FINISH4(a) \
  do {             \
    FINISH(a##0);  \
    FINISH(a##1);  \
    FINISH(a##2);  \
    FINISH(a##3);  \
  } while (0)

/* x0..x5 = r[0..6): on cores with TP_NN_VLDM one vldmia into s25-s30, where the caller pinned
 * x0..x5 (register variables); elsewhere six loads. */
#if TP_NN_VLDM
#define LOAD6_PINNED(x, r)                                                           \
  __asm__("vldmia %6, {s25-s30}"                                                     \
          : "=t"(x##0), "=t"(x##1), "=t"(x##2), "=t"(x##3), "=t"(x##4), "=t"(x##5)   \
          : "r"(r), "m"(*(const float(*)[6])(r)))
#else
#define LOAD6_PINNED(x, r) LOAD6(x, r)
#endif

void tp_conv_valid3x3(const tp_conv3x3_plane *job) {
  const int32_t out_h = job->out_h, out_w = job->out_w, in_w = job->in_w, channels = job->channels;
  const uint32_t in_plane = job->in_plane;
  const bool biased = job->bias != NULL, clamped = job->clamp != NULL;
  const float bias = biased ? *job->bias : 0.0f;
  const float lo = clamped ? job->clamp->lo : 0.0f, hi = clamped ? job->clamp->hi : 0.0f;
  float *out = job->out;
  int32_t oy = 0;
  for (; oy + 2 <= out_h; oy += 2, out += 2 * out_w) {
    int32_t ox = 0;
    for (; ox + 4 <= out_w; ox += 4) {
      float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, b0 = 0.0f, b1 = 0.0f, b2 = 0.0f, b3 = 0.0f;
      const float *r0 = job->in + oy * in_w + ox, *r1 = r0 + in_w, *r2 = r1 + in_w, *r3 = r2 + in_w;
      const float *wc = job->w;
      for (int32_t c = channels; c > 0; c--, r0 += in_plane, r1 += in_plane, r2 += in_plane, r3 += in_plane, wc += 9) {
#if TP_NN_VLDM
        /* the filter in one vldm, each input row's six values in another */
        register float w0 __asm__("s16"), w1 __asm__("s17"), w2 __asm__("s18"), w3 __asm__("s19"), w4 __asm__("s20");
        register float w5 __asm__("s21"), w6 __asm__("s22"), w7 __asm__("s23"), w8 __asm__("s24");
        register float x0 __asm__("s25"), x1 __asm__("s26"), x2 __asm__("s27"), x3 __asm__("s28"), x4 __asm__("s29");
        register float x5 __asm__("s30");
        __asm__("vldmia %9, {s16-s24}"
                : "=t"(w0), "=t"(w1), "=t"(w2), "=t"(w3), "=t"(w4), "=t"(w5), "=t"(w6), "=t"(w7), "=t"(w8)
                : "r"(wc), "m"(*(const float(*)[9])wc));
#else
        const float w0 = wc[0], w1 = wc[1], w2 = wc[2], w3 = wc[3], w4 = wc[4], w5 = wc[5], w6 = wc[6], w7 = wc[7],
                    w8 = wc[8];
        float x0, x1, x2, x3, x4, x5;
#endif
        LOAD6_PINNED(x, r0);
        ROW_TAPS(a, x, w0, w1, w2);
        LOAD6_PINNED(x, r1);
        ROW_TAPS(a, x, w3, w4, w5);
        ROW_TAPS(b, x, w0, w1, w2);
        LOAD6_PINNED(x, r2);
        ROW_TAPS(a, x, w6, w7, w8);
        ROW_TAPS(b, x, w3, w4, w5);
        LOAD6_PINNED(x, r3);
        ROW_TAPS(b, x, w6, w7, w8);
      }
      FINISH4(a);
      FINISH4(b);
      float *oa = out + ox, *ob = oa + out_w;
      oa[0] = a0, oa[1] = a1, oa[2] = a2, oa[3] = a3;
      ob[0] = b0, ob[1] = b1, ob[2] = b2, ob[3] = b3;
    }
    for (; ox < out_w; ox++) { /* columns past the last block of four */
      for (int32_t row = 0; row < 2; row++) {
        float v = valid3x3_sum(job->in + (oy + row) * in_w + ox, job->w, channels, in_plane, in_w);
        FINISH(v);
        out[row * out_w + ox] = v;
      }
    }
  }
  for (; oy < out_h; oy++, out += out_w) { /* an odd last row */
    for (int32_t ox = 0; ox < out_w; ox++) {
      float v = valid3x3_sum(job->in + oy * in_w + ox, job->w, channels, in_plane, in_w);
      FINISH(v);
      out[ox] = v;
    }
  }
}
