/* Run a .pte held in memory from load to outputs, with zeroed inputs: the body shared by
 * the mutation test and the fuzz target. Never crashes on bad programs; returns a status. */
#ifndef TINYPTE_RUN_PROGRAM_H
#define TINYPTE_RUN_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "tinypte/runtime.h"

/* Programs asking for more planned memory than this are refused before allocating. */
#define TP_RUN_PROGRAM_MAX_MEMORY (64u << 20)

/** Load, size, initialize (all kernels), feed zero inputs, execute. `data` 16-aligned. */
tp_status tp_run_program(const uint8_t *data, size_t size);

#endif /* TINYPTE_RUN_PROGRAM_H */
