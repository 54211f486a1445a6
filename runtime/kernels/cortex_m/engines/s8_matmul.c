/* The int8 matrix product of quantized_linear and quantized_batch_matmul (see s8_matmul.h). */
#include "cortex_m/engines/s8_matmul.h"

#include <stddef.h>
#include <string.h>

#include "cortex_m/engines/int8_util.h"

#if TP_S8_MATMUL_DSP
#include <arm_acle.h>
#endif

/* The products are where a fully connected model's time goes: compiled for speed whatever the
 * build's level, and without turning the accumulators' zeroing into memset calls (as the
 * convolutions, s8_conv.c). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")
#if TP_S8_MATMUL_MVE
#include <arm_mve.h>
#endif

/* Rows of rhs a routine forms together (the lhs row is read once for them). */
enum { BLOCK = 4 };

/* The dot products of one lhs row x with `count` (1..BLOCK) consecutive rhs rows from w:
 * d[i] = sum_k (x[k] + a) * w[i * depth + k], modulo 2^32. */
typedef void (*dots_fn)(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t count, uint32_t *d);

/* sum_k (x[k] + a) (exact: depth and a are bounded by prepare). */
static int32_t row_sum(const int8_t *x, uint32_t depth, int32_t a) {
  int32_t s = (int32_t)depth * a;
  for (uint32_t k = 0; k < depth; k++) {
    s += x[k];
  }
  return s;
}

/* The output of one dot product (see s8_matmul.h): row_term is b * sum_k (x[k] + a). In int32
 * arithmetic (not `wide`) the sum wraps, so its low 32 bits are the whole of it and the
 * requantization takes tp_requantize's 32-bit path. */
static inline int8_t finish(const tp_s8_matmul *p, uint32_t dot, int64_t row_term, int32_t bias) {
  int32_t r;
  if (!p->wide) {
    const uint32_t total = dot + (uint32_t)(uint64_t)row_term + (uint32_t)bias; /* int32 arithmetic wraps */
    r = tp_requantize((int32_t)total, p->multiplier, p->shift);
  } else {
    r = tp_requantize_wide((int64_t)(int32_t)dot + row_term + bias, p->multiplier, p->shift);
  }
  return (int8_t)tp_clamp_i32((int32_t)((uint32_t)r + (uint32_t)p->out_offset), p->act_min, p->act_max);
}

static void matmul(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias, int8_t *out,
                   dots_fn dots, int32_t (*sum)(const int8_t *, uint32_t, int32_t)) {
  const uint32_t depth = p->depth;
  for (uint32_t m = 0; m < p->rows; m++, lhs += depth) {
    const int64_t row_term = p->rhs_offset != 0 ? (int64_t)p->rhs_offset * sum(lhs, depth, p->lhs_offset) : 0;
    for (uint32_t n = 0; n < p->cols; n += BLOCK) {
      const uint32_t count = p->cols - n < BLOCK ? p->cols - n : BLOCK;
      uint32_t d[BLOCK];
      dots(lhs, rhs + n * depth, depth, p->lhs_offset, count, d);
      for (uint32_t i = 0; i < count; i++) {
        *out++ = finish(p, d[i], row_term, bias != NULL ? bias[n + i] : 0);
      }
    }
  }
}

/* --- Portable C: each x[k] + a loaded once for the block's rows. --- */

static void dots_portable(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t count,
                          uint32_t *d) {
  if (count == BLOCK) {
    /* Pointers walked (indexed loads cost an address add each on RISC-V), two k a turn. */
    const int8_t *w0 = w, *w1 = w + depth, *w2 = w1 + depth, *w3 = w2 + depth;
    const int8_t *const end2 = x + (depth & ~1u);
    uint32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (; x != end2; x += 2, w0 += 2, w1 += 2, w2 += 2, w3 += 2) {
      const int32_t xa = x[0] + a, xb = x[1] + a;
      d0 += (uint32_t)(xa * w0[0]) + (uint32_t)(xb * w0[1]);
      d1 += (uint32_t)(xa * w1[0]) + (uint32_t)(xb * w1[1]);
      d2 += (uint32_t)(xa * w2[0]) + (uint32_t)(xb * w2[1]);
      d3 += (uint32_t)(xa * w3[0]) + (uint32_t)(xb * w3[1]);
    }
    if (depth & 1u) {
      const int32_t xa = x[0] + a;
      d0 += (uint32_t)(xa * w0[0]);
      d1 += (uint32_t)(xa * w1[0]);
      d2 += (uint32_t)(xa * w2[0]);
      d3 += (uint32_t)(xa * w3[0]);
    }
    d[0] = d0, d[1] = d1, d[2] = d2, d[3] = d3;
    return;
  }
  for (uint32_t i = 0; i < count; i++, w += depth) {
    uint32_t s = 0;
    for (uint32_t k = 0; k < depth; k++) {
      s += (uint32_t)((x[k] + a) * w[k]);
    }
    d[i] = s;
  }
}

void tp_s8_matmul_portable(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                           int8_t *out) {
  matmul(p, lhs, rhs, bias, out, dots_portable, row_sum);
}

/* --- DSP: SXTAB16/SXTB16 (with their ROR #8 forms) and SMLAD. ---
 * The lhs row is widened once (per chunk of CHUNK columns) into int16 pairs with the offset
 * added: per four columns the words (x0+a, x2+a) and (x1+a, x3+a). A rhs word w then
 * pairs with them as SXTB16(w) = (w0, w2) and SXTB16(w, ROR 8) = (w1, w3): two SMLADs do
 * four MACs, the weights stay as they are. */
#if TP_S8_MATMUL_DSP

enum { CHUNK = 256 }; /* lhs columns widened at a time (a multiple of 4): 512 bytes of stack */
enum { GROUP = 8 };   /* blocks of a row longer than CHUNK formed together: 128 bytes of sums */

static inline uint32_t load4(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4); /* one LDR: these cores load unaligned words */
  return v;
}

/* Bytes 1 and 3 of v sign-extended to two int16 lanes, in one SXTB16 with its rotation
 * (GCC 12 does not fold a rotate into __sxtb16). */
