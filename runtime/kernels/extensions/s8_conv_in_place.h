/* Extension of the int8 NHWC convolutions: running a call whose out is stored over its own input
 * (s8_conv_in_place.c says how and why it is exact). */
#ifndef TINYPTE_KERNELS_EXTENSIONS_S8_CONV_IN_PLACE_H
#define TINYPTE_KERNELS_EXTENSIONS_S8_CONV_IN_PLACE_H

#include <stdint.h>

#include "cortex_m/engines/s8_conv.h"

/** tp_s8_conv_fast of `st` (tp_s8_conv_in_place_geometry) with d->out == d->in, using
 *  `ring_rows` rows of `ring` (more than st->pad_h; not part of d->scratch), each band of rows
 *  split over two cores like tp_s8_conv_fast_split. Weak: NULL when the firmware does not link
 *  the extension (prepare then refuses the call, TP_ERR_UNSUPPORTED). */
tp_status tp_s8_conv_fast_in_place(const tp_s8_conv *st, const tp_s8_conv_data *d, int8_t *ring, int32_t ring_rows)
    __attribute__((weak));

#endif /* TINYPTE_KERNELS_EXTENSIONS_S8_CONV_IN_PLACE_H */
