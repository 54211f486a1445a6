/* The inference firmware app, shared by every board and model.
 *
 * Loads the model through the model API (model.h: the one every application and model library
 * uses), runs it on every golden input, prints one line
 * per inference and a summary, and returns 0 only when every output is within the golden
 * tolerance of PyTorch's. Lines look like
 *     x=1.047198 y=0.866012 ref=0.866010            (one input value, one output value)
 *     case=3 class=7 score=0.998321 ref=7           (classifiers: output is a vector)
 *     tinypte: model=sine board=mps2_an505 inferences=68 failures=0 max_err=3.58e-07 tolerance=1.00e-05
 *              ticks_per_inference=1234 (systick) outputs=0x1a2b3c4d stack=412/4096 PASS   (one line)
 * `outputs=` is a digest (FNV-1a) of every output byte of the run: builds of one program that
 * must compute the same bits (one core or two) print the same one (the perf bench compares them).
 * `stack=` is the stack's high-water mark and reservation in bytes (tp_board_stack_used); a run
 * that comes within TP_APP_STACK_MARGIN of the reservation fails (the line says so). Firmware
 * built for two cores (TP_BOARD_CORES == 2) starts core 1 first and hands it half of each large
 * kernel call (two_cores_app.c); its line adds `cores=2 core1_stack=USED/SIZE`, core 1's stack held
 * to the same margin.
 * Ticks come from the board's timer (SysTick or mcycle); under QEMU they follow its
 * virtual clock, so they are indicative only.
 * On boards that cannot exit (real hardware) it runs the golden set forever.
 */
#include <stdbool.h>
#include <string.h>

#include "app_data.h"
#include "format.h"
#include "golden.h"
#include "model.h"
#include "tinypte/board.h"
#include "tinypte/runtime.h"
#include "tinypte/two_cores_board.h"

typedef struct run_stats {
  uint32_t ticks; /* summed over inferences (32 bits: no 64-bit division in firmware) */
  uint32_t inferences;
  uint32_t failures;
  float max_err;
  uint32_t digest; /* FNV-1a over every output byte of every inference, in order */
} run_stats;

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

/* The digest of the run's outputs so far, with `bytes` added: two builds of one program (one core
 * or two, another board) computed the same outputs bit for bit when their digests agree. */
static uint32_t digest_add(uint32_t digest, const void *bytes, uint32_t size) {
  const uint8_t *at = bytes;
  for (uint32_t i = 0; i < size; i++) {
    digest = (digest ^ at[i]) * FNV_PRIME;
  }
  return digest;
}

static void put(const char *text) { tp_console_puts(text); }

static void put_field(const char *label, const char *value) {
  put(label);
  put(value);
}

static void put_part(const char *part, void *context) {
  (void)context;
  put(part);
}

/* "tinypte: <the model API's reason>" for the call that failed. */
static void report_failure(const tp_model *model) {
  put("tinypte: ");
  tp_model_explain(model, put_part, NULL);
  put("\n");
}

/* Element i of a slot's data as a real value: float32 as it is, a quantized slot's int8 or
 * uint8 dequantized with its scale and zero point. False for other slots. */
static bool real_value(const tp_golden_slot *slot, const void *bytes, uint32_t i, float *value) {
  const uint8_t *at = bytes;
  if (slot->dtype == TP_DTYPE_FLOAT32) {
    memcpy(value, at + 4 * i, 4);
    return true;
  }
  if (slot->scale == 0.0f || (slot->dtype != TP_DTYPE_INT8 && slot->dtype != TP_DTYPE_UINT8)) {
    return false;
  }
  int32_t q = slot->dtype == TP_DTYPE_INT8 ? (int32_t)(int8_t)at[i] : (int32_t)at[i];
  *value = (float)(q - slot->zero_point) * slot->scale;
  return true;
}

/* Largest |out - ref| of an output, as real values (NaN the worst). `inexact` is set when an
 * integer output (an int8 program's quantized one) differs at all: those must match exactly. */
