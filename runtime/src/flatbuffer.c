/* Bounds-checked FlatBuffers reading (see flatbuffer.h). */
#include "flatbuffer.h"

#include <stddef.h>
#include <string.h>

static const char kEmpty[1] = "";

uint32_t tp_fb_load_u32(const uint8_t *data, uint32_t pos) {
  uint32_t v;
  memcpy(&v, data + pos, sizeof v);
  return v;
}

uint16_t tp_fb_load_u16(const uint8_t *data, uint32_t pos) {
  uint16_t v;
  memcpy(&v, data + pos, sizeof v);
  return v;
}

uint64_t tp_fb_load_u64(const uint8_t *data, uint32_t pos) {
  uint64_t v;
  memcpy(&v, data + pos, sizeof v);
  return v;
}

/* true when [pos, pos + len) lies inside the buffer. */
static bool in_bounds(const tp_fb *fb, uint32_t pos, uint32_t len) {
  return pos <= fb->size && len <= fb->size - pos;
}

tp_status tp_fb_table_at(const tp_fb *fb, uint32_t pos, tp_fb_table *table) {
  if ((pos & 3u) != 0 || !in_bounds(fb, pos, 4)) {
    return TP_ERR_CORRUPT;
  }
  /* The table starts with a signed offset back to its vtable: vtable = pos - soffset. */
  int32_t soffset = (int32_t)tp_fb_load_u32(fb->data, pos);
  int64_t vtable = (int64_t)pos - (int64_t)soffset;
  if (vtable < 0 || vtable > (int64_t)fb->size || (vtable & 1) != 0 || !in_bounds(fb, (uint32_t)vtable, 4)) {
    return TP_ERR_CORRUPT;
  }
  uint16_t vtable_size = tp_fb_load_u16(fb->data, (uint32_t)vtable);
  uint16_t table_size = tp_fb_load_u16(fb->data, (uint32_t)vtable + 2);
  if (vtable_size < 4 || (vtable_size & 1) != 0 || !in_bounds(fb, (uint32_t)vtable, vtable_size) ||
      table_size < 4 || !in_bounds(fb, pos, table_size)) {
    return TP_ERR_CORRUPT;
  }
  table->pos = pos;
  table->vtable = (uint32_t)vtable;
  table->vtable_size = vtable_size;
  table->table_size = table_size;
  return TP_OK;
}

tp_status tp_fb_root(const tp_fb *fb, tp_fb_table *table) {
  if (fb->size < 8) {
    return TP_ERR_CORRUPT;
  }
  return tp_fb_table_at(fb, tp_fb_load_u32(fb->data, 0), table);
}

/* Position of field `id` (`width` bytes, width-aligned) in table `t`; 0 when absent. */
static tp_status field(const tp_fb *fb, const tp_fb_table *t, uint32_t id, uint32_t width, uint32_t *pos) {
  uint32_t slot = 4 + 2 * id;
  *pos = 0;
  if (slot + 2 > t->vtable_size) {
    return TP_OK; /* beyond the vtable: written by an older schema, so absent */
  }
  uint16_t offset = tp_fb_load_u16(fb->data, t->vtable + slot);
  if (offset == 0) {
    return TP_OK;
  }
  /* Fields are checked against the buffer, not the vtable's table size: some writers
   * (flatc included) record a table size that leaves out a trailing 8-byte field. */
  *pos = t->pos + offset;
  if (offset < 4 || !in_bounds(fb, *pos, width) || (*pos & (width - 1)) != 0) {
    return TP_ERR_CORRUPT;
  }
  return TP_OK;
}

#define SCALAR_FIELD(fn, type, width, load)                                                    \
  tp_status fn(const tp_fb *fb, const tp_fb_table *t, uint32_t id, type fallback, type *out) { \
    uint32_t pos;                                                                              \
    tp_status status = field(fb, t, id, width, &pos);                                          \
    if (status != TP_OK) {                                                                     \
      return status;                                                                           \
    }                                                                                          \
    if (pos == 0) {                                                                            \
      *out = fallback;                                                                         \
    } else {                                                                                   \
      load;                                                                                    \
    }                                                                                          \
    return TP_OK;                                                                              \
  }

