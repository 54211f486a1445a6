/* The fast routines of the _nhwc int8 convolutions on Helium (MVE) cores: int8 dot products
 * (VMLADAVA, 16 products an instruction) over the windows of four columns at a time; the zoo's
 * case (every channel shifting right) in assembly routines (quads_mve; two channels a step,
 * pairs_mve, when K is a multiple of 16), others tail-predicated in C; requantization four
 * lanes at a time. Depthwise with a depth multiplier of 1: s8_conv_mve_dw1.c. */
#include <stddef.h>

#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_MVE)
/* ---- Helium: int8 dot products over the window, tail-predicated ---- */

/* n bytes from src to dst, 16 a step and the rest a word at a time (GCC's predicated steps
 * cost three times as much); n bytes of v when src is NULL. */
__attribute__((noinline)) static void copy_run(int8_t *dst, const int8_t *src, int32_t n, int8_t v) {
  int32_t i = 0;
  if (src != NULL) {
    for (; i + 16 <= n; i += 16) {
      vstrbq_s8(dst + i, vldrbq_s8(src + i));
    }
    copy_bytes(dst + i, src + i, n - i);
    return;
  }
  const int8x16_t v16 = vdupq_n_s8(v);
  for (; i + 16 <= n; i += 16) {
    vstrbq_s8(dst + i, v16);
  }
  fill_bytes(dst + i, v, n - i);
}

/* The window of a column as int8, K = kh * kw * Cin values, a row of taps at a time (one run of
 * kw Cin bytes when the row and its columns lie inside the image); padding taps hold
 * -input_offset, which the offset brings to 0. The dot product adds input_offset * sum(w)
 * afterwards. */
static void im2col_s8(const tp_s8_conv *st, const int8_t *in, column c, int8_t *col) {
  const int32_t cin = st->in_c, run = st->k_w * cin;
  const int8_t pad = (int8_t)-st->input_offset;
  const bool cols_inside = row_run_inside(st, c);
  for (int32_t ky = 0; ky < st->k_h; ky++, col += run) {
    const int32_t iy = c.y0 + ky * st->dil_h;
    if (iy < 0 || iy >= st->in_h) {
      copy_run(col, NULL, run, pad);
      continue;
    }
    const int8_t *const row = in + iy * st->in_sy;
    if (cols_inside) {
      copy_run(col, row + c.x0 * st->in_sx, run, pad);
      continue;
    }
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int32_t ix = c.x0 + kx * st->dil_w;
      copy_run(col + kx * cin, ix >= 0 && ix < st->in_w ? row + ix * st->in_sx : NULL, cin, pad);
    }
  }
}

/* A column's window into `stage` when its rows of taps are runs of at most 16 bytes (a first
 * layer's few channels, no horizontal dilation): each row one predicated load of the part of its
 * run inside the image (lanes [lo, hi); the other lanes of the run -input_offset, the lanes past
 * it zero; padding rows -input_offset then zeros) stored as 16 bytes at its place, the next row
 * overwriting the zeros, the last row's store ending at kp; then zeros up to kp. The lanes not
 * loaded are not read (a predicated load), so a border column's run may start before its row.
 * Writes kp bytes, and up to K - 2 run + 16 before the last row. */
__attribute__((noinline)) static void im2col_rows16(const tp_s8_conv *st, const int8_t *in, column c,
                                                   int8_t *stage, int32_t kp) {
  const int32_t cin = st->in_c, run = st->k_w * cin, K = st->k_h * run, last = st->k_h - 1;
  const mve_pred16_t p = vctp8q((uint32_t)run);
  const int8x16_t pad = vdupq_m_n_s8(vdupq_n_s8(0), (int8_t)-st->input_offset, p);
  uintptr_t src = (uintptr_t)in + (uintptr_t)(c.y0 * st->in_sy) + (uintptr_t)(c.x0 * st->in_sx);
  const uintptr_t row_step = (uintptr_t)(st->dil_h * st->in_sy);
  int8x16_t v;
  if (c.x0 >= 0 && c.x0 + st->k_w <= st->in_w) {
    for (int32_t ky = 0, iy = c.y0; ky < last; ky++, iy += st->dil_h, src += row_step) {
      vstrbq_s8(stage + ky * run, iy >= 0 && iy < st->in_h ? vldrbq_z_s8((const int8_t *)src, p) : pad);
    }
    const int32_t iy = c.y0 + last * st->dil_h;
    v = iy >= 0 && iy < st->in_h ? vldrbq_z_s8((const int8_t *)src, p) : pad;
  } else {
    const int32_t lo = c.x0 < 0 ? -c.x0 * cin : 0;
    const int32_t hi = (st->in_w - c.x0) * cin < run ? (st->in_w - c.x0) * cin : run;
    const mve_pred16_t inside = (mve_pred16_t)(vctp8q((uint32_t)(hi > lo ? hi : 0)) & ~vctp8q((uint32_t)lo));
    for (int32_t ky = 0, iy = c.y0; ky < last; ky++, iy += st->dil_h, src += row_step) {
      vstrbq_s8(stage + ky * run,
                iy >= 0 && iy < st->in_h ? vpselq_s8(vldrbq_z_s8((const int8_t *)src, inside), pad, inside) : pad);
    }
    const int32_t iy = c.y0 + last * st->dil_h;
    v = iy >= 0 && iy < st->in_h ? vpselq_s8(vldrbq_z_s8((const int8_t *)src, inside), pad, inside) : pad;
  }
  /* The last row's store ends at kp (the lanes past its run zeros). */
  const int32_t tail = kp - last * run;
  vstrbq_p_s8(stage + last * run, v, vctp8q((uint32_t)(tail < 16 ? tail : 16)));
  if (K - run + 16 < kp) {
    fill_bytes(stage + K - run + 16, 0, kp - (K - run + 16));
  }
}

