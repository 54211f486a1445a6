/* A second core for the kernels: the worker a two-core firmware installs.
 *
 * The runtime itself has no board code. A firmware built for two cores (a board's `cores`
 * flag) starts its second core and installs it here as a tp_worker: how to hand it a job and
 * how to wait for it, plus scratch memory of its own for the routines that need some. Kernels
 * of large calls (int8 convolutions, depthwise convolutions, linear layers, pools, adds) then
 * split their out rows or elements in two: the worker computes one half while the calling
 * core computes the other, each output by the same routine in the same summation order as on
 * one core, so results are bit-identical. Calls below a size threshold stay on one core
 * (TP_SPLIT_MIN_WORK in runtime/kernels/util/split.h: the hand-over's cost).
 *
 * Without an installed worker (the default, and every one-core build) nothing is split.
 */
#ifndef TINYPTE_WORKER_H
#define TINYPTE_WORKER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct tp_worker {
  /** Run job(arg) on the other core; returns at once (one job at a time). */
  void (*post)(void (*job)(void *arg), void *arg);
  /** Wait for the posted job: true when it finished, false when the core did not answer in time. */
  bool (*wait)(void);
  /** The worker's scratch, 4-byte aligned: a split call whose routine needs more stays on one core. */
  void *scratch;
  uint32_t scratch_bytes;
} tp_worker;

/** Install `worker` (NULL: one core again). The struct must outlive its use. */
void tp_worker_install(const tp_worker *worker);

/** The installed worker, or NULL. */
const tp_worker *tp_worker_installed(void);

/**
 * The most scratch a worker needs for the calls prepared so far (tp_method_init notes each
 * split call's need): host tools read it after preparing a program, so the firmware's build
 * sizes the worker's scratch exactly (tp_method_requirements_get's `worker_scratch_bytes`).
 */
uint32_t tp_worker_scratch_needed(void);

/** Note that a prepared call would need `bytes` of worker scratch (kernels call it). */
void tp_worker_note_scratch(uint32_t bytes);

#endif /* TINYPTE_WORKER_H */
