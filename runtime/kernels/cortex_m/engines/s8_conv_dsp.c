/* The fast routines of the _nhwc int8 convolutions on cores with the DSP extension (Armv7E-M
 * and Armv8-M Mainline: Cortex-M4/M7/M33): int16 windows (the inputs, padding -input_offset,
 * the offset folded into each channel's start value) of four columns (output positions), and
 * for each out channel the four columns' sums by SMLAD, two int16 products per instruction,
 * requantized as soon as they are done (depth multiplier 1 depthwise: s8_conv_dsp_dw1.c;
 * other depthwise calls: two columns, a pair of channels at a time).
 *
 * The weights stay int8 in the program: SXTB16 of a weight word gives bytes (0, 2) and of it
 * rotated by 8 bytes (1, 3), so the windows are stored in that order (window_of). */
#include <stddef.h>

#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_DSP)

/* The windows of the four columns of a pass, interleaved for dot1x4: for each group of four
 * window values (x0, x1, x2, x3) of a column, the int16 pairs (x0, x2) and (x1, x3): what
 * SXTB16 of a weight word and of it rotated by 8 multiply. A group takes eight words, the
 * (x0, x2) of columns 0-3, then their (x1, x3), so that one pointer walks all four columns. A
 * partial last group (K not a multiple of 4) keeps the same places for its values. */
enum { COLS = 4 };

static inline int32_t quad_index(int32_t k, int32_t j) {
  const int32_t r = k & 3;
  return 2 * (2 * COLS * (k >> 2) + COLS * (r & 1) + j) + (r >> 1);
}

/* Four groups of four inputs (one word each, src word-aligned) into a column's words, n4 times:
 * one LDM, then SXTB16 of each word and of it rotated by 8 (doubled by SADD16 when `dbl`), stored
 * at dst[0] and dst[COLS] of each group's eight words (19 instructions for four groups; GCC's
 * loop takes 32). */
#define WORDS4_STORE(v, i, dbl)                         \
  "sxtb16 %[t], " v "\n\t" dbl("%[t]")                  \
  "str    %[t], [%[dst], #" #i "*32]\n\t"               \
  "sxtb16 " v ", " v ", ror #8\n\t" dbl(v)              \
  "str    " v ", [%[dst], #" #i "*32+16]\n\t"
#define WORDS4_TWICE(r) "sadd16 " r ", " r ", " r "\n\t"
#define WORDS4_ONCE(r) ""
#define WORDS4(dbl)                                                                                    \
  __asm__ volatile("1:\n\t"                                                                             \
                   "ldm    %[src]!, {%[a], %[b], %[c], %[d]}\n\t" WORDS4_STORE("%[a]", 0, dbl)             \
                       WORDS4_STORE("%[b]", 1, dbl) WORDS4_STORE("%[c]", 2, dbl) WORDS4_STORE("%[d]", 3, dbl) \
                   "add    %[dst], %[dst], #128\n\t"                                                    \
                   "subs   %[n], %[n], #1\n\t"                                                          \
                   "bne    1b\n\t"                                                                      \
                   : [src] "+r"(src), [dst] "+r"(dst), [n] "+r"(n4), [a] "=&r"(a), [b] "=&r"(b),         \
                     [c] "=&r"(c), [d] "=&r"(d), [t] "=&r"(t)                                           \
                   :                                                                                    \
                   : "cc", "memory")

/* n groups of four inputs at src into a column's words (dst[0] and dst[COLS] per group, 2 COLS
 * apart): (x0, x2) by SXTB16, (x1, x3) by SXTB16 of the word rotated by 8, doubled when `dbl`:
 * four groups at a time by WORDS4 when src is word-aligned, the rest one at a time (a loop for
 * each `dbl`, so that the test is not made per word). */
static inline void words_of(const int8_t *src, int32_t n, uint32_t *dst, bool dbl) {
  int32_t n4 = ((uintptr_t)src & 3u) == 0u ? n >> 2 : 0;
  n -= 4 * n4;
  if (n4 > 0) {
    /* LDM fills its registers in ascending order: a-d are fixed, ascending. */
    register uint32_t a __asm__("r4"), b __asm__("r5"), c __asm__("r6"), d __asm__("r7");
    uint32_t t;
    if (dbl) {
      WORDS4(WORDS4_TWICE);
    } else {
      WORDS4(WORDS4_ONCE);
    }
  }
  if (dbl) {
    for (int32_t i = 0; i < n; i++, src += 4, dst += 2 * COLS) {
      const uint32_t w = load32(src);
      const int16x2_t e = __sxtb16((int8x4_t)w), o = sxtb16_ror8(w);
      dst[0] = (uint32_t)__sadd16(e, e);
      dst[COLS] = (uint32_t)__sadd16(o, o);
    }
    return;
  }
  for (int32_t i = 0; i < n; i++, src += 4, dst += 2 * COLS) {
    const uint32_t w = load32(src);
    dst[0] = (uint32_t)__sxtb16((int8x4_t)w);
    dst[COLS] = (uint32_t)sxtb16_ror8(w);
  }
}
#undef WORDS4
#undef WORDS4_ONCE
#undef WORDS4_TWICE
#undef WORDS4_STORE

/* The window of a pass whose four columns are K contiguous bytes each, one after the other (a
 * 1x1 convolution with stride 1 and no padding over rows stored one after the other: columns
 * pos..pos+3 are input pixels pos..pos+3), `groups` = K / 4 groups: each group's four words
 * (one per column) widened into its eight window words and stored by one STM (15 instructions
 * a group, 23 doubled; the column-by-column route takes 19-27 a column's word plus each
 * column's set-up). r0 src, r1 K, r2 dst, r3 groups; lr src + 2 K; r4-r7 the columns' words,
 * then their (x0, x2) halves; r8-r11 their (x1, x3) halves. */
