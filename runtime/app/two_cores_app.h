/* The inference app's two cores (two_cores_app.c): in firmware built for two cores
 * (TP_BOARD_CORES == 2) the board's core 1 becomes the runtime's worker. */
#ifndef TINYPTE_APP_TWO_CORES_APP_H
#define TINYPTE_APP_TWO_CORES_APP_H

#include <stdbool.h>

/** Start core 1 and install it as the runtime's worker (tinypte/two_cores.h). false in a one-core
 *  build, and when the board's core 1 did not come up (the app then says so and fails). */
bool tp_app_two_cores_start(void);

/** Whether the firmware is built for two cores. */
bool tp_app_two_cores(void);

#endif /* TINYPTE_APP_TWO_CORES_APP_H */
