/* tp_s8_add_same_shape (s8_add.h): quantized_add over inputs of one shape, with the
 * requantizations' fast arithmetic when every shift is a right shift; Helium four lanes a
 * vector, other cores one element at a time. */
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

const char *tp_s8_add_path(const tp_s8_add *a) {
#if defined(TP_S8_ADD_MVE)
  return quick(a) ? "mve" : "general";
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
  const tp_s8_add local = *a; /* a local: the out stores cannot alias it */
  for (uint32_t i = 0; i < n; i++) {
    out[i] = quick_one(&local, r, x[i], y[i]);
  }
#endif
}