#define PW_WINDOW(name, twice)                                                                   \
  __attribute__((naked, noinline)) static void name(const int8_t *src, int32_t K, uint32_t *dst,    \
                                                    int32_t groups) {                               \
    (void)src;                                                                                      \
    (void)K;                                                                                        \
    (void)dst;                                                                                      \
    (void)groups;                                                                                   \
    __asm__ volatile("push   {r4-r11, lr}\n\t"                                                        \
                     "add    lr, r0, r1, lsl #1\n\t"                                                  \
                     "1:\n\t"                                                                         \
                     "ldr    r5, [r0, r1]\n\t"                                                        \
                     "ldr    r4, [r0], #4\n\t"                                                        \
                     "ldr    r7, [lr, r1]\n\t"                                                        \
                     "ldr    r6, [lr], #4\n\t"                                                        \
                     "sxtb16 r8, r4, ror #8\n\t"                                                      \
                     "sxtb16 r9, r5, ror #8\n\t"                                                      \
                     "sxtb16 r10, r6, ror #8\n\t"                                                     \
                     "sxtb16 r11, r7, ror #8\n\t"                                                     \
                     "sxtb16 r4, r4\n\t"                                                              \
                     "sxtb16 r5, r5\n\t"                                                              \
                     "sxtb16 r6, r6\n\t"                                                              \
                     "sxtb16 r7, r7\n\t" twice                                                        \
                     "stmia  r2!, {r4-r11}\n\t"                                                       \
                     "subs   r3, r3, #1\n\t"                                                          \
                     "bne    1b\n\t"                                                                  \
                     "pop    {r4-r11, pc}\n\t");                                                      \
  }
#define PW_TWICE(r) "sadd16 " r ", " r ", " r "\n\t"
PW_WINDOW(pw_window, "")
PW_WINDOW(pw_window_twice, PW_TWICE("r4") PW_TWICE("r5") PW_TWICE("r6") PW_TWICE("r7") PW_TWICE("r8")
                            PW_TWICE("r9") PW_TWICE("r10") PW_TWICE("r11"))
#undef PW_TWICE
#undef PW_WINDOW


/* A column's K inputs, Cin not a multiple of 4, gathered into dst row of taps by row of taps
 * (NHWC: a row inside the image is one run of kw Cin bytes), padding as the raw input
 * -input_offset (an int8: the offset is -zero_point); then zeros up to a multiple of 4 (their
 * term 0 . w is 0: the routines may read the last group whole). */
static void gather_column(const tp_s8_conv *st, const int8_t *in, column c, int8_t *dst) {
  const int32_t cin = st->in_c, run = st->k_w * cin, K = st->k_h * run;
  const int8_t raw_pad = (int8_t)-st->input_offset;
  const bool cols_inside = row_run_inside(st, c);
  int8_t *const end = dst + K;
  for (int32_t ky = 0; ky < st->k_h; ky++, dst += run) {
    const int32_t iy = c.y0 + ky * st->dil_h;
    if (iy < 0 || iy >= st->in_h) {
      fill_bytes(dst, raw_pad, run);
      continue;
    }
    const int8_t *const row = in + iy * st->in_sy;
    if (cols_inside) {
      copy_bytes(dst, row + c.x0 * st->in_sx, run);
      continue;
    }
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int32_t ix = c.x0 + kx * st->dil_w;
      if (ix >= 0 && ix < st->in_w) {
        copy_bytes(dst + kx * cin, row + ix * st->in_sx, cin);
      } else {
        fill_bytes(dst + kx * cin, raw_pad, cin);
      }
    }
  }
  for (int32_t k = K; k < round_up(K, 4); k++) {
    end[k - K] = 0;
  }
}

/* gather_column for a column whose taps all lie inside the image (a first layer's inner
 * columns: Cin 1-3, kw Cin bytes a row of taps): each row of taps but the last copied a word at a
 * time (unaligned words), its last word running up to 3 bytes past the row's run, which the next
 * row's copy overwrites (those bytes are still inside the input: the next row of taps starts at
 * least 3 bytes further, `row_step` >= 3, and a run of at least 3 bytes keeps the writes within
 * the K bytes); the last row word by word then byte by byte, and the
 * zeros up to a multiple of 4. About 8 instructions a word against gather_column's per-tap route
 * (kws's and resnet8's first layers: 3 rows of 9 bytes). */
static void gather_inside(const tp_s8_conv *st, const int8_t *src, int8_t *dst) {
  const int32_t run = st->k_w * st->in_c, K = st->k_h * run, row_step = st->dil_h * st->in_sy;
  const int32_t words = (run + 3) >> 2;
  int8_t *const end = dst + K;
  for (int32_t ky = 1; ky < st->k_h; ky++, src += row_step, dst += run) {
    for (int32_t i = 0; i < words; i++) {
      const uint32_t v = load32(src + 4 * i);
      memcpy(dst + 4 * i, &v, sizeof v);
    }
  }
  copy_bytes(dst, src, run);
  for (int32_t k = K; k < round_up(K, 4); k++) {
    end[k - K] = 0;
  }
}

/* Column j of the pass: the raw inputs x (the input offset is in each channel's start value:
 * (x + offset) . w = x . w + offset . sum(w)), -input_offset for padding (its term is then 0),
 * doubled when `dbl` (the quick epilogue's operand; |x| <= 128 and |offset| <= 128, so twice
 * either fits int16). For Cin a multiple of 4 a word of four inputs gives (x0, x2) by SXTB16
 * and (x1, x3) by SXTB16 of it rotated by 8, read in place; otherwise the column is gathered
 * into `stage` first (gather_column). */
