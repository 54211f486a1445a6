/* The walk over a plan (plan.h's tp_plan_walk): its values (plan.c), then its instructions,
 * decoded here: kernel calls, delegate calls (delegate.c, when the firmware links a backend),
 * moves, jumps and frees. Above plan.c and delegate.c, so neither calls back up. */
#include <string.h>

#include "plan.h"
#include "schema.h"

/* A KernelCall: its kernel, argument slots and state. */
static tp_status decode_kernel_call(const tp_plan_view *view, const tp_fb_table *args_table, tp_instruction *out,
                                    const tp_plan_sink *sink, tp_pool_counts *counts) {
  uint32_t op_index;
  tp_fb_vector args;
  TP_TRY(tp_plan_call_fields(view, args_table, view->operators.len, &op_index, &args));
  const tp_kernel *kernel;
  TP_TRY(tp_plan_find_kernel(view, op_index, &kernel, counts));
  out->a = op_index;
  out->kernel = kernel;
  tp_plan_place_call(view, &args, kernel->state_size, out, sink, counts);
  return TP_OK;
}

/* A MOVE may only replace a tensor by one of the same dtype and shape: prepared kernels
 * keep the shapes they were prepared for. */
static tp_status check_move(const tp_plan_sink *sink, uint32_t from, uint32_t to) {
  if (sink == NULL) {
    return TP_OK;
  }
  const tp_value *a = &sink->values[from];
  const tp_value *b = &sink->values[to];
  if (a->tag != TP_TAG_TENSOR && b->tag != TP_TAG_TENSOR) {
    return TP_OK;
  }
  if (a->tag != b->tag || a->as.tensor->dtype != b->as.tensor->dtype || a->as.tensor->dim != b->as.tensor->dim) {
    return TP_ERR_UNSUPPORTED;
  }
  for (uint32_t d = 0; d < a->as.tensor->dim; d++) {
    if (a->as.tensor->sizes[d] != b->as.tensor->sizes[d]) {
      return TP_ERR_UNSUPPORTED;
    }
  }
  return TP_OK;
}

/* A DelegateCall in firmware that links no backend (so not delegate.c either: the generated
 * registry references a backend only for programs that delegate to it): TP_ERR_OPERATOR_MISSING
 * naming the delegate's id. */
static tp_status no_backend(const tp_plan_view *view, const tp_fb_table *args_table, tp_pool_counts *counts) {
  int32_t index = 0;
  tp_fb_table delegate;
  uint32_t len;
  TP_TRY(tp_fb_i32(&view->fb, args_table, TP_CALL_OP_INDEX, 0, &index));
  TP_TRY(tp_plan_check_index(index, view->delegates.len));
  TP_TRY(tp_fb_vector_table(&view->fb, &view->delegates, (uint32_t)index, &delegate));
  TP_TRY(tp_fb_string_field(&view->fb, &delegate, TP_DELEGATE_ID, &counts->missing_operator, &len));
  counts->missing_overload = "";
  return TP_ERR_OPERATOR_MISSING;
}

/* Absent fields read as the schema default, 0 (flatc omits defaults: op_index 0 is absent). */
static tp_status decode_instruction(const tp_plan_view *view, uint32_t index, tp_instruction *out,
                                    const tp_plan_sink *sink, tp_pool_counts *counts) {
  const tp_fb *fb = &view->fb;
  uint32_t num_values = view->values.len;
  tp_fb_table instruction;
  tp_fb_table args_table;
  uint8_t kind;
  bool present;
  int32_t a = 0;
  int32_t b = 0;
  TP_TRY(tp_fb_vector_table(fb, &view->instructions, index, &instruction));
  TP_TRY(tp_fb_u8(fb, &instruction, TP_UNION_TYPE, 0, &kind));
  TP_TRY(tp_fb_table_field(fb, &instruction, TP_UNION_VALUE, &args_table, &present));
  if (!present) {
    return TP_ERR_CORRUPT;
  }
  memset(out, 0, sizeof *out);
  out->kind = kind;
  switch (kind) {
    case TP_INSTR_KERNEL_CALL:
      return decode_kernel_call(view, &args_table, out, sink, counts);
    case TP_INSTR_DELEGATE_CALL:
      return tp_plan_decode_delegate_call != NULL ? tp_plan_decode_delegate_call(view, &args_table, out, sink, counts)
                                                  : no_backend(view, &args_table, counts);
    case TP_INSTR_MOVE:
      TP_TRY(tp_fb_i32(fb, &args_table, TP_MOVE_FROM, 0, &a));
      TP_TRY(tp_fb_i32(fb, &args_table, TP_MOVE_TO, 0, &b));
      TP_TRY(tp_plan_check_index(a, num_values));
      TP_TRY(tp_plan_check_index(b, num_values));
      TP_TRY(check_move(sink, (uint32_t)a, (uint32_t)b));
      break;
    case TP_INSTR_JUMP_FALSE:
      TP_TRY(tp_fb_i32(fb, &args_table, TP_JUMP_COND, 0, &a));
      TP_TRY(tp_fb_i32(fb, &args_table, TP_JUMP_DESTINATION, 0, &b));
      TP_TRY(tp_plan_check_index(a, num_values));
      TP_TRY(tp_plan_check_index(b, view->instructions.len + 1)); /* == len: jump to the end */
      counts->has_jumps = true;
      break;
    case TP_INSTR_FREE:
      TP_TRY(tp_fb_i32(fb, &args_table, TP_FREE_VALUE, 0, &a));
      TP_TRY(tp_plan_check_index(a, num_values));
      break;
    default:
      return TP_ERR_CORRUPT;
  }
  out->a = (uint32_t)a;
  out->b = (uint32_t)b;
  return TP_OK;
}

static tp_status check_io(const tp_plan_view *view, const tp_fb_vector *indices) {
  for (uint32_t i = 0; i < indices->len; i++) {
    TP_TRY(tp_plan_check_index((int32_t)tp_fb_load_u32(view->fb.data, indices->pos + 4 * i), view->values.len));
  }
  return TP_OK;
}

tp_status tp_plan_walk(const tp_plan_view *view, const tp_plan_sink *sink, tp_pool_counts *counts) {
  TP_TRY(tp_plan_walk_values(view, sink, counts));
  for (uint32_t i = 0; i < view->instructions.len; i++) {
    tp_instruction scratch;
    counts->missing_instruction = (int32_t)i;
    TP_TRY(decode_instruction(view, i, sink != NULL ? &sink->instructions[i] : &scratch, sink, counts));
  }
  counts->missing_instruction = -1;
  TP_TRY(check_io(view, &view->inputs));
  return check_io(view, &view->outputs);
}
