/* File reading and heap method memory for host tools and tests (see host.h). */
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *aligned_bytes(size_t size) { return aligned_alloc(16, (size + 16) & ~(size_t)15); }

void *tp_host_read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    return NULL;
  }
  void *data = NULL;
  long length = -1;
  if (fseek(file, 0, SEEK_END) == 0) {
    length = ftell(file);
  }
  if (length >= 0 && fseek(file, 0, SEEK_SET) == 0) {
    data = aligned_bytes((size_t)length);
    if (data != NULL && fread(data, 1, (size_t)length, file) != (size_t)length) {
      free(data);
      data = NULL;
    }
  }
  fclose(file);
  *size = (size_t)(length < 0 ? 0 : length);
  return data;
}

uint64_t tp_host_planned_bytes(const tp_method_requirements *req) {
  uint64_t planned = 0;
  for (uint32_t id = 0; id < req->num_buffers; id++) {
    planned += req->buffer_sizes[id];
  }
  return planned;
}

void tp_host_memory_alloc(tp_host_memory *host, const tp_method_requirements *req) {
  memset(host, 0, sizeof *host);
  for (uint32_t id = 0; id < req->num_buffers; id++) {
    host->buffer_sizes[id] = (size_t)req->buffer_sizes[id];
    host->buffers[id] = aligned_bytes(host->buffer_sizes[id]);
  }
  host->memory.pool = aligned_bytes(req->pool_bytes);
  host->memory.pool_size = req->pool_bytes;
  host->memory.buffers = host->buffers;
  host->memory.buffer_sizes = host->buffer_sizes;
  host->memory.num_buffers = req->num_buffers;
}

void tp_host_memory_free(tp_host_memory *host) {
  for (uint32_t id = 0; id < host->memory.num_buffers; id++) {
    free(host->buffers[id]);
  }
  free(host->memory.pool);
  memset(host, 0, sizeof *host);
}