__attribute__((always_inline)) static inline void window_of(const tp_s8_conv *st, const int8_t *in, column c,
                                                           uint32_t *quad, int32_t j, bool dbl,
                      int8_t *stage) {
  const int32_t cin = st->in_c;
  if (cin % 4 != 0) {
    if (column_inside(st, c) && st->dil_h * st->in_sy >= 3 && st->k_w * cin >= 3) {
      gather_inside(st, in + c.y0 * st->in_sy + c.x0 * st->in_sx, stage);
    } else {
      gather_column(st, in, c, stage);
    }
    words_of(stage, (st->k_h * st->k_w * cin + 3) >> 2, quad + j, dbl);
    return;
  }
  if (column_inside(st, c)) {
    /* Every tap inside, a row of taps one run of kw Cin bytes. */
    const int32_t run = st->k_w * cin, row_step = st->dil_h * st->in_sy;
    const int8_t *src = in + c.y0 * st->in_sy + c.x0 * st->in_sx;
    uint32_t *dst = quad + j;
    for (int32_t ky = 0; ky < st->k_h; ky++, src += row_step, dst += 2 * run) {
      words_of(src, run >> 2, dst, dbl);
    }
    return;
  }
  const int32_t pad = -st->input_offset * (dbl ? 2 : 1);
  const uint32_t pad2 = (uint32_t)(uint16_t)pad * 0x10001u;
  uint32_t *dst = quad + j;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        for (int32_t i = 0; i < cin; i += 4, dst += 2 * COLS) {
          dst[0] = pad2;
          dst[COLS] = pad2;
        }
      } else {
        words_of(src, cin >> 2, dst, dbl);
        dst += 2 * cin;
      }
    }
  }
}

/* Out channel oc's bytes of the four columns from their sums s (any epilogue: finish_e). */
__attribute__((always_inline)) static inline void out4(const epilogue *e, int32_t mult, int32_t shift,
                                                        const int32_t s[COLS], int8_t *o0, int8_t *o1, int8_t *o2,
                                                        int8_t *o3) {
  *o0 = finish_e(e, (uint32_t)s[0], mult, shift);
  *o1 = finish_e(e, (uint32_t)s[1], mult, shift);
  *o2 = finish_e(e, (uint32_t)s[2], mult, shift);
  *o3 = finish_e(e, (uint32_t)s[3], mult, shift);
}

/* Out channel oc's bytes of two columns by finish_e (depthwise routines below). */
__attribute__((always_inline)) static inline void finish2(const epilogue *e, int32_t mult, int32_t shift,
                                                          uint32_t a0, uint32_t a1, int8_t *o0, int8_t *o1) {
  *o0 = finish_e(e, a0, mult, shift);
  *o1 = finish_e(e, a1, mult, shift);
}

/* One out channel's sums of the four columns over n4 groups of four window values: s[j] +=
 * weights w . column j (quad as window_of lays it out); *wp moves past the bytes read. 15
 * instructions per 16 multiply-accumulates (one weight word, widened twice, meets four
 * columns), two groups a turn of the loop; written out because GCC spills this loop's
 * pointers at -Os. */
__attribute__((always_inline)) static inline void dot1x4(const int8_t **wp, const uint32_t *quad, int32_t n4,
                                                         int32_t s[COLS]) {
  const int8_t *pa = *wp;
  const uint32_t *x = quad;
  int32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3], n = n4 >> 1;
  uint32_t va, t, x0, x1;
#define STEP                                            \
  "ldr    %[va], [%[pa]], #4\n\t"                      \
  "ldrd   %[x0], %[x1], [%[x]], #8\n\t"                \
  "sxtb16 %[t], %[va]\n\t"                             \
  "smlad  %[s0], %[t], %[x0], %[s0]\n\t"               \
  "smlad  %[s1], %[t], %[x1], %[s1]\n\t"               \
  "ldrd   %[x0], %[x1], [%[x]], #8\n\t"                \
  "smlad  %[s2], %[t], %[x0], %[s2]\n\t"               \
  "smlad  %[s3], %[t], %[x1], %[s3]\n\t"               \
  "ldrd   %[x0], %[x1], [%[x]], #8\n\t"                \
  "sxtb16 %[t], %[va], ror #8\n\t"                     \
  "smlad  %[s0], %[t], %[x0], %[s0]\n\t"               \
  "smlad  %[s1], %[t], %[x1], %[s1]\n\t"               \
  "ldrd   %[x0], %[x1], [%[x]], #8\n\t"                \
  "smlad  %[s2], %[t], %[x0], %[s2]\n\t"               \
  "smlad  %[s3], %[t], %[x1], %[s3]\n\t"
  /* An odd group first, then two groups a turn of the loop (15 + 15 + 2 instructions). */
  if (n4 & 1) {
    __asm__ volatile(STEP
                     : [pa] "+r"(pa), [x] "+r"(x), [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3),
                       [va] "=&r"(va), [t] "=&r"(t), [x0] "=&r"(x0), [x1] "=&r"(x1)
                     :
                     : "memory");
  }
  if (n > 0) {
    __asm__ volatile("1:\n\t" STEP STEP
                     "subs   %[n], %[n], #1\n\t"
                     "bne    1b\n\t"
                     : [pa] "+r"(pa), [x] "+r"(x), [n] "+r"(n), [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2),
                       [s3] "+r"(s3), [va] "=&r"(va), [t] "=&r"(t), [x0] "=&r"(x0), [x1] "=&r"(x1)
                     :
                     : "cc", "memory");
  }
#undef STEP
  *wp = pa;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}

