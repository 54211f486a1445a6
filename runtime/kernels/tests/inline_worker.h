/* A worker for tests of split kernel calls (tinypte/two_cores.h), on one core: it runs the posted
 * part when the caller waits, after the caller computed its own part (as a second core that
 * finishes later would leave memory), with scratch of its own that a test can check for
 * overruns. `inline_worker_jobs` counts the parts it ran; `inline_worker_fail` makes the next
 * wait report a worker that never answered (without running the part). */
#ifndef TINYPTE_KERNELS_TESTS_INLINE_WORKER_H
#define TINYPTE_KERNELS_TESTS_INLINE_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/two_cores.h"

#ifndef INLINE_WORKER_SCRATCH_BYTES
#define INLINE_WORKER_SCRATCH_BYTES 16384u
#endif

static uint32_t inline_worker_scratch[INLINE_WORKER_SCRATCH_BYTES / 4];
static uint32_t inline_worker_jobs;
static bool inline_worker_fail;
static void (*inline_worker_job)(void *);
static void *inline_worker_arg;

static void inline_worker_post(void (*job)(void *), void *arg) {
  inline_worker_job = job;
  inline_worker_arg = arg;
}

static bool inline_worker_wait(void) {
  void (*job)(void *) = inline_worker_job;
  inline_worker_job = NULL;
  if (inline_worker_fail || job == NULL) {
    inline_worker_fail = false;
    return false;
  }
  job(inline_worker_arg);
  inline_worker_jobs++;
  return true;
}

static const tp_two_cores inline_worker = {inline_worker_post, inline_worker_wait, inline_worker_scratch,
                                        sizeof inline_worker_scratch};

#endif /* TINYPTE_KERNELS_TESTS_INLINE_WORKER_H */