static float output_error(const tp_tensor *out, const uint8_t *ref, const tp_golden_slot *slot, bool *inexact) {
  *inexact = out->dtype != TP_DTYPE_FLOAT32;
  if (out->nbytes != slot->nbytes || out->dtype != slot->dtype) {
    return 3.4e38f;
  }
  if (memcmp(out->data, ref, out->nbytes) == 0) {
    *inexact = false;
    return 0.0f;
  }
  float worst = 0.0f;
  for (uint32_t i = 0; i < out->numel; i++) {
    float y;
    float expected;
    if (!real_value(slot, out->data, i, &y) || !real_value(slot, ref, i, &expected)) {
      return 3.4e38f; /* an integer output that is not quantized */
    }
    float err = y > expected ? y - expected : expected - y;
    if (!(err <= worst)) {
      worst = err != err ? 3.4e38f : err;
    }
  }
  return worst;
}

/* Index of the largest of a slot's n values at `bytes` (the golden data need not be aligned). */
static uint32_t argmax(const tp_golden_slot *slot, const void *bytes, uint32_t n) {
  uint32_t best = 0;
  float best_value = 0.0f;
  for (uint32_t i = 0; i < n; i++) {
    float value = 0.0f;
    (void)real_value(slot, bytes, i, &value);
    if (i == 0 || value > best_value) {
      best = i;
      best_value = value;
    }
  }
  return best;
}

/* One line per case: `x= y= ref=` for one value in and out, `case= class= score= ref=` for a
 * vector out (quantized values shown as the real values they stand for), else `case=`. */
static void print_case(uint32_t index, const tp_golden *golden, const tp_tensor *out) {
  char text[TP_FORMAT_SIZE];
  const tp_golden_slot *out_slot = &golden->slots[golden->num_inputs];
  const uint8_t *ref = tp_golden_slot_data(golden, index, golden->num_inputs);
  float x;
  float y;
  float expected;
  bool real = out->dtype == out_slot->dtype && out->numel == out_slot->numel &&
              real_value(out_slot, out->data, 0, &y) && real_value(out_slot, ref, 0, &expected);
  if (real && out->numel == 1 && golden->slots[0].numel == 1 &&
      real_value(&golden->slots[0], tp_golden_slot_data(golden, index, 0), 0, &x)) {
    put_field("x=", tp_format_fixed(text, x, 6));
    put_field(" y=", tp_format_fixed(text, y, 6));
    put_field(" ref=", tp_format_fixed(text, expected, 6));
  } else {
    put_field("case=", tp_format_uint(text, index));
    if (real && out->numel > 1) {
      uint32_t cls = argmax(out_slot, out->data, out->numel);
      (void)real_value(out_slot, out->data, cls, &y);
      put_field(" class=", tp_format_uint(text, cls));
      put_field(" score=", tp_format_fixed(text, y, 6));
      put_field(" ref=", tp_format_uint(text, argmax(out_slot, ref, out->numel)));
    }
  }
  put("\n");
}

static tp_status run_golden(tp_model *model, const tp_golden *golden, run_stats *stats) {
  for (uint32_t c = 0; c < golden->num_cases; c++) {
    for (uint32_t i = 0; i < golden->num_inputs; i++) {
      /* Golden inputs are stored in the memory order of the program's input (channels-last ones
       * NHWC), as the program's user would hand them over. */
      /* A golden input of another size than the program's: "input 0 failed: TP_ERR_INPUT_MISMATCH". */
      tp_status status = tp_model_set_input(model, i, tp_golden_slot_data(golden, c, i), golden->slots[i].nbytes);
      if (status != TP_OK) {
        report_failure(model);
        return status;
      }
    }
    uint32_t start = tp_board_ticks();
    tp_status status = tp_model_execute(model);
    stats->ticks += (tp_board_ticks() - start) & tp_board_ticks_mask();
    if (status != TP_OK) {
      report_failure(model);
      return status;
    }
    stats->inferences++;
    float case_err = 0.0f;
    bool failed = false;
    for (uint32_t o = 0; o < golden->num_outputs; o++) {
      const tp_tensor *out;
      if (tp_model_output(model, o, &out) != TP_OK) {
        report_failure(model);
        return TP_ERR_INVALID_ARGUMENT;
      }
      stats->digest = digest_add(stats->digest, out->data, (uint32_t)out->nbytes);
      const tp_golden_slot *slot = &golden->slots[golden->num_inputs + o];
      bool inexact;
      float err = output_error(out, tp_golden_slot_data(golden, c, golden->num_inputs + o), slot, &inexact);
      case_err = err > case_err ? err : case_err;
      if (o == 0) {
        print_case(c, golden, out);
      }
      if (inexact || !(err <= golden->tolerance)) {
        char text[TP_FORMAT_SIZE];
        put_field("tinypte: case ", tp_format_uint(text, c));
        put_field(" output ", tp_format_uint(text, o));
        put_field(" off by ", tp_format_sci(text, err));
        put(inexact ? " (integer outputs must match exactly)\n" : " (over the tolerance)\n");
        failed = true;
      }
    }
    stats->failures += failed;
    stats->max_err = case_err > stats->max_err ? case_err : stats->max_err;
  }
  return TP_OK;
}