/* Every out channel of the four columns of a pass (their windows interleaved in `quad`) with
 * any epilogue, one channel at a time: its weights are K contiguous bytes (OHWI), four at a
 * time by SMLAD, the rest one by one; its sums start from its record's start value (rec, four
 * words a channel); o[j] is column j's first out byte. */
__attribute__((noinline)) static void conv_quads(const epilogue *ep, const uint32_t *rec, const tp_s8_conv_data *d,
                                                 int32_t cout, int32_t K, const uint32_t *quad,
                                                 int8_t *const o[COLS]) {
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t *const mult = d->mult, *const shift = d->shift;
  const int32_t n4 = K >> 2;
  const int16_t *const x16 = (const int16_t *)(const void *)quad;
  int8_t *const o0 = o[0], *const o1 = o[1], *const o2 = o[2], *const o3 = o[3];
  const int8_t *w = d->w;
  for (int32_t oc = 0; oc < cout; oc++, rec += 4) {
    int32_t s[COLS] = {(int32_t)rec[0], (int32_t)rec[0], (int32_t)rec[0], (int32_t)rec[0]};
    if (n4 > 0) {
      dot1x4(&w, quad, n4, s);
    }
    for (int32_t k = n4 * 4; k < K; k++, w++) {
      for (int32_t j = 0; j < COLS; j++) {
        s[j] = (int32_t)((uint32_t)s[j] + (uint32_t)(*w * x16[quad_index(k, j)]));
      }
    }
    out4(e, mult[oc], shift[oc], s, o0 + oc, o1 + oc, o2 + oc, o3 + oc);
  }
}

/* Every out channel of a pass's first `ncols` columns (1 or 2: a call's last pass when its out
 * positions are not a multiple of four, e.g. vww's 3 x 3 maps, kws's 125 positions), from the
 * window and records the four-column routines read (`dbl`: window and start values doubled,
 * halved back here exactly: |sum| < 2^29 with the quick epilogue), by finish_e: per group of four
 * window values one weight word, two SXTB16 and ncols pairs of SMLAD, instead of a four-column
 * pass of which ncols columns count. */
__attribute__((always_inline)) static inline void conv_narrow(const epilogue *ep, const uint32_t *rec,
                                                              const tp_s8_conv_data *d, int32_t cout, int32_t K,
                                                              const uint32_t *quad, int8_t *const o[COLS],
                                                              int32_t ncols, bool dbl) {
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t *const mult = d->mult, *const shift = d->shift;
  const int32_t n4 = K >> 2;
  const int16_t *const x16 = (const int16_t *)(const void *)quad;
  int8_t *const o0 = o[0], *const o1 = ncols == 2 ? o[1] : o[0];
  const int8_t *w = d->w;
  for (int32_t oc = 0; oc < cout; oc++, rec += 4) {
    uint32_t s0 = rec[0], s1 = rec[0];
    const uint32_t *x = quad;
    for (int32_t g = 0; g < n4; g++, w += 4, x += 2 * COLS) {
      const uint32_t v = load32(w);
      const int16x2_t e0 = __sxtb16((int8x4_t)v), e1 = sxtb16_ror8(v);
      s0 = (uint32_t)__smlad(e0, (int16x2_t)x[0], (int32_t)s0);
      s0 = (uint32_t)__smlad(e1, (int16x2_t)x[COLS], (int32_t)s0);
      if (ncols == 2) {
        s1 = (uint32_t)__smlad(e0, (int16x2_t)x[1], (int32_t)s1);
        s1 = (uint32_t)__smlad(e1, (int16x2_t)x[COLS + 1], (int32_t)s1);
      }
    }
    for (int32_t k = n4 * 4; k < K; k++, w++) {
      s0 += (uint32_t)(*w * x16[quad_index(k, 0)]);
      if (ncols == 2) {
        s1 += (uint32_t)(*w * x16[quad_index(k, 1)]);
      }
    }
    if (dbl) {
      s0 = (uint32_t)((int32_t)s0 >> 1);
      s1 = (uint32_t)((int32_t)s1 >> 1);
    }
    o0[oc] = finish_e(e, s0, mult[oc], shift[oc]);
    if (ncols == 2) {
      o1[oc] = finish_e(e, s1, mult[oc], shift[oc]);
    }
  }
}

/* A call's last pass of `left` (1 or 2) columns from position pos: their windows, then
 * conv_narrow (out of tp_s8_conv_fast_conv's loop: its stack frame stays as it was). */
__attribute__((noinline)) static void narrow_pass(const tp_s8_conv *st, const tp_s8_conv_data *d, const epilogue *ep,
                                                  const uint32_t *rec, const int8_t *in, int8_t *out, int32_t pos,
                                                  int32_t left, bool dbl, int8_t *stage) {
  uint32_t *const quad = (uint32_t *)d->scratch;
  const int32_t K = st->k_h * st->k_w * st->in_c;
  int8_t *o[COLS] = {NULL, NULL, NULL, NULL};
  for (int32_t j = 0; j < left; j++) {
    const column c = column_at(st, out, pos + j);
    window_of(st, in, c, quad, j, dbl, stage);
    o[j] = c.out;
  }
  if (left == 1) {
    conv_narrow(ep, rec, d, st->out_c, K, quad, o, 1, dbl);
  } else {
    conv_narrow(ep, rec, d, st->out_c, K, quad, o, 2, dbl);
  }
}