SCALAR_FIELD(tp_fb_u8, uint8_t, 1, *out = fb->data[pos])
SCALAR_FIELD(tp_fb_u32, uint32_t, 4, *out = tp_fb_load_u32(fb->data, pos))
SCALAR_FIELD(tp_fb_i32, int32_t, 4, *out = (int32_t)tp_fb_load_u32(fb->data, pos))
SCALAR_FIELD(tp_fb_i64, int64_t, 8, *out = (int64_t)tp_fb_load_u64(fb->data, pos))
SCALAR_FIELD(tp_fb_f64, double, 8, memcpy(out, fb->data + pos, sizeof *out))

/* Follow the uoffset stored at `pos` to the object it points to. */
static tp_status follow(const tp_fb *fb, uint32_t pos, uint32_t *target) {
  uint32_t offset = tp_fb_load_u32(fb->data, pos);
  if (offset > fb->size - pos) {
    return TP_ERR_CORRUPT;
  }
  *target = pos + offset;
  return TP_OK;
}

tp_status tp_fb_table_field(const tp_fb *fb, const tp_fb_table *t, uint32_t id, tp_fb_table *out, bool *present) {
  uint32_t pos;
  uint32_t target;
  tp_status status = field(fb, t, id, 4, &pos);
  *present = false;
  if (status != TP_OK || pos == 0) {
    return status;
  }
  status = follow(fb, pos, &target);
  if (status != TP_OK) {
    return status;
  }
  *present = true;
  return tp_fb_table_at(fb, target, out);
}

/* The vector whose length prefix is at `pos`. */
static tp_status vector_at(const tp_fb *fb, uint32_t pos, uint32_t elem_size, tp_fb_vector *out) {
  if ((pos & 3u) != 0 || !in_bounds(fb, pos, 4)) {
    return TP_ERR_CORRUPT;
  }
  uint32_t len = tp_fb_load_u32(fb->data, pos);
  uint32_t first = pos + 4;
  if (len > (fb->size - first) / elem_size || (first & (elem_size - 1)) != 0) {
    return TP_ERR_CORRUPT;
  }
  out->pos = first;
  out->len = len;
  return TP_OK;
}

tp_status tp_fb_vector_field(const tp_fb *fb, const tp_fb_table *t, uint32_t id, uint32_t elem_size,
                             tp_fb_vector *out) {
  uint32_t pos;
  uint32_t target;
  out->pos = 0;
  out->len = 0;
  tp_status status = field(fb, t, id, 4, &pos);
  if (status != TP_OK || pos == 0) {
    return status;
  }
  status = follow(fb, pos, &target);
  if (status != TP_OK) {
    return status;
  }
  return vector_at(fb, target, elem_size, out);
}

tp_status tp_fb_vector_table(const tp_fb *fb, const tp_fb_vector *v, uint32_t index, tp_fb_table *out) {
  uint32_t target;
  if (index >= v->len) {
    return TP_ERR_CORRUPT;
  }
  tp_status status = follow(fb, v->pos + 4 * index, &target);
  if (status != TP_OK) {
    return status;
  }
  return tp_fb_table_at(fb, target, out);
}

tp_status tp_fb_string_field(const tp_fb *fb, const tp_fb_table *t, uint32_t id, const char **chars,
                             uint32_t *len) {
  tp_fb_vector v;
  *chars = kEmpty;
  *len = 0;
  tp_status status = tp_fb_vector_field(fb, t, id, 1, &v);
  if (status != TP_OK || v.pos == 0) {
    return status;
  }
  /* FlatBuffers strings end with a NUL after `len` bytes; check it is there. */
  if (v.len >= fb->size - v.pos || fb->data[v.pos + v.len] != 0) {
    return TP_ERR_CORRUPT;
  }
  *chars = (const char *)fb->data + v.pos;
  *len = v.len;
  return TP_OK;
}
