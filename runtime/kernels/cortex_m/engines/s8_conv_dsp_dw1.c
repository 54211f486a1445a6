/* The DSP routine (Armv7E-M/Armv8-M: Cortex-M4/M7/M33) of an _nhwc depthwise convolution with a
 * depth multiplier of 1: out channel c reads input channel c only, so the taps of a column
 * are words of four channels at their NHWC places and no im2col window is built.
 *
 * Per call, each group of four channels gets a record in the scratch (records_of):
 *   - a start value per channel, bias + input_offset * (sum of its weights), so that the inner
 *     loop multiplies raw inputs: (x + offset) . w = x . w + offset . sum(w);
 *   - its weights widened, tap by tap, into the int16 pairs (w0, w2), (w1, w3) that SXTB16
 *     makes of an input word and of it rotated by 8: four multiply-accumulates are then
 *     SMLABB/SMLATT on the halves, eight instructions a tap;
 *   - its requantization (multiplier, rounding term 2^(r-1), right shift r), in the order the
 *     routine walks the record (start values, weights, requantization: one pointer).
 * It takes the zoo's case: a 3 x 3 filter, the quick epilogue (every channel shifts right by
 * 1 to 23, sums within 30 bits) clamped to all of int8 (rq_folds); the start values and weights are doubled (the
 * operand SMMULR wants) and the requantization is written out in assembly. Other calls return
 * false and take s8_conv_dsp.c's windowed routine.
 *
 * Every column reads the input in place through a table of its nine taps' addresses; a tap
 * outside the image points at a row of C bytes of -input_offset in the scratch (its term
 * (x + offset) . w is 0, so the same start values hold). A border column whose taps of kx = 0
 * (or kx = 2) are all outside skips them (groups_sat_right2, groups_sat_left2: six taps, with
 * start values that leave out those taps' offset . w, the record's TAIL); a run of columns of
 * a row whose taps are all inside goes in one call (groups_sat moves the table on itself).
 * Channels past the last multiple of four go one by one, with the offset added. Scratch:
 * (16 + 2 kh kw + 8) bytes per channel and the padding row, 43 bytes per channel for 3 x 3
 * (tp_s8_conv_scratch_bytes allows 16 + 3 kh kw). Bit-exact with the portable routine
 * (runtime/kernels/tests/s8_conv_paths.c). */
#include <stddef.h>

#include "cortex_m/engines/s8_conv_window.h"

/* The loops are where an int8 model's time goes: compiled for speed whatever the build's level
 * (s8_conv.c says why). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_DSP)

enum {
  START = 4, /* words of a record before its widened weights: the start values */
  RQ = 12,   /* after the weights: the four channels' (mult, round, right) */
  HEAD = START + RQ,
  TAIL = 8 /* after those: the start values without the taps of kx = 0, then of kx = 2 */
};

typedef struct dw1 {
  const tp_s8_conv *st;
  const tp_s8_conv_data *d;
  const uint32_t *rec; /* per group of four channels: start[4], weights, (mult, round, right)[4], tail */
  const int8_t *pad;   /* C bytes of -input_offset: the taps outside the image */
  int32_t c4;          /* channels in groups of four */
  int32_t rec_words;   /* HEAD + 2 kh kw + TAIL */
} dw1;

