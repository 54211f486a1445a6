/* The split threshold (split.h); the splitting itself is the two-core extension's
 * (extensions/two_cores.c). */
#include "util/split.h"

uint64_t tp_split_min_work = TP_SPLIT_MIN_WORK;

void tp_split_set_min_work(uint64_t work) { tp_split_min_work = work; }
