/* pte_requirements: what a method of an ExecuTorch .pte needs from the application, as
 * JSON: the program's size, the planned buffers and the runtime's state pool, computed
 * by the runtime itself (tp_method_requirements_get) with the kernels it is linked with (the
 * pool holds each kernel call's prepared state).
 *
 *   pte_requirements MODEL.pte [--method NAME] [--out FILE.json]
 *
 * The pool holds runtime structures, so its size depends on the data layout the program
 * is compiled for. The build runs this tool compiled for //platforms/host:ilp32, the
 * boards' layout; "layout" in the JSON lists the C facts the number depends on, and the
 * firmware that uses it asserts each one at compile time (tinypte app_data). It then
 * initializes the method once in memory of those sizes, so that everything tp_method_init
 * checks (each kernel's prepare, dynamic tensors meeting kernels that cannot resize) fails the
 * build rather than the board. Errors are one line "pte_requirements: ..." and exit status 1
 * (2 for usage errors).
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "method_image_json.h"
#include "status_message.h"
#include "tinypte/runtime.h"
#include "tinypte/two_cores.h"

/* The C expressions the pool size depends on, with their values in this build. */
#define TP_LAYOUT_FACTS(X)      \
  X(sizeof(void *))             \
  X(sizeof(tp_value))           \
  X(sizeof(tp_tensor))          \
  X(sizeof(tp_instruction))     \
  X(sizeof(tp_kernel_call))     \
  X(alignof(int64_t))           \
  X(alignof(double))

static void print_json(FILE *out, size_t program_bytes, const char *method, const tp_method_requirements *req,
                       const tp_program *program, const tp_method *initialized, const tp_host_memory *host) {
  fprintf(out, "{\n  \"program_bytes\": %zu,\n  \"method\": \"%s\",\n  \"pool_bytes\": %zu,\n  \"buffer_bytes\": [",
          program_bytes, method, req->pool_bytes);
  for (uint32_t id = 0; id < req->num_buffers; id++) {
    fprintf(out, "%s%llu", id ? ", " : "", (unsigned long long)req->buffer_sizes[id]);
  }
  fprintf(out,
          "],\n  \"inputs\": %u,\n  \"outputs\": %u,\n  \"values\": %u,\n  \"instructions\": %u,\n"
          "  \"operators\": %u,\n  \"tensors\": %u,\n  \"planned_tensors\": %u,\n  \"kernel_calls\": %u,\n"
          "  \"delegate_calls\": %u,\n",
          req->num_inputs, req->num_outputs, req->num_values, req->num_instructions, req->num_operators,
          req->num_tensors, req->num_planned_tensors, req->num_kernel_calls, req->num_delegate_calls);
  /* The second core's scratch: the most a call split over two cores needs (tinypte/two_cores.h),
   * noted by the kernels' prepare in trial_init. */
  fprintf(out, "  \"worker_scratch_bytes\": %u,\n", (unsigned)tp_two_cores_scratch_needed());
  const tp_pool_parts *parts = &req->pool_parts;
  fprintf(out,
          "  \"pool_parts\": {\"values\": %zu, \"tensors\": %zu, \"instructions\": %zu, \"lists\": %zu, "
          "\"call_args\": %zu, \"states\": %zu},\n",
          parts->values, parts->tensors, parts->instructions, parts->lists, parts->call_args, parts->states);
  tp_print_image_json(out, program, initialized, host);
  fprintf(out, "  \"layout\": {");
  const char *separator = "\n";
#define TP_PRINT_FACT(expr)                                             \
  fprintf(out, "%s    \"%s\": %zu", separator, #expr, (size_t)(expr)); \
  separator = ",\n";
  TP_LAYOUT_FACTS(TP_PRINT_FACT)
#undef TP_PRINT_FACT
  fprintf(out, "\n  }\n}\n");
}

static int fail(const char *model, const char *what, tp_status status) {
  fprintf(stderr, "pte_requirements: %s: %s: %s: %s\n", model, what, tp_status_name(status),
          tp_status_message(status));
  return 1;
}

/* tp_method_init in heap memory of the sizes `req` reports (`host`, freed by the caller): 0, or 1
 * after printing what failed. */
static int trial_init(const char *model, const char *name, const tp_program *program, const tp_method_requirements *req,
                      tp_host_memory *host, tp_method *method) {
  tp_host_memory_alloc(host, req); /* a failed allocation is a NULL that init reports */
  tp_status status = tp_method_init(method, program, name, &host->memory, &tp_selected_kernels);
  if (status != TP_OK) {
    fprintf(stderr, "pte_requirements: %s: init: instruction %ld (%s.%s): %s: %s\n", model,
            (long)method->failed_instruction, method->failed_operator ? method->failed_operator : "-",
            method->failed_overload ? method->failed_overload : "-", tp_status_name(status), tp_status_message(status));
  }
  return status == TP_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  const char *model = NULL;
  const char *method = "forward";
  const char *out_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--method") == 0 && i + 1 < argc) {
      method = argv[++i];
    } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out_path = argv[++i];
    } else if (model == NULL && strncmp(argv[i], "--", 2) != 0) {
      model = argv[i];
    } else {
      fprintf(stderr, "usage: pte_requirements MODEL.pte [--method NAME] [--out FILE.json]\n");
      return 2;
    }
  }
  if (model == NULL) {
    fprintf(stderr, "usage: pte_requirements MODEL.pte [--method NAME] [--out FILE.json]\n");
    return 2;
  }
  size_t size;
  void *data = tp_host_read_file(model, &size);
  if (data == NULL) {
    fprintf(stderr, "pte_requirements: %s: cannot read the program\n", model);
    return 1;
  }
  tp_program program;
  tp_method_requirements req;
  tp_host_memory host;
  tp_method initialized;
  memset(&host, 0, sizeof host);
  tp_status status = tp_program_load(&program, data, size);
  int result = 0;
  if (status != TP_OK) {
    result = fail(model, "load", status);
  } else if ((status = tp_method_requirements_get(&program, method, &tp_selected_kernels, &req)) != TP_OK) {
    if (status == TP_ERR_OPERATOR_MISSING) {
      fprintf(stderr, "pte_requirements: %s: no kernel for operator %s.%s\n", model, req.missing_operator,
              req.missing_overload);
    }
    result = fail(model, method, status);
  } else if (req.num_delegate_calls > 0 ||
             (result = trial_init(model, method, &program, &req, &host, &initialized)) == 0) {
    /* A delegate's init checks it against the board's accelerator: programs with delegates are
     * initialized on the board only (no image: tp_print_image_json says so). */
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (out == NULL) {
      fprintf(stderr, "pte_requirements: cannot write %s\n", out_path);
      result = 1;
    } else {
      print_json(out, size, method, &req, &program, req.num_delegate_calls > 0 ? NULL : &initialized, &host);
      if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "pte_requirements: cannot write %s\n", out_path);
        result = 1;
      }
    }
  }
  tp_host_memory_free(&host);
  free(data);
  return result;
}