/* Four requantized accumulators of out channel oc to four columns' out bytes. */
static void store4(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t oc, const uint32_t acc[4],
                   int8_t *const outs[4], int32_t ncols) {
  const int32_t mult = d->mult[oc], shift = d->shift[oc];
  if (ncols == 4 && shift <= 0 && mult != INT32_MIN) {
    /* (acc * mult + 2^30) >> 31 is VQRDMULH (which saturates only for INT32_MIN squared);
     * VRSHL rounds half up, so negative values first move down by one: half away from zero,
     * as requantize_cmsis. */
    int32x4_t v = vqrdmulhq_n_s32(vldrwq_s32((const int32_t *)acc), mult);
    if (shift < 0) {
      v = vrshlq_n_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), shift);
    }
    v = vaddq_n_s32(v, st->output_offset);
    v = vmaxq_s32(v, vdupq_n_s32(st->act_min));
    v = vminq_s32(v, vdupq_n_s32(st->act_max));
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)st->out_c);
    vstrbq_scatter_offset_s32(outs[0], offs, v);
    return;
  }
  for (int32_t j = 0; j < ncols; j++) {
    *outs[j] = finish(st, acc[j], mult, shift);
  }
}

/* ---- The zoo's case in assembly: every channel shifting right ----
 * The window of a pass interleaves its four columns 16 bytes at a time (chunk k of column j at
 * 64 k + 16 j; K rounded up to 16, the window's last chunk completed with zeros), so that one
 * pointer walks them with post-incremented loads; each out channel gets a record (start value
 * bias + input_offset * sum of its weights, multiplier, shift) once per call. With K not a
 * multiple of 16 each channel's last chunk of weights ends in its successor's first bytes (they
 * meet the window's zeros) and the weight pointer steps back by the excess after the channel
 * (quads_mve_back); the last channel's weights are then copied into the scratch first (they
 * would be read past the tensor).
 * quads_mve keeps every value in registers: r0/r2/r4/r6 the four sums
 * (VMLADAVA accumulates into even registers), r1 the weights, r3 the window, r5 the records,
 * r9 the out zero point, r10 the out bytes of column 0, r11 the channels left, r12 the
 * arguments, lr the low-overhead loop's count; q5/q6 the range, q7 the columns' out offsets.
 * 10 instructions per 16 x 4 multiply-accumulates, 22 a channel outside the loop. The sums go
 * into the result vector through 16 bytes of stack (STM, VLDRW): the two-lane VMOV gave other
 * lanes under QEMU 7.2 in some calls (s8_conv_paths failed 8 of 400), which no test explained. */
typedef struct quads_mve_args {
  const int8_t *w;        /* the first channel's K weights; the next channel's follow */
  const int8_t *quad;     /* the interleaved window */
  const int32_t *rec;     /* three words a channel: start value, multiplier, shift */
  int8_t *out;            /* column 0's out byte of the first channel */
  int32_t cout;           /* at least 1 */
  int32_t chunks;         /* K rounded up to 16, / 16: at least 1 */
  int32_t out_off, lo, hi;
  uint32_t offs[4];       /* columns 0-3's out bytes from column 0's */
  int32_t back;           /* 16 chunks - K: the weight bytes read past each channel */
} quads_mve_args;

_Static_assert(offsetof(quads_mve_args, quad) == 4 && offsetof(quads_mve_args, rec) == 8 &&
                   offsetof(quads_mve_args, out) == 12 && offsetof(quads_mve_args, cout) == 16 &&
                   offsetof(quads_mve_args, chunks) == 20 && offsetof(quads_mve_args, out_off) == 24 &&
                   offsetof(quads_mve_args, lo) == 28 && offsetof(quads_mve_args, hi) == 32 &&
                   offsetof(quads_mve_args, offs) == 36 && offsetof(quads_mve_args, back) == 52,
               "quads_mve's offsets");

