/* TPGD golden data parser (format documented in python/tinypte/golden/format.py). */
#include "golden.h"

#include <string.h>

#include "tinypte/value.h"

static uint32_t read_u32(const uint8_t *data, size_t *pos) {
  uint32_t v;
  memcpy(&v, data + *pos, 4);
  *pos += 4;
  return v;
}

bool tp_golden_parse(tp_golden *golden, const uint8_t *data, size_t size) {
  size_t pos = 4;
  memset(golden, 0, sizeof *golden);
  if (size < 24 || memcmp(data, "TPGD", 4) != 0 || read_u32(data, &pos) != 2) {
    return false;
  }
  golden->num_cases = read_u32(data, &pos);
  golden->num_inputs = read_u32(data, &pos);
  golden->num_outputs = read_u32(data, &pos);
  memcpy(&golden->tolerance, data + pos, 4);
  pos += 4;
  uint32_t slots = golden->num_inputs + golden->num_outputs;
  if (golden->num_inputs == 0 || golden->num_outputs == 0 || slots > TP_GOLDEN_MAX_SLOTS) {
    return false;
  }
  for (uint32_t s = 0; s < slots; s++) {
    tp_golden_slot *slot = &golden->slots[s];
    if (size - pos < 8) {
      return false;
    }
    slot->dtype = read_u32(data, &pos);
    slot->ndim = read_u32(data, &pos);
    if (slot->ndim > 8 || size - pos < 4u * slot->ndim + 4u || tp_dtype_size((int)slot->dtype) == 0) {
      return false;
    }
    for (uint32_t d = 0; d < slot->ndim; d++) {
      slot->dims[d] = (int32_t)read_u32(data, &pos);
    }
    slot->nbytes = read_u32(data, &pos);
    if (size - pos < 8) {
      return false;
    }
    memcpy(&slot->scale, data + pos, 4);
    pos += 4;
    slot->zero_point = (int32_t)read_u32(data, &pos);
    slot->numel = slot->nbytes / tp_dtype_size((int)slot->dtype);
    golden->case_bytes += (slot->nbytes + 3u) & ~3u;
  }
  golden->cases = data + pos;
  return golden->case_bytes != 0 && (size - pos) / golden->case_bytes >= golden->num_cases;
}

const uint8_t *tp_golden_slot_data(const tp_golden *golden, uint32_t index, uint32_t slot) {
  const uint8_t *at = golden->cases + (size_t)index * golden->case_bytes;
  for (uint32_t s = 0; s < slot; s++) {
    at += (golden->slots[s].nbytes + 3u) & ~3u;
  }
  return at;
}