static inline int16x2_t sxtb16_ror8(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* The same, plus the lanes of `add` (SXTAB16 with rotation). */
static inline int16x2_t sxtab16_ror8(int16x2_t add, uint32_t v) {
  int16x2_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(add), "r"(v));
  return r;
}

/* acc + the four products of the widened lhs pairs x[0] = (x0,x2), x[1] = (x1,x3) with the
 * rhs word w. */
static inline int32_t mac4(int32_t acc, const int16x2_t *x, uint32_t w) {
  acc = __smlad(x[0], __sxtb16((int8x4_t)w), acc);
  return __smlad(x[1], sxtb16_ror8(w), acc);
}

/* Widen `len` (a multiple of 4) lhs bytes: xw[2i], xw[2i+1] from the word at x + 4i (xw
 * 8-byte aligned). In asm: six instructions a word (GCC's loop took eight). */
static void widen(int16x2_t *xw, const int8_t *x, uint32_t len, int16x2_t aa) {
  if (len == 0) {
    return;
  }
  const int8_t *const end = x + len;
  uint32_t v, lo, hi;
  __asm__ volatile(
      "1:\n\t"
      "ldr     %[v], [%[x]], #4\n\t"
      "sxtab16 %[lo], %[aa], %[v]\n\t"
      "sxtab16 %[hi], %[aa], %[v], ror #8\n\t"
      "strd    %[lo], %[hi], [%[xw]], #8\n\t"
      "cmp     %[x], %[end]\n\t"
      "bne     1b"
      : [x] "+r"(x), [xw] "+r"(xw), [v] "=&r"(v), [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [aa] "r"(aa), [end] "r"(end)
      : "cc", "memory");
}

/* d[0..4) += the widened columns xw[0, 2 * words) times four rhs rows `depth` apart from w.
 * One asm loop: GCC 12 at -Os spills this loop's 13 live values (four accumulators, the
 * lhs pair, two temporaries, five pointers and strides); here each 16 MACs cost 23
 * instructions: LDRD of the lhs pairs, per row LDR (row 0/2 post-incremented, row 1/3 at
 * +depth), SXTB16, SXTB16 ROR #8, two SMLADs, then CMP and BNE. */
__attribute__((noinline)) static void dots4_dsp(const int16x2_t *xw, uint32_t words, const int8_t *w, uint32_t depth,
                                               int32_t *d) {
  if (words == 0) {
    return;
  }
  const int16x2_t *end = xw + 2 * words;
  const int8_t *w2 = w + 2 * depth;
  int32_t d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3];
  uint32_t x02, x13, t0, t1;
  __asm__(
      "1:\n\t"
      "ldrd   %[x02], %[x13], [%[xw]], #8\n\t"
      "ldr    %[t0], [%[w], %[k]]\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d1], %[x02], %[t1], %[d1]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d1], %[x13], %[t0], %[d1]\n\t"
      "ldr    %[t0], [%[w]], #4\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d0], %[x02], %[t1], %[d0]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d0], %[x13], %[t0], %[d0]\n\t"
      "ldr    %[t0], [%[w2], %[k]]\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d3], %[x02], %[t1], %[d3]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d3], %[x13], %[t0], %[d3]\n\t"
      "ldr    %[t0], [%[w2]], #4\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d2], %[x02], %[t1], %[d2]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d2], %[x13], %[t0], %[d2]\n\t"
      "cmp    %[xw], %[end]\n\t"
      "bne    1b"
      : [d0] "+r"(d0), [d1] "+r"(d1), [d2] "+r"(d2), [d3] "+r"(d3), [xw] "+r"(xw), [w] "+r"(w), [w2] "+r"(w2),
        [x02] "=&r"(x02), [x13] "=&r"(x13), [t0] "=&r"(t0), [t1] "=&r"(t1)
      : [end] "r"(end), [k] "r"(depth)
      : "cc", "memory");
  d[0] = d0, d[1] = d1, d[2] = d2, d[3] = d3;
}

/* dots4_dsp for a lhs row longer than CHUNK, widening it on the fly instead of a chunk at a
 * time for every block of four rhs rows: each lhs word is widened (SXTAB16 and its ROR #8 form
 * with the offset) as it is read, 25 instructions per 16 MACs. One naked routine, every value
 * in a register: r1 the lhs, r0 its end, r2/r3 rhs rows 0 and 2 (rows 1 and 3 at +depth, r8),
 * r4-r7 the sums, r9 the offset in both lanes, r10/r11 the lhs pairs, r12/lr the weights; the
 * arguments' address is kept on the stack for the sums' store. */
typedef struct raw4_args {
  const int8_t *x, *x_end; /* the lhs columns, a multiple of 4 */
  const int8_t *w;         /* rhs row 0 at the first column; rows 1-3 `depth` apart */
  uint32_t depth;
  int16x2_t aa;            /* the lhs offset in both lanes */
  int32_t d[BLOCK];        /* the four sums, added to */
} raw4_args;

_Static_assert(offsetof(raw4_args, x_end) == 4 && offsetof(raw4_args, w) == 8 && offsetof(raw4_args, depth) == 12 &&
                   offsetof(raw4_args, aa) == 16 && offsetof(raw4_args, d) == 20,
               "dots4_raw's offsets");

/* Rhs row sum register `acc` from the weight word loaded by `load`. */
#define RAW_ROW(load, acc)                          \
  load "\n\t"                                       \
  "sxtb16 lr, r12\n\t"                              \
  "smlad  " acc ", r10, lr, " acc "\n\t"            \
  "sxtb16 r12, r12, ror #8\n\t"                     \
  "smlad  " acc ", r11, r12, " acc "\n\t"

