/* Declarations shared by the runtime's own source files (not part of the API). */
#ifndef TINYPTE_INTERNAL_H
#define TINYPTE_INTERNAL_H

#include "flatbuffer.h"
#include "tinypte/runtime.h"

/* A KernelCall has at most this many arguments (layer_norm has 11). */
#define TP_MAX_KERNEL_ARGS 24

/* tp_instruction.kind of an activation fused into the kernel call before it: skipped. */
#define TP_INSTR_FUSED 6

/** Prepare every kernel call of an initialized method's instructions: each kernel checks its
 *  arguments and chooses what to run (method.c; tp_method_init and tp_method_init_image). */
tp_status tp_method_prepare_kernels(tp_method *method);

/** Fuse activations into the kernel calls that produce their inputs, where exact (fusion.c);
 *  runs after every kernel call was prepared, for programs without jumps. */
tp_status tp_fuse_activations(tp_method *method);

/** Whether value `v` is a tensor for which `test` holds, or lists one (tensor lists, optional
 *  tensor lists). */
bool tp_value_has_tensor(const tp_value *v, bool (*test)(const tp_tensor *tensor));

/** Record where a method failed: instruction `pc` and, for a kernel call, its operator. */
void tp_method_note_failure(tp_method *method, uint32_t pc);

/* Data-dependent shapes (dynamic.c). The object is linked only into programs whose kernels
 * make dynamic shapes (it defines tp_tensor_resize, which they call): the runtime has weak
 * stand-ins for tp_dynamic_calls and tp_dynamic_tensor (plan.h), so firmware with static
 * shapes carries none of it. */


/** Route every kernel call that has a dynamic tensor argument through a fresh prepare before
 *  each run; TP_ERR_UNSUPPORTED (noting the instruction) if its kernel is not flagged
 *  TP_KERNEL_DYNAMIC_SHAPES. Runs last in tp_method_init. */
tp_status tp_dynamic_calls(tp_method *method);

/* Dim orders (dim_order.c). The object is linked only into firmware whose programs have a
 * tensor in another dim order than 0..n-1 (their kernel registry lists the extension kernel
 * tinypte::dim_orders.ext, runtime/kernels/extensions/dim_orders.c, which references it):
 * without it the loader takes contiguous tensors only and no call needs checking. */

/** Read a Tensor's dim order (`order`, a permutation of `dim` dims of `sizes`): contiguous, or
 *  channels-last for 4-D and 5-D tensors, up to where dims of size 1 stand (value.h); a static
 *  tensor with one channel or one spatial position reads as contiguous (both orders agree).
 *  Any other order is TP_ERR_UNSUPPORTED, a list that is not a permutation TP_ERR_CORRUPT. */
tp_status tp_dim_order_read(const uint8_t *order, const int32_t *sizes, uint32_t dim, bool dynamic,
                            bool *channels_last) __attribute__((weak));

/** TP_ERR_DIM_ORDER when `instruction` gives a channels-last tensor to a kernel not flagged
 *  TP_KERNEL_DIM_ORDERS. */
tp_status tp_dim_order_check_call(const tp_instruction *instruction) __attribute__((weak));

/* The flatbuffer part of a loaded program. */
tp_fb tp_program_fb(const tp_program *program);

/** Execution plan `index`. */
tp_status tp_program_plan(const tp_program *program, uint32_t index, tp_fb_table *plan);

/** The execution plan named `name`, or TP_ERR_METHOD_NOT_FOUND. */
tp_status tp_program_find_plan(const tp_program *program, const char *name, tp_fb_table *plan);

#endif /* TINYPTE_INTERNAL_H */
