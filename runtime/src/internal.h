/* Declarations shared by the runtime's own source files (not part of the API). */
#ifndef TINYPTE_INTERNAL_H
#define TINYPTE_INTERNAL_H

#include "flatbuffer.h"
#include "tinypte/runtime.h"

#ifdef TP_TRACE
/* Host debugging: -DTP_TRACE prints the file and line of every failure as it propagates. */
#include <stdio.h>
#define TP_TRACE_FAILURE(status) fprintf(stderr, "tinypte: %s at %s:%d\n", tp_status_name(status), __FILE__, __LINE__)
#else
#define TP_TRACE_FAILURE(status) ((void)0)
#endif

#define TP_TRY(expr)                      \
  do {                                    \
    tp_status tp_try_status_ = (expr);    \
    if (tp_try_status_ != TP_OK) {        \
      TP_TRACE_FAILURE(tp_try_status_);   \
      return tp_try_status_;              \
    }                                     \
  } while (0)

/* A KernelCall has at most this many arguments (layer_norm has 11). */
#define TP_MAX_KERNEL_ARGS 24

/* The flatbuffer part of a loaded program. */
tp_fb tp_program_fb(const tp_program *program);

/** Execution plan `index`. */
tp_status tp_program_plan(const tp_program *program, uint32_t index, tp_fb_table *plan);

/** The execution plan named `name`, or TP_ERR_METHOD_NOT_FOUND. */
tp_status tp_program_find_plan(const tp_program *program, const char *name, tp_fb_table *plan);


#endif /* TINYPTE_INTERNAL_H */