__attribute__((noinline)) static dw1 records_of(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, C = st->out_c, c4 = C & ~3, rec_words = HEAD + 2 * kk + TAIL;
  const uint32_t off = (uint32_t)st->input_offset;
  uint32_t *const rec = (uint32_t *)d->scratch;
  int8_t *const pad = (int8_t *)(rec + c4 / 4 * rec_words);
  if (st->prepared) { /* an earlier band of this call made them (s8_conv.h) */
    const dw1 k = {st, d, rec, pad, c4, rec_words};
    return k;
  }
  const int32_t *const bias = d->bias;
  for (int32_t c = 0; c < c4; c += 4) {
    uint32_t *const r = rec + c / 4 * rec_words, *const wide = r + START, *const rq = wide + 2 * kk;
    uint32_t *const tail = rq + RQ;
    /* The four weight sums of each kx as int16 pairs (channels 0 and 2, 1 and 3): |sum| <= 128 kk
     * fits. Taps row by row, kx = 0, 1, 2 in turn (kk = 9). */
    int16x2_t se0 = 0, se1 = 0, se2 = 0, so0 = 0, so1 = 0, so2 = 0;
    const int8_t *wp = d->w + c;
    uint32_t *wd = wide;
    for (int32_t ky = 0; ky < 3; ky++, wp += 3 * C, wd += 6) {
      const uint32_t v0 = load32(wp), v1 = load32(wp + C), v2 = load32(wp + 2 * C);
      const int16x2_t e0 = __sxtb16((int8x4_t)v0), o0 = sxtb16_ror8(v0);
      const int16x2_t e1 = __sxtb16((int8x4_t)v1), o1 = sxtb16_ror8(v1);
      const int16x2_t e2 = __sxtb16((int8x4_t)v2), o2 = sxtb16_ror8(v2);
      /* doubled: |w| <= 128, 2 w fits each half */
      wd[0] = (uint32_t)__sadd16(e0, e0);
      wd[1] = (uint32_t)__sadd16(o0, o0);
      wd[2] = (uint32_t)__sadd16(e1, e1);
      wd[3] = (uint32_t)__sadd16(o1, o1);
      wd[4] = (uint32_t)__sadd16(e2, e2);
      wd[5] = (uint32_t)__sadd16(o2, o2);
      se0 = __sadd16(se0, e0);
      so0 = __sadd16(so0, o0);
      se1 = __sadd16(se1, e1);
      so1 = __sadd16(so1, o1);
      se2 = __sadd16(se2, e2);
      so2 = __sadd16(so2, o2);
    }
    /* Channel i's sums: the low halves of se (i = 0) and so (1), the high ones (2, 3). */
    const uint32_t s0[4] = {(uint32_t)se0, (uint32_t)so0, (uint32_t)se0 >> 16, (uint32_t)so0 >> 16};
    const uint32_t s1[4] = {(uint32_t)se1, (uint32_t)so1, (uint32_t)se1 >> 16, (uint32_t)so1 >> 16};
    const uint32_t s2[4] = {(uint32_t)se2, (uint32_t)so2, (uint32_t)se2 >> 16, (uint32_t)so2 >> 16};
    /* Start values: all taps (HEAD), all but kx = 0's, all but kx = 2's (TAIL): a routine that
     * skips a column of taps outside the image skips their -input_offset . w too. */
    for (int32_t i = 0; i < 4; i++) {
      const uint32_t b = bias != NULL ? (uint32_t)bias[c + i] : 0u;
      const uint32_t k0 = off * (uint32_t)(int32_t)(int16_t)s0[i], k1 = off * (uint32_t)(int32_t)(int16_t)s1[i],
                     k2 = off * (uint32_t)(int32_t)(int16_t)s2[i];
      r[i] = (b + k0 + k1 + k2) * 2u;
      tail[i] = (b + k1 + k2) * 2u;
      tail[4 + i] = (b + k0 + k1) * 2u;
      rq_record(d, c + i, st->output_offset, rq + 3 * i);
    }
  }
  for (int32_t c = 0; c < C; c++) {
    pad[c] = (int8_t)-st->input_offset; /* an int8: the offset is -zero_point */
  }
  const dw1 k = {st, d, rec, pad, c4, rec_words};
  return k;
}

/* Every group of four channels of one column, in assembly: for each group its four sums over
 * the nine taps (9 instructions a tap: its address from the table, the input word, SXTB16 of
 * it twice, SMLABB/SMLATT with the record's widened weights), then its four out bytes by the
 * record's requantization (rq_record, clamped to all of int8). Every value stays in a register
 * (GCC's version of this loop kept its sums and pointers on the stack): r0 the arguments, r1
 * the group's byte offset, r2 its record, r3 a tap's address, r4-r7 the sums, r8-r11 the
 * operands; the epilogue borrows r3, r8-r11 and lr. 118 instructions a group, 36
 * multiply-accumulates. */
