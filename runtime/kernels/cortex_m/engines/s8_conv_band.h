/* One band of an int8 convolution's out rows by the fast routine (a whole call, or a band of a
 * call run in place), on one core or split over both (s8_conv_two_cores.h) when a second core is
 * installed (tinypte/two_cores.h) and the band is large enough. */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_BAND_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_BAND_H

#include <stdbool.h>

#include "cortex_m/engines/s8_conv.h"

/** tp_s8_conv_fast of `st`, its out rows (one row: its columns) split over two cores when a
 *  second core is installed and the call is large enough (tinypte/two_cores_hand_over.h; one
 *  batch): the second core computes the second half (the smaller of an odd count) with its own
 *  scratch, each out by the same routine, so the out is bit-identical.
 *  TP_ERR_WORKER when the second core does not answer. */
tp_status tp_s8_conv_fast_split(const tp_s8_conv *st, const tp_s8_conv_data *d);

/** tp_s8_conv_fast_split, setting *split when the second core computed part of the call (its
 *  scratch then holds the call's records: a later band may set st->worker_prepared). */
tp_status tp_s8_conv_fast_split_band(const tp_s8_conv *st, const tp_s8_conv_data *d, bool *split);

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_BAND_H */