__attribute__((naked, noinline)) static void dots4_raw(raw4_args *a) {
  (void)a;
  __asm__ volatile("push   {r0, r4-r11, lr}\n\t"
                   "ldrd   r1, r3, [r0, #0]\n\t" /* x, x_end (into r3 for now) */
                   "ldrd   r2, r8, [r0, #8]\n\t" /* w, depth */
                   "ldr    r9, [r0, #16]\n\t"
                   "add    r12, r0, #20\n\t"
                   "ldmia  r12, {r4-r7}\n\t"
                   "mov    r0, r3\n\t"
                   "add    r3, r2, r8, lsl #1\n\t" /* row 2 */
                   "1:\n\t"
                   "ldr    r11, [r1], #4\n\t"
                   "sxtab16 r10, r9, r11\n\t"
                   "sxtab16 r11, r9, r11, ror #8\n\t" RAW_ROW("ldr    r12, [r2, r8]", "r5")
                       RAW_ROW("ldr    r12, [r2], #4", "r4") RAW_ROW("ldr    r12, [r3, r8]", "r7")
                           RAW_ROW("ldr    r12, [r3], #4", "r6")
                   "cmp    r1, r0\n\t"
                   "bne    1b\n\t"
                   "ldr    r12, [sp]\n\t"
                   "add    r12, r12, #20\n\t"
                   "stmia  r12, {r4-r7}\n\t"
                   "pop    {r0, r4-r11, pc}\n\t");
}
#undef RAW_ROW

/* d[0..count) += the same for count (1..3) rows, in C: two rows, then one. */
static void dots_few_dsp(const int16x2_t *xw, uint32_t words, const int8_t *w, uint32_t depth, uint32_t count,
                         int32_t *d) {
  if (count >= 2) {
    const int8_t *w1 = w + depth;
    int32_t d0 = d[0], d1 = d[1];
    for (uint32_t j = 0; j < words; j++) {
      d0 = mac4(d0, xw + 2 * j, load4(w + 4 * j));
      d1 = mac4(d1, xw + 2 * j, load4(w1 + 4 * j));
    }
    d[0] = d0, d[1] = d1;
    w += 2 * depth, d += 2, count -= 2;
  }
  if (count == 1) {
    int32_t d0 = d[0];
    for (uint32_t j = 0; j < words; j++) {
      d0 = mac4(d0, xw + 2 * j, load4(w + 4 * j));
    }
    d[0] = d0;
  }
}

/* finish, with the requantization's SMMULR form when the shift is a right shift (right =
 * -shift, 1..31; 0 for any other shift) and the total lies in [-2^30, 2^30) (as quick4's):
 * (2 total mult + 2^31) >> 32 is tp_requantize's (total mult + 2^30) >> 31, and
 * (h + (h < 0 ? -1 : 0) + 2^(right-1)) >> right its rounding half away from zero: the same
 * bytes, without the 64-bit steps of the wide total's general path. */
__attribute__((noinline)) static int8_t finish_dsp(const tp_s8_matmul *p, uint32_t dot, int64_t row_term, int32_t bias,
                                int32_t right) {
  const int64_t total = p->wide ? (int64_t)(int32_t)dot + row_term + bias
                                : (int64_t)(int32_t)(dot + (uint32_t)(uint64_t)row_term + (uint32_t)bias);
  if (right == 0 || total < -(1ll << 30) || total >= (1ll << 30)) {
    return finish(p, dot, row_term, bias);
  }
  int32_t h;
  __asm__("smmulr %0, %1, %2" : "=r"(h) : "r"((int32_t)total * 2), "r"(p->multiplier));
  const int32_t r = (h + (h >> 31) + (1 << (right - 1))) >> right;
  return (int8_t)tp_clamp_i32((int32_t)((uint32_t)r + (uint32_t)p->out_offset), p->act_min, p->act_max);
}

/* The quick epilogue's constants for a call (finish_dsp's arithmetic): right 0 when the shift
 * is not a right shift (then quick4 is not used). */
typedef struct quick_rq {
  int32_t mult, right, half, off, lo, hi;
} quick_rq;

/* The four outs of a full block by finish_dsp's SMMULR form: each total dot + term + bias in
 * int32 with its overflow checked (ADDS, BVS) and its range [-2^30, 2^30) (SSAT #31 leaves it
 * as it is: twice it fits int32, which is all the SMMULR form needs); 0 (nothing written) when
 * one fails, and the caller takes finish_dsp. In assembly: GCC's version kept the totals on
 * the stack and reloaded the constants (40 instructions an out byte, here 22). */
typedef struct quick4_args {
  const quick_rq *q;
  const int32_t *d;     /* the four dot products */
  int32_t term;         /* the row term (its low 32 bits) */
  const int32_t *bias;  /* the block's four biases */
  int8_t *out;
} quick4_args;

_Static_assert(offsetof(quick_rq, right) == 4 && offsetof(quick_rq, hi) == 20 && offsetof(quick4_args, d) == 4 &&
                   offsetof(quick4_args, term) == 8 && offsetof(quick4_args, bias) == 12 &&
                   offsetof(quick4_args, out) == 16,
               "quick4's offsets");

/* Total `t` (r4-r7) += the row term r2 and its bias `b`, checked. */
#define Q4_TOTAL(t, b)                              \
  "adds   " t ", " t ", r2\n\t"                     \
  "bvs    9f\n\t"                                   \
  "adds   " t ", " t ", " b "\n\t"                  \
  "bvs    9f\n\t"                                   \
  "ssat   lr, #31, " t "\n\t"                       \
  "cmp    lr, " t "\n\t"                            \
  "bne    9f\n\t"
/* Out byte i from total `t`: multiplier r1, right r2, half r3, out zero point r8, range r9-r10. */
#define Q4_OUT(t, i)                                \
  "add    " t ", " t ", " t "\n\t"                  \
  "smmulr " t ", " t ", r1\n\t"                     \
  "add    " t ", " t ", " t ", asr #31\n\t"         \
  "add    " t ", " t ", r3\n\t"                     \
  "asr    " t ", " t ", r2\n\t"                     \
  "add    " t ", " t ", r8\n\t"                     \
  "cmp    " t ", r9\n\t"                            \
  "it     lt\n\t"                                   \
  "movlt  " t ", r9\n\t"                            \
  "cmp    " t ", r10\n\t"                           \
  "it     gt\n\t"                                   \
  "movgt  " t ", r10\n\t"                           \
  "strb   " t ", [r12, #" #i "]\n\t"

