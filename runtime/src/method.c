/* Methods: sizing (tp_method_requirements_get), set-up in the caller's memory
 * (tp_method_init), inputs and outputs, and the instruction loop (tp_method_execute). */
#include <string.h>

#include "internal.h"
#include "plan.h"
#include "schema.h"

/* Byte offsets of each array in the state pool. */
typedef struct pool_layout {
  size_t values;
  size_t tensors;
  size_t instructions;
  size_t int_items;
  size_t double_items;
  size_t tensor_items;
  size_t call_args;
  size_t states;
  size_t total;
} pool_layout;

static size_t take(size_t *cursor, size_t bytes) {
  size_t at = *cursor;
  *cursor += TP_POOL_ALIGN(bytes);
  return at;
}

/* The one computation of the pool's size (tp_method_requirements_get reports it, and the
 * build runs that for the boards' data layout), with the offset of each array. */
static void layout_pool(const tp_plan_view *view, const tp_pool_counts *counts, pool_layout *layout) {
  size_t cursor = 0;
  layout->values = take(&cursor, sizeof(tp_value) * view->values.len);
  layout->tensors = take(&cursor, sizeof(tp_tensor) * counts->tensors);
  layout->instructions = take(&cursor, sizeof(tp_instruction) * view->instructions.len);
  layout->int_items = take(&cursor, sizeof(int64_t) * counts->int_items);
  layout->double_items = take(&cursor, sizeof(double) * counts->double_items);
  layout->tensor_items = take(&cursor, sizeof(tp_tensor *) * counts->tensor_items);
  layout->call_args = take(&cursor, sizeof(tp_value *) * counts->call_args);
  layout->states = take(&cursor, counts->state_bytes);
  layout->total = cursor;
}

/* Open method `name`, check and count everything in it, and lay out its pool. */
static tp_status size_method(const tp_program *program, const char *name, const tp_kernel_registry *kernels,
                             tp_plan_view *view, tp_pool_counts *counts, pool_layout *layout) {
  TP_TRY(tp_plan_open(program, name, kernels, view));
  TP_TRY(tp_plan_walk(view, NULL, counts));
  layout_pool(view, counts, layout);
  return TP_OK;
}

