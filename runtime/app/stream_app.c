/* The streaming firmware app: the model on live data from the board console.
 *
 * What every application does next after the golden replay: read a window of samples, run the
 * model, act on the answer. The host (tools/stream.py, or a person at a terminal) sends one window
 * per line; the app answers each with one line. Over the model API (model.h), like every app.
 *
 *   app, at start:    tinypte: stream model=sine board=mps2_an505 values=1 input0=float32[1,1]
 *                     output0=float32[1,1] ready
 *   host, a window:   the values of every input in order (each input's memory order), as decimal
 *                     real numbers separated by spaces or commas, then a newline. A quantized
 *                     input's values are quantized here, as the program's quantize does.
 *   app, an answer:   window=0 y=0.841470                         (an output of one value)
 *                     window=0 class=7 score=0.984375 scores=0.000000,...,0.984375 outputs=0x1234abcd
 *                     (scores: the first output as real values, listed when it has at most
 *                     TP_STREAM_SCORES; outputs: FNV-1a of the first output's bytes)
 *                     window=3 error: 12 values, the inputs take 490
 *   host, at the end: a line "end" (or the input closes)
 *   app:              tinypte: stream model=sine board=mps2_an505 windows=68 errors=0 ticks_per_inference=... END
 *
 * The values go straight into the input tensors as they are read: no line buffer, so a 27,648-value
 * window needs no more RAM than the model's input. Exit status 0 when no window had an error.
 */
#include <stdbool.h>
#include <string.h>

#include "format.h"
#include "model.h"
#include "tinypte/board.h"
#include "tinypte/runtime.h"

#define TP_STREAM_SCORES 16 /* outputs of at most this many values are listed in full */
#define TP_STREAM_TOKEN 40  /* the longest number read */
#define TP_STREAM_TEXT_(x) #x
#define TP_STREAM_TEXT(x) TP_STREAM_TEXT_(x)

static void put(const char *text) { tp_console_puts(text); }

static void put_field(const char *label, const char *value) {
  put(label);
  put(value);
}

static void put_tensor(const char *label, uint32_t index, const tp_tensor *tensor) {
  char text[TP_FORMAT_SIZE];
  put_field(label, tp_format_uint(text, index));
  put_field("=", tp_dtype_name(tensor->dtype));
  for (uint32_t d = 0; d < tensor->dim; d++) {
    put_field(d == 0 ? "[" : ",", tp_format_uint(text, (uint32_t)tensor->sizes[d]));
  }
  put(tensor->dim == 0 ? "[]" : "]");
}

#define TP_STREAM_MAX_INPUTS 8

/* The program's input tensors, found once: a window's values go straight into them. */
typedef struct stream_inputs {
  tp_tensor *tensors[TP_STREAM_MAX_INPUTS];
  uint32_t count;
  uint32_t values; /* the values of a window: every input's elements */
} stream_inputs;

/* Where the window being read goes: input `input`, element `element`; `count` values so far. */
typedef struct window {
  const stream_inputs *inputs;
  uint32_t input;
  uint32_t element;
  uint32_t count;
  bool bad; /* a token was not a number */
} window;

/* Store one value of the window, quantized for a quantized input. */
static void store(window *w, float value) {
  const stream_inputs *in = w->inputs;
  while (w->input < in->count && w->element >= in->tensors[w->input]->numel) {
    w->input++;
    w->element = 0;
  }
  w->count++;
  if (w->input >= in->count) {
    return; /* too many values: counted, reported at the end of the line */
  }
  const tp_tensor *input = in->tensors[w->input];
  const tp_model_quantization *quantization = tp_model_input_quantization(w->input);
  uint8_t *data = input->data;
  if (input->dtype == TP_DTYPE_FLOAT32) {
    memcpy(data + 4 * w->element, &value, 4);
  } else if (input->dtype == TP_DTYPE_INT8) {
    data[w->element] = (uint8_t)(int8_t)tp_model_quantize(quantization, value);
  } else {
    data[w->element] = (uint8_t)tp_model_quantize(quantization, value);
  }
  w->element++;
}

