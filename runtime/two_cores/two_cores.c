/* The installed second core (tinypte/two_cores.h), the scratch it needs and the least work
 * worth splitting: the runtime only keeps the pointer; the board's code behind it is the
 * firmware's. Linked into one-core firmware too (its kernels test these); the hand-over itself
 * is two_cores_hand_over.c. */
#include "tinypte/two_cores.h"

#include <stddef.h>

static const tp_two_cores *installed;
static uint32_t scratch_needed;

void tp_two_cores_install(const tp_two_cores *worker) { installed = worker; }

const tp_two_cores *tp_two_cores_installed(void) { return installed; }

uint32_t tp_two_cores_scratch_needed(void) { return scratch_needed; }

void tp_two_cores_note_scratch(uint32_t bytes) {
  if (bytes > scratch_needed) {
    scratch_needed = bytes;
  }
}

uint64_t tp_two_cores_min_work = TP_TWO_CORES_MIN_WORK;

void tp_two_cores_set_min_work(uint64_t work) { tp_two_cores_min_work = work; }