#define QUADS_MVE(name, back)                                                                                         \
__attribute__((naked, noinline)) static void name(const quads_mve_args *a) {                                          \
  (void)a;                                                                                                            \
  __asm__ volatile("push    {r4-r11, lr}\n\t"                                                                         \
                   "vpush   {d8-d15}\n\t"                                                                             \
                   "sub     sp, sp, #16\n\t"                                                                        \
                   "mov     r12, r0\n\t"                                                                              \
                   "ldr     r1, [r12, #0]\n\t"                                                                        \
                   "ldr     r5, [r12, #8]\n\t"                                                                        \
                   "ldr     r10, [r12, #12]\n\t"                                                                      \
                   "ldr     r11, [r12, #16]\n\t"                                                                      \
                   "ldr     r9, [r12, #24]\n\t"                                                                       \
                   "ldr     r7, [r12, #28]\n\t"                                                                       \
                   "vdup.32 q5, r7\n\t"                                                                               \
                   "ldr     r7, [r12, #32]\n\t"                                                                       \
                   "vdup.32 q6, r7\n\t"                                                                               \
                   "add     r7, r12, #36\n\t"                                                                         \
                   "vldrw.32 q7, [r7]\n\t"                                                                            \
                   "1:\n\t"                                                                                           \
                   "ldr     r7, [r5], #4\n\t"                                                                         \
                   "mov     r0, r7\n\t"                                                                               \
                   "mov     r2, r7\n\t"                                                                               \
                   "mov     r4, r7\n\t"                                                                               \
                   "mov     r6, r7\n\t"                                                                               \
                   "ldr     r3, [r12, #4]\n\t"                                                                        \
                   "ldr     r7, [r12, #20]\n\t"                                                                       \
                   "dls     lr, r7\n\t"                                                                               \
                   "2:\n\t"                                                                                           \
                   "vldrb.8 q0, [r1], #16\n\t"                                                                        \
                   "vldrb.8 q1, [r3], #16\n\t"                                                                        \
                   "vmladava.s8 r0, q1, q0\n\t"                                                                       \
                   "vldrb.8 q2, [r3], #16\n\t"                                                                        \
                   "vmladava.s8 r2, q2, q0\n\t"                                                                       \
                   "vldrb.8 q3, [r3], #16\n\t"                                                                        \
                   "vmladava.s8 r4, q3, q0\n\t"                                                                       \
                   "vldrb.8 q4, [r3], #16\n\t"                                                                        \
                   "vmladava.s8 r6, q4, q0\n\t"                                                                       \
                   "le      lr, 2b\n\t" back                                                                          \
                   "stm     sp, {r0, r2, r4, r6}\n\t"                                                                 \
                   "vldrw.32 q3, [sp]\n\t"                                                                            \
                   "ldrd    r7, r8, [r5], #8\n\t"                                                                     \
                   "vqrdmulh.s32 q3, q3, r7\n\t"                                                                      \
                   "vshr.s32 q4, q3, #31\n\t"                                                                         \
                   "vadd.i32 q3, q3, q4\n\t"                                                                          \
                   "vrshl.s32 q3, r8\n\t"                                                                             \
                   "vadd.i32 q3, q3, r9\n\t"                                                                          \
                   "vmax.s32 q3, q3, q5\n\t"                                                                          \
                   "vmin.s32 q3, q3, q6\n\t"                                                                          \
                   "vstrb.32 q3, [r10, q7]\n\t"                                                                       \
                   "add     r10, r10, #1\n\t"                                                                         \
                   "subs    r11, r11, #1\n\t"                                                                         \
                   "bne     1b\n\t"                                                                                   \
                   "add     sp, sp, #16\n\t"                                                                        \
                   "vpop    {d8-d15}\n\t"                                                                             \
                   "pop     {r4-r11, pc}\n\t");                                                                       \
}
QUADS_MVE(quads_mve, "")
QUADS_MVE(quads_mve_back, "ldr     r7, [r12, #52]\n\tsub     r1, r1, r7\n\t")
#undef QUADS_MVE

/* Two out channels a step (K a multiple of 16, so channel c + 1's weights start where channel
 * c's end): eight sums, the two channels' four columns, in r0/r2/r4/r6 and r8/r10/r12/lr, each
 * window chunk loaded once for both channels' weights (q0, q1): 16 instructions per 16 x 8
 * multiply-accumulates instead of quads_mve's 20; the first chunk starts the sums (VMLADAV),
 * the start values are added as vectors afterwards (modulo 2^32, as quads_mve's sums). r1/r5
 * the two channels' weights, r3 the window, r7 the chunks left, r9 the records, r11 the
 * arguments; the out pointer, K and the pairs left on the stack, above 16 bytes through which
 * each channel's four sums go into a vector (STM, VLDRW: two instructions for four lanes).
 * Channels cout & ~1 only: an odd last channel is quads_mve's. */