__attribute__((naked, noinline)) static bool quick4(const quick4_args *a) {
  (void)a;
  __asm__ volatile("push   {r4-r11, lr}\n\t"
                   "ldmia  r0, {r0, r1, r2, r3, r12}\n\t" /* q, d, term, bias, out */
                   "ldmia  r1, {r4-r7}\n\t"
                   "ldmia  r3, {r8-r11}\n\t" Q4_TOTAL("r4", "r8") Q4_TOTAL("r5", "r9") Q4_TOTAL("r6", "r10")
                       Q4_TOTAL("r7", "r11")
                   "ldmia  r0, {r1, r2, r3, r8, r9, r10}\n\t" Q4_OUT("r4", 0) Q4_OUT("r5", 1) Q4_OUT("r6", 2)
                       Q4_OUT("r7", 3)
                   "movs   r0, #1\n\t"
                   "pop    {r4-r11, pc}\n\t"
                   "9:\n\t"
                   "movs   r0, #0\n\t"
                   "pop    {r4-r11, pc}\n\t");
}

/* The full blocks of four outs of one lhs row in one routine, when the row has no tail
 * (depth % 4 == 0) and the shift is a right shift: per block dots4_dsp's loop (four steps a
 * turn), then finish_dsp's SMMULR form, without a call or the C loop's bookkeeping between
 * them (these cost more than the products in the small layers). A row longer than CHUNK is
 * widened a chunk at a time, the blocks' sums kept in `acc` between chunks.
 * The sums start from the biases (first chunk) and take the row term by QADD: SMLAD and QADD
 * set the sticky Q flag when a sum overflows int32, so with Q clear after the call each total
 * was exact (the wide total's int64 too) and needed only the range check [-2^30, 2^30) (bit 31
 * of t ^ (t << 1)); with Q set the caller does the call's blocks again.
 * The out offset is folded into the rounding constant (half + offset << right: the caller
 * keeps |offset| <= 256 and right <= 21, so it cannot overflow), the clamp is SSAT to 16 bits
 * and SSUB16/SEL against the range in both lanes, two outs at a time, and one STR writes the
 * block's four bytes. A block whose check fails stops it (Q cleared): `blocks` then counts the
 * blocks left, that one first, and the caller takes them (its outs are not written). Q is
 * the caller's to clear (clear_q) before a row's first chunk and to test after the last. */
typedef struct fused_args {
  const int16x2_t *xw, *xw_end; /* the widened lhs chunk */
  const int8_t *w;              /* the block's rhs row 0 at the chunk; rows 1-3 `depth` apart */
  uint32_t depth;
  const int32_t *init;          /* the block's starting sums: its biases (first chunk) or acc */
  int32_t init_step;            /* bytes from one block's to the next's: 16, or 0 (zeros) */
  int8_t *out;
  uint32_t blocks;              /* blocks left */
  int32_t term;                 /* the row term (its low 32 bits) */
  int32_t mult, right, half;    /* half: 2^(right - 1) + out offset * 2^right */
  uint32_t lo2, hi2;            /* the activation range in both int16 lanes */
  int32_t *store;               /* not NULL: the sums go there (4 a block), no outs */
} fused_args;

_Static_assert(offsetof(fused_args, w) == 8 && offsetof(fused_args, depth) == 12 && offsetof(fused_args, init) == 16 &&
                   offsetof(fused_args, init_step) == 20 && offsetof(fused_args, out) == 24 &&
                   offsetof(fused_args, blocks) == 28 && offsetof(fused_args, term) == 32 &&
                   offsetof(fused_args, mult) == 36 && offsetof(fused_args, lo2) == 48 &&
                   offsetof(fused_args, store) == 56,
               "fused4's offsets");

/* One step of four lhs columns: r9/r10 their pairs, rows 0-3 from r1 (+r8) and r2 (+r8). */
#define F4_STEP                                     \
  "ldrd   r9, r10, [r0], #8\n\t"                    \
  "ldr    r11, [r1, r8]\n\t"                        \
  "sxtb16 r12, r11\n\t"                             \
  "smlad  r5, r9, r12, r5\n\t"                      \
  "sxtb16 r11, r11, ror #8\n\t"                     \
  "smlad  r5, r10, r11, r5\n\t"                     \
  "ldr    r11, [r1], #4\n\t"                        \
  "sxtb16 r12, r11\n\t"                             \
  "smlad  r4, r9, r12, r4\n\t"                      \
  "sxtb16 r11, r11, ror #8\n\t"                     \
  "smlad  r4, r10, r11, r4\n\t"                     \
  "ldr    r11, [r2, r8]\n\t"                        \
  "sxtb16 r12, r11\n\t"                             \
  "smlad  r7, r9, r12, r7\n\t"                      \
  "sxtb16 r11, r11, ror #8\n\t"                     \
  "smlad  r7, r10, r11, r7\n\t"                     \
  "ldr    r11, [r2], #4\n\t"                        \
  "sxtb16 r12, r11\n\t"                             \
  "smlad  r6, r9, r12, r6\n\t"                      \
  "sxtb16 r11, r11, ror #8\n\t"                     \
  "smlad  r6, r10, r11, r6\n\t"
/* Out `t` requantized (multiplier r1, right r2, half r3) and saturated to int16. */
#define F4_OUT(t)                                   \
  "add    " t ", " t ", " t "\n\t"                  \
  "smmulr " t ", " t ", r1\n\t"                     \
  "add    " t ", " t ", " t ", asr #31\n\t"         \
  "add    " t ", " t ", r3\n\t"                     \
  "asr    " t ", " t ", r2\n\t"                     \
  "ssat   " t ", #16, " t "\n\t"
/* Lanes of `t` clamped to [lo, hi] (r8, r9). */
#define F4_CLAMP(t)                                 \
  "ssub16 lr, " t ", r8\n\t"                        \
  "sel    " t ", " t ", r8\n\t"                     \
  "ssub16 lr, " t ", r9\n\t"                        \
  "sel    " t ", r9, " t "\n\t"
/* Bit 31 of lr |= t outside [-2^30, 2^30). */
#define F4_RANGE(t)                                 \
  "eor    r0, " t ", " t ", lsl #1\n\t"             \
  "orr    lr, lr, r0\n\t"

