/* A stand-in for a board's two-core code (tinypte/two_cores_board.h), for the analysis tests
 * of two-core boards: it links, and says core 1 never came up. */
#include "tinypte/two_cores_board.h"

bool tp_board_two_cores_start(void) { return false; }

void tp_board_two_cores_post(tp_two_cores_job job, void *arg) { (void)job, (void)arg; }

bool tp_board_two_cores_wait(void) { return false; }

uint32_t tp_board_two_cores_stack_used(void) { return 0; }

uint32_t tp_board_two_cores_stack_size(void) { return 0; }