__attribute__((naked, noinline)) static void pairs_mve(const quads_mve_args *a) {
  (void)a;
  __asm__ volatile("push    {r4-r11, lr}\n\t"
                   "vpush   {d8-d15}\n\t"
                   "sub     sp, sp, #32\n\t"
                   "mov     r11, r0\n\t"
                   "ldr     r1, [r11, #0]\n\t"
                   "ldr     r9, [r11, #8]\n\t"
                   "ldr     r7, [r11, #12]\n\t"
                   "str     r7, [sp, #16]\n\t"
                   "ldr     r7, [r11, #20]\n\t"
                   "lsls    r7, r7, #4\n\t"
                   "str     r7, [sp, #20]\n\t"
                   "ldr     r7, [r11, #16]\n\t"
                   "lsrs    r7, r7, #1\n\t"
                   "str     r7, [sp, #24]\n\t"
                   "ldr     r7, [r11, #28]\n\t"
                   "vdup.32 q5, r7\n\t"
                   "ldr     r7, [r11, #32]\n\t"
                   "vdup.32 q6, r7\n\t"
                   "add     r7, r11, #36\n\t"
                   "vldrw.32 q7, [r7]\n\t"
                   "1:\n\t"
                   "ldr     r7, [sp, #20]\n\t"
                   "add     r5, r1, r7\n\t"
                   "ldr     r3, [r11, #4]\n\t"
                   "ldr     r7, [r11, #20]\n\t"
                   "vldrb.8 q0, [r1], #16\n\t"
                   "vldrb.8 q1, [r5], #16\n\t"
                   "vldrb.8 q2, [r3], #16\n\t"
                   "vmladav.s8 r0, q2, q0\n\t"
                   "vmladav.s8 r8, q2, q1\n\t"
                   "vldrb.8 q3, [r3], #16\n\t"
                   "vmladav.s8 r2, q3, q0\n\t"
                   "vmladav.s8 r10, q3, q1\n\t"
                   "vldrb.8 q4, [r3], #16\n\t"
                   "vmladav.s8 r4, q4, q0\n\t"
                   "vmladav.s8 r12, q4, q1\n\t"
                   "vldrb.8 q2, [r3], #16\n\t"
                   "vmladav.s8 r6, q2, q0\n\t"
                   "vmladav.s8 lr, q2, q1\n\t"
                   "subs    r7, r7, #1\n\t"
                   "beq     3f\n\t"
                   "2:\n\t"
                   "vldrb.8 q0, [r1], #16\n\t"
                   "vldrb.8 q1, [r5], #16\n\t"
                   "vldrb.8 q2, [r3], #16\n\t"
                   "vmladava.s8 r0, q2, q0\n\t"
                   "vmladava.s8 r8, q2, q1\n\t"
                   "vldrb.8 q3, [r3], #16\n\t"
                   "vmladava.s8 r2, q3, q0\n\t"
                   "vmladava.s8 r10, q3, q1\n\t"
                   "vldrb.8 q4, [r3], #16\n\t"
                   "vmladava.s8 r4, q4, q0\n\t"
                   "vmladava.s8 r12, q4, q1\n\t"
                   "vldrb.8 q2, [r3], #16\n\t"
                   "vmladava.s8 r6, q2, q0\n\t"
                   "vmladava.s8 lr, q2, q1\n\t"
                   "subs    r7, r7, #1\n\t"
                   "bne     2b\n\t"
                   "3:\n\t"
                   "mov     r1, r5\n\t"
                   "stm     sp, {r0, r2, r4, r6}\n\t"
                   "vldrw.32 q3, [sp]\n\t"
                   "stm     sp, {r8, r10, r12, lr}\n\t"
                   "vldrw.32 q4, [sp]\n\t"
                   "ldm     r9!, {r0, r2, r4, r6, r8, r10}\n\t"
                   "vadd.i32 q3, q3, r0\n\t"
                   "vadd.i32 q4, q4, r6\n\t"
                   "vqrdmulh.s32 q3, q3, r2\n\t"
                   "vqrdmulh.s32 q4, q4, r8\n\t"
                   "vshr.s32 q0, q3, #31\n\t"
                   "vshr.s32 q1, q4, #31\n\t"
                   "vadd.i32 q3, q3, q0\n\t"
                   "vadd.i32 q4, q4, q1\n\t"
                   "vrshl.s32 q3, r4\n\t"
                   "vrshl.s32 q4, r10\n\t"
                   "ldr     r7, [r11, #24]\n\t"
                   "vadd.i32 q3, q3, r7\n\t"
                   "vadd.i32 q4, q4, r7\n\t"
                   "vmax.s32 q3, q3, q5\n\t"
                   "vmax.s32 q4, q4, q5\n\t"
                   "vmin.s32 q3, q3, q6\n\t"
                   "vmin.s32 q4, q4, q6\n\t"
                   "ldr     r12, [sp, #16]\n\t"
                   "vstrb.32 q3, [r12, q7]\n\t"
                   "adds    r12, r12, #1\n\t"
                   "vstrb.32 q4, [r12, q7]\n\t"
                   "adds    r12, r12, #1\n\t"
                   "str     r12, [sp, #16]\n\t"
                   "ldr     r7, [sp, #24]\n\t"
                   "subs    r7, r7, #1\n\t"
                   "str     r7, [sp, #24]\n\t"
                   "bne     1b\n\t"
                   "add     sp, sp, #32\n\t"
                   "vpop    {d8-d15}\n\t"
                   "pop     {r4-r11, pc}\n\t");
}

/* The channels of a pass with K a multiple of 16: pairs_mve for the pairs, quads_mve for an odd
 * last one. */
static void whole_mve(quads_mve_args *a, int32_t K) {
  const int32_t cout = a->cout;
  if (cout >= 2) {
    pairs_mve(a);
  }
  if (cout & 1) {
    a->w += (cout - 1) * K;
    a->rec += 3 * (cout - 1);
    a->out += cout - 1;
    a->cout = 1;
    quads_mve(a);
  }
}

/* Column j of a pass into the interleaved window (dst = window + 16 j): with Cin a multiple of
 * 16 every tap is whole chunks, written in place (padding taps -input_offset); otherwise its K
 * values are gathered into `stage` (`room` bytes: im2col_rows16 when its rows are short runs, else
 * im2col_s8), completed with zeros up to kp (a multiple of 16; a zero meets the zero weights of
 * a padded filter or a channel's successor's) and copied a chunk at a time. */