__attribute__((naked, noinline)) static void fused4(fused_args *a) {
  (void)a;
  __asm__ volatile("push   {r0, r4-r11, lr}\n\t"
                   "8:\n\t"
                   "ldr    r12, [sp]\n\t"
                   "ldrd   r0, r3, [r12, #0]\n\t"
                   "ldr    r9, [r12, #16]\n\t"
                   "ldmia  r9, {r4-r7}\n\t"
                   "ldrd   r1, r8, [r12, #8]\n\t"
                   "add    r2, r1, r8, lsl #1\n\t"
                   "sub    r9, r3, r0\n\t" /* 8 bytes a step: steps % 4 from bits 3-4 */
                   "ands   r9, r9, #24\n\t"
                   "beq    1f\n\t"
                   "cmp    r9, #16\n\t"
                   "beq    6f\n\t" /* two steps over: the last two of the turn */
                   "bhi    5f\n\t" /* three */
                   "b      7f\n\t" /* one */
                   "1:\n\t" F4_STEP "5:\n\t" F4_STEP "6:\n\t" F4_STEP "7:\n\t" F4_STEP
                   "cmp    r0, r3\n\t"
                   "bne    1b\n\t"
                   "ldr    r12, [sp]\n\t"
                   "ldr    r0, [r12, #56]\n\t"
                   "cbz    r0, 3f\n\t"
                   "stmia  r0!, {r4-r7}\n\t" /* the sums to store */
                   "str    r0, [r12, #56]\n\t"
                   "b      4f\n\t"
                   "3:\n\t"
                   "ldr    r2, [r12, #32]\n\t" /* the row term */
                   "cbz    r2, 5f\n\t"
                   "qadd   r4, r4, r2\n\t"
                   "qadd   r5, r5, r2\n\t"
                   "qadd   r6, r6, r2\n\t"
                   "qadd   r7, r7, r2\n\t"
                   "5:\n\t"
                   "eor    lr, r4, r4, lsl #1\n\t" F4_RANGE("r5") F4_RANGE("r6") F4_RANGE("r7")
                   "tst    lr, #0x80000000\n\t"
                   "bne    9f\n\t"
                   "add    lr, r12, #36\n\t"
                   "ldmia  lr, {r1, r2, r3, r8, r9}\n\t" F4_OUT("r4") F4_OUT("r5") F4_OUT("r6") F4_OUT("r7")
                   "pkhbt  r4, r4, r6, lsl #16\n\t"
                   "pkhbt  r5, r5, r7, lsl #16\n\t" F4_CLAMP("r4") F4_CLAMP("r5")
                   "and    r4, r4, #0x00ff00ff\n\t"
                   "and    r5, r5, #0x00ff00ff\n\t"
                   "orr    r4, r4, r5, lsl #8\n\t"
                   "ldr    r0, [r12, #24]\n\t"
                   "str    r4, [r0], #4\n\t"
                   "str    r0, [r12, #24]\n\t"
                   "4:\n\t" /* the next block */
                   "ldrd   r1, r8, [r12, #8]\n\t"
                   "add    r1, r1, r8, lsl #2\n\t"
                   "str    r1, [r12, #8]\n\t"
                   "ldrd   r0, r1, [r12, #16]\n\t"
                   "add    r0, r0, r1\n\t"
                   "str    r0, [r12, #16]\n\t"
                   "ldr    r1, [r12, #28]\n\t"
                   "subs   r1, r1, #1\n\t"
                   "str    r1, [r12, #28]\n\t"
                   "bne    8b\n\t"
                   "pop    {r0, r4-r11, pc}\n\t"
                   "9:\n\t"
                   "pop    {r0, r4-r11, pc}\n\t");
}
#undef F4_RANGE
#undef F4_CLAMP
#undef F4_OUT
#undef F4_STEP

static inline void clear_q(void) {
  __asm__ volatile("msr APSR_nzcvq, %0" : : "r"(0) : "cc");
}

static inline bool q_set(void) {
  uint32_t v;
  __asm__ volatile("mrs %0, apsr" : "=r"(v));
  return (v & (1u << 27)) != 0;
}

/* The four outs of block j of a row (rhs row 0 of block 0 at w0), by dots4_raw and finish_dsp. */
static void block_slow(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *w0, const int32_t *bias0, uint32_t j,
                       int64_t row_term, int32_t right, int16x2_t aa, int8_t *out) {
  const uint32_t depth = p->depth;
  raw4_args r = {lhs, lhs + depth, w0 + j * BLOCK * depth, depth, aa, {0, 0, 0, 0}};
  dots4_raw(&r);
  for (uint32_t i = 0; i < BLOCK; i++) {
    out[i] = finish_dsp(p, (uint32_t)r.d[i], row_term, bias0 != NULL ? bias0[j * BLOCK + i] : 0, right);
  }
}

/* fused4 over fa's blocks (the row's last chunk: fa->store NULL), a block it refuses by
 * block_slow; all of them by block_slow when a sum overflowed (Q). w0, bias0 and out0 are the
 * first block's rhs row 0 (column 0), biases and outs. */
static void fused_rows(fused_args *fa, const tp_s8_matmul *p, const int8_t *lhs, const int8_t *w0,
                       const int32_t *bias0, int64_t row_term, int32_t right, int16x2_t aa) {
  const uint32_t blocks = fa->blocks;
  int8_t *const out0 = fa->out;
  for (;;) {
    fused4(fa);
    if (fa->blocks == 0) {
      break;
    }
    const uint32_t j = blocks - fa->blocks;
    block_slow(p, lhs, w0, bias0, j, row_term, right, aa, fa->out);
    fa->w += BLOCK * p->depth, fa->init += fa->init_step / 4, fa->out += BLOCK;
    if (--fa->blocks == 0) {
      break;
    }
  }
  if (q_set()) {
    for (uint32_t j = 0; j < blocks; j++) {
      block_slow(p, lhs, w0, bias0, j, row_term, right, aa, out0 + j * BLOCK);
    }
  }
}
#undef Q4_OUT
#undef Q4_TOTAL

