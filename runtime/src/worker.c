/* The installed second-core worker (tinypte/worker.h) and the scratch it needs: the runtime
 * only keeps the pointer; the board's code behind it is the firmware's. */
#include "tinypte/worker.h"

#include <stddef.h>

static const tp_worker *installed;
static uint32_t scratch_needed;

void tp_worker_install(const tp_worker *worker) { installed = worker; }

const tp_worker *tp_worker_installed(void) { return installed; }

uint32_t tp_worker_scratch_needed(void) { return scratch_needed; }

void tp_worker_note_scratch(uint32_t bytes) {
  if (bytes > scratch_needed) {
    scratch_needed = bytes;
  }
}