static void window_chunks(const tp_s8_conv *st, const int8_t *in, column c, int8_t *dst, int8_t *stage,
                          int32_t kp, int32_t room) {
  const int32_t cin = st->in_c, K = st->k_h * st->k_w * cin;
  if (cin % 16 == 0 && column_inside(st, c)) {
    /* Every tap inside: a row of taps is one run of kw Cin bytes. */
    const int32_t run = st->k_w * cin, row_step = st->dil_h * st->in_sy;
    const int8_t *row = in + c.y0 * st->in_sy + c.x0 * st->in_sx;
    for (int32_t ky = 0; ky < st->k_h; ky++, row += row_step) {
      for (int32_t i = 0; i < run; i += 16, dst += 64) {
        vstrbq_s8(dst, vldrbq_s8(row + i));
      }
    }
    return;
  }
  if (cin % 16 == 0) {
    const int8x16_t pad = vdupq_n_s8((int8_t)-st->input_offset);
    for (int32_t ky = 0; ky < st->k_h; ky++) {
      const int32_t iy = c.y0 + ky * st->dil_h;
      const int8_t *const row = iy >= 0 && iy < st->in_h ? in + iy * st->in_sy : NULL;
      for (int32_t kx = 0; kx < st->k_w; kx++) {
        const int32_t ix = c.x0 + kx * st->dil_w;
        const int8_t *const src = row != NULL && ix >= 0 && ix < st->in_w ? row + ix * st->in_sx : NULL;
        for (int32_t i = 0; i < cin; i += 16, dst += 64) {
          vstrbq_s8(dst, src != NULL ? vldrbq_s8(src + i) : pad);
        }
      }
    }
    return;
  }
  if (st->k_w * cin <= 16 && kp <= room && st->dil_w == 1) {
    im2col_rows16(st, in, c, stage, kp);
  } else {
    im2col_s8(st, in, c, stage);
    fill_bytes(stage + K, 0, kp - K);
  }
  for (int32_t k = 0; k < kp; k += 16, dst += 64) {
    vstrbq_s8(dst, vldrbq_s8(stage + k));
  }
}

/* The window of a pass whose four columns are K contiguous bytes each, one after the other
 * (pointwise_runs): chunk k of column j from src + K j + 16 k, the last chunk's bytes past K
 * zero (a predicated load). */
__attribute__((noinline)) static void pointwise_window(const int8_t *src, int32_t K, int8_t *quad) {
  for (int32_t k = 0; k < K; k += 16, quad += 64) {
    const mve_pred16_t p = vctp8q((uint32_t)(K - k));
    for (int32_t j = 0; j < 4; j++) {
      vstrbq_s8(quad + 16 * j, vldrbq_z_s8(src + K * j + k, p));
    }
  }
}

/* Whether the pass of four columns from `pos` is window_rows4's (c0: its first column): the four
 * in one out row, every tap of theirs inside the image. */
static inline bool pass_inside4(const tp_s8_conv *st, int8_t *out, int32_t pos, int32_t npos, column *c0) {
  if (pos + 4 > npos || pos % st->out_w + 4 > st->out_w) {
    return false;
  }
  *c0 = column_at(st, out, pos);
  return column_inside(st, *c0) && c0->x0 + 3 * st->stride_w + st->k_w <= st->in_w;
}

/* The window of a pass whose four columns are consecutive in one out row with every tap inside
 * the image, Cin a multiple of 16 and no horizontal dilation: each of the kh rows of taps of a
 * column is a run of `run` bytes (a multiple of 16) from `x`, rows `row_step` bytes apart, the
 * columns `col_step` bytes apart; the four columns' chunks are copied together, no per-column
 * checks. */
__attribute__((noinline)) static void window_rows4(const int8_t *x, int32_t run, int32_t kh, int32_t row_step,
                                                   int32_t col_step, int8_t *quad) {
  for (int32_t ky = 0; ky < kh; ky++, x += row_step) {
    const int8_t *p0 = x, *p1 = x + col_step, *p2 = x + 2 * col_step, *p3 = x + 3 * col_step;
    for (int32_t i = 0; i < run; i += 16, quad += 64) {
      const int8x16_t v0 = vldrbq_s8(p0 + i), v1 = vldrbq_s8(p1 + i), v2 = vldrbq_s8(p2 + i), v3 = vldrbq_s8(p3 + i);
      vstrbq_s8(quad, v0);
      vstrbq_s8(quad + 16, v1);
      vstrbq_s8(quad + 32, v2);
      vstrbq_s8(quad + 48, v3);
    }
  }
}

/* The zoo's case (see quads_mve), each out channel K weights, the window K rounded up to 16
 * (kp), in a scratch of `bytes`; false when the call is not it (a channel shifting left, or
 * with K not a multiple of 16 no room after the window and the records for the stage's kp
 * bytes: the last channel's weights, or a gathered column). */