/* conv_quads for the zoo's case, the quick epilogue clamped to all of int8, as one assembly
 * routine: the C version keeps its four sums in memory between the channel loop and the SMLAD
 * loop, this one keeps every value in registers. In the SMLAD loop: r0 the arguments, r1 the
 * weights, r2 the window, r3 the turn count, r4-r7 the sums, r8-r11 four window words (one LDM),
 * r12 a weight word and lr its widened halves; outside it r12 is the records and lr the out byte
 * of column 0 (on the stack meanwhile). 13 instructions a group of four window values (one LDR
 * of four weights, two SXTB16, two LDM of four window words, eight SMLAD), four groups a turn
 * of the loop (+ 2); a channel's groups beyond a multiple of four are the first turn's last
 * steps (the loop is entered at step `skip`, its address set up once a call), and 43
 * instructions a channel outside the loop. It reads each channel's weights in whole groups of
 * four: with K not a multiple of 4 the window's last group ends in zeros (gather_column) and
 * the bytes read past a channel are its successor's, so the caller leaves the last channel to
 * conv_quads (its bytes past K are past the tensor). */
typedef struct quads_args {
  const int8_t *w;       /* the first channel's K weights; the next channel's follow */
  const uint32_t *quad;  /* the four columns' window (window_of) */
  const uint32_t *rec;   /* four words a channel: start value, multiplier, rounding term, shift */
  int8_t *out;           /* column 0's out byte of the first channel */
  int32_t d1, d2, d3;    /* columns 1-3's out bytes from column 0's */
  const uint32_t *rec_end; /* past the last channel's record */
  int32_t turns;         /* ceil(groups / 4), groups = round_up(K, 4) / 4: turns of the loop */
  int32_t skip;          /* (4 - groups % 4) % 4: the steps the first turn skips */
  int32_t back;          /* round_up(K, 4) - K: the weight bytes read past each channel */
  uint32_t entry;        /* the routine's: the address (Thumb bit set) of step `skip` */
} quads_args;

#define QA_W 0
#define QA_QUAD 4
#define QA_REC 8
#define QA_OUT 12
#define QA_D1 16
#define QA_D2 20
#define QA_D3 24
#define QA_REC_END 28
#define QA_TURNS 32
#define QA_SKIP 36
#define QA_BACK 40
#define QA_ENTRY 44
_Static_assert(offsetof(quads_args, quad) == QA_QUAD && offsetof(quads_args, rec) == QA_REC &&
                   offsetof(quads_args, out) == QA_OUT && offsetof(quads_args, d1) == QA_D1 &&
                   offsetof(quads_args, d2) == QA_D2 && offsetof(quads_args, d3) == QA_D3 &&
                   offsetof(quads_args, rec_end) == QA_REC_END && offsetof(quads_args, turns) == QA_TURNS &&
                   offsetof(quads_args, skip) == QA_SKIP &&
                   offsetof(quads_args, back) == QA_BACK && offsetof(quads_args, entry) == QA_ENTRY,
               "quads_sat's offsets");
#define QA_STR_(x) #x
#define QA_STR(x) QA_STR_(x)
#define QA(field) "[r0, #" QA_STR(QA_##field) "]"

/* One group of four window values into the four sums (fixed registers): the weight word's
 * bytes (0, 2) against the columns' (x0, x2) words, then its bytes (1, 3) against (x1, x3). */
#define QA_STEP                                     \
  "ldr    r12, [r1], #4\n\t"                        \
  "ldm    r2!, {r8-r11}\n\t"                        \
  "sxtb16 lr, r12\n\t"                              \
  "smlad  r4, lr, r8, r4\n\t"                       \
  "smlad  r5, lr, r9, r5\n\t"                       \
  "smlad  r6, lr, r10, r6\n\t"                      \
  "smlad  r7, lr, r11, r7\n\t"                      \
  "ldm    r2!, {r8-r11}\n\t"                        \
  "sxtb16 lr, r12, ror #8\n\t"                      \
  "smlad  r4, lr, r8, r4\n\t"                       \
  "smlad  r5, lr, r9, r5\n\t"                       \
  "smlad  r6, lr, r10, r6\n\t"                      \
  "smlad  r7, lr, r11, r7\n\t"

/* The quick epilogue (rq_record) of sum register `s` into r3: multiplier r8, rounding term r9
 * (the out zero point folded in), shift r10. */
#define QA_RQ(s)                                    \
  "smmulr r3, " s ", r8\n\t"                        \
  "add    r3, r3, r3, asr #31\n\t"                  \
  "add    r3, r3, r9\n\t"                           \
  "asr    r3, r3, r10\n\t"                          \
  "ssat   r3, #8, r3\n\t"

