/* One band of out rows (a whole call, or a band of a call run in place) by the fast routine, on
 * one core or split over both (s8_conv_band.h). Always linked with the fast routines; the split
 * itself (s8_conv_two_cores.c) only in two-core firmware. */
#include "cortex_m/engines/s8_conv_band.h"

#include "cortex_m/engines/s8_conv_two_cores.h"
#include "tinypte/two_cores.h"

/* Compiled for speed like s8_conv.c (its reasons). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

tp_status tp_s8_conv_fast_split_band(const tp_s8_conv *st, const tp_s8_conv_data *d, bool *split) {
  const uint64_t work = tp_s8_conv_work(st);
  if (!tp_s8_conv_splittable(st) || work < tp_two_cores_min_work || tp_two_cores_installed() == NULL || tp_s8_conv_two_cores == NULL) {
    *split = false; /* one core: straight to the routine, the call as it is */
    tp_s8_conv_fast(st, d);
    return TP_OK;
  }
  return tp_s8_conv_two_cores(st, d, work, split);
}

tp_status tp_s8_conv_fast_split(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  bool split;
  return tp_s8_conv_fast_split_band(st, d, &split);
}
