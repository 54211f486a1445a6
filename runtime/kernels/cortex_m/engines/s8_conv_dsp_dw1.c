/* The DSP routine (Armv7E-M/Armv8-M: Cortex-M4/M7/M33) of an _nhwc depthwise convolution with a
 * depth multiplier of 1: out channel c reads input channel c only, so the taps of a column
 * are words of four channels at their NHWC places and no im2col window is built.
 *
 * Per call, each group of four channels gets a record in the scratch (records_of):
 *   - a start value per channel, bias + input_offset * (sum of its weights), so that the inner
 *     loop multiplies raw inputs: (x + offset) . w = x . w + offset . sum(w);
 *   - its requantization (multiplier, rounding term 2^(r-1), right shift r);
 *   - its weights widened, tap by tap, into the int16 pairs (w0, w2), (w1, w3) that SXTB16
 *     makes of an input word and of it rotated by 8: four multiply-accumulates are then
 *     SMLABB/SMLATT on the halves, eight instructions a tap.
 * It takes the zoo's case: a 3 x 3 filter, the quick epilogue (every channel shifts right by
 * 1 to 23, sums within 30 bits) clamped to all of int8 (rq_folds); the start values and weights are doubled (the
 * operand SMMULR wants) and the requantization is written out in assembly. Other calls return
 * false and take s8_conv_dsp.c's windowed routine.
 *
 * Every column reads the input in place through a table of its nine taps' addresses; a tap
 * outside the image points at a row of C bytes of -input_offset in the scratch (its term
 * (x + offset) . w is 0, so the same start values hold). Channels past the last multiple of
 * four go one by one, with the offset added. Scratch: (16 + 2 kh kw) bytes per channel and the
 * padding row (tp_s8_conv_scratch_bytes allows 16 + 3 kh kw). Bit-exact with the portable
 * routine (runtime/kernels/tests/s8_conv_paths.c). */
#include <stddef.h>

#include "cortex_m/engines/s8_conv_window.h"

/* The loops are where an int8 model's time goes: compiled for speed whatever the build's level
 * (s8_conv.c says why). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_DSP)

enum {
  HEAD = 16, /* words of a record before its widened weights */
  TAIL = 8   /* after them: the start values without the taps of kx = 0, then of kx = 2 */
};

typedef struct dw1 {
  const tp_s8_conv *st;
  const tp_s8_conv_data *d;
  const uint32_t *rec; /* per group of four channels: start[4], (mult, round, right)[4], weights */
  const int8_t *pad;   /* C bytes of -input_offset: the taps outside the image */
  int32_t c4;          /* channels in groups of four */
  int32_t rec_words;   /* HEAD + 2 kh kw + TAIL */
} dw1;