#define QUADS_SAT(name, twice)                                                                       \
  __attribute__((naked, noinline)) static void name(quads_args *a) {                                        \
    (void)a;                                                                                                \
    __asm__ volatile("push   {r4-r11, lr}\n\t"                                                                \
                   "ldr    r3, " QA(SKIP) "\n\t"                                                              \
                   "adr.w  r2, 30f\n\t"                                                                       \
                   "cmp    r3, #1\n\t"                                                                        \
                   "it     eq\n\t"                                                                            \
                   "adreq.w r2, 31f\n\t"                                                                      \
                   "cmp    r3, #2\n\t"                                                                        \
                   "it     eq\n\t"                                                                            \
                   "adreq.w r2, 32f\n\t"                                                                      \
                   "cmp    r3, #3\n\t"                                                                        \
                   "it     eq\n\t"                                                                            \
                   "adreq.w r2, 33f\n\t"                                                                      \
                   "orr    r2, r2, #1\n\t"                                                                    \
                   "str    r2, " QA(ENTRY) "\n\t"                                                             \
                   "ldr    r1, " QA(W) "\n\t"                                                                 \
                   "ldr    r12, " QA(REC) "\n\t"                                                              \
                   "ldr    lr, " QA(OUT) "\n\t"                                                               \
                   "1:\n\t"                                                                                   \
                   "ldr    r4, [r12], #16\n\t"                                                                \
                   "mov    r5, r4\n\t"                                                                        \
                   "mov    r6, r4\n\t"                                                                        \
                   "mov    r7, r4\n\t"                                                                        \
                   "push   {r12, lr}\n\t"                                                                     \
                   "ldr    r2, " QA(QUAD) "\n\t"                                                              \
                   "ldr    r3, " QA(TURNS) "\n\t"                                                             \
                   "ldr    pc, " QA(ENTRY) "\n\t"                                                             \
                   "30:\n\t" QA_STEP "31:\n\t" QA_STEP "32:\n\t" QA_STEP "33:\n\t" QA_STEP                    \
                   "subs   r3, r3, #1\n\t"                                                                    \
                   "bne    30b\n\t"                                                                           \
                   "pop    {r12, lr}\n\t" twice                                                               \
                   "ldr    r3, " QA(BACK) "\n\t"                                                              \
                   "sub    r1, r1, r3\n\t"                                                                    \
                   "ldmdb  r12, {r8, r9, r10}\n\t"                                                            \
                   QA_RQ("r4")                                                                                \
                   "strb   r3, [lr]\n\t"                                                                      \
                   "ldr    r2, " QA(D1) "\n\t" QA_RQ("r5")                                                    \
                   "strb   r3, [lr, r2]\n\t"                                                                  \
                   "ldr    r2, " QA(D2) "\n\t" QA_RQ("r6")                                                    \
                   "strb   r3, [lr, r2]\n\t"                                                                  \
                   "ldr    r2, " QA(D3) "\n\t" QA_RQ("r7")                                                    \
                   "strb   r3, [lr, r2]\n\t"                                                                  \
                   "add    lr, lr, #1\n\t"                                                                    \
                   "ldr    r3, " QA(REC_END) "\n\t"                                                           \
                   "cmp    r12, r3\n\t"                                                                       \
                   "bne    1b\n\t"                                                                            \
                   "pop    {r4-r11, pc}\n\t");                                                                \
  }
/* The sums doubled in the epilogue (the window and start values plain), or already doubled. */
#define QA_TWICE "add    r4, r4, r4\n\tadd    r5, r5, r5\n\tadd    r6, r6, r6\n\tadd    r7, r7, r7\n\t"
QUADS_SAT(quads_sat_twice, QA_TWICE)
QUADS_SAT(quads_sat, "")
#undef QA_TWICE
#undef QUADS_SAT
#undef QA_RQ
#undef QA_STEP
#undef QA

/* Every out channel of a pass with the quick epilogue clamped to all of int8: quads_sat (or
 * quads_sat_twice when the sums are doubled in the epilogue); with K not a multiple of 4 the
 * last channel in a second call, from its weights copied into `spare` (round_up(K, 4) bytes;
 * quads_sat would read up to 3 bytes past the weights). */
static void quads_sat_all(const uint32_t *rec, const tp_s8_conv_data *d, int32_t cout,
                          int32_t K, const uint32_t *quad, int8_t *const o[COLS], bool twice, int8_t *spare) {
  const int32_t groups = (K + 3) >> 2, last = K % 4 != 0 ? cout - 1 : cout;
  quads_args a = {d->w,
                  quad,
                  rec,
                  o[0],
                  (int32_t)(o[1] - o[0]),
                  (int32_t)(o[2] - o[0]),
                  (int32_t)(o[3] - o[0]),
                  rec + 4 * last,
                  (groups + 3) >> 2,
                  (4 - (groups & 3)) & 3,
                  4 * groups - K,
                  0u};
  void (*const routine)(quads_args *) = twice ? quads_sat_twice : quads_sat;
  if (last > 0) {
    routine(&a);
  }
  if (last < cout) {
    copy_bytes(spare, d->w + last * K, K); /* the bytes after: any (the window's are 0 there) */
    a.w = spare;
    a.rec = rec + 4 * last;
    a.out = o[0] + last;
    a.rec_end = a.rec + 4;
    routine(&a);
  }
}

/* The sum of n int8 weights: SXTAB16 adds bytes 0 and 2 of a word, then bytes 1 and 3, into the
 * two int16 halves of a chunk's sum (128 words a chunk: each half takes at most 256 bytes,
 * within int16), SMLAD with (1, 1) adds the halves; the bytes past the last word one by one.
 * Word-aligned weights go four words a turn (one LDM, eight SXTAB16 and the loop: 11
 * instructions, 2.75 a word), the others a word a turn (5 a word; two SMLAD and two SXTB16
 * took 7). Every call of a convolution sums all its weights: 0.25 M instructions of vww_int8. */
