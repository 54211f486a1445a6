/* A stand-in for a board's core-1 code (tinypte/board.h, "Two cores"), for the analysis tests
 * of two-core boards: it links, and says core 1 never came up. */
#include "tinypte/board.h"

bool tp_board_core1_start(void) { return false; }

void tp_board_core1_post(tp_core1_job job, void *arg) { (void)job, (void)arg; }

bool tp_board_core1_wait(void) { return false; }

uint32_t tp_board_core1_stack_used(void) { return 0; }

uint32_t tp_board_core1_stack_size(void) { return 0; }
