/* Two cores, the board's side: what a board whose chip has a second core implements so that
 * firmware can run kernel calls on both of its cores.
 *
 * Boards with `board(cores = 2)` (the RP2350's core 1, the AN521's second Cortex-M33) implement
 * these in their own folder, in two_cores.c, which their support library links when the
 * firmware is built with two cores (the board's `cores` flag; firmware then has
 * TP_BOARD_CORES == 2). The inference app starts the second core once and installs it as the
 * runtime's worker (tinypte/two_cores.h): kernels post half of a large call to it, compute the
 * other half, then wait. One job at a time. "Core 1" below is the chip's second core.
 */
#ifndef TINYPTE_TWO_CORES_BOARD_H
#define TINYPTE_TWO_CORES_BOARD_H

#include <stdbool.h>
#include <stdint.h>

/** A job core 1 runs: job(arg). */
typedef void (*tp_two_cores_job)(void *arg);

/**
 * Start core 1 (once, before any post) on its own stack; it then waits for jobs.
 * @retval true once core 1 answered that it runs; false if it did not come up (the app reports
 *         it and fails; build with one core to run on one).
 */
bool tp_board_two_cores_start(void);

/** Hand `job(arg)` to core 1 and return at once (the previous job must have been waited for). */
void tp_board_two_cores_post(tp_two_cores_job job, void *arg);

/**
 * Wait until core 1 finished the job posted last.
 * @retval true when it did; false when core 1 did not answer within TP_BOARD_TWO_CORES_TIMEOUT_US,
 *         so a crashed core 1 ends the run with a status, not a hang.
 */
bool tp_board_two_cores_wait(void);

/* How long tp_board_two_cores_wait waits for core 1, in microseconds: far beyond any half of a
 * kernel call (the largest of the zoo's takes a few milliseconds at the boards' clocks). */
#define TP_BOARD_TWO_CORES_TIMEOUT_US 2000000u

/** Core 1's stack high-water mark in bytes and its reservation (0, 0 when it never ran). */
uint32_t tp_board_two_cores_stack_used(void);
uint32_t tp_board_two_cores_stack_size(void);

#endif /* TINYPTE_TWO_CORES_BOARD_H */
