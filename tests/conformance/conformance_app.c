/* Conformance firmware: runs every embedded case (cases.c, from embed.py) with tinypte's
 * runtime and every kernel, and compares each output with ExecuTorch's.
 *
 * Prints one line per failing case and a summary
 *     conformance: 149 cases, 150 outputs checked, 0 failed
 * and exits 0 only when at least TP_CONFORMANCE_MIN_CASES cases are embedded (the
 * build's MIN_CASES) and every output matches within the case's tolerance
 * (|got - expected| <= abs + rel * |expected|, or at most `ulps` float32 values apart, for
 * float32; other dtypes exactly).
 */
#include <string.h>

#include "cases.h"

/* A subset chosen with --define=conformance_only=REGEX (while writing kernels): any count will do. */
#ifdef TP_CONFORMANCE_SUBSET
#undef TP_CONFORMANCE_MIN_CASES
#define TP_CONFORMANCE_MIN_CASES 1
#endif
#include "format.h"
#include "tinypte/board.h"
#include "tinypte/runtime.h"

/* Pool and planned buffers of one case are carved from this arena in turn; embed.py sizes
 * it for the largest case with the runtime's own requirements. */
static uint8_t arena[TP_CONFORMANCE_ARENA_BYTES] __attribute__((aligned(16)));

static void put_uint(uint32_t value) {
  char text[TP_FORMAT_SIZE];
  tp_console_puts(tp_format_uint(text, value));
}

static void report(const tp_conformance_case *c, const char *what, tp_status status) {
  tp_console_puts("conformance: FAIL ");
  tp_console_puts(c->name);
  tp_console_puts(": ");
  tp_console_puts(what);
  tp_console_puts(" ");
  tp_console_puts(tp_status_name(status));
  tp_console_puts("\n");
}

static size_t align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

/* float32 values between a and b (0 when equal): their bit patterns in sign-magnitude order. */
static uint32_t ulp_distance(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  int64_t oa = ia < 0 ? -(int64_t)(ia & 0x7fffffff) : ia;
  int64_t ob = ib < 0 ? -(int64_t)(ib & 0x7fffffff) : ib;
  int64_t d = oa > ob ? oa - ob : ob - oa;
  return d > 0xffffffffll ? 0xffffffffu : (uint32_t)d;
}

static bool outputs_match(const tp_tensor *got, const tp_conformance_tensor *want, const tp_conformance_case *c) {
  if (got->nbytes != want->nbytes || got->dtype != want->dtype) {
    return false;
  }
  if (got->dtype != TP_DTYPE_FLOAT32) {
    return memcmp(got->data, want->data, want->nbytes) == 0;
  }
  const float *y = got->data;
  for (uint32_t i = 0; i < got->numel; i++) {
    float expected;
    memcpy(&expected, want->data + 4 * i, 4);
    float err = y[i] > expected ? y[i] - expected : expected - y[i];
    float scale = expected < 0.0f ? -expected : expected;
    bool both_nan = y[i] != y[i] && expected != expected;
    if (!both_nan && !(err <= c->abs_tol + c->rel_tol * scale) && y[i] != expected &&
        ulp_distance(y[i], expected) > c->ulps) {
      return false;
    }
  }
  return true;
}

/* Run one case; returns the number of outputs checked, or -1 on failure. */
static int run_case(const tp_conformance_case *c) {
  tp_program program;
  tp_method_requirements req;
  tp_method method;
  tp_status status = tp_program_load(&program, c->pte, c->pte_size);
  if (status == TP_OK) {
    status = tp_method_requirements_get(&program, "forward", &tp_selected_kernels, &req);
  }
  if (status != TP_OK) {
    report(c, "load", status);
    return -1;
  }
  void *buffers[TP_MAX_BUFFERS] = {0};
  size_t sizes[TP_MAX_BUFFERS] = {0};
  size_t used = align16(req.pool_bytes);
  for (uint32_t id = 1; id < req.num_buffers; id++) {
    buffers[id] = arena + used;
    sizes[id] = (size_t)req.buffer_sizes[id];
    used += align16(sizes[id]);
  }
  if (used > sizeof arena) {
    report(c, "arena too small for", TP_ERR_ARENA_TOO_SMALL);
    return -1;
  }
  tp_method_memory memory = {arena, req.pool_bytes, buffers, sizes, req.num_buffers};
  status = tp_method_init(&method, &program, "forward", &memory, &tp_selected_kernels);
  for (uint32_t i = 0; status == TP_OK && i < c->num_inputs; i++) {
    if (c->inputs[i].dtype != 255) { /* 255: a scalar input, the program's own value (embed.py) */
      status = tp_method_set_input(&method, i, c->inputs[i].data, c->inputs[i].nbytes);
    }
  }
  if (status == TP_OK) {
    status = tp_method_execute(&method);
  }
  if (status != TP_OK) {
    report(c, "run", status);
    return -1;
  }
  if (method.num_outputs != c->num_outputs) {
    report(c, "output count", TP_ERR_INVALID_ARGUMENT);
    return -1;
  }
  for (uint32_t o = 0; o < c->num_outputs; o++) {
    const tp_tensor *got;
    if (tp_method_output(&method, o, &got) != TP_OK || !outputs_match(got, &c->expected[o], c)) {
      report(c, "output mismatch", TP_OK);
      return -1;
    }
  }
  return (int)c->num_outputs;
}

int main(void) {
  uint32_t failed = 0;
  uint32_t checked = 0;
  if (tp_conformance_case_count < TP_CONFORMANCE_MIN_CASES) {
    tp_console_puts("conformance: FAIL only ");
    put_uint(tp_conformance_case_count);
    tp_console_puts(" cases embedded, at least ");
    put_uint(TP_CONFORMANCE_MIN_CASES);
    tp_console_puts(" required\n");
    return 1;
  }
  for (uint32_t i = 0; i < tp_conformance_case_count; i++) {
    int outputs = run_case(&tp_conformance_cases[i]);
    if (outputs < 0) {
      failed++;
    } else {
      checked += (uint32_t)outputs;
    }
  }
  tp_console_puts("conformance: ");
  put_uint(tp_conformance_case_count);
  tp_console_puts(" cases, ");
  put_uint(checked);
  tp_console_puts(" outputs checked, ");
  put_uint(failed);
  tp_console_puts(" failed\n");
  return failed == 0 ? 0 : 1;
}