typedef struct groups_args {
  const int8_t *tap[9]; /* each tap's channel 0, row by row (the padding row when outside) */
  const uint32_t *rec;  /* the first group's record (records_of), REC_BYTES apart */
  int8_t *out;          /* the column's out byte of channel 0 */
  int32_t end;          /* 4 x the groups: the byte offset past the last group */
  /* groups_sat: the columns it runs, each tap's bytes (every tap inside) and the out's further
   * each column (it moves tap[] and out on and counts cols down); the others run one column. */
  int32_t cols, tap_step, out_step;
} groups_args;

#define GA_REC 36
#define GA_OUT 40
#define GA_END 44
#define GA_COLS 48
#define GA_TSTEP 52
#define GA_OSTEP 56
#define REC_BYTES 168 /* 4 (HEAD + 2 x 9 + TAIL) */
#define REC_RQ 88     /* 4 (START + 2 x 9): the requantization */
#define REC_NO_KX0 136 /* the start values without kx = 0's taps */
#define REC_NO_KX2 152 /* without kx = 2's */
_Static_assert(offsetof(groups_args, rec) == GA_REC && offsetof(groups_args, out) == GA_OUT &&
                   offsetof(groups_args, end) == GA_END && offsetof(groups_args, cols) == GA_COLS &&
                   offsetof(groups_args, tap_step) == GA_TSTEP && offsetof(groups_args, out_step) == GA_OSTEP &&
                   4 * (HEAD + 2 * 9 + TAIL) == REC_BYTES && 4 * (HEAD + 2 * 9) == REC_NO_KX0 &&
                   REC_NO_KX0 + 16 == REC_NO_KX2 && 4 * (START + 2 * 9) == REC_RQ &&
                   4 * (START + 2 * 9 + RQ) == REC_NO_KX0,
               "groups_sat's offsets");
#define GA_STR_(x) #x
#define GA_STR(x) GA_STR_(x)
#define GA(field) "[r0, #" GA_STR(GA_##field) "]"

/* Tap t (0-8): its address, the group's input word into r8, the widened weights at record
 * byte 16 + 8 t (r2 the record). */
#define GA_TAP(t, w_off)                            \
  "ldr    r3, [r0, #" #t " * 4]\n\t"                \
  "ldr    r8, [r3, r1]\n\t"                         \
  "ldrd   r10, r11, [r2, #" #w_off "]\n\t"          \
  "sxtb16 r9, r8\n\t"                               \
  "sxtb16 r8, r8, ror #8\n\t"                       \
  "smlabb r4, r9, r10, r4\n\t"                      \
  "smlatt r6, r9, r10, r6\n\t"                      \
  "smlabb r5, r8, r11, r5\n\t"                      \
  "smlatt r7, r8, r11, r7\n\t"
/* Taps t and t + 1 (groups_sat, r2 walking the record's weights): their addresses by one
 * LDRD, their input words into r12 and lr, their four widened weight words by one LDM. 16
 * instructions (two GA_TAP take 18). */
#define GA_TAP2(t)                                  \
  "ldrd   r12, lr, [r0, #" #t " * 4]\n\t"           \
  "ldr    r12, [r12, r1]\n\t"                       \
  "ldr    lr, [lr, r1]\n\t"                         \
  "ldmia  r2!, {r8-r11}\n\t"                        \
  "sxtb16 r3, r12\n\t"                              \
  "sxtb16 r12, r12, ror #8\n\t"                     \
  "smlabb r4, r3, r8, r4\n\t"                       \
  "smlatt r6, r3, r8, r6\n\t"                       \
  "smlabb r5, r12, r9, r5\n\t"                      \
  "smlatt r7, r12, r9, r7\n\t"                      \
  "sxtb16 r3, lr\n\t"                               \
  "sxtb16 lr, lr, ror #8\n\t"                       \
  "smlabb r4, r3, r10, r4\n\t"                      \
  "smlatt r6, r3, r10, r6\n\t"                      \
  "smlabb r5, lr, r11, r5\n\t"                      \
  "smlatt r7, lr, r11, r7\n\t"
/* Tap 8 after four GA_TAP2: r2 at its weights, then past them (at the requantization). */
#define GA_TAP_LAST                                 \
  "ldr    r3, [r0, #32]\n\t"                        \
  "ldr    r8, [r3, r1]\n\t"                         \
  "ldrd   r10, r11, [r2], #8\n\t"                   \
  "sxtb16 r9, r8\n\t"                               \
  "sxtb16 r8, r8, ror #8\n\t"                       \
  "smlabb r4, r9, r10, r4\n\t"                      \
  "smlatt r6, r9, r10, r6\n\t"                      \
  "smlabb r5, r8, r11, r5\n\t"                      \
  "smlatt r7, r8, r11, r7\n\t"
