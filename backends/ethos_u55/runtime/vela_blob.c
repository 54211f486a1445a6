/* Parsing and checking an Ethos-U delegate's blob (see vela_blob.h). */
#include "vela_blob.h"

#include <stdbool.h>
#include <string.h>

enum { HEADER_BYTES = 32, NAME_BYTES = 16, IO_RECORD_BYTES = 36 };

static uint32_t load_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

tp_vela_io tp_vela_blob_io(const uint8_t *records, uint32_t index) {
  tp_vela_io io;
  const uint8_t *p = records + 4 + IO_RECORD_BYTES * index;
  for (int d = 0; d < 6; d++) {
    io.shape[d] = (int32_t)load_u32(p + 4 * d);
  }
  io.elem_size = (int32_t)load_u32(p + 24);
  io.offset = (int32_t)load_u32(p + 28);
  io.region = (int32_t)load_u32(p + 32);
  return io;
}

uint32_t tp_vela_io_bytes(const tp_vela_io *io) {
  uint64_t bytes = (uint64_t)io->elem_size;
  for (int d = 0; d < 6; d++) {
    bytes *= (uint64_t)io->shape[d];
  }
  return bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
}

static bool named(const uint8_t *header, const char *name) {
  size_t len = strlen(name);
  return memcmp(header, name, len) == 0 && header[len] == 0;
}

/* An inputs/outputs block: a count that fits the block and TP_VELA_MAX_IO, and records that lie
 * in the scratch region, inside the scratch. */
static tp_status check_io(const uint8_t *data, uint32_t size, uint32_t scratch, uint32_t *count, const char **why) {
  if (size < 4) {
    *why = "its inputs/outputs block is shorter than its count";
    return TP_ERR_CORRUPT;
  }
  int32_t n = (int32_t)load_u32(data);
  if (n < 0 || (uint32_t)n > (size - 4) / IO_RECORD_BYTES) {
    *why = "its inputs/outputs block has more records than bytes";
    return TP_ERR_CORRUPT;
  }
  if (n > TP_VELA_MAX_IO) {
    *why = "the delegate has more than 16 inputs or outputs";
    return TP_ERR_UNSUPPORTED;
  }
  for (uint32_t i = 0; i < (uint32_t)n; i++) {
    tp_vela_io io = tp_vela_blob_io(data, i);
    for (int d = 0; d < 6; d++) {
      if (io.shape[d] < 0) {
        *why = "an input or output has a negative dimension";
        return TP_ERR_CORRUPT;
      }
    }
    uint32_t bytes = tp_vela_io_bytes(&io);
    if (io.region != TP_VELA_REGION_SCRATCH || io.elem_size <= 0 || io.offset < 0 ||
        (uint32_t)io.offset > scratch || bytes > scratch - (uint32_t)io.offset) {
      *why = "an input or output lies outside the scratch region";
      return TP_ERR_CORRUPT;
    }
  }
  *count = (uint32_t)n;
  return TP_OK;
}

tp_status tp_vela_blob_parse(const uint8_t *data, size_t size, tp_vela_blob *blob, const char **why) {
  memset(blob, 0, sizeof *blob);
  const uint8_t *inputs = NULL;
  const uint8_t *outputs = NULL;
  uint32_t inputs_size = 0;
  uint32_t outputs_size = 0;
  bool scratch_seen = false;
  bool ended = false;
  size_t pos = 0;
  for (uint32_t block = 0; !ended; block++) {
    if (size - pos < HEADER_BYTES) {
      *why = "the blob ends inside a block header (no vela_end_stream)";
      return TP_ERR_CORRUPT;
    }
    const uint8_t *header = data + pos;
    uint32_t length = load_u32(header + NAME_BYTES);
    size_t padded = ((size_t)length + 15u) & ~(size_t)15u;
    if (padded > size - pos - HEADER_BYTES) {
      *why = "a block is longer than the blob";
      return TP_ERR_CORRUPT;
    }
    if (header[NAME_BYTES + 4] != 0) {
      *why = "a block is placed outside the blob (Vela external block placements are not supported)";
      return TP_ERR_UNSUPPORTED;
    }
    const uint8_t *payload = header + HEADER_BYTES;
    pos += HEADER_BYTES + padded;
    if (block == 0 && !named(header, "vela_bin_stream")) {
      *why = "the blob does not start with a vela_bin_stream block";
      return TP_ERR_CORRUPT;
    }
    if (named(header, "cmd_data")) {
      blob->cmd_data = payload;
      blob->cmd_bytes = length;
    } else if (named(header, "weight_data")) {
      blob->weights = payload;
      blob->weight_bytes = length;
    } else if (named(header, "scratch_size")) {
      if (length != 4) {
        *why = "its scratch_size block is not 4 bytes";
        return TP_ERR_CORRUPT;
      }
      blob->scratch_bytes = load_u32(payload);
      scratch_seen = true;
    } else if (named(header, "inputs")) {
      inputs = payload;
      inputs_size = length;
    } else if (named(header, "outputs")) {
      outputs = payload;
      outputs_size = length;
    } else if (named(header, "vela_end_stream")) {
      ended = true;
    } else if (!named(header, "vela_bin_stream")) {
      *why = "the blob has a block of unknown name";
      return TP_ERR_CORRUPT;
    }
  }
  if (blob->cmd_data == NULL || blob->cmd_bytes == 0 || !scratch_seen || inputs == NULL || outputs == NULL) {
    *why = "the blob lacks one of cmd_data, scratch_size, inputs, outputs";
    return TP_ERR_CORRUPT;
  }
  if (((uintptr_t)blob->cmd_data & 15u) != 0) {
    *why = "the blob is not 16-byte aligned in the program";
    return TP_ERR_MISALIGNED;
  }
  TP_TRY(check_io(inputs, inputs_size, blob->scratch_bytes, &blob->num_inputs, why));
  TP_TRY(check_io(outputs, outputs_size, blob->scratch_bytes, &blob->num_outputs, why));
  blob->inputs = inputs;
  blob->outputs = outputs;
  return TP_OK;
}
