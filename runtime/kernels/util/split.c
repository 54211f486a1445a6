/* tp_split_run (split.h): one call's items in two parts, the second on the installed worker. */
#include "util/split.h"

#include <stddef.h>

#include "tinypte/worker.h"

/* What the worker runs: its part of the call. Lives on the calling core's stack until the wait. */
typedef struct split_job {
  tp_split_fn fn;
  const void *ctx;
  int32_t begin, end;
  void *scratch;
} split_job;

static void run_job(void *arg) {
  const split_job *job = arg;
  job->fn(job->ctx, job->begin, job->end, job->scratch);
}

uint64_t tp_split_min_work = TP_SPLIT_MIN_WORK;

void tp_split_set_min_work(uint64_t work) { tp_split_min_work = work; }

int tp_split_worth_it(int32_t count, uint64_t work) { return count >= 2 && work >= tp_split_min_work; }

int32_t tp_split_point_of(int32_t count, int32_t align, uint32_t scratch_bytes) {
  const tp_worker *worker = tp_worker_installed();
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

tp_status tp_split_run_at(tp_split_fn fn, const void *ctx, int32_t mid, int32_t count, void *scratch) {
  const tp_worker *worker = tp_worker_installed();
  split_job job = {fn, ctx, mid, count, worker->scratch};
  worker->post(run_job, &job);
  fn(ctx, 0, mid, scratch);
  return worker->wait() ? TP_OK : TP_ERR_WORKER;
}

tp_status tp_split_run(tp_split_fn fn, const void *ctx, int32_t count, int32_t align, uint64_t work,
                       uint32_t scratch_bytes, void *scratch) {
  const int32_t mid = tp_split_point(count, align, work, scratch_bytes);
  if (mid <= 0) {
    fn(ctx, 0, count, scratch);
    return TP_OK;
  }
  return tp_split_run_at(fn, ctx, mid, count, scratch);
}
