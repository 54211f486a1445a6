/* The hand-over: splitting one kernel call over two cores (tinypte/two_cores.h). The calling
 * core computes the first part of a range of independent items (out rows, out columns,
 * elements), the installed second core the rest, each part by the routine one core would use for
 * the whole range, so the result is bit-identical. */
#ifndef TINYPTE_TWO_CORES_HAND_OVER_H
#define TINYPTE_TWO_CORES_HAND_OVER_H

#include <stddef.h>
#include <stdint.h>

#include "tinypte/status.h"
#include "tinypte/two_cores.h"

/* Computes items [begin, end) of a call with `scratch` (the call's own on the calling core, the
 * worker's on the other). */
typedef void (*tp_two_cores_fn)(const void *ctx, int32_t begin, int32_t end, void *scratch);

/** tp_two_cores_point past the size check (a worker installed, its scratch large enough). Weak, as
 *  tp_two_cores_run_at: NULL unless the firmware links the hand-over (two_cores_hand_over.c, which
 *  two-core firmware references through tp_two_cores_hand_over), so one-core firmware carries
 *  none of the splitting. */
int32_t tp_two_cores_point_of(int32_t count, int32_t align, uint32_t scratch_bytes) __attribute__((weak));

/* Defined by the hand-over: what a firmware references to link it. */
extern const uint8_t tp_two_cores_hand_over;

/** Whether a call of this `work` over `count` items is large enough to split: what
 *  tp_two_cores_point tests first, and what prepare tests to note the worker's scratch
 *  (tp_two_cores_note_scratch) on any board (the host tool that sizes the firmware's memory has no
 *  worker). */
static inline int tp_two_cores_worth_it(int32_t count, uint64_t work) { return count >= 2 && work >= tp_two_cores_min_work; }

/** Where a call of `count` items and `work` splits: the first item the worker computes, or 0
 *  when the call stays on this core (too little work, fewer than two items, no worker installed,
 *  or the worker's scratch smaller than `scratch_bytes`). `align`: the point is a multiple of it
 *  (half rounded up to one). Inline: a small call costs a comparison, on one core or two. */
static inline int32_t tp_two_cores_point(int32_t count, int32_t align, uint64_t work, uint32_t scratch_bytes) {
  return tp_two_cores_worth_it(count, work) && tp_two_cores_point_of != NULL ? tp_two_cores_point_of(count, align, scratch_bytes) : 0;
}

/** tp_two_cores_point for the engines' split routines (runtime/kernels/cortex_m/engines/
 *  *_two_cores.c), which firmware links only with the hand-over (they call tp_two_cores_run_at
 *  too): the hand-over is there, so no test of whether it is linked. */
static inline int32_t tp_two_cores_point_linked(int32_t count, int32_t align, uint64_t work, uint32_t scratch_bytes) {
  return tp_two_cores_worth_it(count, work) ? tp_two_cores_point_of(count, align, scratch_bytes) : 0;
}

/** fn over [0, count) split at `mid` (tp_two_cores_point, > 0): [mid, count) on the worker with its
 *  scratch, [0, mid) here with `scratch`. TP_ERR_WORKER when the worker does not answer. */
tp_status tp_two_cores_run_at(tp_two_cores_fn fn, const void *ctx, int32_t mid, int32_t count, void *scratch)
    __attribute__((weak));

/**
 * fn over items [0, count): with a worker installed, count >= 2, work >= TP_TWO_CORES_MIN_WORK and
 * the worker's scratch holding `scratch_bytes`, the worker computes [mid, count) while this core
 * computes [0, mid) with `scratch` (mid = tp_two_cores_point: half, rounded up); otherwise this core
 * computes all of it.
 * `align`: the split point is a multiple of it (vector widths).
 * @retval TP_ERR_WORKER  the worker did not answer (its part is missing)
 */
static inline tp_status tp_two_cores_run(tp_two_cores_fn fn, const void *ctx, int32_t count, int32_t align, uint64_t work,
                                    uint32_t scratch_bytes, void *scratch) {
  const int32_t mid = tp_two_cores_point(count, align, work, scratch_bytes);
  if (mid <= 0) {
    fn(ctx, 0, count, scratch);
    return TP_OK;
  }
  return tp_two_cores_run_at(fn, ctx, mid, count, scratch);
}

#endif /* TINYPTE_TWO_CORES_HAND_OVER_H */