/* Out byte `i` of the group from sum register `s`: the channel's record (multiplier r9,
 * rounding term r10 with the out zero point folded in, shift r11) loaded from `p` on, out
 * pointer lr. */
#define GA_OUT_BYTE(s, i, p)                        \
  "ldmia  " p "!, {r9, r10, r11}\n\t"               \
  "smmulr r8, " s ", r9\n\t"                        \
  "add    r8, r8, r8, asr #31\n\t"                  \
  "add    r8, r8, r10\n\t"                          \
  "asr    r8, r8, r11\n\t"                          \
  "ssat   r8, #8, r8\n\t"                           \
  "strb   r8, [lr, #" #i "]\n\t"

/* One routine per set of taps it reads (START: where its start values are; TAPS: its taps; RQ:
 * the requantization's pointer, NEXT_REC: the next record from r2): all nine (groups_sat: r2
 * walks the record, start values, weights, requantization), or six when the column's taps of
 * kx = 0 or of kx = 2 are all outside the image (the start values without their
 * -input_offset . w: records_of's TAIL; r2 stays at the record), so that the columns at a
 * narrow map's borders skip a third of their work. 109 instructions a group with nine taps, 92
 * with six. */
#define GA_START(off) "add    r3, r2, #" GA_STR(off) "\n\tldmia  r3, {r4-r7}\n\t"
#define GROUPS_FN(name, START, TAPS, RQ_PTR, RQ, NEXT_REC, NEXT)       \
  __attribute__((naked, noinline)) static void name(groups_args *a) {    \
    (void)a;                                                             \
    __asm__ volatile("push   {r4-r11, lr}\n\t"                           \
                     "2:\n\t"                                            \
                     "ldr    r2, " GA(REC) "\n\t"                        \
                     "movs   r1, #0\n\t"                                 \
                     "1:\n\t" START TAPS RQ_PTR                          \
                     "ldr    lr, " GA(OUT) "\n\t"                        \
                     "add    lr, lr, r1\n\t"                             \
                     GA_OUT_BYTE("r4", 0, RQ) GA_OUT_BYTE("r5", 1, RQ)   \
                     GA_OUT_BYTE("r6", 2, RQ) GA_OUT_BYTE("r7", 3, RQ)   \
                     "add    r2, r2, #" GA_STR(NEXT_REC) "\n\t"          \
                     "add    r1, r1, #4\n\t"                             \
                     "ldr    r8, " GA(END) "\n\t"                        \
                     "cmp    r1, r8\n\t"                                 \
                     "bne    1b\n\t" NEXT                                \
                     "pop    {r4-r11, pc}\n\t");                         \
  }
/* The next of a run of columns whose taps are all inside: out and the nine taps move on, 24
 * instructions (GCC's column loop takes about a hundred to make a table). */
#define GA_NEXT_COLUMN                                                   \
  "ldr    r1, " GA(COLS) "\n\t"                                          \
  "subs   r1, r1, #1\n\t"                                                \
  "beq    3f\n\t"                                                        \
  "str    r1, " GA(COLS) "\n\t"                                          \
  "ldr    r2, " GA(OUT) "\n\t"                                           \
  "ldr    r3, " GA(OSTEP) "\n\t"                                         \
  "add    r2, r2, r3\n\t"                                                \
  "str    r2, " GA(OUT) "\n\t"                                           \
  "ldr    r10, " GA(TSTEP) "\n\t"                                        \
  "ldmia  r0, {r1-r9}\n\t"                                               \
  "add    r1, r1, r10\n\t"                                               \
  "add    r2, r2, r10\n\t"                                               \
  "add    r3, r3, r10\n\t"                                               \
  "add    r4, r4, r10\n\t"                                               \
  "add    r5, r5, r10\n\t"                                               \
  "add    r6, r6, r10\n\t"                                               \
  "add    r7, r7, r10\n\t"                                               \
  "add    r8, r8, r10\n\t"                                               \
  "add    r9, r9, r10\n\t"                                               \
  "stmia  r0, {r1-r9}\n\t"                                               \
  "b      2b\n\t"                                                        \
  "3:\n\t"