static bool conv_quads_mve(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t K, uint32_t bytes) {
  const int32_t npos = st->out_h * st->out_w, kp = round_up(K, 16), cout = st->out_c;
  const uint32_t used = 4u * (uint32_t)kp + 12u * (uint32_t)cout;
  const int32_t room = bytes > used ? (int32_t)(bytes - used) : 0; /* the stage's bytes */
  if (!tp_s8_conv_shifts_right(st, d) || (kp != K && room < kp)) {
    return false;
  }
  int8_t *const quad = (int8_t *)d->scratch;
  int32_t *const rec = (int32_t *)(void *)(quad + 4 * kp);
  int8_t *const stage = (int8_t *)(rec + 3 * cout);
  for (int32_t oc = 0; oc < cout && !st->prepared; oc++) { /* prepared: an earlier band made them */
    int32_t ws = 0, k = 0;
    for (; k + 16 <= K; k += 16) {
      ws = vaddvaq_s8(ws, vldrbq_s8(d->w + oc * K + k));
    }
    if (k < K) {
      const mve_pred16_t p = vctp8q((uint32_t)(K - k));
      ws = vaddvaq_p_s8(ws, vldrbq_z_s8(d->w + oc * K + k, p), p);
    }
    rec[3 * oc] = (int32_t)((d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + (uint32_t)st->input_offset * (uint32_t)ws);
    rec[3 * oc + 1] = d->mult[oc];
    rec[3 * oc + 2] = d->shift[oc];
  }
  const int32_t whole = kp == K ? cout : cout - 1; /* the channels read in place */
  const bool runs = pointwise_runs(st);
  const bool rows4 = st->in_c % 16 == 0 && st->dil_w == 1;
  /* The stage's bytes for window_chunks: im2col_rows16 also writes up to K - 2 run + 16 bytes
   * before its last row (0 when they do not fit: it is then not taken). */
  const int32_t run = st->k_w * st->in_c, k_all = st->k_h * run;
  const int32_t room16 = st->k_h == 1 || k_all - 2 * run + 16 <= room ? room : 0;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      quads_mve_args a = {d->w, quad, rec, NULL, whole, kp / 16, st->output_offset, st->act_min, st->act_max,
                          {0, 0, 0, 0}, kp - K};
      column c0;
      if (runs && pos + 4 <= npos) {
        pointwise_window(in + pos * K, K, quad);
        a.out = out + pos * cout;
        for (int32_t j = 0; j < 4; j++) {
          a.offs[j] = (uint32_t)(j * cout);
        }
      } else if (rows4 && pass_inside4(st, out, pos, npos, &c0)) {
        window_rows4(in + c0.y0 * st->in_sy + c0.x0 * st->in_sx, st->k_w * st->in_c, st->k_h,
                     st->dil_h * st->in_sy, st->stride_w * st->in_sx, quad);
        a.out = c0.out;
        for (int32_t j = 0; j < 4; j++) {
          a.offs[j] = (uint32_t)(j * cout);
        }
      } else {
        for (int32_t j = 0; j < 4; j++) {
          const column c = column_at(st, out, pos + j < npos ? pos + j : npos - 1);
          window_chunks(st, in, c, quad + 16 * j, stage, kp, room16);
          if (j == 0) {
            a.out = c.out;
          }
          a.offs[j] = (uint32_t)(c.out - a.out);
        }
      }
      if (kp == K) {
        whole_mve(&a, K);
        continue;
      }
      if (whole > 0) {
        quads_mve_back(&a);
      }
      /* The last channel from its weights copied into the stage (free once the window is built;
       * the bytes past K meet the window's zeros). */
      copy_run(stage, d->w + whole * K, K, 0);
      a.w = stage;
      a.rec = rec + 3 * whole;
      a.out += whole;
      a.cout = 1;
      quads_mve(&a);
    }
  }
  return true;
}

void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (conv_quads_mve(st, d, st->k_h * st->k_w * st->in_c, tp_s8_conv_scratch_bytes(st, true))) {
    return;
  }
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w;
  const uint32_t off = (uint32_t)st->input_offset;
  int8_t *cols = (int8_t *)d->scratch;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      const int32_t ncols = npos - pos < 4 ? npos - pos : 4;
      int8_t *outs[4];
      const int8_t *c[4];
      for (int32_t j = 0; j < 4; j++) {
        const int32_t jj = j < ncols ? j : 0;
        const column cl = column_at(st, out, pos + jj);
        c[j] = cols + jj * K;
        outs[j] = cl.out;
        if (j < ncols) {
          im2col_s8(st, in, cl, cols + j * K);
        }
      }
      const int8_t *wr = d->w;
      for (int32_t oc = 0; oc < st->out_c; oc++, wr += K) {
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, ws = 0;
        int32_t k = 0;
        for (; k + 16 <= K; k += 16) { /* whole vectors, unpredicated */
          const int8x16_t wv = vldrbq_s8(wr + k);
          a0 = vmladavaq_s8(a0, vldrbq_s8(c[0] + k), wv);
          a1 = vmladavaq_s8(a1, vldrbq_s8(c[1] + k), wv);
          a2 = vmladavaq_s8(a2, vldrbq_s8(c[2] + k), wv);
          a3 = vmladavaq_s8(a3, vldrbq_s8(c[3] + k), wv);
          ws = vaddvaq_s8(ws, wv);
        }
        if (k < K) {
          const mve_pred16_t p = vctp8q((uint32_t)(K - k));
          const int8x16_t wv = vldrbq_z_s8(wr + k, p);
          a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(c[0] + k, p), wv, p);
          a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(c[1] + k, p), wv, p);
          a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(c[2] + k, p), wv, p);
          a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(c[3] + k, p), wv, p);
          ws = vaddvaq_p_s8(ws, wv, p);
        }
        const uint32_t base = (d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + off * (uint32_t)ws;
        const uint32_t acc[4] = {base + (uint32_t)a0, base + (uint32_t)a1, base + (uint32_t)a2,
                                 base + (uint32_t)a3};
        int8_t *o[4] = {outs[0] + oc, outs[1] + oc, outs[2] + oc, outs[3] + oc};
        store4(st, d, oc, acc, o, ncols);
      }
    }
  }
}