/* The input tensors, each float32 or int8/uint8 with a quantization; false (with the line that
 * says why) for a program the stream app cannot fill from real numbers. */
static bool gather_inputs(tp_model *model, stream_inputs *in) {
  char text[TP_FORMAT_SIZE];
  in->count = tp_model_num_inputs(model);
  in->values = 0;
  if (in->count > TP_STREAM_MAX_INPUTS) {
    put_field("tinypte: stream: the program has ", tp_format_uint(text, in->count));
    put(" inputs; the stream app fills at most " TP_STREAM_TEXT(TP_STREAM_MAX_INPUTS) "\n");
    return false;
  }
  for (uint32_t i = 0; i < in->count; i++) {
    if (tp_model_input(model, i, &in->tensors[i]) != TP_OK) {
      return false;
    }
    const tp_tensor *input = in->tensors[i];
    bool quantized = tp_model_input_quantization(i)->scale != 0.0f;
    bool integer = input->dtype == TP_DTYPE_INT8 || input->dtype == TP_DTYPE_UINT8;
    if (input->dtype != TP_DTYPE_FLOAT32 && !(integer && quantized)) {
      put_field("tinypte: stream: input ", tp_format_uint(text, i));
      put(" is not float32 or a quantized int8/uint8: the stream app cannot fill it from real numbers\n");
      return false;
    }
    in->values += input->numel;
  }
  return true;
}

/* Output value i as a real number. */
static float real_output(const tp_tensor *out, uint32_t o, uint32_t i) {
  const uint8_t *data = out->data;
  if (out->dtype == TP_DTYPE_FLOAT32) {
    float value;
    memcpy(&value, data + 4 * i, 4);
    return value;
  }
  const tp_model_quantization *quantization = tp_model_output_quantization(o);
  int32_t q = out->dtype == TP_DTYPE_INT8 ? (int32_t)(int8_t)data[i] : (int32_t)data[i];
  return quantization != NULL && quantization->scale != 0.0f ? tp_model_dequantize(quantization, q) : (float)q;
}

/* The answer line of window `index` (its first output). */
static void answer(tp_model *model, uint32_t index) {
  char text[TP_FORMAT_SIZE];
  const tp_tensor *out;
  put_field("window=", tp_format_uint(text, index));
  if (tp_model_output(model, 0, &out) != TP_OK) {
    put(" error: the program has no tensor output\n");
    return;
  }
  if (out->dtype != TP_DTYPE_FLOAT32 && out->dtype != TP_DTYPE_INT8 && out->dtype != TP_DTYPE_UINT8) {
    put(" error: output 0 is not float32, int8 or uint8\n");
    return;
  }
  if (out->numel == 1) {
    put_field(" y=", tp_format_fixed(text, real_output(out, 0, 0), 6));
  } else if (out->numel > 1) {
    uint32_t best = 0;
    for (uint32_t i = 1; i < out->numel; i++) {
      best = real_output(out, 0, i) > real_output(out, 0, best) ? i : best;
    }
    put_field(" class=", tp_format_uint(text, best));
    put_field(" score=", tp_format_fixed(text, real_output(out, 0, best), 6));
    if (out->numel <= TP_STREAM_SCORES) {
      for (uint32_t i = 0; i < out->numel; i++) {
        put_field(i == 0 ? " scores=" : ",", tp_format_fixed(text, real_output(out, 0, i), 6));
      }
    }
  }
  uint32_t digest = 2166136261u;
  for (uint32_t i = 0; i < out->nbytes; i++) {
    digest = (digest ^ ((const uint8_t *)out->data)[i]) * 16777619u;
  }
  put_field(" outputs=", tp_format_hex(text, digest));
  put("\n");
}

/* Reads the console a chunk at a time. */
typedef struct reader {
  char chunk[64];
  size_t size;
  size_t at;
  bool ended;
} reader;

/* The next byte, or -1 at the end of the input. */
static int next_byte(reader *r) {
  if (r->at == r->size && !r->ended) {
    r->size = tp_console_read(r->chunk, sizeof r->chunk);
    r->at = 0;
    r->ended = r->size == 0;
  }
  return r->at < r->size ? (unsigned char)r->chunk[r->at++] : -1;
}