tp_status tp_method_requirements_get(const tp_program *program, const char *name, const tp_kernel_registry *kernels,
                                     tp_method_requirements *requirements) {
  if (program == NULL || name == NULL || kernels == NULL || requirements == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  tp_plan_view view;
  tp_pool_counts counts;
  pool_layout layout;
  memset(requirements, 0, sizeof *requirements);
  tp_status status = size_method(program, name, kernels, &view, &counts, &layout);
  if (status == TP_ERR_OPERATOR_MISSING) {
    requirements->missing_operator = counts.missing_operator;
    requirements->missing_overload = counts.missing_overload;
  }
  TP_TRY(status);
  requirements->num_buffers = view.num_buffers;
  memcpy(requirements->buffer_sizes, view.buffer_sizes, sizeof view.buffer_sizes);
  requirements->pool_bytes = layout.total;
  requirements->pool_parts = (tp_pool_parts){
      .values = layout.tensors - layout.values,
      .tensors = layout.instructions - layout.tensors,
      .instructions = layout.int_items - layout.instructions,
      .lists = layout.call_args - layout.int_items,
      .call_args = layout.states - layout.call_args,
      .states = layout.total - layout.states,
  };
  requirements->num_tensors = counts.tensors;
  requirements->num_planned_tensors = counts.planned_tensors;
  requirements->num_kernel_calls = counts.kernel_calls - counts.delegate_calls;
  requirements->num_delegate_calls = counts.delegate_calls;
  requirements->num_inputs = view.inputs.len;
  requirements->num_outputs = view.outputs.len;
  requirements->num_values = view.values.len;
  requirements->num_instructions = view.instructions.len;
  requirements->num_operators = view.operators.len;
  return TP_OK;
}

tp_status tp_plan_check_memory(const tp_plan_view *view, const tp_method_memory *memory, size_t pool_bytes) {
  if (memory->pool == NULL || ((uintptr_t)memory->pool & 7u) != 0) {
    return memory->pool == NULL ? TP_ERR_INVALID_ARGUMENT : TP_ERR_MISALIGNED;
  }
  if (memory->pool_size < pool_bytes) {
    return TP_ERR_POOL_TOO_SMALL;
  }
  for (uint32_t id = 1; id < view->num_buffers; id++) {
    if (view->buffer_sizes[id] == 0) {
      continue;
    }
    if (id >= memory->num_buffers || memory->buffers == NULL || memory->buffer_sizes == NULL ||
        memory->buffers[id] == NULL || memory->buffer_sizes[id] < view->buffer_sizes[id]) {
      return TP_ERR_ARENA_TOO_SMALL;
    }
    if (((uintptr_t)memory->buffers[id] & 15u) != 0) {
      return TP_ERR_MISALIGNED;
    }
  }
  return TP_OK;
}

/* Without dynamic.c (linked only with the kernels that make dynamic shapes), no tensor is
 * dynamic and there is nothing to do: dynamic.c's definition replaces this one. */
__attribute__((weak)) tp_status tp_dynamic_calls(tp_method *method) {
  (void)method;
  return TP_OK;
}

tp_status tp_method_prepare_kernels(tp_method *method) {
  for (uint32_t pc = 0; pc < method->num_instructions; pc++) {
    tp_instruction *instruction = &method->instructions[pc];
    if (instruction->kind != TP_INSTR_KERNEL_CALL) {
      continue;
    }
    /* dim_order.c, linked when the program has channels-last tensors (else there are none). */
    tp_status status = tp_dim_order_check_call == NULL ? TP_OK : tp_dim_order_check_call(instruction);
    if (status == TP_OK) {
      status = tp_kernel_prepare(instruction->kernel, &instruction->call, &instruction->run);
    }
    if (status != TP_OK) {
      tp_method_note_failure(method, pc);
      return status;
    }
  }
  return TP_OK;
}

tp_status tp_method_init(tp_method *method, const tp_program *program, const char *name,
                         const tp_method_memory *memory, const tp_kernel_registry *kernels) {
  if (method == NULL || program == NULL || name == NULL || memory == NULL || kernels == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  memset(method, 0, sizeof *method);
  method->failed_instruction = -1;
  tp_plan_view view;
  tp_pool_counts counts;
  pool_layout layout;
  tp_status status = size_method(program, name, kernels, &view, &counts, &layout);
  if (status == TP_ERR_OPERATOR_MISSING) {
    method->failed_instruction = counts.missing_instruction;
    method->failed_operator = counts.missing_operator;
    method->failed_overload = counts.missing_overload;
  }
  TP_TRY(status);
  TP_TRY(tp_plan_check_memory(&view, memory, layout.total));

  uint8_t *pool = memory->pool;
  tp_plan_sink sink = {
      .memory = memory,
      .values = (tp_value *)(void *)(pool + layout.values),
      .tensors = (tp_tensor *)(void *)(pool + layout.tensors),
      .int_items = (int64_t *)(void *)(pool + layout.int_items),
      .double_items = (double *)(void *)(pool + layout.double_items),
      .tensor_items = (tp_tensor **)(void *)(pool + layout.tensor_items),
      .instructions = (tp_instruction *)(void *)(pool + layout.instructions),
      .call_args = (tp_value **)(void *)(pool + layout.call_args),
      .states = pool + layout.states,
  };
  status = tp_plan_walk(&view, &sink, &counts);
  if (status != TP_OK && counts.missing_operator != NULL) { /* a delegate's backend refused it */
    method->failed_instruction = counts.missing_instruction;
    method->failed_operator = counts.missing_operator;
    method->failed_overload = "";
    method->failure_reason = counts.failure_reason;
  }
  TP_TRY(status);

  method->program = program;
  method->values = sink.values;
  method->num_values = view.values.len;
  method->num_operators = view.operators.len;
  method->operators = view.operators.pos;
  method->instructions = sink.instructions;
  method->num_instructions = view.instructions.len;
  method->inputs = (const int32_t *)(const void *)(view.fb.data + view.inputs.pos);
  method->num_inputs = view.inputs.len;
  method->outputs = (const int32_t *)(const void *)(view.fb.data + view.outputs.pos);
  method->num_outputs = view.outputs.len;
  /* Straight-line programs run each instruction once; programs with jumps may loop. */
  method->step_limit = counts.has_jumps ? view.instructions.len * 1024u + 1024u : view.instructions.len;
  status = tp_method_prepare_kernels(method);
  if (status == TP_OK && !counts.has_jumps) {
    status = tp_fuse_activations(method);
  }
  if (status == TP_OK) {
    status = tp_dynamic_calls(method);
  }
  if (status != TP_OK) {
    method->values = NULL; /* not runnable */
  }
  return status;
}

tp_status tp_method_input(const tp_method *method, uint32_t index, tp_tensor **tensor) {
  if (method == NULL || tensor == NULL || method->values == NULL || index >= method->num_inputs) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  tp_value *value = &method->values[method->inputs[index]];
  if (value->tag != TP_TAG_TENSOR) {
    return TP_ERR_INPUT_MISMATCH;
  }
  *tensor = value->as.tensor;
  return TP_OK;
}

tp_status tp_method_set_input(tp_method *method, uint32_t index, const void *data, size_t nbytes) {
  tp_tensor *tensor;
  TP_TRY(tp_method_input(method, index, &tensor));
  if (nbytes != tensor->nbytes || (data == NULL && nbytes != 0)) {
    return TP_ERR_INPUT_MISMATCH;
  }
  if (nbytes != 0) {
    memcpy(tensor->data, data, nbytes);
  }
  return TP_OK;
}

tp_status tp_method_set_input_tensor(tp_method *method, uint32_t index, const tp_tensor *value) {
  tp_tensor *tensor;
  if (value == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  TP_TRY(tp_method_input(method, index, &tensor));
  if (value->dtype != tensor->dtype || value->dim != tensor->dim || value->channels_last != tensor->channels_last) {
    return TP_ERR_INPUT_MISMATCH;
  }
  for (uint32_t d = 0; d < value->dim; d++) {
    if (value->sizes[d] != tensor->sizes[d]) {
      return TP_ERR_INPUT_MISMATCH;
    }
  }
  return tp_method_set_input(method, index, value->data, value->nbytes);
}

tp_status tp_method_output_value(const tp_method *method, uint32_t index, const tp_value **value) {
  if (method == NULL || value == NULL || method->values == NULL || index >= method->num_outputs) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  *value = &method->values[method->outputs[index]];
  return TP_OK;
}

tp_status tp_method_output(const tp_method *method, uint32_t index, const tp_tensor **tensor) {
  const tp_value *value;
  TP_TRY(tp_method_output_value(method, index, &value));
  if (value->tag != TP_TAG_TENSOR || tensor == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  *tensor = value->as.tensor;
  return TP_OK;
}

const tp_kernel *tp_method_instruction_kernel(const tp_method *method, uint32_t pc, bool *fused) {
  *fused = false;
  if (method == NULL || method->values == NULL || pc >= method->num_instructions) {
    return NULL;
  }
  const tp_instruction *instruction = &method->instructions[pc];
  *fused = instruction->kind == TP_INSTR_FUSED;
  return instruction->kind == TP_INSTR_KERNEL_CALL || *fused ? instruction->kernel : NULL;
}

const char *tp_method_failure_reason(const tp_method *method) {
  return method != NULL ? method->failure_reason : NULL;
}

void tp_method_note_failure(tp_method *method, uint32_t pc) {
  const tp_instruction *instruction = &method->instructions[pc];
  method->failed_instruction = (int32_t)pc;
  if (instruction->kind == TP_INSTR_DELEGATE_CALL) {
    const tp_backend *backend = instruction->backend;
    method->failed_operator = backend->id;
    method->failed_overload = "";
    method->failure_reason = backend->reason != NULL ? backend->reason(instruction->call.state) : NULL;
    return;
  }
  if (instruction->kind != TP_INSTR_KERNEL_CALL) {
    return;
  }
  tp_fb fb = tp_program_fb(method->program);
  tp_fb_vector operators = {method->operators, method->num_operators};
  tp_fb_table op;
  uint32_t len;
  if (tp_fb_vector_table(&fb, &operators, instruction->a, &op) == TP_OK) {
    (void)tp_fb_string_field(&fb, &op, TP_OPERATOR_NAME, &method->failed_operator, &len);
    (void)tp_fb_string_field(&fb, &op, TP_OPERATOR_OVERLOAD, &method->failed_overload, &len);
  }
}

/* A JumpFalse condition: a Bool, or a bool tensor (true when every element is), as
 * ExecuTorch accepts. */
static tp_status condition(const tp_value *cond, bool *truth) {
  *truth = false;
  if (cond->tag == TP_TAG_BOOL) {
    *truth = cond->as.b;
    return TP_OK;
  }
  if (cond->tag != TP_TAG_TENSOR || cond->as.tensor->dtype != TP_DTYPE_BOOL) {
    return TP_ERR_KERNEL_ARGS;
  }
  const uint8_t *items = cond->as.tensor->data;
  *truth = true;
  for (uint32_t i = 0; i < cond->as.tensor->numel; i++) {
    *truth = *truth && items[i] != 0;
  }
  return TP_OK;
}

tp_status tp_method_execute(tp_method *method) {
  if (method == NULL || method->values == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  tp_value *values = method->values;
  uint32_t pc = 0;
  uint32_t steps = 0;
  method->failed_instruction = -1;
  method->failed_operator = NULL;
  method->failed_overload = NULL;
  method->failure_reason = NULL;
  while (pc < method->num_instructions) {
    const tp_instruction *instruction = &method->instructions[pc];
    tp_status status = TP_OK;
    if (steps++ >= method->step_limit) {
      method->failed_instruction = (int32_t)pc;
      return TP_ERR_STEP_LIMIT;
    }
    uint32_t next = pc + 1;
    switch (instruction->kind) {
      case TP_INSTR_KERNEL_CALL:
      case TP_INSTR_DELEGATE_CALL:
        status = instruction->run(&instruction->call);
        break;
      case TP_INSTR_MOVE:
        values[instruction->b] = values[instruction->a];
        break;
      case TP_INSTR_JUMP_FALSE: {
        bool truth;
        status = condition(&values[instruction->a], &truth);
        next = truth ? next : instruction->b;
        break;
      }
      default: /* TP_INSTR_FREE (planned memory needs no freeing), TP_INSTR_FUSED */
        break;
    }
    if (status != TP_OK) {
      tp_method_note_failure(method, pc);
      return status;
    }
    pc = next;
  }
  return TP_OK;
}