/* Depthwise: the window of each input channel of a column, tap after tap (kh * kw int8
 * values; padding -input_offset); the weights of out channel oc, kh * kw taps Cout apart,
 * gathered 16 at a time (byte offsets: needs 15 * Cout <= 255, else the portable routine). */
static void im2col_dw_s8(const tp_s8_conv *st, const int8_t *in, column c, int8_t *col) {
  const int32_t kk = st->k_h * st->k_w, cin = st->in_c;
  const int8_t pad = (int8_t)-st->input_offset;
  int32_t t = 0;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++, t++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      int8_t *dst = col + t;
      for (int32_t ci = 0; ci < cin; ci++, dst += kk) {
        *dst = src != NULL ? src[ci] : pad;
      }
    }
  }
}

/* Depthwise with one input channel (Cout = depth_multiplier): four out channels per vector,
 * their weights contiguous in each tap, times the tap's value (x + input_offset); the taps
 * inside the image only, no window. */
static void depthwise_c1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t cout = st->out_c, off = st->input_offset, kh = st->k_h, kw = st->k_w;
  const int32_t dil_h = st->dil_h, dil_w = st->dil_w, in_h = st->in_h, in_w = st->in_w;
  const int32_t in_sy = st->in_sy, in_sx = st->in_sx, out_h = st->out_h, out_w = st->out_w;
  const int32_t stride_h = st->stride_h, stride_w = st->stride_w, pad_h = st->pad_h, pad_w = st->pad_w;
  const int32_t step_y = in_sy * dil_h, step_x = in_sx * dil_w, w_row = kw * cout;
  const int32_t out_off = st->output_offset, lo = st->act_min, hi = st->act_max;
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  const bool quick = tp_s8_conv_shifts_right(st, d); /* the vector requantization, every channel shifting right */
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t oy = 0; oy < out_h; oy++) {
      const int32_t y0 = oy * stride_h - pad_h;
      const int32_t ky0 = first_tap(y0, dil_h), ky1 = end_tap(y0, in_h, kh, dil_h);
      for (int32_t ox = 0; ox < out_w; ox++, out += cout) {
        const int32_t x0 = ox * stride_w - pad_w;
        const int32_t kx0 = first_tap(x0, dil_w), kx1 = end_tap(x0, in_w, kw, dil_w);
        const int8_t *x00 = in + (y0 + ky0 * dil_h) * in_sy + (x0 + kx0 * dil_w) * in_sx;
        const int8_t *w00 = d->w + ky0 * w_row + kx0 * cout;
        int32_t oc = 0;
        for (; quick && oc + 8 <= cout; oc += 8) {
          /* Eight channels unpredicated: two vectors share each tap's value. */
          int32x4_t acc0 = vdupq_n_s32(0), acc1 = acc0;
          if (bias != NULL) {
            acc0 = vldrwq_s32(bias + oc);
            acc1 = vldrwq_s32(bias + oc + 4);
          }
          const int8_t *xr = x00, *wr = w00 + oc;
          for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
              const int32_t v = *xp + off;
              acc0 = vmlaq_n_s32(acc0, vldrbq_s32(wp), v);
              acc1 = vmlaq_n_s32(acc1, vldrbq_s32(wp + 4), v);
            }
          }
          int32x4_t v0 = vqrdmulhq_s32(acc0, vldrwq_s32(mult + oc));
          int32x4_t v1 = vqrdmulhq_s32(acc1, vldrwq_s32(mult + oc + 4));
          v0 = vrshlq_s32(vaddq_s32(v0, vshrq_n_s32(v0, 31)), vldrwq_s32(shift + oc));
          v1 = vrshlq_s32(vaddq_s32(v1, vshrq_n_s32(v1, 31)), vldrwq_s32(shift + oc + 4));
          v0 = vminq_s32(vmaxq_s32(vaddq_n_s32(v0, out_off), vdupq_n_s32(lo)), vdupq_n_s32(hi));
          v1 = vminq_s32(vmaxq_s32(vaddq_n_s32(v1, out_off), vdupq_n_s32(lo)), vdupq_n_s32(hi));
          vstrbq_s32(out + oc, v0);
          vstrbq_s32(out + oc + 4, v1);
        }
        for (; oc < cout; oc += 4) {
          const mve_pred16_t p = vctp32q((uint32_t)(cout - oc));
          int32x4_t acc = bias != NULL ? vldrwq_z_s32(bias + oc, p) : vdupq_n_s32(0);
          const int8_t *xr = x00, *wr = w00 + oc;
          for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
              acc = vmlaq_n_s32(acc, vldrbq_z_s32(wp, p), *xp + off);
            }
          }
          if (quick) {
            int32x4_t v = vqrdmulhq_s32(acc, vldrwq_z_s32(mult + oc, p));
            v = vrshlq_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), vldrwq_z_s32(shift + oc, p));
            v = vaddq_n_s32(v, out_off);
            v = vmaxq_s32(v, vdupq_n_s32(lo));
            v = vminq_s32(v, vdupq_n_s32(hi));
            vstrbq_p_s32(out + oc, v, p);
          } else {
            int32_t a[4];
            vstrwq_s32(a, acc);
            const int32_t n = cout - oc < 4 ? cout - oc : 4;
            for (int32_t j = 0; j < n; j++) {
              out[oc + j] = finish(st, (uint32_t)a[j], mult[oc + j], shift[oc + j]);
            }
          }
        }
      }
    }
  }
}

