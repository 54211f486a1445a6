/* The kernels' two-core part (two_cores.h). The kernels reach the hand-over and the engines' split
 * routines through weak references, so one-core firmware carries none of them; this table's
 * references are what makes a firmware (or a test) that references it link them all. */
#include "two_cores.h"

#include "cortex_m/engines/s8_conv_two_cores.h"
#include "cortex_m/engines/s8_matmul_two_cores.h"
#include "tinypte/two_cores_hand_over.h"

const void *const tp_kernels_two_cores[3] = {&tp_two_cores_hand_over, &tp_s8_conv_two_cores_linked,
                                             &tp_s8_matmul_two_cores_linked};
