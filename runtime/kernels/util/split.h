/* Splitting one kernel call over two cores (tinypte/worker.h): the calling core computes the
 * first part of a range of independent items (out rows, out columns, elements), the installed
 * worker the rest, each part by the routine one core would use for the whole range, so the
 * result is bit-identical. */
#ifndef TINYPTE_KERNELS_UTIL_SPLIT_H
#define TINYPTE_KERNELS_UTIL_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "tinypte/status.h"

/* Computes items [begin, end) of a call with `scratch` (the call's own on the calling core, the
 * worker's on the other). */
typedef void (*tp_split_fn)(const void *ctx, int32_t begin, int32_t end, void *scratch);

/* The least work (multiply-adds, or elements times their cost) worth splitting. The hand-over
 * (two words through the board's FIFO or mailbox, one back, the part's set-up) costs about a
 * hundred instructions on each core, so even small calls gain. Swept on the RP2350 model (wall of
 * one inference, two cores): at 16,384 kws_int8 takes 2,787,936 instructions and digits_int8
 * 68,191; at 4,096 2,322,720 and 49,699; at 1,024 2,309,760 and 48,050; at 512 and at 256
 * 2,309,403 and 47,055. 256 also splits sine_int8's 16 x 16 layer (3,226 -> 2,868 in the model);
 * 512 keeps calls that small on one core, where a real chip's hand-over latency (the FIFO, the
 * other core's instruction fetch) is not modelled and could eat the gain. */
#define TP_SPLIT_MIN_WORK 512u

/* The least work split (TP_SPLIT_MIN_WORK; tests lower it: tp_split_set_min_work). */
extern uint64_t tp_split_min_work;

/** tp_split_point past the size check (a worker installed, its scratch large enough). Weak, as
 *  tp_split_run_at: NULL unless the firmware links the two-core extension (extensions/two_cores.c,
 *  which two-core firmware references through tp_kernels_two_cores), so one-core firmware carries
 *  none of the splitting. */
int32_t tp_split_point_of(int32_t count, int32_t align, uint32_t scratch_bytes) __attribute__((weak));

/* Defined by the two-core extension: what a firmware references to link it. */
extern const uint8_t tp_kernels_two_cores;

/** Whether a call of this `work` over `count` items is large enough to split: what
 *  tp_split_point tests first, and what prepare tests to note the worker's scratch
 *  (tp_worker_note_scratch) on any board (the host tool that sizes the firmware's memory has no
 *  worker). */
static inline int tp_split_worth_it(int32_t count, uint64_t work) { return count >= 2 && work >= tp_split_min_work; }

/** Where a call of `count` items and `work` splits: the first item the worker computes, or 0
 *  when the call stays on this core (too little work, fewer than two items, no worker installed,
 *  or the worker's scratch smaller than `scratch_bytes`). `align`: the point is a multiple of it
 *  (half rounded up to one). Inline: a small call costs a comparison, on one core or two. */
static inline int32_t tp_split_point(int32_t count, int32_t align, uint64_t work, uint32_t scratch_bytes) {
  return tp_split_worth_it(count, work) && tp_split_point_of != NULL ? tp_split_point_of(count, align, scratch_bytes) : 0;
}

/** fn over [0, count) split at `mid` (tp_split_point, > 0): [mid, count) on the worker with its
 *  scratch, [0, mid) here with `scratch`. TP_ERR_WORKER when the worker does not answer. */
tp_status tp_split_run_at(tp_split_fn fn, const void *ctx, int32_t mid, int32_t count, void *scratch)
    __attribute__((weak));

/**
 * fn over items [0, count): with a worker installed, count >= 2, work >= TP_SPLIT_MIN_WORK and
 * the worker's scratch holding `scratch_bytes`, the worker computes [mid, count) while this core
 * computes [0, mid) with `scratch` (mid = tp_split_point: half, rounded up); otherwise this core
 * computes all of it.
 * `align`: the split point is a multiple of it (vector widths).
 * @retval TP_ERR_WORKER  the worker did not answer (its part is missing)
 */
static inline tp_status tp_split_run(tp_split_fn fn, const void *ctx, int32_t count, int32_t align, uint64_t work,
                                    uint32_t scratch_bytes, void *scratch) {
  const int32_t mid = tp_split_point(count, align, work, scratch_bytes);
  if (mid <= 0) {
    fn(ctx, 0, count, scratch);
    return TP_OK;
  }
  return tp_split_run_at(fn, ctx, mid, count, scratch);
}

/** Tests only: split calls of at least `work` (0: every call of two items or more), to check the
 *  split paths on small cases; TP_SPLIT_MIN_WORK is the default. */
void tp_split_set_min_work(uint64_t work);

#endif /* TINYPTE_KERNELS_UTIL_SPLIT_H */
