/* The model API (model.h) over the runtime and the build's generated data (app_data.h). Compiled
 * into every firmware app and into model libraries; with TP_BOARD_CORES == 2 (two-core firmware)
 * tp_model_init starts core 1 as the runtime's worker first. Small on purpose: it is in every
 * firmware, so each call is the runtime's plus one shared note of what failed. */
#include "model.h"

#include <string.h>

#include "app_data.h"
#include "format.h"
#include "two_cores_app.h"

/* tp_model_step's names, for tp_model_reason. */
static const char *const step_names[] = {"", "start core 1", "load", "init", "execute", "input ", "output "};

tp_status tp_model_failed(tp_model *model, tp_model_step step, uint32_t index, tp_status status) {
  if (status != TP_OK) {
    model->status = status;
    model->step = (uint16_t)step;
    model->index = (uint16_t)index;
  }
  return status;
}

const char *tp_model_name(void) { return tp_app_model_name; }

tp_status tp_model_init(tp_model *model) {
  memset(model, 0, sizeof *model);
  if (tp_app_two_cores() && !tp_app_two_cores_start()) {
    return tp_model_failed(model, TP_MODEL_STEP_CORE1, 0, TP_ERR_WORKER);
  }
  tp_status status = tp_program_load(&model->program, tp_app_program, tp_app_program_size);
  if (status != TP_OK) {
    return tp_model_failed(model, TP_MODEL_STEP_LOAD, 0, status);
  }
  tp_method_memory memory = {tp_app_pool, tp_app_pool_size, tp_app_buffers, tp_app_buffer_sizes, tp_app_num_buffers};
  status = tp_app_method_init(&model->method, &model->program, &memory);
  if (status != TP_OK) {
    model->method.values = NULL; /* whatever init left: every later call fails */
  }
  return tp_model_failed(model, TP_MODEL_STEP_INIT, 0, status);
}

uint32_t tp_model_num_inputs(const tp_model *model) {
  return model->method.values != NULL ? model->method.num_inputs : 0;
}

uint32_t tp_model_num_outputs(const tp_model *model) {
  return model->method.values != NULL ? model->method.num_outputs : 0;
}

tp_status tp_model_run(tp_model *model, const void *const *inputs, void *const *outputs) {
  for (uint32_t i = 0; i < tp_model_num_inputs(model); i++) {
    tp_tensor *input;
    TP_TRY(tp_model_input(model, i, &input));
    TP_TRY(tp_model_set_input(model, i, inputs[i], input->nbytes));
  }
  TP_TRY(tp_model_execute(model));
  for (uint32_t o = 0; o < tp_model_num_outputs(model); o++) {
    const tp_tensor *output;
    TP_TRY(tp_model_output(model, o, &output));
    memcpy(outputs[o], output->data, output->nbytes);
  }
  return TP_OK;
}

const tp_model_quantization *tp_model_input_quantization(uint32_t index) {
  return index < tp_app_num_inputs ? &tp_app_quantization[index] : NULL;
}

const tp_model_quantization *tp_model_output_quantization(uint32_t index) {
  return index < tp_app_num_outputs ? &tp_app_quantization[tp_app_num_inputs + index] : NULL;
}

int32_t tp_model_quantize(const tp_model_quantization *quantization, float x) {
  float r = x * quantization->reciprocal;
  const float low = (float)(quantization->min - quantization->zero_point);
  const float high = (float)(quantization->max - quantization->zero_point);
  r = r != r ? 0.0f : r < low ? low : r > high ? high : r;
  int32_t t = (int32_t)r; /* toward zero; then to nearest, ties to even */
  float rest = r - (float)t;
  if (rest > 0.5f || (rest == 0.5f && (t & 1))) {
    t++;
  } else if (rest < -0.5f || (rest == -0.5f && (t & 1))) {
    t--;
  }
  return t + quantization->zero_point;
}

float tp_model_dequantize(const tp_model_quantization *quantization, int32_t q) {
  return (float)(q - quantization->zero_point) * quantization->scale;
}

void tp_model_explain(const tp_model *model, tp_model_writer write, void *context) {
  if (model->status == TP_OK) {
    write("TP_OK", context);
    return;
  }
  char index[TP_FORMAT_SIZE];
  write(step_names[model->step], context);
  if (model->step >= TP_MODEL_STEP_INPUT) {
    write(tp_format_uint(index, model->index), context);
  }
  write(" failed: ", context);
  write(tp_status_name(model->status), context);
  const tp_method *method = &model->method;
  if (model->step != TP_MODEL_STEP_INIT && model->step != TP_MODEL_STEP_EXECUTE) {
    return;
  }
  if (method->failed_operator != NULL) {
    const bool kernel = method->failed_overload[0] != '\0';
    write(kernel ? " in operator " : " in delegate ", context);
    write(method->failed_operator, context);
    if (kernel) {
      write(".", context);
      write(method->failed_overload, context);
    }
  }
  if (method->failure_reason != NULL) {
    write(": ", context);
    write(method->failure_reason, context);
  }
}

/* tp_model_reason's writer: appends to a line, keeping room for the NUL. */
typedef struct line {
  char *text;
  size_t size;
  size_t used;
} line;

static void append(const char *part, void *context) {
  line *to = context;
  for (; *part != '\0' && to->used + 1 < to->size; part++) {
    to->text[to->used++] = *part;
  }
}

size_t tp_model_reason(const tp_model *model, char *text, size_t size) {
  if (size == 0) {
    return 0;
  }
  line to = {text, size, 0};
  tp_model_explain(model, append, &to);
  text[to.used] = '\0';
  return to.used;
}
