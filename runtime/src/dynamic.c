/* Data-dependent shapes (DYNAMIC_BOUND tensors): resizing within the bound, and re-preparing
 * the kernel calls that touch such tensors each time they run.
 *
 * A program exported from a model with nonzero or masked_select carries tensors whose sizes
 * are known only when the program runs; the memory plan reserves room for their bound (the
 * sizes written in the program). tinypte keeps their current sizes in the state pool
 * (plan.c). Every kernel call with a dynamic tensor among its arguments is prepared again just
 * before it runs, when the tensors it reads have their sizes for this run, and its prepare
 * resizes its dynamic out (tp_tensor_resize). Only kernels flagged TP_KERNEL_DYNAMIC_SHAPES
 * know how; a program that passes a dynamic tensor to any other kernel fails tp_method_init
 * with TP_ERR_UNSUPPORTED naming that operator. Static programs never reach this file.
 */
#include <stddef.h>

#include "internal.h"
#include "plan.h"
#include "schema.h"

tp_status tp_dynamic_tensor(tp_tensor *t, const tp_plan_sink *sink, tp_pool_counts *counts) {
  if (sink != NULL) {
    int32_t *storage = (int32_t *)(void *)(sink->int_items + counts->int_items);
    for (uint32_t d = 0; d < t->dim; d++) {
      storage[d] = storage[t->dim + d] = t->sizes[d];
    }
    t->sizes = storage;
  }
  counts->int_items += t->dim;
  return TP_OK;
}

tp_status tp_tensor_resize(tp_tensor *tensor, uint32_t dim, const int32_t *sizes) {
  if (!tensor->dynamic) {
    /* A static tensor "resizes" only to the shape it has. */
    if (dim != tensor->dim) {
      return TP_ERR_KERNEL_ARGS;
    }
    for (uint32_t d = 0; d < dim; d++) {
      if (sizes[d] != tensor->sizes[d]) {
        return TP_ERR_KERNEL_ARGS;
      }
    }
    return TP_OK;
  }
  /* The rank is fixed; each size stays within the bound, so the data fits the planned memory. */
  if (dim != tensor->dim) {
    return TP_ERR_KERNEL_ARGS;
  }
  int32_t *current = (int32_t *)(uintptr_t)tensor->sizes; /* pool memory (plan.c) */
  const int32_t *bound = current + dim;
  uint32_t numel = 1;
  for (uint32_t d = 0; d < dim; d++) {
    if (sizes[d] < 0 || sizes[d] > bound[d]) {
      return TP_ERR_KERNEL_ARGS;
    }
    numel *= (uint32_t)sizes[d];
  }
  for (uint32_t d = 0; d < dim; d++) {
    current[d] = sizes[d];
  }
  tensor->nbytes = (uint32_t)(numel * tp_dtype_size(tensor->dtype));
  tensor->numel = numel;
  return TP_OK;
}

/* The name kernel_util.h's tp_out_shape refers to weakly (see there). */
extern __typeof__(tp_tensor_resize) tp_dynamic_resize __attribute__((alias("tp_tensor_resize")));

/* Whether tensor `t` is dynamic. */
static bool is_dynamic(const tp_tensor *t) { return t->dynamic != 0; }

/* The run routine of a call with dynamic tensors: prepare it for this run's sizes, then run
 * what that prepare chose. */
static tp_status run_dynamic(const tp_kernel_call *call) {
  const tp_instruction *instruction =
      (const tp_instruction *)(const void *)((const uint8_t *)call - offsetof(tp_instruction, call));
  tp_kernel_run_fn run;
  TP_TRY(tp_kernel_prepare(instruction->kernel, call, &run));
  return run(call);
}

tp_status tp_dynamic_calls(tp_method *method) {
  for (uint32_t pc = 0; pc < method->num_instructions; pc++) {
    tp_instruction *instruction = &method->instructions[pc];
    if (instruction->kind != TP_INSTR_KERNEL_CALL) {
      continue;
    }
    bool dynamic = false;
    for (uint32_t i = 0; i < instruction->call.nargs && !dynamic; i++) {
      dynamic = tp_value_has_tensor(instruction->call.args[i], is_dynamic);
    }
    if (!dynamic) {
      continue;
    }
    if ((instruction->kernel->flags & TP_KERNEL_DYNAMIC_SHAPES) == 0) {
      tp_method_note_failure(method, pc);
      return TP_ERR_UNSUPPORTED;
    }
    instruction->run = run_dynamic;
  }
  return TP_OK;
}
