/* tp_s8_add_same_shape (s8_add.h): quantized_add over inputs of one shape, with the
 * requantizations' fast arithmetic when every shift is a right shift; Helium four lanes a
 * vector, DSP cores an assembly loop (add_dsp), other cores one element at a time in C. */
#include "cortex_m/engines/s8_add.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define TP_S8_ADD_MVE 1
#endif

/* The loop is an int8 model's residual connections: compiled for speed whatever the build's
 * level (as the convolutions, s8_conv.c). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

static bool right_shift(int32_t shift) { return shift >= -31 && shift <= 0; }

static bool quick(const tp_s8_add *a) {
  return right_shift(a->shift[0]) && right_shift(a->shift[1]) && right_shift(a->out_shift);
}

#if defined(__ARM_FEATURE_DSP) && !defined(TP_S8_ADD_MVE)
static bool dsp_applies(const tp_s8_add *a);
#endif

const char *tp_s8_add_path(const tp_s8_add *a) {
#if defined(TP_S8_ADD_MVE)
  return quick(a) ? "mve" : "general";
#elif defined(__ARM_FEATURE_DSP)
  if (dsp_applies(a)) {
    return "dsp";
  }
  return quick(a) ? "quick" : "general";
#else
  return quick(a) ? "quick" : "general";
#endif
}

/* (2 v mult + 2^31) >> 32: SMMULR of the doubled value (|v| < 2^30 here). */
static inline int32_t high_product(int32_t v, int32_t mult) {
#if defined(__ARM_FEATURE_DSP)
  int32_t h;
  __asm__("smmulr %0, %1, %2" : "=r"(h) : "r"(v * 2), "r"(mult));
  return h;
#else
  return (int32_t)(((int64_t)v * 2 * mult + 0x80000000ll) >> 32);
#endif
}

/* A right shift by 0..31 rounding half away from zero (tp_requantize's): v -> (v + (v < 0 ? -1 :
 * 0) + 2^(right-1)) >> right, the -1 and 2^(right-1) only when right >= 1 (`mask` all ones). */
typedef struct rounding {
  int32_t right, mask, half;
} rounding;

static rounding rounding_of(int32_t shift) {
  const rounding r = {-shift, shift < 0 ? -1 : 0, shift < 0 ? 1 << (-shift - 1) : 0};
  return r;
}

static inline int32_t round_shift(int32_t v, rounding r) { return (v + ((v >> 31) & r.mask) + r.half) >> r.right; }

static inline int8_t quick_one(const tp_s8_add *a, const rounding r[3], int32_t x, int32_t y) {
  const int32_t t0 = round_shift(high_product((x - a->zp[0]) * (1 << 20), a->mult[0]), r[0]);
  const int32_t t1 = round_shift(high_product((y - a->zp[1]) * (1 << 20), a->mult[1]), r[1]);
  const int32_t out = round_shift(high_product(t0 + t1, a->out_mult), r[2]);
  return (int8_t)tp_clamp_i32(out + a->out_zp, a->lo, a->hi);
}

#if defined(TP_S8_ADD_MVE)
/* One input's terms, four lanes: vqrdmulh is (2 v mult + 2^31) >> 32, the doubling built in (it
 * cannot saturate: |v| < 2^29); vrshl by -right adds 2^(right-1) and shifts. */
static inline int32x4_t round_shift_v(int32x4_t h, int32_t shift, int32_t mask) {
  return vrshlq_s32(vaddq_s32(h, vandq_s32(vshrq_n_s32(h, 31), vdupq_n_s32(mask))), vdupq_n_s32(shift));
}

static inline int32x4_t terms(int32x4_t q, int32_t zp, int32_t mult, int32_t shift, int32_t mask) {
  return round_shift_v(vqrdmulhq_n_s32(vshlq_n_s32(vsubq_n_s32(q, zp), 20), mult), shift, mask);
}

static void same_shape_mve(const tp_s8_add *a, const rounding r[3], const int8_t *x, const int8_t *y, int8_t *out,
                           uint32_t n) {
  const int32x4_t lo = vdupq_n_s32(a->lo), hi = vdupq_n_s32(a->hi);
  for (uint32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(n - i);
    const int32x4_t sum = vaddq_s32(terms(vldrbq_z_s32(x + i, p), a->zp[0], a->mult[0], a->shift[0], r[0].mask),
                                    terms(vldrbq_z_s32(y + i, p), a->zp[1], a->mult[1], a->shift[1], r[1].mask));
    const int32x4_t v = round_shift_v(vqrdmulhq_n_s32(sum, a->out_mult), a->out_shift, r[2].mask);
    vstrbq_p_s32(out + i, vminq_s32(vmaxq_s32(vaddq_n_s32(v, a->out_zp), lo), hi), p);
  }
}
#endif

#if defined(__ARM_FEATURE_DSP) && !defined(TP_S8_ADD_MVE)
#include <stddef.h>

/* The quick loop on DSP cores when the sum's shift is a right shift by at least 1 (what the
 * backend's multipliers give: the inputs' shifts are 0 for the larger scale, negative for the
 * other), in assembly: GCC's version keeps the constants on the stack and reloads them one by
 * one; this one loads each requantization's constants with one LDM (r0 the arguments, r1/r2
 * the inputs, r3 the out bytes, r12 their end, r4-r7 and r10/r11 the constants, r8/r9 the
 * terms), 35 instructions an element. */