/* r2 past the start values, the weights and the requantization (REC_NO_KX0) after the taps and
 * the out bytes: the rest of the record is its TAIL. */
#define GA_WALKED 32
_Static_assert(REC_NO_KX0 + GA_WALKED == REC_BYTES, "groups_sat's walk");
GROUPS_FN(groups_sat, "ldmia  r2!, {r4-r7}\n\t", GA_TAP2(0) GA_TAP2(2) GA_TAP2(4) GA_TAP2(6) GA_TAP_LAST, "",
          "r2", GA_WALKED, GA_NEXT_COLUMN)
#define GA_RQ_PTR "add    r3, r2, #" GA_STR(REC_RQ) "\n\t"
/* kx = 0 outside: taps 1, 2, 4, 5, 7, 8. */
GROUPS_FN(groups_sat_right2, GA_START(REC_NO_KX0),
          GA_TAP(1, 24) GA_TAP(2, 32) GA_TAP(4, 48) GA_TAP(5, 56) GA_TAP(7, 72) GA_TAP(8, 80), GA_RQ_PTR, "r3",
          REC_BYTES, "")
/* kx = 2 outside: taps 0, 1, 3, 4, 6, 7. */
GROUPS_FN(groups_sat_left2, GA_START(REC_NO_KX2),
          GA_TAP(0, 16) GA_TAP(1, 24) GA_TAP(3, 40) GA_TAP(4, 48) GA_TAP(6, 64) GA_TAP(7, 72), GA_RQ_PTR, "r3",
          REC_BYTES, "")
#undef GA_RQ_PTR
#undef GA_WALKED
#undef GA_NEXT_COLUMN
#undef GA_START
#undef GROUPS_FN
#undef GA_OUT_BYTE
#undef GA_TAP_LAST
#undef GA_TAP2
#undef GA_TAP
#undef GA

/* The channels past the groups of four, one by one, through the column's tap table. */
__attribute__((noinline)) static void rest(const dw1 *k, const epilogue *e, const int8_t *const tap[9], int8_t *o) {
  const tp_s8_conv *st = k->st;
  const tp_s8_conv_data *d = k->d;
  for (int32_t ch = k->c4; ch < st->out_c; ch++) {
    uint32_t a = d->bias != NULL ? (uint32_t)d->bias[ch] : 0u;
    for (int32_t t = 0; t < 9; t++) {
      a += (uint32_t)((tap[t][ch] + st->input_offset) * d->w[t * st->out_c + ch]);
    }
    o[ch] = finish_e(e, a, d->mult[ch], d->shift[ch]);
  }
}

/* Every column of one batch (3 x 3 taps): its tap table (fixed offsets from its first tap when
 * every tap is inside; else a tap outside the image points at the padding row), then
 * groups_sat and rest. */
/* The tap table of a column whose left tap is at x0 (column_taps_3x3 with the call's values in
 * registers: GCC reloads them from *st in that loop). */
static inline void taps_of(const int8_t *const rows[3], bool rows_in, const int32_t offs[9], int32_t x0, int32_t dw,
                           int32_t in_w, int32_t in_sx, const int8_t *pad, const int8_t *tap[9]) {
  if (rows_in && x0 >= 0 && x0 + 2 * dw < in_w) {
    const int8_t *const p = rows[0] + x0 * in_sx;
    for (int32_t t = 0; t < 9; t++) {
      tap[t] = p + offs[t];
    }
    return;
  }
  const int8_t *const r0 = rows[0], *const r1 = rows[1], *const r2 = rows[2];
  for (int32_t kx = 0, ix = x0; kx < 3; kx++, ix += dw) {
    const bool in = (uint32_t)ix < (uint32_t)in_w;
    const int32_t o = ix * in_sx;
    tap[kx] = in && r0 != NULL ? r0 + o : pad;
    tap[3 + kx] = in && r1 != NULL ? r1 + o : pad;
    tap[6 + kx] = in && r2 != NULL ? r2 + o : pad;
  }
}

