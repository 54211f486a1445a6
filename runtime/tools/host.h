/* Host-side glue shared by pte_run and the runtime's host tests: reading a program from a
 * file, and heap memory for a method sized by tp_method_requirements_get(). Not for
 * firmware (it uses malloc and stdio). */
#ifndef TINYPTE_HOST_H
#define TINYPTE_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "tinypte/runtime.h"

/** Read a whole file into a 16-byte aligned heap buffer (free() it); NULL when unreadable. */
void *tp_host_read_file(const char *path, size_t *size);

/* A method's memory on the heap: the state pool and one buffer per memory id. */
typedef struct tp_host_memory {
  void *buffers[TP_MAX_BUFFERS];
  size_t buffer_sizes[TP_MAX_BUFFERS];
  tp_method_memory memory; /* what tp_method_init takes */
} tp_host_memory;

/** Bytes of planned buffers `req` asks for (the pool not included). */
uint64_t tp_host_planned_bytes(const tp_method_requirements *req);

/**
 * Allocate the pool and buffers `req` describes, 16-byte aligned. An allocation that
 * fails leaves a NULL pointer, which tp_method_init reports as a status.
 */
void tp_host_memory_alloc(tp_host_memory *host, const tp_method_requirements *req);

/** Free what tp_host_memory_alloc allocated. */
void tp_host_memory_free(tp_host_memory *host);

#endif /* TINYPTE_HOST_H */
