/* The processed blob of an ExecuTorch Ethos-U delegate: what ExecuTorch's Arm backend wraps
 * around Vela's output (executorch/backends/arm/arm_vela.py writes it).
 *
 * A sequence of blocks, each a 32-byte header (16-byte NUL-padded name, u32 little-endian data
 * length, u8 external flag, 11 reserved bytes) and its data padded to 16 bytes:
 *   vela_bin_stream  (empty: the start)
 *   cmd_data         Vela's driver payload: "COP1", version, then the NPU command stream
 *   weight_data      encoded weights and scales (the command stream's region 0)
 *   scratch_size     u32: bytes of the tensor arena the stream uses (region 1)
 *   inputs, outputs  i32 count, then per tensor a 6-D shape, element size, offset, region
 *   vela_end_stream  (empty: the end)
 */
#ifndef TINYPTE_VELA_BLOB_H
#define TINYPTE_VELA_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "tinypte/status.h"

/* At most this many inputs or outputs per delegate. */
#define TP_VELA_MAX_IO 16

/* The NPU regions (BASEP index) of the command stream ExecuTorch's flow produces. */
enum { TP_VELA_REGION_WEIGHTS = 0, TP_VELA_REGION_SCRATCH = 1, TP_VELA_REGION_FAST_SCRATCH = 2 };

/* One input or output: where it lies in its region. */
typedef struct tp_vela_io {
  int32_t shape[6];
  int32_t elem_size;
  int32_t offset;
  int32_t region;
} tp_vela_io;

typedef struct tp_vela_blob {
  const uint8_t *cmd_data; /* the driver payload */
  uint32_t cmd_bytes;
  const uint8_t *weights;
  uint32_t weight_bytes;
  uint32_t scratch_bytes;
  uint32_t num_inputs;
  uint32_t num_outputs;
  const uint8_t *inputs;  /* packed tp_vela_io records: read them with tp_vela_blob_io */
  const uint8_t *outputs;
} tp_vela_blob;

/** Parse and check `data[0..size)`. On failure, TP_ERR_CORRUPT (a malformed blob) or
 *  TP_ERR_UNSUPPORTED (blocks placed outside the blob, too many inputs) and *why says which
 *  block and what is wrong. */
tp_status tp_vela_blob_parse(const uint8_t *data, size_t size, tp_vela_blob *blob, const char **why);

/** Record `index` of `records` (blob->inputs or blob->outputs). */
tp_vela_io tp_vela_blob_io(const uint8_t *records, uint32_t index);

/** Bytes of one input or output (elem_size times its shape's elements). */
uint32_t tp_vela_io_bytes(const tp_vela_io *io);

#endif /* TINYPTE_VELA_BLOB_H */
