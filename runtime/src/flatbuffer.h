/* A bounds-checked reader for the parts of the FlatBuffers binary format a .pte uses.
 *
 * Every accessor checks that what it reads lies inside the buffer, is aligned as the
 * format requires, and (for vectors) that count * element size cannot overflow, and
 * returns TP_ERR_CORRUPT otherwise. Nothing recurses and nothing is cached: callers walk
 * the tables they need, so a hostile file costs at most a bounded number of reads.
 * Little-endian hosts only (all tinypte targets are).
 */
#ifndef TINYPTE_FLATBUFFER_H
#define TINYPTE_FLATBUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "tinypte/status.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tinypte reads .pte files in place and needs a little-endian target"
#endif

typedef struct tp_fb {
  const uint8_t *data;
  uint32_t size; /* bytes of flatbuffer (the program part of the file) */
} tp_fb;

/* A table: where it starts and where its vtable is. */
typedef struct tp_fb_table {
  uint32_t pos;
  uint32_t vtable;
  uint16_t vtable_size;
  uint16_t table_size;
} tp_fb_table;

/* A vector: position of element 0 and the element count. */
typedef struct tp_fb_vector {
  uint32_t pos;
  uint32_t len;
} tp_fb_vector;

/** Little-endian loads from `data + pos`; the caller has bounds-checked. */
uint32_t tp_fb_load_u32(const uint8_t *data, uint32_t pos);
uint16_t tp_fb_load_u16(const uint8_t *data, uint32_t pos);
uint64_t tp_fb_load_u64(const uint8_t *data, uint32_t pos);

/** The table starting at `pos`. */
tp_status tp_fb_table_at(const tp_fb *fb, uint32_t pos, tp_fb_table *table);

/** The root table (uoffset at byte 0). */
tp_status tp_fb_root(const tp_fb *fb, tp_fb_table *table);

/* Scalar fields by field id; absent fields give `fallback`. */
tp_status tp_fb_u8(const tp_fb *fb, const tp_fb_table *t, uint32_t id, uint8_t fallback, uint8_t *out);
tp_status tp_fb_u32(const tp_fb *fb, const tp_fb_table *t, uint32_t id, uint32_t fallback, uint32_t *out);
tp_status tp_fb_i32(const tp_fb *fb, const tp_fb_table *t, uint32_t id, int32_t fallback, int32_t *out);
tp_status tp_fb_i64(const tp_fb *fb, const tp_fb_table *t, uint32_t id, int64_t fallback, int64_t *out);
tp_status tp_fb_f64(const tp_fb *fb, const tp_fb_table *t, uint32_t id, double fallback, double *out);

/** Sub-table field; *present is false when the field is absent. */
tp_status tp_fb_table_field(const tp_fb *fb, const tp_fb_table *t, uint32_t id, tp_fb_table *out, bool *present);

/** Vector field with elements of `elem_size` bytes (1, 4 or 8); absent gives len 0. */
tp_status tp_fb_vector_field(const tp_fb *fb, const tp_fb_table *t, uint32_t id, uint32_t elem_size,
                             tp_fb_vector *out);

/** Table `index` of a vector of tables. */
tp_status tp_fb_vector_table(const tp_fb *fb, const tp_fb_vector *v, uint32_t index, tp_fb_table *out);

/** String field: NUL-terminated chars (checked) and length; absent gives "" and 0. */
tp_status tp_fb_string_field(const tp_fb *fb, const tp_fb_table *t, uint32_t id, const char **chars,
                             uint32_t *len);

#endif /* TINYPTE_FLATBUFFER_H */
