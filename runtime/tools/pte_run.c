/* pte_run: run an ExecuTorch .pte on the host with tinypte's runtime and every kernel.
 *
 *   pte_run MODEL.pte [IN0.bin IN1.bin ...] --out DIR [--method NAME] [--repeat N]
 *   pte_run MODEL.pte [IN0.bin ...] --time --repeat N   (no outputs: prints the time per inference)
 *   pte_run MODEL.pte --info            (what the method needs: buffers, pool, operators)
 *
 * Inputs are raw little-endian tensor bytes in the program's input order; shapes and
 * dtypes come from the program. Each output is written to DIR/out<i>.bin. On any failure
 * it prints one line "pte_run: ..." naming what failed and exits 1 (2 for usage errors).
 * This is the interface the conformance and mutation tests drive. --time runs the method
 * once to warm up, then N times (each run copies the inputs in again: the plan may reuse their
 * buffers), and prints `pte_run: ns_per_inference=... repeat=N`
 * (//tests/bench:perf times ExecuTorch's runtime the same way, beside it).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host.h"
#include "status_message.h"
#include "tinypte/runtime.h"

enum { MAX_INPUTS = 32 };

typedef struct options {
  const char *model;
  const char *inputs[MAX_INPUTS];
  int num_inputs;
  const char *out_dir;
  const char *method;
  long repeat;
  int info;
  int time;
} options;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fputs("pte_run: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  return 1;
}

static int usage(const char *problem) {
  fprintf(stderr, "pte_run: %s\nusage: pte_run MODEL.pte [IN0.bin|- ...] --out DIR [--method NAME] [--repeat N]\n",
          problem);
  return 2;
}

static int parse(int argc, char **argv, options *opts) {
  memset(opts, 0, sizeof *opts);
  opts->method = "forward";
  opts->repeat = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      opts->out_dir = argv[++i];
    } else if (strcmp(argv[i], "--method") == 0 && i + 1 < argc) {
      opts->method = argv[++i];
    } else if (strcmp(argv[i], "--info") == 0) {
      opts->info = 1;
    } else if (strcmp(argv[i], "--time") == 0) {
      opts->time = 1;
    } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      opts->repeat = strtol(argv[++i], NULL, 10);
    } else if (strncmp(argv[i], "--", 2) == 0) {
      return usage("unknown option or missing value");
    } else if (opts->model == NULL) {
      opts->model = argv[i];
    } else if (opts->num_inputs < MAX_INPUTS) {
      opts->inputs[opts->num_inputs++] = argv[i];
    } else {
      return usage("too many inputs");
    }
  }
  if (opts->model == NULL || (opts->out_dir == NULL && !opts->info && !opts->time) || opts->repeat < 1) {
    return usage("need MODEL.pte and --out DIR (or --info, or --time), and --repeat >= 1");
  }
  return 0;
}

static void describe(const tp_tensor *t, char *text, size_t size) {
  int used = snprintf(text, size, "%s[", tp_dtype_name(t->dtype));
  for (uint32_t d = 0; d < t->dim && used > 0 && (size_t)used < size; d++) {
    used += snprintf(text + used, size - (size_t)used, d ? ",%d" : "%d", (int)t->sizes[d]);
  }
  if (used > 0 && (size_t)used < size) {
    snprintf(text + used, size - (size_t)used, "]");
  }
}

/* The inputs' bytes, read once. Every run copies them in again: the memory plan may reuse an
 * input's buffer for activations once the input is read, so a second run on the method would
 * otherwise see it overwritten (and compute, or fail, on garbage). */
typedef struct input_bytes {
  void *data[MAX_INPUTS]; /* NULL for a '-' (scalar) input */
  size_t size[MAX_INPUTS];
} input_bytes;

static void free_inputs(input_bytes *bytes) {
  for (int i = 0; i < MAX_INPUTS; i++) {
    free(bytes->data[i]);
    bytes->data[i] = NULL;
  }
}

static tp_status copy_inputs(tp_method *method, const options *opts, const input_bytes *bytes) {
  for (int i = 0; i < opts->num_inputs; i++) {
    if (bytes->data[i] != NULL) {
      TP_TRY(tp_method_set_input(method, (uint32_t)i, bytes->data[i], bytes->size[i]));
    }
  }
  return TP_OK;
}