/* The biases of a call without any. */
static const int32_t no_bias[BLOCK] = {0, 0, 0, 0};

/* What fused_long_row needs of tp_s8_matmul_dsp's row. */
typedef struct long_row_args {
  const tp_s8_matmul *p;
  const int8_t *lhs, *rhs;
  const int32_t *bias;
  int8_t *out;
  int16x2_t *xw; /* CHUNK / 2 pairs of scratch */
  uint32_t blocks;
  int32_t term;
  int64_t row_term;
  int32_t right, half;
  uint32_t lo2, hi2;
  int16x2_t aa;
} long_row_args;

/* fused4 over a row longer than CHUNK: GROUP blocks at a time, their sums kept in acc between the
 * row's chunks. Out of line, so the 128 bytes of sums are on the stack only while it runs. */
static __attribute__((noinline)) void fused_long_row(const long_row_args *la) {
  const tp_s8_matmul *p = la->p;
  const uint32_t depth = p->depth;
  int32_t acc[GROUP * BLOCK];
  for (uint32_t g = 0; g < la->blocks; g += GROUP) {
    const uint32_t count = la->blocks - g < GROUP ? la->blocks - g : GROUP;
    const int8_t *w = la->rhs + g * BLOCK * depth;
    const int32_t *b = la->bias != NULL ? la->bias + g * BLOCK : NULL;
    for (uint32_t c = 0; c < depth; c += CHUNK) {
      const uint32_t len = depth - c < CHUNK ? depth - c : CHUNK;
      widen(la->xw, la->lhs + c, len, la->aa);
      const bool first = c == 0, last = c + len == depth;
      const int32_t *init = !first ? acc : b != NULL ? b : no_bias;
      fused_args fa = {la->xw, la->xw + len / 2, w + c,   depth,    init,     first && b == NULL ? 0 : 16,
                       la->out + g * BLOCK,     count,   la->term, p->multiplier, la->right, la->half, la->lo2,
                       la->hi2, last ? NULL : acc};
      if (first) {
        clear_q();
      }
      if (last) {
        fused_rows(&fa, p, la->lhs, w, b, la->row_term, la->right, la->aa);
      } else {
        fused4(&fa); /* sums only: no check to fail */
      }
    }
  }
}

void tp_s8_matmul_dsp(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out) {
  const int32_t right = p->shift <= -1 && p->shift >= -31 ? -p->shift : 0;
  const quick_rq q = {p->multiplier, right, right > 0 ? 1 << (right - 1) : 0, p->out_offset, p->act_min, p->act_max};
  int16x2_t xw[CHUNK / 2] __attribute__((aligned(8)));
  const uint32_t depth = p->depth, body = depth & ~3u;
  const int32_t a = p->lhs_offset;
  const int16x2_t aa = (int16x2_t)(((uint32_t)a << 16) | ((uint32_t)a & 0xffffu)); /* a in both lanes */
  /* fused4's conditions (see there): no tail, a right shift of at most 21, a small out offset. */
  const bool fused = body == depth && depth >= 4 && right > 0 && right <= 21 && p->out_offset >= -256 &&
                     p->out_offset <= 256;
  const int32_t half = fused ? (1 << (right - 1)) + p->out_offset * (1 << right) : 0;
  const uint32_t lo2 = ((uint32_t)p->act_min << 16) | ((uint32_t)p->act_min & 0xffffu);
  const uint32_t hi2 = ((uint32_t)p->act_max << 16) | ((uint32_t)p->act_max & 0xffffu);
  for (uint32_t m = 0; m < p->rows; m++, lhs += depth) {
    const int64_t row_term = p->rhs_offset != 0 ? (int64_t)p->rhs_offset * row_sum(lhs, depth, a) : 0;
    bool widened = false; /* xw holds the whole row (body <= CHUNK) */
    /* For a wrapping int32 total (!wide) the low 32 bits of the term are all of it. */
    const bool term32 = !p->wide || row_term == (int64_t)(int32_t)row_term;
    uint32_t n = 0;
    if (fused && term32 && p->cols >= BLOCK) {
      const uint32_t blocks = p->cols / BLOCK;
      const int32_t term = (int32_t)(uint32_t)(uint64_t)row_term;
      if (depth <= CHUNK) { /* the row widened once, then every block in one call */
        widen(xw, lhs, depth, aa);
        widened = true;
        fused_args fa = {xw,     xw + depth / 2, rhs,     depth,   bias != NULL ? bias : no_bias, bias != NULL ? 16 : 0,
                         out,    blocks,         term,    p->multiplier, right, half, lo2, hi2, NULL};
        clear_q();
        fused_rows(&fa, p, lhs, rhs, bias, row_term, right, aa);
      } else { /* GROUP blocks at a time (in a frame of its own: its sums are on the stack only then) */
        const long_row_args la = {p, lhs, rhs, bias, out, xw, blocks, term, row_term, right, half, lo2, hi2, aa};
        fused_long_row(&la);
      }
      n = blocks * BLOCK;
      out += n;
    }
    for (; n < p->cols; n += BLOCK) {
      const uint32_t count = p->cols - n < BLOCK ? p->cols - n : BLOCK;
      const int8_t *w = rhs + n * depth;
      int32_t d[BLOCK] = {0, 0, 0, 0};
      if (body > CHUNK && count == BLOCK) { /* widened on the fly: no chunk widened per block */
        raw4_args r = {lhs, lhs + body, w, depth, aa, {0, 0, 0, 0}};
        dots4_raw(&r);
        memcpy(d, r.d, sizeof d);
      }
      for (uint32_t c = 0; c < body && !(body > CHUNK && count == BLOCK); c += CHUNK) {
        const uint32_t len = body - c < CHUNK ? body - c : CHUNK;
        if (!widened) {
          widen(xw, lhs + c, len, aa);
          widened = body <= CHUNK;
        }
        if (count == BLOCK) {
          dots4_dsp(xw, len >> 2, w + c, depth, d);
        } else {
          dots_few_dsp(xw, len >> 2, w + c, depth, count, d);
        }
      }
      /* A full block without a tail: quick4 when the totals are small and the row term fits
       * int32 (for a wrapping int32 total, !wide, its low 32 bits are the term). */
      const quick4_args qa = {&q, d, (int32_t)(uint32_t)(uint64_t)row_term, bias != NULL ? bias + n : no_bias, out};
      if (count == BLOCK && body == depth && right > 0 && term32 && quick4(&qa)) {
        out += BLOCK;
        continue;
      }
      for (uint32_t i = 0; i < count; i++) {
        uint32_t s = (uint32_t)d[i];
        for (uint32_t k = body; k < depth; k++) { /* the last depth % 4 columns */
          s += (uint32_t)((lhs[k] + a) * w[i * depth + k]);
        }
        *out++ = finish_dsp(p, s, row_term, bias != NULL ? bias[n + i] : 0, right);
      }
    }
  }
}

