/* tp_program_load: check a .pte's identifier, extended header and root table. */
#include <stddef.h>
#include <string.h>

#include "flatbuffer.h"
#include "internal.h"
#include "schema.h"
#include "tinypte/runtime.h"

/* The extended header after the flatbuffer identifier: "eh00", length, program size,
 * segment base offset (and, in newer files, segment data size). */
enum { EXT_HEADER_POS = 8, EXT_HEADER_MIN_LENGTH = 24 };

static tp_status read_extended_header(tp_program *program) {
  const uint8_t *d = program->data;
  program->flatbuffer_end = (uint32_t)program->size;
  program->segment_base = 0;
  if (program->size < EXT_HEADER_POS + EXT_HEADER_MIN_LENGTH || memcmp(d + EXT_HEADER_POS, "eh00", 4) != 0) {
    return TP_OK; /* no extended header: the whole file is the flatbuffer */
  }
  uint32_t length = tp_fb_load_u32(d, EXT_HEADER_POS + 4);
  uint64_t program_size = tp_fb_load_u64(d, EXT_HEADER_POS + 8);
  uint64_t segment_base = tp_fb_load_u64(d, EXT_HEADER_POS + 16);
  if (length < EXT_HEADER_MIN_LENGTH || program_size < 16 || program_size > program->size ||
      segment_base > program->size || (segment_base != 0 && segment_base < program_size)) {
    return TP_ERR_CORRUPT;
  }
  program->flatbuffer_end = (uint32_t)program_size;
  program->segment_base = (size_t)segment_base;
  return TP_OK;
}

tp_status tp_program_load(tp_program *program, const void *data, size_t size) {
  if (program == NULL || data == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  memset(program, 0, sizeof *program);
  const uint8_t *d = data;
  if (size < 8 || d[4] != 'E' || d[5] != 'T') {
    return TP_ERR_NOT_A_PROGRAM;
  }
  if (d[6] != '1' || d[7] != '2') {
    return TP_ERR_VERSION;
  }
  if (((uintptr_t)data & 15u) != 0) {
    return TP_ERR_MISALIGNED;
  }
  if (size > 0x7fffffffu) {
    return TP_ERR_UNSUPPORTED; /* offsets are 32-bit */
  }
  program->data = d;
  program->size = size;
  TP_TRY(read_extended_header(program));

  tp_fb fb = tp_program_fb(program);
  tp_fb_table root;
  tp_fb_vector plans;
  TP_TRY(tp_fb_root(&fb, &root));
  TP_TRY(tp_fb_u32(&fb, &root, TP_PROGRAM_VERSION, 0, &program->version));
  TP_TRY(tp_fb_vector_field(&fb, &root, TP_PROGRAM_EXECUTION_PLAN, 4, &plans));
  program->program_table = root.pos;
  program->num_methods = plans.len;
  return TP_OK;
}

tp_fb tp_program_fb(const tp_program *program) {
  tp_fb fb = {program->data, program->flatbuffer_end};
  return fb;
}

tp_status tp_program_plan(const tp_program *program, uint32_t index, tp_fb_table *plan) {
  tp_fb fb = tp_program_fb(program);
  tp_fb_table root;
  tp_fb_vector plans;
  TP_TRY(tp_fb_table_at(&fb, program->program_table, &root));
  TP_TRY(tp_fb_vector_field(&fb, &root, TP_PROGRAM_EXECUTION_PLAN, 4, &plans));
  if (index >= plans.len) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  return tp_fb_vector_table(&fb, &plans, index, plan);
}

tp_status tp_program_method_name(const tp_program *program, uint32_t index, const char **name) {
  if (program == NULL || name == NULL || program->data == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  tp_fb fb = tp_program_fb(program);
  tp_fb_table plan;
  uint32_t len;
  TP_TRY(tp_program_plan(program, index, &plan));
  return tp_fb_string_field(&fb, &plan, TP_PLAN_NAME, name, &len);
}

tp_status tp_program_find_plan(const tp_program *program, const char *name, tp_fb_table *plan) {
  if (program == NULL || name == NULL || program->data == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < program->num_methods; i++) {
    const char *candidate;
    TP_TRY(tp_program_method_name(program, i, &candidate));
    if (strcmp(candidate, name) == 0) {
      return tp_program_plan(program, i, plan);
    }
  }
  return TP_ERR_METHOD_NOT_FOUND;
}

/* Every status name in code order, each ending in a NUL, then the name for unknown codes.
 * One packed string instead of a table of pointers keeps the firmware small. */
static const char status_names[] =
#define TP_STATUS_NAME_ENTRY(name, code, message) #name "\0"
    TP_STATUS_LIST(TP_STATUS_NAME_ENTRY)
#undef TP_STATUS_NAME_ENTRY
        "TP_ERR_?";

/* The walk below needs the codes to be 0, 1, 2, ... in list order. */
enum {
#define TP_STATUS_POSITION(name, code, message) name##_position,
  TP_STATUS_LIST(TP_STATUS_POSITION)
#undef TP_STATUS_POSITION
};
#define TP_STATUS_CHECK_POSITION(name, code, message) \
  _Static_assert((code) == (int)name##_position, #name " is out of order in TP_STATUS_LIST");
TP_STATUS_LIST(TP_STATUS_CHECK_POSITION)
#undef TP_STATUS_CHECK_POSITION

const char *tp_status_name(tp_status status) {
  uint32_t skip = (uint32_t)status < (uint32_t)TP_STATUS_COUNT ? (uint32_t)status : (uint32_t)TP_STATUS_COUNT;
  const char *name = status_names;
  for (; skip > 0; skip--) {
    name += strlen(name) + 1;
  }
  return name;
}
