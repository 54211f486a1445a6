/* An int8 convolution's out split over two cores: its out rows, or for one out row its columns
 * (a pointwise call as one row of all its positions), each part by the fast routine one core
 * would use (s8_conv.h), through the hand-over (tinypte/two_cores_hand_over.h). */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_TWO_CORES_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_TWO_CORES_H

#include <stdbool.h>
#include <stdint.h>

#include "cortex_m/engines/s8_conv.h"

/** The split of a call tp_s8_conv_fast_split_band found large enough (`work`: tp_s8_conv_work)
 *  with a second core installed. Weak: NULL unless the firmware links s8_conv_two_cores.c
 *  (two-core firmware and the tests do, through runtime/kernels/two_cores.c), so one-core
 *  firmware carries none of it. */
tp_status tp_s8_conv_two_cores(const tp_s8_conv *st, const tp_s8_conv_data *d, uint64_t work, bool *split)
    __attribute__((weak));

/* Defined with tp_s8_conv_two_cores: what runtime/kernels/two_cores.c references to link it. */
extern const uint8_t tp_s8_conv_two_cores_linked;

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_TWO_CORES_H */
