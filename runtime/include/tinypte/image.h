/* A method's bookkeeping decoded at build time, to run it with a small state pool.
 *
 * tp_method_init decodes a method into the caller's state pool: a tp_value per value, a
 * tp_tensor per tensor, the lists' items, each kernel call's argument slots, the instructions
 * and the kernels' prepared state (kws_int8: 7,504 B, of which 5,704 B never change once
 * decoded). For a program whose values never change while it runs (no MoveCall, no
 * JumpFalseCall, no dynamic shapes), the build decodes it once instead (pte_requirements, on the
 * host with the boards' data layout) and writes the result as const C data, in flash: values,
 * tensors (their data pointing into the program and the planned buffers, addresses the linker
 * knows), lists and argument slots. tp_method_init_image then only resolves the kernels and
 * prepares them: the pool holds the instructions and the kernels' state
 * (tp_method_image_pool_bytes).
 *
 * The image is made from one program and its planned buffers; the firmware build generates
 * both together (python/tinypte/firmware/method_image.py), and tp_method_init_image checks
 * that the program it is given has the image's size and shape (values, instructions).
 */
#ifndef TINYPTE_IMAGE_H
#define TINYPTE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "tinypte/runtime.h"

/* One instruction of an image: a KernelCall (kind 1) or a FreeCall (kind 5, nothing to run). */
typedef struct tp_image_instruction {
  uint8_t kind;       /* as in the program: 1 KernelCall, 5 FreeCall */
  uint8_t nargs;      /* kernel calls: argument count */
  uint16_t reserved;  /* 0 */
  uint32_t op;        /* kernel calls: operator index in the plan */
  uint32_t first_arg; /* kernel calls: index of the first argument in call_args */
} tp_image_instruction;

typedef struct tp_method_image {
  uint32_t program_size;       /* bytes of the program the image was made from */
  const char *method;          /* its method name, "forward" */
  const tp_value *values;      /* every value of the plan, decoded */
  uint32_t num_values;
  tp_value *const *call_args;  /* the kernel calls' arguments, in instruction order */
  uint32_t num_call_args;
  const tp_image_instruction *instructions;
  uint32_t num_instructions;
} tp_method_image;

/**
 * Prepare the method of `image` (made from `program`): resolve each operator against `kernels`,
 * lay the instructions and the kernels' state out in `memory->pool`, check the planned buffers,
 * and prepare every kernel call (fusing activations as tp_method_init does). The method then
 * runs and reads like one from tp_method_init; its values live in the image.
 * @retval TP_ERR_CORRUPT  the image was not made from this program (size, value or instruction count)
 * @retval TP_ERR_OPERATOR_MISSING, TP_ERR_KERNEL_ARGS, TP_ERR_KERNEL_DTYPE, TP_ERR_POOL_TOO_SMALL,
 *         TP_ERR_ARENA_TOO_SMALL, TP_ERR_MISALIGNED  as for tp_method_init
 */
tp_status tp_method_init_image(tp_method *method, const tp_program *program, const tp_method_image *image,
                               const tp_method_memory *memory, const tp_kernel_registry *kernels);

/** The pool an image of `method` (initialized by tp_method_init, with the kernels the image will
 *  use) needs: its instructions and kernel states. */
size_t tp_method_image_pool_bytes(const tp_method *method);

#endif /* TINYPTE_IMAGE_H */
