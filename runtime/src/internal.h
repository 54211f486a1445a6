/* Declarations shared by the runtime's own source files (not part of the API). */
#ifndef TINYPTE_INTERNAL_H
#define TINYPTE_INTERNAL_H

#include "flatbuffer.h"
#include "tinypte/runtime.h"

/* A KernelCall has at most this many arguments (layer_norm has 11). */
#define TP_MAX_KERNEL_ARGS 24

/* tp_instruction.kind of an activation fused into the kernel call before it: skipped. */
#define TP_INSTR_FUSED 6

/** Fuse activations into the kernel calls that produce their inputs, where exact (fusion.c);
 *  runs after every kernel call was prepared, for programs without jumps. */
tp_status tp_fuse_activations(tp_method *method);

/* The flatbuffer part of a loaded program. */
tp_fb tp_program_fb(const tp_program *program);

/** Execution plan `index`. */
tp_status tp_program_plan(const tp_program *program, uint32_t index, tp_fb_table *plan);

/** The execution plan named `name`, or TP_ERR_METHOD_NOT_FOUND. */
tp_status tp_program_find_plan(const tp_program *program, const char *name, tp_fb_table *plan);

#endif /* TINYPTE_INTERNAL_H */