__attribute__((noinline)) static uint32_t weight_sum(const int8_t *w, int32_t n) {
  int32_t s = 0, k = 0;
  while (k + 4 <= n) {
    const int32_t words = (n - k) >> 2, chunk = words < 128 ? words : 128;
    const int8_t *const end = w + k + 4 * chunk;
    uint32_t halves = 0u;
    const int8_t *p = w + k;
    int32_t quads = ((uintptr_t)p & 3u) == 0u ? chunk >> 2 : 0;
    if (quads > 0) {
      /* LDM fills its registers in ascending order: a-d are fixed, ascending. */
      register uint32_t a __asm__("r4"), b __asm__("r5"), c __asm__("r6"), e __asm__("r7");
      __asm__ volatile("1:\n\t"
                       "ldm     %[p]!, {%[a], %[b], %[c], %[e]}\n\t"
                       "sxtab16 %[h], %[h], %[a]\n\t"
                       "sxtab16 %[h], %[h], %[a], ror #8\n\t"
                       "sxtab16 %[h], %[h], %[b]\n\t"
                       "sxtab16 %[h], %[h], %[b], ror #8\n\t"
                       "sxtab16 %[h], %[h], %[c]\n\t"
                       "sxtab16 %[h], %[h], %[c], ror #8\n\t"
                       "sxtab16 %[h], %[h], %[e]\n\t"
                       "sxtab16 %[h], %[h], %[e], ror #8\n\t"
                       "subs    %[q], %[q], #1\n\t"
                       "bne     1b\n\t"
                       : [p] "+r"(p), [q] "+r"(quads), [h] "+r"(halves), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c),
                         [e] "=&r"(e)
                       :
                       : "cc", "memory");
    }
    for (; p < end; p += 4) {
      const uint32_t v = load32(p);
      __asm__("sxtab16 %0, %0, %1\n\t"
              "sxtab16 %0, %0, %1, ror #8"
              : "+r"(halves)
              : "r"(v));
    }
    s = __smlad((int16x2_t)halves, (int16x2_t)0x00010001, s);
    k += 4 * chunk;
  }
  for (; k < n; k++) {
    s += w[k];
  }
  return (uint32_t)s;
}

/* One group: columns four at a time (past the last column, a pass repeats it: its bytes are
 * written again, the same values). */
void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w;
  uint32_t *const quad = (uint32_t *)d->scratch;
  const epilogue ep = epilogue_of(st, d, K);
  /* Per out channel, after the window (tp_s8_conv_scratch_bytes): its start value (bias +
   * input_offset * sum of its weights, doubled with the quick epilogue) and the quick
   * epilogue's record. */
  uint32_t *const rec = quad + 2 * round_up(K, 4);
  /* round_up(K, 4) bytes: a column's K inputs gathered (window_of), and once the window is
   * built, quads_sat_all's copy of the last channel's weights. */
  int8_t *const stage = (int8_t *)(rec + 4 * st->out_c);
  /* Two copies of the loops (flash): the quick epilogue clamped to all of int8 (the zoo's), and
   * any other. */
  const bool quick = ep.quick && rq_folds(d, st->out_c, &ep);
  /* The quick epilogue's doubled operand: doubling the window costs two instructions a word of
   * it per column, doubling the sums one an out channel: the window when Cout >= K / 2. */
  const bool dbl_window = quick && 2 * st->out_c >= K;
  const bool runs = pointwise_runs(st) && st->in_c % 4 == 0;
  for (int32_t c = 0; c < st->out_c && !st->prepared; c++) {
    const uint32_t sum = weight_sum(d->w + c * K, K);
    const uint32_t start = (d->bias != NULL ? (uint32_t)d->bias[c] : 0u) + (uint32_t)st->input_offset * sum;
    rec[4 * c] = start * (dbl_window ? 2u : 1u);
    if (quick) {
      rq_record(d, c, st->output_offset, rec + 4 * c + 1);
    }
  }
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += COLS) {
      int8_t *o[COLS];
      if (runs && pos + COLS <= npos) {
        (dbl_window ? pw_window_twice : pw_window)(in + pos * K, K, quad, K >> 2);
        for (int32_t j = 0; j < COLS; j++) {
          o[j] = out + (pos + j) * st->out_c;
        }
      } else if (npos - pos <= 2) { /* a last pass of one or two columns */
        narrow_pass(st, d, &ep, rec, in, out, pos, npos - pos, dbl_window, stage);
        continue;
      } else {
        for (int32_t j = 0; j < COLS; j++) {
          const column c = column_at(st, out, pos + j < npos ? pos + j : npos - 1);
          window_of(st, in, c, quad, j, dbl_window, stage);
          o[j] = c.out;
        }
      }
      if (quick) {
        quads_sat_all(rec, d, st->out_c, K, quad, o, !dbl_window, stage);
      } else {
        conv_quads(&ep, rec, d, st->out_c, K, quad, o);
      }
    }
  }
}

/* Depthwise, every out channel of two columns (windows x0 and x1: for each input channel kp
 * taps, kp even, the last one 0 when kh * kw is odd), two channels at a time: out channel oc
 * reads input channel oc / dm; its weights are kk taps Cout bytes apart, so a halfword of each
 * of two taps makes a word whose SXTB16 pairs are (oc, tap t and t + 1) and (oc + 1, ...). */