typedef struct add_args {
  int32_t z0, m0, h0, r0, k0; /* input 0: zero point << 21, multiplier, 2^(right-1) (0 when right
                                 is 0), right, -1 when right >= 1 else 0 (round_shift's mask) */
  int32_t z1, m1, h1, r1, k1; /* input 1 */
  int32_t om, oh, orr, oz, lo, hi; /* the sum's multiplier, 2^(right-1), right; out zero point, range */
  const int8_t *x, *y;
  int8_t *out, *end;
} add_args;

_Static_assert(offsetof(add_args, z1) == 20 && offsetof(add_args, om) == 40 && offsetof(add_args, x) == 64 &&
                   offsetof(add_args, y) == 68 && offsetof(add_args, out) == 72 && offsetof(add_args, end) == 76,
               "add_dsp's offsets");

/* One input's term into register t from the byte at pointer p (constants r4-r7 and r10 just
 * loaded): the doubled (q - zp) << 20 as (q << 21) - (zp << 21), SMMULR, a rounding right
 * shift (round_shift: the sign's -1 masked by r10). */
#define ADD_TERM(t, p)                              \
  "ldrsb  " t ", [" p "], #1\n\t"                   \
  "rsb    " t ", r4, " t ", lsl #21\n\t"            \
  "smmulr " t ", " t ", r5\n\t"                     \
  "and    r11, r10, " t ", asr #31\n\t"             \
  "add    " t ", " t ", r11\n\t"                    \
  "add    " t ", " t ", r6\n\t"                     \
  "asr    " t ", " t ", r7\n\t"

__attribute__((naked, noinline)) static void add_dsp(const add_args *a) {
  (void)a;
  __asm__ volatile("push   {r4-r11, lr}\n\t"
                   "ldrd   r1, r2, [r0, #64]\n\t"
                   "ldrd   r3, r12, [r0, #72]\n\t"
                   "add    lr, r0, #20\n\t"
                   "1:\n\t"
                   "ldmia  r0, {r4-r7, r10}\n\t" ADD_TERM("r8", "r1")
                   "ldmia  lr, {r4-r7, r10}\n\t" ADD_TERM("r9", "r2")
                   "add    r8, r8, r9\n\t"
                   "add    r10, r0, #40\n\t"
                   "ldmia  r10, {r4-r7, r10, r11}\n\t"
                   "add    r8, r8, r8\n\t"
                   "smmulr r8, r8, r4\n\t"
                   "add    r8, r8, r8, asr #31\n\t"
                   "add    r8, r8, r5\n\t"
                   "asr    r8, r8, r6\n\t"
                   "add    r8, r8, r7\n\t"
                   "cmp    r8, r10\n\t"
                   "it     lt\n\t"
                   "movlt  r8, r10\n\t"
                   "cmp    r8, r11\n\t"
                   "it     gt\n\t"
                   "movgt  r8, r11\n\t"
                   "strb   r8, [r3], #1\n\t"
                   "cmp    r3, r12\n\t"
                   "bne    1b\n\t"
                   "pop    {r4-r11, pc}\n\t");
}
#undef ADD_TERM

/* Whether add_dsp applies: the inputs' shifts -31..0, the sum's -31..-1. */
static bool dsp_applies(const tp_s8_add *a) {
  return right_shift(a->shift[0]) && right_shift(a->shift[1]) && a->out_shift >= -31 && a->out_shift <= -1;
}

/* add_dsp for n >= 1 elements when it applies. */
static bool add_dsp_all(const tp_s8_add *a, const int8_t *x, const int8_t *y, int8_t *out, uint32_t n) {
  if (n == 0 || !dsp_applies(a)) {
    return false;
  }
  const int32_t s0 = a->shift[0], s1 = a->shift[1], so = a->out_shift;
  const add_args args = {(int32_t)((uint32_t)a->zp[0] << 21),
                         a->mult[0],
                         s0 < 0 ? 1 << (-s0 - 1) : 0,
                         -s0,
                         s0 < 0 ? -1 : 0,
                         (int32_t)((uint32_t)a->zp[1] << 21),
                         a->mult[1],
                         s1 < 0 ? 1 << (-s1 - 1) : 0,
                         -s1,
                         s1 < 0 ? -1 : 0,
                         a->out_mult,
                         1 << (-so - 1),
                         -so,
                         a->out_zp,
                         a->lo,
                         a->hi,
                         x,
                         y,
                         out,
                         out + n};
  add_dsp(&args);
  return true;
}
#endif

void tp_s8_add_same_shape(const tp_s8_add *a, const int8_t *x, const int8_t *y, int8_t *out, uint32_t n) {
  if (!quick(a)) {
    for (uint32_t i = 0; i < n; i++) {
      out[i] = tp_s8_add_one(a, x[i], y[i]);
    }
    return;
  }
  const rounding r[3] = {rounding_of(a->shift[0]), rounding_of(a->shift[1]), rounding_of(a->out_shift)};
#if defined(TP_S8_ADD_MVE)
  same_shape_mve(a, r, x, y, out, n);
#else
#if defined(__ARM_FEATURE_DSP)
  if (add_dsp_all(a, x, y, out, n)) {
    return;
  }
#endif
  const tp_s8_add local = *a; /* a local: the out stores cannot alias it */
  for (uint32_t i = 0; i < n; i++) {
    out[i] = quick_one(&local, r, x[i], y[i]);
  }
#endif
}