/* one_input_as_conv's weights (OHWI at the start of the scratch, each channel's taps
 * zero-padded to kp, a multiple of 16) with gathers: eight taps of a channel a step, Cout bytes
 * apart (16-bit offsets: 7 Cout < 2^16), the taps past kh kw zero (zeroing loads). */
static void transpose_one_input(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t kp) {
  const int32_t kk = st->k_h * st->k_w, cout = st->out_c;
  const uint16x8_t offs = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)cout);
  int8_t *wt = (int8_t *)d->scratch;
  for (int32_t oc = 0; oc < cout; oc++) {
    for (int32_t t = 0; t < kp; t += 8, wt += 8) {
      vstrbq_s16(wt, t < kk ? vldrbq_gather_offset_z_s16(d->w + t * cout + oc, offs, vctp16q((uint32_t)(kk - t)))
                            : vdupq_n_s16(0));
    }
  }
}

void tp_s8_conv_fast_depthwise(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, cout = st->out_c;
  if (st->in_c == 1) {
    /* One input channel (a first layer) with a large filter: a convolution of Cout channels
     * over kh kw taps, its weights transposed to OHWI in the scratch and padded with zeros to a
     * multiple of 16, by quads_mve; depthwise_c1 when that does not apply (below 16 taps the
     * padding and the windows cost more than depthwise_c1's direct loop: digits' 3 x 3 first
     * layer 18.1k instructions that way, 30.6k as a convolution). */
    if (kk >= 16 && cout <= 9362 && tp_s8_conv_shifts_right(st, d)) {
      const int32_t kp = round_up(kk, 16);
      tp_s8_conv cs;
      tp_s8_conv_data dc;
      transpose_one_input(st, d, kp);
      one_input_describe(st, d, kp, &cs, &dc);
      const uint32_t weights = (uint32_t)round_up(cout * kp, 4); /* one_input_as_conv's, first */
      if (conv_quads_mve(&cs, &dc, kp, tp_s8_conv_scratch_bytes(st, true) - weights)) {
        return;
      }
    }
    depthwise_c1(st, d);
    return;
  }
  if (st->cout_g == 1) {
    tp_s8_conv_mve_depthwise1(st, d);
    return;
  }
  if ((kk < 16 ? kk - 1 : 15) * cout > 255) {
    tp_s8_conv_portable(st, d); /* NHWC, no scratch needed */
    return;
  }
  const int32_t npos = st->out_h * st->out_w, block = st->in_c * kk;
  const uint32_t off = (uint32_t)st->input_offset;
  const uint8x16_t woffs = vmulq_n_u8(vidupq_n_u8(0, 1), (uint8_t)cout);
  int8_t *cols = (int8_t *)d->scratch;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      const int32_t ncols = npos - pos < 4 ? npos - pos : 4;
      int8_t *outs[4];
      const int8_t *c[4];
      for (int32_t j = 0; j < 4; j++) {
        const int32_t jj = j < ncols ? j : 0;
        const column cl = column_at(st, out, pos + jj);
        c[j] = cols + jj * block;
        outs[j] = cl.out;
        if (j < ncols) {
          im2col_dw_s8(st, in, cl, cols + j * block);
        }
      }
      for (int32_t oc = 0; oc < cout; oc++) {
        const int32_t x = oc / st->cout_g * kk;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, ws = 0;
        for (int32_t t = 0; t < kk; t += 16) {
          const mve_pred16_t p = vctp8q((uint32_t)(kk - t));
          const int8x16_t wv = vldrbq_gather_offset_z_s8(d->w + t * cout + oc, woffs, p);
          a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(c[0] + x + t, p), wv, p);
          a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(c[1] + x + t, p), wv, p);
          a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(c[2] + x + t, p), wv, p);
          a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(c[3] + x + t, p), wv, p);
          ws = vaddvaq_p_s8(ws, wv, p);
        }
        const uint32_t base = (d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + off * (uint32_t)ws;
        const uint32_t acc[4] = {base + (uint32_t)a0, base + (uint32_t)a1, base + (uint32_t)a2,
                                 base + (uint32_t)a3};
        int8_t *o[4] = {outs[0] + oc, outs[1] + oc, outs[2] + oc, outs[3] + oc};
        store4(st, d, oc, acc, o, ncols);
      }
    }
  }
}

const char *tp_s8_conv_fast_path_name(void) { return "mve"; }
#endif