/* Read each input file and check its size against the program's input. */
static int read_inputs(tp_method *method, const options *opts, input_bytes *bytes) {
  memset(bytes, 0, sizeof *bytes);
  if ((uint32_t)opts->num_inputs != method->num_inputs) {
    return fail("%s: the program takes %u inputs, %d given", opts->model, method->num_inputs, opts->num_inputs);
  }
  for (int i = 0; i < opts->num_inputs; i++) {
    tp_tensor *tensor;
    char shape[128];
    if (tp_method_input(method, (uint32_t)i, &tensor) != TP_OK) {
      if (strcmp(opts->inputs[i], "-") == 0) {
        continue; /* a scalar input: the value the program was exported with */
      }
      return fail("%s: input %d is not a tensor: give '-' for it (the program's own value)", opts->model, i);
    }
    bytes->data[i] = tp_host_read_file(opts->inputs[i], &bytes->size[i]);
    if (bytes->data[i] == NULL) {
      return fail("%s: cannot read input %d", opts->inputs[i], i);
    }
    if (bytes->size[i] != tensor->nbytes) {
      describe(tensor, shape, sizeof shape);
      return fail("%s: input %d has %zu bytes; the program expects %s (%u bytes)", opts->inputs[i], i,
                  bytes->size[i], shape, tensor->nbytes);
    }
  }
  return 0;
}

static int write_outputs(const tp_method *method, const options *opts) {
  for (uint32_t i = 0; i < method->num_outputs; i++) {
    const tp_value *value;
    char path[4096];
    const void *bytes = NULL;
    size_t size = 0;
    (void)tp_method_output_value(method, i, &value);
    if (value->tag == TP_TAG_TENSOR) {
      bytes = value->as.tensor->data;
      size = value->as.tensor->nbytes;
    } else if (value->tag == TP_TAG_INT || value->tag == TP_TAG_DOUBLE) {
      bytes = &value->as;
      size = 8;
    } else if (value->tag == TP_TAG_BOOL) {
      bytes = &value->as.b;
      size = 1;
    }
    snprintf(path, sizeof path, "%s/out%u.bin", opts->out_dir, i);
    FILE *file = fopen(path, "wb");
    if (file == NULL || (size != 0 && fwrite(bytes, 1, size, file) != size)) {
      if (file != NULL) {
        fclose(file);
      }
      return fail("%s: cannot write output %u", path, i);
    }
    fclose(file);
  }
  return 0;
}

static void print_info(const options *opts, const tp_method_requirements *req, const tp_method *method) {
  printf("%s: method %s: %u values, %u instructions, %u operators, %u inputs, %u outputs\n", opts->model,
         opts->method, req->num_values, req->num_instructions, req->num_operators, req->num_inputs, req->num_outputs);
  for (uint32_t id = 1; id < req->num_buffers; id++) {
    printf("  planned buffer %u: %llu B\n", id, (unsigned long long)req->buffer_sizes[id]);
  }
  printf("  state pool: %zu B on this host (boards: //runtime/tools:pte_requirements)\n", req->pool_bytes);
  for (uint32_t i = 0; i < method->num_inputs; i++) {
    tp_tensor *tensor;
    char shape[128];
    if (tp_method_input(method, i, &tensor) == TP_OK) {
      describe(tensor, shape, sizeof shape);
      printf("  input %u: %s (%u B)\n", i, shape, tensor->nbytes);
    }
  }
  for (uint32_t i = 0; i < method->num_outputs; i++) {
    const tp_tensor *tensor;
    char shape[128];
    if (tp_method_output(method, i, &tensor) == TP_OK) {
      describe(tensor, shape, sizeof shape);
      printf("  output %u: %s (%u B)\n", i, shape, tensor->nbytes);
    }
  }
  for (uint32_t pc = 0; pc < req->num_instructions; pc++) {
    bool fused;
    const tp_kernel *kernel = tp_method_instruction_kernel(method, pc, &fused);
    if (kernel != NULL) {
      printf("  instruction %u: %s.%s%s\n", pc, kernel->name, kernel->overload,
             fused ? " (fused into the instruction before it)" : "");
    }
  }
}


