/* The model API: how an application runs the model its firmware or library carries.
 *
 * tinypte's own firmware apps (inference_app.c: the golden replay; stream_app.c: windows from the
 * console) and the generated API of a model library (tools/model_library.py: sine_init(),
 * sine_run(), sine_reason()) are all written over these functions, so there is one way to load,
 * run and report. The model's program, planned buffers and state pool are the build's generated
 * data (app_data.h): the application only provides a tp_model to hold the loaded state.
 *
 *     tp_model model;
 *     if (tp_model_init(&model) != TP_OK) { tp_model_reason(&model, text, sizeof text); ... }
 *     tp_model_set_input(&model, 0, window, sizeof window);
 *     tp_model_execute(&model);
 *     const tp_tensor *scores; tp_model_output(&model, 0, &scores);
 *
 * Every call returns a tinypte status; after a failure tp_model_reason() gives one line that says
 * which step failed, the status and, when there is one, the operator.
 */
#ifndef TINYPTE_MODEL_H
#define TINYPTE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/runtime.h"

/* A quantized input's or output's parameters: real = (q - zero_point) * scale. scale is 0 for one
 * that is not quantized (a float32 input, an int8 program's float output). */
typedef struct tp_model_quantization {
  float scale;
  float reciprocal; /* float32(1 / scale), what quantizing multiplies by */
  int32_t zero_point;
  int32_t min; /* the quantized range */
  int32_t max;
} tp_model_quantization;

/* The loaded model. Its fields are the API's; read them through the functions below. */
typedef struct tp_model {
  tp_program program;
  tp_method method;    /* its values are NULL until tp_model_init succeeds: every call then fails */
  tp_status status;    /* the last failure's status, TP_OK when none */
  uint16_t step;       /* what failed: a tp_model_step */
  uint16_t index;      /* the input or output that failed */
} tp_model;

/* The steps a failure names (tp_model_reason). Input and output steps give their index. */
typedef enum tp_model_step {
  TP_MODEL_STEP_NONE,
  TP_MODEL_STEP_CORE1,
  TP_MODEL_STEP_LOAD,
  TP_MODEL_STEP_INIT,
  TP_MODEL_STEP_EXECUTE,
  TP_MODEL_STEP_INPUT,
  TP_MODEL_STEP_OUTPUT
} tp_model_step;

/** Record a failure of `step` in `model` and return `status` (the inline calls below use it). */
tp_status tp_model_failed(tp_model *model, tp_model_step step, uint32_t index, tp_status status);

/** The model's name (its Bazel target's). */
const char *tp_model_name(void);

/**
 * Load the program and prepare its method in the build's planned buffers and pool (from its image
 * decoded at build time when there is one); in two-core firmware, start core 1 first.
 */
tp_status tp_model_init(tp_model *model);

/** The method's inputs and outputs (0 before a successful tp_model_init). */
uint32_t tp_model_num_inputs(const tp_model *model);
uint32_t tp_model_num_outputs(const tp_model *model);

/* The per-inference calls are inline: the runtime's call, and a note only when it failed (no
 * frame of their own on the stack the kernels run on). */

/** Input `index` as a tensor (dtype, sizes, dim order): write its data in place, or use
 *  tp_model_set_input. */
static inline tp_status tp_model_input(tp_model *model, uint32_t index, tp_tensor **tensor) {
  tp_status status = tp_method_input(&model->method, index, tensor);
  return status == TP_OK ? TP_OK : tp_model_failed(model, TP_MODEL_STEP_INPUT, index, status);
}

/** Copy `nbytes` of `data` (in the input's dtype and memory order: channels-last inputs NHWC)
 *  into input `index`; TP_ERR_INPUT_MISMATCH unless nbytes is the input's size. */
static inline tp_status tp_model_set_input(tp_model *model, uint32_t index, const void *data, size_t nbytes) {
  tp_status status = tp_method_set_input(&model->method, index, data, nbytes);
  return status == TP_OK ? TP_OK : tp_model_failed(model, TP_MODEL_STEP_INPUT, index, status);
}

/** One inference over the inputs as they are. Set every input again before the next one: the
 *  memory plan may reuse an input's buffer for activations once it has been read. */
static inline tp_status tp_model_execute(tp_model *model) {
  tp_status status = tp_method_execute(&model->method);
  return status == TP_OK ? TP_OK : tp_model_failed(model, TP_MODEL_STEP_EXECUTE, 0, status);
}

/** Output `index` of the last inference, in place (valid until the next execute). */
static inline tp_status tp_model_output(tp_model *model, uint32_t index, const tp_tensor **tensor) {
  tp_status status = tp_method_output(&model->method, index, tensor);
  return status == TP_OK ? TP_OK : tp_model_failed(model, TP_MODEL_STEP_OUTPUT, index, status);
}

/** All of it at once: copy inputs[i] into each input, execute, copy each output to outputs[o]
 *  (each buffer the size of its tensor). */
tp_status tp_model_run(tp_model *model, const void *const *inputs, void *const *outputs);

/** How input or output `index` is quantized (scale 0: it is not); NULL past the last one. */
const tp_model_quantization *tp_model_input_quantization(uint32_t index);
const tp_model_quantization *tp_model_output_quantization(uint32_t index);

/** A real value as a quantized input takes it: x times the reciprocal of the scale, rounded to
 *  nearest with ties to even, plus the zero point, clamped to the range; NaN gives the zero point.
 *  The same arithmetic as the program header's <name>_input<N>_quantize(). */
int32_t tp_model_quantize(const tp_model_quantization *quantization, float x);

/** A quantized value as the real value it stands for. */
float tp_model_dequantize(const tp_model_quantization *quantization, int32_t q);

/** Receives the parts of a failure's line, in order (tp_model_explain). */
typedef void (*tp_model_writer)(const char *part, void *context);

/** The line tp_model_reason writes, given to `write` part by part (no buffer: firmware passes its
 *  console's write). */
void tp_model_explain(const tp_model *model, tp_model_writer write, void *context);

/**
 * One line on the last failure into `text` (NUL-terminated, cut to `size`), e.g.
 * "execute failed: TP_ERR_KERNEL_ARGS in operator aten::convolution.out"; "TP_OK" when none.
 * @retval the length of the line written.
 */
size_t tp_model_reason(const tp_model *model, char *text, size_t size);

#endif /* TINYPTE_MODEL_H */
