/* Reading golden data (TPGD, written by python/tinypte/golden/format.py) in place, no malloc. */
#ifndef TINYPTE_GOLDEN_H
#define TINYPTE_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TP_GOLDEN_MAX_SLOTS 8

typedef struct tp_golden_slot {
  uint32_t dtype; /* ExecuTorch ScalarType code */
  uint32_t nbytes;
  uint32_t numel;
  uint32_t ndim;
  int32_t dims[8];
  float scale;        /* a quantized slot's real = (q - zero_point) * scale; 0: not quantized */
  int32_t zero_point;
} tp_golden_slot;

typedef struct tp_golden {
  const uint8_t *cases; /* first case */
  uint32_t num_cases;
  uint32_t num_inputs;
  uint32_t num_outputs;
  uint32_t case_bytes; /* bytes per case, padding included */
  float tolerance;
  tp_golden_slot slots[TP_GOLDEN_MAX_SLOTS]; /* inputs, then outputs */
} tp_golden;

/** Parse and check `data`; false when it is malformed. */
bool tp_golden_parse(tp_golden *golden, const uint8_t *data, size_t size);

/** Bytes of slot `slot` (inputs first, then outputs) in case `index`. */
const uint8_t *tp_golden_slot_data(const tp_golden *golden, uint32_t index, uint32_t slot);

#endif /* TINYPTE_GOLDEN_H */
