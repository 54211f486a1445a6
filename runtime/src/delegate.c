/* Backend delegates in a program: a DelegateCall's backend, state and init (for plan.c's walk),
 * a delegate's id, processed blob and compile specs, and a backend by id (tinypte/backend.h).
 * Linked only into firmware with a backend (backends call tp_delegate_compile_spec). */
#include <string.h>

#include "plan.h"
#include "schema.h"

const tp_backend *tp_backend_find(const tp_kernel_registry *registry, const char *id) {
  for (uint32_t b = 0; b < registry->num_backends; b++) {
    if (strcmp(registry->backends[b]->id, id) == 0) {
      return registry->backends[b];
    }
  }
  return NULL;
}

/* The processed blob a BackendDelegateDataReference points at: Program.backend_delegate_data
 * (inline, INLINE) or Program.segments (after the flatbuffer, SEGMENT). */
static tp_status processed_data(const tp_plan_view *view, const tp_fb_table *reference, tp_delegate *delegate) {
  const tp_fb *fb = &view->fb;
  const tp_program *program = view->program;
  uint8_t location;
  uint32_t index;
  tp_fb_table root;
  tp_fb_vector list;
  tp_fb_table entry;
  TP_TRY(tp_fb_u8(fb, reference, TP_DATA_REF_LOCATION, TP_DATA_INLINE, &location));
  TP_TRY(tp_fb_u32(fb, reference, TP_DATA_REF_INDEX, 0, &index));
  TP_TRY(tp_fb_table_at(fb, program->program_table, &root));
  if (location == TP_DATA_INLINE) {
    tp_fb_vector data;
    TP_TRY(tp_fb_vector_field(fb, &root, TP_PROGRAM_BACKEND_DELEGATE_DATA, 4, &list));
    TP_TRY(tp_fb_vector_table(fb, &list, index, &entry));
    TP_TRY(tp_fb_vector_field(fb, &entry, TP_INLINE_DATA, 1, &data));
    delegate->processed = fb->data + data.pos;
    delegate->processed_size = data.len;
    return TP_OK;
  }
  if (location != TP_DATA_SEGMENT) {
    return TP_ERR_CORRUPT;
  }
  int64_t offset;
  int64_t size;
  TP_TRY(tp_fb_vector_field(fb, &root, TP_PROGRAM_SEGMENTS, 4, &list));
  TP_TRY(tp_fb_vector_table(fb, &list, index, &entry));
  TP_TRY(tp_fb_i64(fb, &entry, TP_SEGMENT_OFFSET, 0, &offset));
  TP_TRY(tp_fb_i64(fb, &entry, TP_SEGMENT_SIZE, 0, &size));
  size_t base = program->segment_base;
  if (base == 0 || offset < 0 || size < 0 || (uint64_t)offset > program->size - base ||
      (uint64_t)size > program->size - base - (size_t)offset) {
    return TP_ERR_CORRUPT;
  }
  delegate->processed = program->data + base + (size_t)offset;
  delegate->processed_size = (size_t)size;
  return TP_OK;
}

/* Delegate `index` of the plan: its id, processed blob and compile specs; TP_ERR_CORRUPT if any
 * of it lies outside the program. */
static tp_status plan_delegate(const tp_plan_view *view, uint32_t index, tp_delegate *delegate) {
  const tp_fb *fb = &view->fb;
  tp_fb_table table;
  tp_fb_table reference;
  tp_fb_vector specs;
  bool present;
  uint32_t len;
  memset(delegate, 0, sizeof *delegate);
  TP_TRY(tp_fb_vector_table(fb, &view->delegates, index, &table));
  TP_TRY(tp_fb_string_field(fb, &table, TP_DELEGATE_ID, &delegate->id, &len));
  TP_TRY(tp_fb_table_field(fb, &table, TP_DELEGATE_PROCESSED, &reference, &present));
  if (!present) {
    return TP_ERR_CORRUPT;
  }
  TP_TRY(processed_data(view, &reference, delegate));
  TP_TRY(tp_fb_vector_field(fb, &table, TP_DELEGATE_COMPILE_SPECS, 4, &specs));
  delegate->program = fb->data;
  delegate->program_size = fb->size;
  delegate->specs_pos = specs.pos;
  delegate->specs_len = specs.len;
  return TP_OK;
}

bool tp_delegate_compile_spec(const tp_delegate *delegate, const char *key, const uint8_t **value, uint32_t *len) {
  if (delegate == NULL || key == NULL || value == NULL || len == NULL || delegate->program == NULL) {
    return false;
  }
  const tp_fb fb = {delegate->program, (uint32_t)delegate->program_size};
  const tp_fb_vector specs = {delegate->specs_pos, delegate->specs_len};
  for (uint32_t i = 0; i < specs.len; i++) {
    tp_fb_table spec;
    const char *name;
    uint32_t name_len;
    tp_fb_vector bytes;
    if (tp_fb_vector_table(&fb, &specs, i, &spec) != TP_OK ||
        tp_fb_string_field(&fb, &spec, TP_COMPILE_SPEC_KEY, &name, &name_len) != TP_OK ||
        strlen(key) != name_len || memcmp(name, key, name_len) != 0 ||
        tp_fb_vector_field(&fb, &spec, TP_COMPILE_SPEC_VALUE, 1, &bytes) != TP_OK) {
      continue;
    }
    *value = fb.data + bytes.pos;
    *len = bytes.len;
    return true;
  }
  return false;
}

tp_status tp_plan_decode_delegate_call(const tp_plan_view *view, const tp_fb_table *args_table, tp_instruction *out,
                                       const tp_plan_sink *sink, tp_pool_counts *counts) {
  uint32_t delegate_index;
  tp_fb_vector args;
  tp_delegate delegate;
  TP_TRY(tp_plan_call_fields(view, args_table, view->delegates.len, &delegate_index, &args));
  TP_TRY(plan_delegate(view, delegate_index, &delegate));
  const tp_backend *backend = view->kernels != NULL ? tp_backend_find(view->kernels, delegate.id) : NULL;
  if (backend == NULL) {
    counts->missing_operator = delegate.id;
    counts->missing_overload = "";
    return TP_ERR_OPERATOR_MISSING;
  }
  size_t state_size = 0;
  TP_TRY(backend->state_size(&delegate, &state_size));
  out->a = delegate_index;
  out->backend = backend;
  tp_plan_place_call(view, &args, state_size, out, sink, counts);
  counts->delegate_calls++;
  if (sink == NULL) {
    return TP_OK;
  }
  memset(out->call.state, 0, state_size);
  out->run = NULL;
  tp_status status = backend->init(&delegate, &out->call, &out->run);
  if (status != TP_OK) {
    counts->missing_operator = delegate.id; /* names the failing backend (method->failed_operator) */
    counts->failure_reason = backend->reason != NULL ? backend->reason(out->call.state) : NULL;
  }
  return status == TP_OK && out->run == NULL ? TP_ERR_INVALID_ARGUMENT : status;
}