#endif /* TP_S8_MATMUL_DSP */

/* --- Helium: VMLADAVA.S8, 16 products an instruction. ---
 * Full vectors run unpredicated; the last depth % 16 columns are one VCTP8-predicated step
 * (zeroing loads: inactive lanes read nothing and add 0), never a scalar loop. VMLADAVA and
 * VADDVA accumulate into even registers only, so blocks keep at most four accumulators:
 * four rhs rows when a = 0 (quantized_linear's kernel_sum mode, weights symmetric), else two
 * rows, each with its weight sum (dot = x . w + a * sum w). */
#if TP_S8_MATMUL_MVE

/* The four dot products x . w_i for rows w_0..w_3 `depth` apart (a = 0), in d[0..4): the loop
 * dots4_mve and fused_mve share (inlined into both: no call per block in fused_mve). */
typedef struct dots4 {
  int32_t d[BLOCK];
} dots4;

__attribute__((always_inline)) static inline dots4 dots4_lanes(const int8_t *x, const int8_t *w, uint32_t depth,
                                                               mve_pred16_t tail) {
  const int8_t *w1 = w + depth, *w2 = w1 + depth, *w3 = w2 + depth;
  int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (uint32_t j = depth >> 4; j > 0; j--) {
    const int8x16_t xv = vldrbq_s8(x);
    d0 = vmladavaq_s8(d0, xv, vldrbq_s8(w));
    d1 = vmladavaq_s8(d1, xv, vldrbq_s8(w1));
    d2 = vmladavaq_s8(d2, xv, vldrbq_s8(w2));
    d3 = vmladavaq_s8(d3, xv, vldrbq_s8(w3));
    x += 16, w += 16, w1 += 16, w2 += 16, w3 += 16;
  }
  if ((depth & 15u) != 0) {
    const int8x16_t xv = vldrbq_z_s8(x, tail);
    d0 = vmladavaq_s8(d0, xv, vldrbq_z_s8(w, tail));
    d1 = vmladavaq_s8(d1, xv, vldrbq_z_s8(w1, tail));
    d2 = vmladavaq_s8(d2, xv, vldrbq_z_s8(w2, tail));
    d3 = vmladavaq_s8(d3, xv, vldrbq_z_s8(w3, tail));
  }
  return (dots4){{d0, d1, d2, d3}};
}

/* d[0..4) = x . w_i for four rows `depth` apart (a = 0). */
__attribute__((noinline)) static void dots4_mve(const int8_t *x, const int8_t *w, uint32_t depth, uint32_t *d) {
  const dots4 r = dots4_lanes(x, w, depth, vctp8q(depth & 15u));
  d[0] = (uint32_t)r.d[0], d[1] = (uint32_t)r.d[1], d[2] = (uint32_t)r.d[2], d[3] = (uint32_t)r.d[3];
}

/* d[0..2) = x . w_i + a * sum w_i for two rows `depth` apart. */
__attribute__((noinline)) static void dots2_mve(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t *d) {
  const int8_t *w1 = w + depth;
  int32_t d0 = 0, d1 = 0, s0 = 0, s1 = 0;
  for (uint32_t j = depth >> 4; j > 0; j--) {
    const int8x16_t xv = vldrbq_s8(x), v0 = vldrbq_s8(w), v1 = vldrbq_s8(w1);
    d0 = vmladavaq_s8(d0, xv, v0), s0 = vaddvaq_s8(s0, v0);
    d1 = vmladavaq_s8(d1, xv, v1), s1 = vaddvaq_s8(s1, v1);
    x += 16, w += 16, w1 += 16;
  }
  if ((depth & 15u) != 0) {
    const mve_pred16_t p = vctp8q(depth & 15u);
    const int8x16_t xv = vldrbq_z_s8(x, p), v0 = vldrbq_z_s8(w, p), v1 = vldrbq_z_s8(w1, p);
    d0 = vmladavaq_s8(d0, xv, v0), s0 = vaddvaq_s8(s0, v0);
    d1 = vmladavaq_s8(d1, xv, v1), s1 = vaddvaq_s8(s1, v1);
  }
  d[0] = (uint32_t)d0 + (uint32_t)a * (uint32_t)s0, d[1] = (uint32_t)d1 + (uint32_t)a * (uint32_t)s1;
}

/* d[0] = x . w + a * sum w. */
__attribute__((noinline)) static void dots1_mve(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t *d) {
  int32_t d0 = 0, s0 = 0;
  for (uint32_t k = 0; k < depth; k += 16) {
    const mve_pred16_t p = vctp8q(depth - k); /* all lanes but in the last step */
    const int8x16_t v = vldrbq_z_s8(w + k, p);
    d0 = vmladavaq_s8(d0, vldrbq_z_s8(x + k, p), v), s0 = vaddvaq_s8(s0, v);
  }
  d[0] = (uint32_t)d0 + (uint32_t)a * (uint32_t)s0;
}

static void dots_mve(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t count, uint32_t *d) {
  if (a == 0 && count == BLOCK) {
    dots4_mve(x, w, depth, d);
    return;
  }
  for (; count >= 2; count -= 2, w += 2 * depth, d += 2) {
    dots2_mve(x, w, depth, a, d);
  }
  if (count == 1) {
    dots1_mve(x, w, depth, a, d);
  }
}

