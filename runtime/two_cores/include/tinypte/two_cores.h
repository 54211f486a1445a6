/* Two cores: the second core as the kernels see it, installed by a two-core firmware.
 *
 * The runtime itself has no board code. A firmware built for two cores (a board's `cores`
 * flag) starts its second core and installs it here as a tp_two_cores: how to hand it a job and
 * how to wait for it, plus scratch memory of its own for the routines that need some. Kernels
 * of large calls (int8 convolutions, depthwise convolutions, linear layers, pools, adds) then
 * split their out rows or elements in two: the worker computes one half while the calling
 * core computes the other, each output by the same routine in the same summation order as on
 * one core, so results are bit-identical. Calls below a size threshold stay on one core
 * (TP_TWO_CORES_MIN_WORK below: the hand-over's cost).
 *
 * Without an installed worker (the default, and every one-core build) nothing is split.
 */
#ifndef TINYPTE_TWO_CORES_H
#define TINYPTE_TWO_CORES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct tp_two_cores {
  /** Run job(arg) on the other core; returns at once (one job at a time). */
  void (*post)(void (*job)(void *arg), void *arg);
  /** Wait for the posted job: true when it finished, false when the core did not answer in time. */
  bool (*wait)(void);
  /** The worker's scratch, 4-byte aligned: a split call whose routine needs more stays on one core. */
  void *scratch;
  uint32_t scratch_bytes;
} tp_two_cores;

/** Install `worker` (NULL: one core again). The struct must outlive its use. */
void tp_two_cores_install(const tp_two_cores *worker);

/** The installed worker, or NULL. */
const tp_two_cores *tp_two_cores_installed(void);

/**
 * The most scratch a worker needs for the calls prepared so far (tp_method_init notes each
 * split call's need): host tools read it after preparing a program, so the firmware's build
 * sizes the worker's scratch exactly (tp_method_requirements_get's `worker_scratch_bytes`).
 */
uint32_t tp_two_cores_scratch_needed(void);

/** Note that a prepared call would need `bytes` of worker scratch (kernels call it). */
void tp_two_cores_note_scratch(uint32_t bytes);

/* The least work (multiply-adds, or elements times their cost) worth splitting. The hand-over
 * (two words through the board's FIFO or mailbox, one back, the part's set-up) costs about a
 * hundred instructions on each core, so even small calls gain. Swept on the RP2350 model (wall of
 * one inference, two cores): at 16,384 kws_int8 takes 2,787,936 instructions and digits_int8
 * 68,191; at 4,096 2,322,720 and 49,699; at 1,024 2,309,760 and 48,050; at 512 and at 256
 * 2,309,403 and 47,055. 256 also splits sine_int8's 16 x 16 layer (3,226 -> 2,868 in the model);
 * 512 keeps calls that small on one core, where a real chip's hand-over latency (the FIFO, the
 * other core's instruction fetch) is not modelled and could eat the gain. */
#define TP_TWO_CORES_MIN_WORK 512u

/* The least work split (TP_TWO_CORES_MIN_WORK; tests lower it:
 * tp_two_cores_set_min_work). Here, not with the hand-over: one-core firmware tests it too and
 * must not link the hand-over. */
extern uint64_t tp_two_cores_min_work;

/** Tests only: split calls of at least `work` (0: every call of two items or more), to check the
 *  split paths on small cases; TP_TWO_CORES_MIN_WORK is the default. */
void tp_two_cores_set_min_work(uint64_t work);

#endif /* TINYPTE_TWO_CORES_H */
