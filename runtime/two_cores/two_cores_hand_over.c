/* The hand-over (tinypte/two_cores_hand_over.h): where a call splits, and running its two parts,
 * one on each core. The kernels reach these through weak references, so only firmware that
 * links this file splits: two-core firmware does (the kernels' two-core part,
 * runtime/kernels/two_cores.c, references tp_two_cores_hand_over), one-core firmware carries
 * none of it. */
#include "tinypte/two_cores_hand_over.h"

#include <stddef.h>

#include "tinypte/two_cores.h"

const uint8_t tp_two_cores_hand_over = 1;

/* What the worker runs: its part of the call. Lives on the calling core's stack until the wait. */
typedef struct split_job {
  tp_two_cores_fn fn;
  const void *ctx;
  int32_t begin, end;
  void *scratch;
} split_job;

static void run_job(void *arg) {
  const split_job *job = arg;
  job->fn(job->ctx, job->begin, job->end, job->scratch);
}

int32_t tp_two_cores_point_of(int32_t count, int32_t align, uint32_t scratch_bytes) {
  const tp_two_cores *worker = tp_two_cores_installed();
  if (worker == NULL || scratch_bytes > worker->scratch_bytes) {
    return 0;
  }
  /* The calling core takes the larger part: the worker also pays for taking the job, and its
   * routine makes the call's per-channel records again. Half, rounded up to a multiple of
   * `align` (the routines' groups: the worker's last group is the one-core run's last, maybe
   * partial), or down when that leaves the worker nothing. */
  const int32_t mid = count - count / 2;
  const int32_t up = align > 1 ? (mid + align - 1) / align * align : mid;
  const int32_t point = up < count ? up : mid - mid % align;
  return point > 0 && point < count ? point : 0;
}

tp_status tp_two_cores_run_at(tp_two_cores_fn fn, const void *ctx, int32_t mid, int32_t count, void *scratch) {
  const tp_two_cores *worker = tp_two_cores_installed();
  split_job job = {fn, ctx, mid, count, worker->scratch};
  worker->post(run_job, &job);
  fn(ctx, 0, mid, scratch);
  return worker->wait() ? TP_OK : TP_ERR_WORKER;
}