/* What a failed instruction called: "aten::addmm.out", "delegate EthosUBackend" or "-". */
static const char *failed_call(const tp_method *method, char *text, size_t size) {
  if (method->failed_operator == NULL) {
    return "-";
  }
  if (method->failed_overload == NULL || method->failed_overload[0] == '\0') {
    snprintf(text, size, "delegate %s", method->failed_operator);
  } else {
    snprintf(text, size, "%s.%s", method->failed_operator, method->failed_overload);
  }
  return text;
}

/* "; <the backend's reason>" after a delegate's failure, else "". */
static const char *failure_reason(const tp_method *method) {
  static char text[200];
  const char *reason = tp_method_failure_reason(method);
  if (reason == NULL || reason[0] == '\0') {
    return "";
  }
  snprintf(text, sizeof text, "; %s", reason);
  return text;
}
static int run(const options *opts, const uint8_t *data, size_t size) {
  tp_program program;
  tp_method_requirements req;
  tp_status status = tp_program_load(&program, data, size);
  if (status == TP_OK) {
    status = tp_method_requirements_get(&program, opts->method, &tp_selected_kernels, &req);
  }
  if (status == TP_ERR_OPERATOR_MISSING) {
    return fail("%s: no kernel for operator %s.%s (%s)", opts->model, req.missing_operator, req.missing_overload,
                tp_status_message(status));
  }
  if (status != TP_OK) {
    return fail("%s: %s: %s", opts->model, tp_status_name(status), tp_status_message(status));
  }
  uint64_t planned = tp_host_planned_bytes(&req);
  if (planned > (1ull << 30)) {
    return fail("%s: the memory plan asks for %llu B of planned buffers; pte_run stops at 1 GiB", opts->model,
                (unsigned long long)planned);
  }
  int result = 1;
  tp_host_memory host;
  tp_host_memory_alloc(&host, &req);
  tp_method method;
  input_bytes inputs = {{NULL}, {0}};
  char where[160];
  status = tp_method_init(&method, &program, opts->method, &host.memory, &tp_selected_kernels);
  if (status != TP_OK && method.failed_operator != NULL) {
    fail("%s: init: instruction %d (%s): %s: %s%s", opts->model, (int)method.failed_instruction,
         failed_call(&method, where, sizeof where), tp_status_name(status), tp_status_message(status),
         failure_reason(&method));
  } else if (status != TP_OK) {
    fail("%s: %s: %s", opts->model, tp_status_name(status), tp_status_message(status));
  } else if (opts->info) {
    print_info(opts, &req, &method);
    result = 0;
  } else if (read_inputs(&method, opts, &inputs) == 0) {
    /* warm-up, not timed */
    status = opts->time ? copy_inputs(&method, opts, &inputs) : TP_OK;
    status = status == TP_OK && opts->time ? tp_method_execute(&method) : status;
    const double start = now_ns();
    for (long r = 0; r < opts->repeat && status == TP_OK; r++) {
      status = copy_inputs(&method, opts, &inputs);
      status = status == TP_OK ? tp_method_execute(&method) : status;
    }
    if (status == TP_OK && opts->time) {
      printf("pte_run: ns_per_inference=%.1f repeat=%ld\n", (now_ns() - start) / (double)opts->repeat, opts->repeat);
      result = 0;
    } else if (status != TP_OK) {
      fail("%s: instruction %d (%s): %s: %s%s", opts->model, (int)method.failed_instruction,
           failed_call(&method, where, sizeof where), tp_status_name(status), tp_status_message(status),
           failure_reason(&method));
    } else {
      result = write_outputs(&method, opts);
    }
  }
  free_inputs(&inputs);
  tp_host_memory_free(&host);
  return result;
}

int main(int argc, char **argv) {
  options opts;
  int parsed = parse(argc, argv, &opts);
  if (parsed != 0) {
    return parsed;
  }
  size_t size;
  uint8_t *data = tp_host_read_file(opts.model, &size);
  if (data == NULL) {
    return fail("%s: cannot read the program", opts.model);
  }
  int result = run(&opts, data, size);
  free(data);
  return result;
}