/* A run must leave this many bytes of the stack untouched: a firmware whose measured
 * high-water mark comes closer to its reservation fails, asking for a bigger `stack_size`. */
#define TP_APP_STACK_MARGIN 512
#define TP_APP_TEXT(x) #x
#define TP_APP_NUMBER_TEXT(x) TP_APP_TEXT(x)

/* The run's summary line (with the stack's high-water mark and reservation); false for FAIL. */
static bool print_summary(const tp_golden *golden, const run_stats *stats) {
  uint32_t stack_used = tp_board_stack_used();
  uint32_t stack_size = tp_board_stack_size();
  bool stack_ok = stack_used + TP_APP_STACK_MARGIN <= stack_size;
  bool pass = stats->failures == 0 && stack_ok;
  char text[TP_FORMAT_SIZE];
  put_field("tinypte: model=", tp_model_name());
  put_field(" board=", tp_board_name());
  put_field(" inferences=", tp_format_uint(text, stats->inferences));
  put_field(" failures=", tp_format_uint(text, stats->failures));
  put_field(" max_err=", tp_format_sci(text, stats->max_err));
  put_field(" tolerance=", tp_format_sci(text, golden->tolerance));
  if (stats->inferences != 0) {
    put_field(" ticks_per_inference=", tp_format_uint(text, stats->ticks / stats->inferences));
    put_field(" (", tp_board_ticks_source());
    put(")");
  }
  put_field(" outputs=", tp_format_hex(text, stats->digest));
  put_field(" stack=", tp_format_uint(text, stack_used));
  put_field("/", tp_format_uint(text, stack_size));
  if (!stack_ok) {
    put(" (within " TP_APP_NUMBER_TEXT(TP_APP_STACK_MARGIN) " B of the reservation: raise stack_size)");
  }
#if TP_BOARD_CORES == 2
  {
    /* Core 1's stack holds a kernel routine's frames only: the same margin applies. */
    const uint32_t used1 = tp_board_two_cores_stack_used(), size1 = tp_board_two_cores_stack_size();
    const bool core1_ok = used1 + TP_APP_STACK_MARGIN <= size1;
    pass = pass && core1_ok;
    put_field(" cores=2 core1_stack=", tp_format_uint(text, used1));
    put_field("/", tp_format_uint(text, size1));
    if (!core1_ok) {
      put(" (within " TP_APP_NUMBER_TEXT(TP_APP_STACK_MARGIN) " B of core 1's reservation)");
    }
  }
#endif
  put(pass ? " PASS\n" : " FAIL\n");
  return pass;
}

int main(void) {
  tp_model model;
  tp_golden golden;
  if (!tp_golden_parse(&golden, tp_app_golden, tp_app_golden_size)) {
    put("tinypte: golden data is malformed\n");
    return 1;
  }
  if (tp_model_init(&model) != TP_OK) {
    report_failure(&model);
    return 1;
  }
  run_stats stats;
  bool pass;
  do {
    memset(&stats, 0, sizeof stats);
    stats.digest = FNV_OFFSET;
    if (run_golden(&model, &golden, &stats) != TP_OK) {
      return 1;
    }
    pass = print_summary(&golden, &stats);
  } while (tp_board_loops_forever());
  return pass ? 0 : 1;
}
