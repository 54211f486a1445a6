/* What the build generates for one model's firmware (python/tinypte/firmware/app_data.py): where
 * the program is (the model's program library), the golden data, the planned buffers, the method
 * decoded at build time (when the program allows it), the state pool, all static, and how its inputs
 * and outputs are quantized (the model API's tp_model_input_quantization). */
#ifndef TINYPTE_APP_DATA_H
#define TINYPTE_APP_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "tinypte/runtime.h"

extern const char tp_app_model_name[];
extern const uint8_t *const tp_app_program; /* the .pte, 16-byte aligned, in flash */
extern const size_t tp_app_program_size;
extern const uint8_t tp_app_golden[];    /* golden.bin (TPGD), 8-byte aligned */
extern const size_t tp_app_golden_size;
extern void *const tp_app_buffers[];     /* planned buffers by memory id ([0] NULL) */
extern const size_t tp_app_buffer_sizes[];
extern const uint32_t tp_app_num_buffers;
extern const uint32_t tp_app_num_inputs; /* the program's inputs and outputs */
extern const uint32_t tp_app_num_outputs;
extern const tp_model_quantization tp_app_quantization[]; /* inputs, then outputs */
extern void *const tp_app_pool;          /* runtime state pool */
extern const size_t tp_app_pool_size;

/** Initialize the program's method in `memory`: from its image, decoded at build time (in flash:
 *  the pool then holds only the kernel calls and their state; tinypte/image.h), when the program
 *  allows one, else with tp_method_init. Only the one used is linked. */
tp_status tp_app_method_init(tp_method *method, const tp_program *program, const tp_method_memory *memory);

#endif /* TINYPTE_APP_DATA_H */