static int32_t row_sum_mve(const int8_t *x, uint32_t depth, int32_t a) {
  int32_t s = (int32_t)depth * a;
  for (uint32_t k = 0; k < depth; k += 16) {
    s = vaddvaq_s8(s, vldrbq_z_s8(x + k, vctp8q(depth - k)));
  }
  return s;
}

/* The four outs of a full block, four lanes: when every total dot + term + bias fits in
 * [-2^30, 2^30) (int32 additions, overflow checked) and the shift is a right shift,
 * requantize_cmsis is VQRDMULH (which saturates only for an INT32_MIN multiplier, excluded)
 * and a right shift rounding half away from zero (VRSHL rounds half up: negative values move
 * down by one first), then the out offset and the clamp; false (nothing written) otherwise. */
static bool quick4_mve(const tp_s8_matmul *p, const uint32_t d[BLOCK], int32_t term, const int32_t *bias,
                       int8_t *out) {
  int32_t t[BLOCK];
  for (uint32_t i = 0; i < BLOCK; i++) {
    int32_t v;
    if (__builtin_add_overflow((int32_t)d[i], term, &v) ||
        __builtin_add_overflow(v, bias != NULL ? bias[i] : 0, &v) || v < -(1 << 30) || v >= (1 << 30)) {
      return false;
    }
    t[i] = v;
  }
  int32x4_t v = vqrdmulhq_n_s32(vldrwq_s32(t), p->multiplier);
  v = vrshlq_n_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), p->shift);
  v = vaddq_n_s32(v, p->out_offset);
  v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
  vstrbq_s32(out, v);
  return true;
}

/* Every full block of a row when a = 0 (dots4_mve's form) and quick4_mve's shift applies, in
 * one loop: the four dot products into the lanes of a vector, then the totals as VQADDs of the
 * biases and of the row term (|term| < 2^30, which the caller checks): a lane that saturates
 * ends outside [-2^30, 2^30) (the term cannot bring it back), so one range check on the
 * lanes (bit 31 of t ^ (t << 1)) says whether each total is exact and small, and quick4_mve's
 * arithmetic follows; a block that fails takes finish. No call, no stack between blocks. */
static void fused_mve(const tp_s8_matmul *p, const int8_t *x, const int8_t *w, const int32_t *bias, int64_t row_term,
                      uint32_t blocks, int8_t *out) {
  const uint32_t depth = p->depth;
  const mve_pred16_t tail = vctp8q(depth & 15u);
  const int32x4_t term = vdupq_n_s32((int32_t)row_term);
  for (uint32_t b = 0; b < blocks; b++, w += BLOCK * depth, out += BLOCK) {
    const dots4 r = dots4_lanes(x, w, depth, tail);
    const int32_t d0 = r.d[0], d1 = r.d[1], d2 = r.d[2], d3 = r.d[3];
    int32x4_t t = vsetq_lane_s32(d3, vsetq_lane_s32(d2, vsetq_lane_s32(d1, vdupq_n_s32(d0), 1), 2), 3);
    if (bias != NULL) {
      t = vqaddq_s32(t, vldrwq_s32(bias + b * BLOCK));
    }
    t = vqaddq_s32(t, term);
    if (vminvq_s32(0, veorq_s32(t, vshlq_n_s32(t, 1))) < 0) { /* a lane outside [-2^30, 2^30) */
      const uint32_t d[BLOCK] = {(uint32_t)d0, (uint32_t)d1, (uint32_t)d2, (uint32_t)d3};
      for (uint32_t i = 0; i < BLOCK; i++) {
        out[i] = finish(p, d[i], row_term, bias != NULL ? bias[b * BLOCK + i] : 0);
      }
      continue;
    }
    int32x4_t v = vqrdmulhq_n_s32(t, p->multiplier);
    v = vrshlq_n_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), p->shift);
    v = vaddq_n_s32(v, p->out_offset);
    v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
    vstrbq_s32(out, v);
  }
}

/* matmul with quick4_mve for full blocks when it applies. */
void tp_s8_matmul_mve(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out) {
  const uint32_t depth = p->depth;
  const bool quick = p->shift <= -1 && p->shift >= -31 && p->multiplier != INT32_MIN;
  for (uint32_t m = 0; m < p->rows; m++, lhs += depth) {
    const int64_t row_term =
        p->rhs_offset != 0 ? (int64_t)p->rhs_offset * row_sum_mve(lhs, depth, p->lhs_offset) : 0;
    /* For a wrapping int32 total (!wide) the low 32 bits of the term are all of it. */
    const bool term32 = !p->wide || row_term == (int64_t)(int32_t)row_term;
    uint32_t n = 0;
    if (quick && p->lhs_offset == 0 && depth > 0 && p->cols >= BLOCK && row_term > -(1ll << 30) &&
        row_term < (1ll << 30)) {
      n = p->cols / BLOCK * BLOCK;
      fused_mve(p, lhs, rhs, bias, row_term, n / BLOCK, out);
      out += n;
    }
    for (; n < p->cols; n += BLOCK) {
      const uint32_t count = p->cols - n < BLOCK ? p->cols - n : BLOCK;
      uint32_t d[BLOCK];
      dots_mve(lhs, rhs + n * depth, depth, p->lhs_offset, count, d);
      if (quick && term32 && count == BLOCK &&
          quick4_mve(p, d, (int32_t)(uint32_t)(uint64_t)row_term, bias != NULL ? bias + n : NULL, out)) {
        out += BLOCK;
        continue;
      }
      for (uint32_t i = 0; i < count; i++) {
        *out++ = finish(p, d[i], row_term, bias != NULL ? bias[n + i] : 0);
      }
    }
  }
}

#endif /* TP_S8_MATMUL_MVE */

void tp_s8_matmul_run(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out) {
#if TP_S8_MATMUL_MVE
  tp_s8_matmul_mve(p, lhs, rhs, bias, out);
#elif TP_S8_MATMUL_DSP
  tp_s8_matmul_dsp(p, lhs, rhs, bias, out);
#else
  tp_s8_matmul_portable(p, lhs, rhs, bias, out);
#endif
}
