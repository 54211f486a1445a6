/* The inference app's two cores: glue between the board's side of the two-core part
 * (tinypte/two_cores_board.h) and the runtime's worker (tinypte/two_cores.h), with the worker's
 * scratch from the firmware's generated data (app_data.c: the most a split call needs). Built into
 * every firmware; it does nothing unless the firmware is built for two cores (TP_BOARD_CORES == 2,
 * the board's `cores` flag). */
#include "two_cores_app.h"

#include "tinypte/two_cores.h"
#include "tinypte/two_cores_board.h"

#if TP_BOARD_CORES == 2

extern void *const tp_app_worker_scratch;
extern const uint32_t tp_app_worker_scratch_size;

/* The kernels' two-core part (runtime/kernels/two_cores.h) is linked only into firmware that
 * references it: this reference is what makes two-core firmware carry it. */
extern const void *const tp_kernels_two_cores[3];
const void *const *const tp_app_links_two_cores = tp_kernels_two_cores;

static tp_two_cores board_worker;

bool tp_app_two_cores_start(void) {
  if (!tp_board_two_cores_start()) {
    return false;
  }
  board_worker = (tp_two_cores){tp_board_two_cores_post, tp_board_two_cores_wait,
                                tp_app_worker_scratch, tp_app_worker_scratch_size};
  tp_two_cores_install(&board_worker);
  return true;
}

bool tp_app_two_cores(void) { return true; }

#else

bool tp_app_two_cores_start(void) { return false; }

bool tp_app_two_cores(void) { return false; }

#endif