__attribute__((noinline)) static void columns(const dw1 *k, const epilogue *ep, const int8_t *in, int8_t *out) {
  const tp_s8_conv *st = k->st;
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t sw = st->stride_w, dw = st->dil_w, in_w = st->in_w, C = st->out_c;
  /* Runs of columns need every channel in groups (rest reads the table column by column). */
  const bool runs = k->c4 == C;
  groups_args a = {{NULL}, k->rec, out, k->c4, 1, sw * st->in_sx, C};
  int32_t offs[9];
  offsets_3x3(st, offs);
  for (int32_t oy = 0; oy < st->out_h; oy++) {
    const int32_t y0 = oy * st->stride_h - st->pad_h;
    const int8_t *rows[3];
    const bool rows_in = rows_3x3(st, in, y0, rows);
    for (int32_t ox = 0; ox < st->out_w;) {
      const int32_t x0 = ox * sw - st->pad_w, x2 = x0 + 2 * dw;
      int32_t n = 1; /* the columns this step runs */
      a.out = out;
      taps_of(rows, rows_in, offs, x0, dw, in_w, st->in_sx, k->pad, a.tap);
      if (k->c4 > 0) {
        /* The taps of kx = 0 or kx = 2 all outside the image (a border column): skip them. */
        if (x0 < 0 || x0 >= in_w) {
          groups_sat_right2(&a);
        } else if (x2 < 0 || x2 >= in_w) {
          groups_sat_left2(&a);
        } else {
          if (runs && rows_in) { /* every tap inside, and of the columns after it while x2 is */
            const int32_t more = (in_w - 1 - x2) / sw, left = st->out_w - ox - 1;
            n = 1 + (more < left ? more : left);
          }
          a.cols = n;
          groups_sat(&a);
        }
      }
      if (k->c4 < C) {
        rest(k, e, a.tap, out);
      }
      ox += n;
      out += n * C;
    }
  }
}

/* Whether a 3 x 3 call clamped to all of int8 is the zoo's case: every shift in [-23, -1] and
 * every bias within the quick epilogue's bound (epilogue_of's `quick` and rq_folds). */
static bool zoo_case(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t bound = (1 << 29) - 9 * 255 * 128; /* epilogue_of's, K = 9 */
  const int32_t *const shift = d->shift, *const bias = d->bias;
  for (int32_t c = 0; c < st->out_c; c++) {
    if ((uint32_t)(shift[c] + 23) > 22u) {
      return false;
    }
  }
  for (int32_t c = 0; bias != NULL && c < st->out_c; c++) {
    if (bias[c] >= bound || bias[c] <= -bound) {
      return false;
    }
  }
  return true;
}

bool tp_s8_conv_dsp_depthwise1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  /* One copy of the loops (each costs flash in every program with a depthwise convolution):
   * the zoo's case, 3 x 3 with the quick epilogue clamped to all of int8 (rq_folds). */
  if (!(st->k_h == 3 && st->k_w == 3 && st->act_min == -128 && st->act_max == 127)) {
    return false;
  }
  /* The answer for the channels, kept for the call's later bands (st->prepared) in the last byte
   * of its scratch (3 x 3: 43 C bytes, tp_s8_conv_scratch_bytes): the padding row's last byte,
   * -input_offset, when this routine runs (or a byte no routine writes when C % 4 != 0), another
   * value when s8_conv_dsp.c's routine does (it writes its first 40 C bytes only). */
  int8_t *const answer = (int8_t *)d->scratch + 43 * st->out_c - 1;
  const int8_t yes = (int8_t)-st->input_offset;
  if (st->prepared) {
    if (*answer != yes) {
      return false;
    }
  } else {
    const bool ok = zoo_case(st, d);
    *answer = ok ? yes : (int8_t)(yes ^ 1);
    if (!ok) {
      return false;
    }
  }
  const epilogue ep = {st->output_offset, st->act_min, st->act_max, true};
  const dw1 k = records_of(st, d);
  for (int32_t b = 0; b < st->batches; b++) {
    columns(&k, &ep, d->in + b * st->in_sn, d->out + b * st->out_sn);
  }
  return true;
}

#endif
