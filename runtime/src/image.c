/* Methods from a build-time image (tinypte/image.h): kernels resolved and prepared, with only
 * the instructions and the kernels' state in the pool. */
#include "tinypte/image.h"

#include <string.h>

#include "internal.h"
#include "plan.h"
#include "schema.h"

/* The pool of an image's method: its instructions, then each kernel call's state. */
static size_t image_pool_bytes(uint32_t num_instructions, size_t state_bytes) {
  return TP_POOL_ALIGN(sizeof(tp_instruction) * num_instructions) + state_bytes;
}

size_t tp_method_image_pool_bytes(const tp_method *method) {
  size_t states = 0;
  for (uint32_t pc = 0; pc < method->num_instructions; pc++) {
    const tp_instruction *instruction = &method->instructions[pc];
    if (instruction->kind == TP_INSTR_KERNEL_CALL || instruction->kind == TP_INSTR_FUSED) {
      states += TP_POOL_ALIGN(instruction->kernel->state_size);
    }
  }
  return image_pool_bytes(method->num_instructions, states);
}

/* Resolve instruction `pc`'s kernel (noting a missing one in `method`) and check its arguments'
 * place in the image. */
static tp_status image_kernel(const tp_plan_view *view, const tp_method_image *image, uint32_t pc,
                              tp_method *method, const tp_kernel **kernel) {
  const tp_image_instruction *in = &image->instructions[pc];
  if (in->first_arg > image->num_call_args || in->nargs > image->num_call_args - in->first_arg) {
    return TP_ERR_CORRUPT;
  }
  tp_pool_counts counts;
  memset(&counts, 0, sizeof counts);
  tp_status status = tp_plan_find_kernel(view, in->op, kernel, &counts);
  if (status == TP_ERR_OPERATOR_MISSING) {
    method->failed_instruction = (int32_t)pc;
    method->failed_operator = counts.missing_operator;
    method->failed_overload = counts.missing_overload;
  }
  return status;
}

/* Lay the instructions and states out in the pool (checked to hold them), each kernel found
 * again (init only: a registry lookup per call). */
static tp_status lay_out(const tp_plan_view *view, const tp_method_image *image, tp_method *method, void *pool) {
  tp_instruction *instructions = pool;
  uint8_t *state = (uint8_t *)pool + TP_POOL_ALIGN(sizeof(tp_instruction) * image->num_instructions);
  for (uint32_t pc = 0; pc < image->num_instructions; pc++) {
    const tp_image_instruction *in = &image->instructions[pc];
    tp_instruction *out = &instructions[pc];
    memset(out, 0, sizeof *out);
    out->kind = in->kind;
    if (in->kind != TP_INSTR_KERNEL_CALL) {
      continue;
    }
    TP_TRY(image_kernel(view, image, pc, method, &out->kernel));
    out->a = in->op;
    out->call.args = image->call_args + in->first_arg;
    out->call.nargs = in->nargs;
    out->call.state = state;
    state += TP_POOL_ALIGN(out->kernel->state_size);
  }
  method->instructions = instructions;
  return TP_OK;
}

tp_status tp_method_init_image(tp_method *method, const tp_program *program, const tp_method_image *image,
                               const tp_method_memory *memory, const tp_kernel_registry *kernels) {
  if (method == NULL || program == NULL || image == NULL || memory == NULL || kernels == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  memset(method, 0, sizeof *method);
  method->failed_instruction = -1;
  if (image->program_size != program->size) {
    return TP_ERR_CORRUPT;
  }
  tp_plan_view view;
  TP_TRY(tp_plan_open(program, image->method, kernels, &view));
  if (view.values.len != image->num_values || view.instructions.len != image->num_instructions) {
    return TP_ERR_CORRUPT;
  }
  /* Every kernel and the state they need, before anything is written to the pool. */
  size_t states = 0;
  for (uint32_t pc = 0; pc < image->num_instructions; pc++) {
    const tp_image_instruction *in = &image->instructions[pc];
    if (in->kind == TP_INSTR_FREE) {
      continue;
    }
    const tp_kernel *kernel;
    if (in->kind != TP_INSTR_KERNEL_CALL) {
      return TP_ERR_CORRUPT;
    }
    TP_TRY(image_kernel(&view, image, pc, method, &kernel));
    states += TP_POOL_ALIGN(kernel->state_size);
  }
  TP_TRY(tp_plan_check_memory(&view, memory, image_pool_bytes(image->num_instructions, states)));
  TP_TRY(lay_out(&view, image, method, memory->pool));
  method->program = program;
  method->values = (tp_value *)image->values; /* never written: the program has no MoveCall */
  method->num_values = image->num_values;
  method->num_operators = view.operators.len;
  method->operators = view.operators.pos;
  method->num_instructions = image->num_instructions;
  method->inputs = (const int32_t *)(const void *)(view.fb.data + view.inputs.pos);
  method->num_inputs = view.inputs.len;
  method->outputs = (const int32_t *)(const void *)(view.fb.data + view.outputs.pos);
  method->num_outputs = view.outputs.len;
  method->step_limit = image->num_instructions;
  tp_status status = tp_method_prepare_kernels(method);
  if (status == TP_OK) {
    status = tp_fuse_activations(method);
  }
  if (status != TP_OK) {
    method->values = NULL; /* not runnable */
  }
  return status;
}