__attribute__((always_inline)) static inline void dw_pairs(const epilogue *ep, const tp_s8_conv_data *d,
                                                           int32_t cout, int32_t dm, int32_t kk, int32_t kp,
                                                           const int16_t *x0, const int16_t *x1, int8_t *o0,
                                                           int8_t *o1, bool one_input) {
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  int32_t oc = 0;
  for (; oc + 2 <= cout; oc += 2) {
    /* With one input channel every out channel reads the one window: its values are loaded
     * once for both channels. */
    const int32_t ca = one_input ? 0 : oc / dm * kp, cb = one_input ? 0 : (oc + 1) / dm * kp;
    const int16_t *pa = x0 + ca, *pb = x0 + cb, *qa = x1 + ca, *qb = x1 + cb;
    const int8_t *wp = d->w + oc;
    int32_t a00 = 0, a10 = 0;
    if (bias != NULL) {
      a00 = bias[oc];
      a10 = bias[oc + 1];
    }
    int32_t a01 = a00, a11 = a10, t = 0;
    for (; t + 2 <= kk; t += 2, wp += 2 * cout) {
      uint16_t h0, h1;
      memcpy(&h0, wp, 2);
      memcpy(&h1, wp + cout, 2);
      const uint32_t wv = (uint32_t)h0 | (uint32_t)h1 << 16;
      const int16x2_t wa = __sxtb16((int8x4_t)wv), wb = sxtb16_ror8(wv);
      a00 = __smlad(wa, (int16x2_t)load32(pa + t), a00);
      a01 = __smlad(wa, (int16x2_t)load32(qa + t), a01);
      a10 = __smlad(wb, (int16x2_t)load32(pb + t), a10);
      a11 = __smlad(wb, (int16x2_t)load32(qb + t), a11);
    }
    if (t < kk) {
      a00 = (int32_t)((uint32_t)a00 + (uint32_t)(wp[0] * pa[t]));
      a01 = (int32_t)((uint32_t)a01 + (uint32_t)(wp[0] * qa[t]));
      a10 = (int32_t)((uint32_t)a10 + (uint32_t)(wp[1] * pb[t]));
      a11 = (int32_t)((uint32_t)a11 + (uint32_t)(wp[1] * qb[t]));
    }
    finish2(e, mult[oc], shift[oc], (uint32_t)a00, (uint32_t)a01, o0 + oc, o1 + oc);
    finish2(e, mult[oc + 1], shift[oc + 1], (uint32_t)a10, (uint32_t)a11, o0 + oc + 1, o1 + oc + 1);
  }
  if (oc < cout) { /* an odd channel count: the last channel alone (a halfword would overrun) */
    const int32_t ca = one_input ? 0 : oc / dm * kp;
    const int8_t *wp = d->w + oc;
    uint32_t a0 = bias != NULL ? (uint32_t)bias[oc] : 0u, a1 = a0;
    for (int32_t t = 0; t < kk; t++, wp += cout) {
      a0 += (uint32_t)(*wp * x0[ca + t]);
      a1 += (uint32_t)(*wp * x1[ca + t]);
    }
    finish2(e, mult[oc], shift[oc], a0, a1, o0 + oc, o1 + oc);
  }
}

/* dw_pairs for one input channel (a first layer) and for any. */
__attribute__((noinline)) static void dw_pairs_c1(const epilogue *ep, const tp_s8_conv_data *d, int32_t cout,
                                                  int32_t kk, int32_t kp, const int16_t *x0, const int16_t *x1,
                                                  int8_t *o0, int8_t *o1) {
  dw_pairs(ep, d, cout, cout, kk, kp, x0, x1, o0, o1, true);
}

__attribute__((noinline)) static void dw_pairs_any(const epilogue *ep, const tp_s8_conv_data *d, int32_t cout,
                                                   int32_t dm, int32_t kk, int32_t kp, const int16_t *x0,
                                                   const int16_t *x1, int8_t *o0, int8_t *o1) {
  dw_pairs(ep, d, cout, dm, kk, kp, x0, x1, o0, o1, false);
}

/* The window of a column with one input channel: kp int16 taps, x + input_offset for those
 * inside the image, 0 for the others (and the last when kh * kw is odd). */
static void window_c1(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col, int32_t kp) {
  uint32_t *const words = (uint32_t *)(void *)col;
  for (int32_t i = 0; i < kp / 2; i++) {
    words[i] = 0u;
  }
  const int32_t dil_h = st->dil_h, dil_w = st->dil_w, kw = st->k_w, off = st->input_offset;
  const int32_t ky0 = first_tap(c.y0, dil_h), ky1 = end_tap(c.y0, st->in_h, st->k_h, dil_h);
  const int32_t kx0 = first_tap(c.x0, dil_w), kx1 = end_tap(c.x0, st->in_w, kw, dil_w);
  const int32_t step_x = st->in_sx * dil_w;
  for (int32_t ky = ky0; ky < ky1; ky++) {
    const int8_t *src = in + (c.y0 + ky * dil_h) * st->in_sy + (c.x0 + kx0 * dil_w) * st->in_sx;
    int16_t *dst = col + ky * kw + kx0;
    for (int32_t kx = kx0; kx < kx1; kx++, src += step_x) {
      *dst++ = (int16_t)(*src + off);
    }
  }
}

void tp_s8_conv_fast_depthwise(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (st->cout_g == 1 && st->in_c > 1 && tp_s8_conv_dsp_depthwise1(st, d)) {
    return;
  }
  if (st->in_c == 1 && st->k_h * st->k_w >= 16) {
    /* One input channel (a first layer) with a large filter: a convolution of Cout channels over
     * K = kh kw taps (one_input_as_conv), four columns a pass (below 16 taps the passes' overhead
     * costs more than dw_pairs_c1's). */
    tp_s8_conv cs;
    tp_s8_conv_data dc;
    one_input_as_conv(st, d, st->k_h * st->k_w, &cs, &dc);
    tp_s8_conv_fast_conv(&cs, &dc);
    return;
  }
  const int32_t kk = st->k_h * st->k_w, kp = round_up(kk, 2);
  const int32_t npos = st->out_h * st->out_w, block = st->in_c * kp;
  const epilogue ep = epilogue_of(st, d, kk);
  int16_t *col0 = (int16_t *)d->scratch, *col1 = col0 + block;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, pos + 1 < npos ? pos + 1 : pos);
      if (st->in_c == 1) {
        window_c1(st, in, c0, col0, kp);
        window_c1(st, in, c1, col1, kp);
        dw_pairs_c1(&ep, d, st->out_c, kk, kp, col0, col1, c0.out, c1.out);
      } else {
        im2col_dw_s16(st, in, c0, col0);
        im2col_dw_s16(st, in, c1, col1);
        dw_pairs_any(&ep, d, st->out_c, st->cout_g, kk, kp, col0, col1, c0.out, c1.out);
      }
    }
  }
}

const char *tp_s8_conv_fast_path_name(void) { return "dsp"; }
#endif