typedef struct stream_stats {
  uint32_t windows;
  uint32_t errors;
  uint32_t ticks;
} stream_stats;

/* Finish the line of window `w`: run the model when the line held exactly the inputs' values. */
static void finish_window(window *w, tp_model *model, stream_stats *stats) {
  char text[TP_FORMAT_SIZE];
  uint32_t index = stats->windows + stats->errors;
  const uint32_t expected = w->inputs->values;
  if (w->bad || w->count != expected) {
    stats->errors++;
    put_field("window=", tp_format_uint(text, index));
    if (w->bad) {
      put(" error: a value is not a decimal number\n");
    } else {
      put_field(" error: ", tp_format_uint(text, w->count));
      put_field(" values, the inputs take ", tp_format_uint(text, expected));
      put("\n");
    }
    return;
  }
  uint32_t start = tp_board_ticks();
  tp_status status = tp_model_execute(model);
  stats->ticks += (tp_board_ticks() - start) & tp_board_ticks_mask();
  if (status != TP_OK) {
    char reason[160];
    (void)tp_model_reason(model, reason, sizeof reason);
    stats->errors++;
    put_field("window=", tp_format_uint(text, index));
    put_field(" error: ", reason);
    put("\n");
    return;
  }
  answer(model, index);
  stats->windows++;
}

/* Read windows until "end" or the end of the input. */
static void stream(tp_model *model, const stream_inputs *inputs, stream_stats *stats) {
  reader r = {.size = 0, .at = 0, .ended = false};
  window w = {inputs, 0, 0, 0, false};
  char token[TP_STREAM_TOKEN];
  size_t length = 0;
  bool line_empty = true;
  for (;;) {
    int c = next_byte(&r);
    bool separator = c < 0 || c == ' ' || c == ',' || c == '\t' || c == '\r' || c == '\n';
    if (!separator) {
      token[length < sizeof token ? length : sizeof token - 1] = (char)c;
      length++;
      continue;
    }
    if (length != 0) {
      bool first = line_empty;
      line_empty = false;
      if (first && length == 3 && memcmp(token, "end", 3) == 0) {
        return;
      }
      float value;
      if (length > sizeof token || !tp_parse_float(token, length, &value)) {
        w.bad = true;
      } else {
        store(&w, value);
      }
      length = 0;
    }
    if ((c == '\n' || c < 0) && !line_empty) {
      finish_window(&w, model, stats);
      w = (window){inputs, 0, 0, 0, false};
      line_empty = true;
    }
    if (c < 0) {
      return;
    }
  }
}

int main(void) {
  tp_model model;
  char text[TP_FORMAT_SIZE];
  if (tp_model_init(&model) != TP_OK) {
    char reason[160];
    (void)tp_model_reason(&model, reason, sizeof reason);
    put_field("tinypte: stream: ", reason);
    put("\n");
    return 1;
  }
  stream_inputs inputs;
  if (!gather_inputs(&model, &inputs)) {
    return 1;
  }
  stream_stats stats;
  do {
    put_field("tinypte: stream model=", tp_model_name());
    put_field(" board=", tp_board_name());
    put_field(" values=", tp_format_uint(text, inputs.values));
    for (uint32_t i = 0; i < inputs.count; i++) {
      put_tensor(" input", i, inputs.tensors[i]);
    }
    const tp_tensor *output;
    if (tp_model_output(&model, 0, &output) == TP_OK) {
      put_tensor(" output", 0, output);
    }
    put(" ready\n");
    memset(&stats, 0, sizeof stats);
    stream(&model, &inputs, &stats);
    put_field("tinypte: stream model=", tp_model_name());
    put_field(" board=", tp_board_name());
    put_field(" windows=", tp_format_uint(text, stats.windows));
    put_field(" errors=", tp_format_uint(text, stats.errors));
    if (stats.windows != 0) {
      put_field(" ticks_per_inference=", tp_format_uint(text, stats.ticks / stats.windows));
      put_field(" (", tp_board_ticks_source());
      put(")");
    }
    put(" END\n");
  } while (tp_board_loops_forever());
  return stats.errors == 0 ? 0 : 1;
}