static dw1 records_of(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, C = st->out_c, c4 = C & ~3, rec_words = HEAD + 2 * kk + TAIL;
  const uint32_t off = (uint32_t)st->input_offset;
  uint32_t *const rec = (uint32_t *)d->scratch;
  int8_t *const pad = (int8_t *)(rec + c4 / 4 * rec_words);
  if (st->prepared) { /* an earlier band of this call made them (s8_conv.h) */
    const dw1 k = {st, d, rec, pad, c4, rec_words};
    return k;
  }
  for (int32_t c = 0; c < c4; c += 4) {
    uint32_t *const r = rec + c / 4 * rec_words, *const wide = r + HEAD;
    for (int32_t i = 0; i < 4; i++) {
      r[i] = d->bias != NULL ? (uint32_t)d->bias[c + i] : 0u;
      rq_record(d, c + i, st->output_offset, r + 4 + 3 * i);
    }
    /* The four weight sums of each kx as int16 pairs (channels 0 and 2, 1 and 3): |sum| <= 128 kk
     * fits. */
    int16x2_t se[3] = {0, 0, 0}, so[3] = {0, 0, 0};
    for (int32_t t = 0; t < kk; t++) {
      const uint32_t v = load32(d->w + t * C + c);
      const int16x2_t we = __sxtb16((int8x4_t)v), wo = sxtb16_ror8(v);
      wide[2 * t] = (uint32_t)__sadd16(we, we); /* doubled: |w| <= 128, 2 w fits each half */
      wide[2 * t + 1] = (uint32_t)__sadd16(wo, wo);
      se[t % 3] = __sadd16(se[t % 3], we);
      so[t % 3] = __sadd16(so[t % 3], wo);
    }
    /* Start values: all taps (HEAD), all but kx = 0's, all but kx = 2's (TAIL): a routine that
     * skips a column of taps outside the image skips their -input_offset . w too. */
    uint32_t *const tail = wide + 2 * kk;
    for (int32_t i = 0; i < 4; i++) {
      int32_t sum[3];
      for (int32_t kx = 0; kx < 3; kx++) {
        const uint32_t v = (uint32_t)(i & 1 ? so[kx] : se[kx]);
        sum[kx] = (int16_t)(i & 2 ? v >> 16 : v);
      }
      const uint32_t b = r[i];
      r[i] = (b + off * (uint32_t)(sum[0] + sum[1] + sum[2])) * 2u;
      tail[i] = (b + off * (uint32_t)(sum[1] + sum[2])) * 2u;
      tail[4 + i] = (b + off * (uint32_t)(sum[0] + sum[1])) * 2u;
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
} groups_args;

#define GA_REC 36
#define GA_OUT 40
#define GA_END 44
#define REC_BYTES 168 /* 4 (HEAD + 2 x 9 + TAIL) */
#define REC_NO_KX0 136 /* the start values without kx = 0's taps */
#define REC_NO_KX2 152 /* without kx = 2's */
_Static_assert(offsetof(groups_args, rec) == GA_REC && offsetof(groups_args, out) == GA_OUT &&
                   offsetof(groups_args, end) == GA_END &&
                   4 * (HEAD + 2 * 9 + TAIL) == REC_BYTES && 4 * (HEAD + 2 * 9) == REC_NO_KX0 &&
                   REC_NO_KX0 + 16 == REC_NO_KX2,
               "groups_sat's offsets");
#define GA_STR_(x) #x
#define GA_STR(x) GA_STR_(x)
#define GA(field) "[r0, #" GA_STR(GA_##field) "]"

/* Tap t (0-8): its address, the group's input word into r8, the widened weights at record
 * byte 64 + 8 t. */
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
/* Out byte `i` of the group from sum register `s`: the channel's record (multiplier r9,
 * rounding term r10 with the out zero point folded in, shift r11) loaded from r3 on, out
 * pointer lr. */
#define GA_OUT_BYTE(s, i)                           \
  "ldmia  r3!, {r9, r10, r11}\n\t"                  \
  "smmulr r8, " s ", r9\n\t"                        \
  "add    r8, r8, r8, asr #31\n\t"                  \
  "add    r8, r8, r10\n\t"                          \
  "asr    r8, r8, r11\n\t"                          \
  "ssat   r8, #8, r8\n\t"                           \
  "strb   r8, [lr, #" #i "]\n\t"

/* One routine per set of taps it reads (START: where its start values are; TAPS: its taps): all
 * nine, or six when the column's taps of kx = 0 or of kx = 2 are all outside the image (the
 * start values without their -input_offset . w: records_of's TAIL), so that the columns at a
 * narrow map's borders skip a third of their work. 118 instructions a group with nine taps, 92
 * with six. */
#define GA_START(off) "add    r3, r2, #" GA_STR(off) "\n\tldmia  r3, {r4-r7}\n\t"
#define GROUPS_FN(name, START, TAPS)                                     \
  __attribute__((naked, noinline)) static void name(const groups_args *a) { \
    (void)a;                                                             \
    __asm__ volatile("push   {r4-r11, lr}\n\t"                           \
                     "ldr    r2, " GA(REC) "\n\t"                        \
                     "movs   r1, #0\n\t"                                 \
                     "1:\n\t" START TAPS                                 \
                     "add    r3, r2, #16\n\t"                            \
                     "ldr    lr, " GA(OUT) "\n\t"                        \
                     "add    lr, lr, r1\n\t"                             \
                     GA_OUT_BYTE("r4", 0) GA_OUT_BYTE("r5", 1)           \
                     GA_OUT_BYTE("r6", 2) GA_OUT_BYTE("r7", 3)           \
                     "add    r2, r2, #" GA_STR(REC_BYTES) "\n\t"         \
                     "add    r1, r1, #4\n\t"                             \
                     "ldr    r8, " GA(END) "\n\t"                        \
                     "cmp    r1, r8\n\t"                                 \
                     "bne    1b\n\t"                                     \
                     "pop    {r4-r11, pc}\n\t");                         \
  }

GROUPS_FN(groups_sat, "ldmia  r2, {r4-r7}\n\t",
          GA_TAP(0, 64) GA_TAP(1, 72) GA_TAP(2, 80) GA_TAP(3, 88) GA_TAP(4, 96) GA_TAP(5, 104) GA_TAP(6, 112)
              GA_TAP(7, 120) GA_TAP(8, 128))
/* kx = 0 outside: taps 1, 2, 4, 5, 7, 8. */
GROUPS_FN(groups_sat_right2, GA_START(REC_NO_KX0),
          GA_TAP(1, 72) GA_TAP(2, 80) GA_TAP(4, 96) GA_TAP(5, 104) GA_TAP(7, 120) GA_TAP(8, 128))
/* kx = 2 outside: taps 0, 1, 3, 4, 6, 7. */
GROUPS_FN(groups_sat_left2, GA_START(REC_NO_KX2),
          GA_TAP(0, 64) GA_TAP(1, 72) GA_TAP(3, 88) GA_TAP(4, 96) GA_TAP(6, 112) GA_TAP(7, 120))
#undef GA_START
#undef GROUPS_FN
#undef GA_OUT_BYTE
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
__attribute__((noinline)) static void columns(const dw1 *k, const epilogue *ep, const int8_t *in, int8_t *out) {
  const tp_s8_conv *st = k->st;
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  groups_args a = {{NULL}, k->rec, out, k->c4};
  int32_t offs[9];
  offsets_3x3(st, offs);
  TP_FOR_EACH_COLUMN_3X3(st, in, offs, k->pad, a.out, st->out_c, y0, x0, a.tap, {
    if (k->c4 > 0) {
      /* The taps of kx = 0 or kx = 2 all outside the image (a border column): skip them. */
      const int32_t x2 = x0 + 2 * st->dil_w;
      if (x0 < 0 || x0 >= st->in_w) {
        groups_sat_right2(&a);
      } else if (x2 < 0 || x2 >= st->in_w) {
        groups_sat_left2(&a);
      } else {
        groups_sat(&a);
      }
    }
    if (k->c4 < st->out_c) {
      rest(k, e, a.tap, a.out);
    }
  });
}

/* Whether the call is the zoo's case: 3 x 3, clamped to all of int8, every shift in [-23, -1] and
 * every bias within the quick epilogue's bound: epilogue_of's `quick` and rq_folds in one loop
 * (every band of a call in place asks again: a few instructions a channel). */
static bool zoo_case(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t bound = (1 << 29) - 9 * 255 * 128; /* epilogue_of's, K = 9 */
  if (!(st->k_h == 3 && st->k_w == 3 && st->act_min == -128 && st->act_max == 127)) {
    return false;
  }
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
  if (!zoo_case(st, d)) {
    return false;
  }
  const epilogue ep = {st->output_offset, st->act_min, st->act_max, true};
  const dw1 k = records_of(st, d);
  for (int32_t b = 0; b < st->batches; b++) {
    columns(&k, &ep, d->in + b * st->in_sn, d->out + b * st->out_sn);
  }
  return true;
}

#endif
