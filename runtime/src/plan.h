/* A checked view of one execution plan, and the decoding of its values and instructions.
 *
 * plan.c walks the plan twice with the same code: once to validate and count (for
 * tp_method_requirements_get, no memory needed), once to fill the state pool
 * (tp_method_init). Keeping one walk means the two can never disagree on sizes.
 */
#ifndef TINYPTE_PLAN_H
#define TINYPTE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flatbuffer.h"
#include "internal.h"
#include "tinypte/backend.h"

typedef struct tp_plan_view {
  const tp_program *program;
  tp_fb fb;
  tp_fb_table plan;
  tp_fb_vector values;       /* [EValue] */
  tp_fb_vector inputs;       /* [int] */
  tp_fb_vector outputs;      /* [int] */
  tp_fb_vector operators;    /* [Operator] */
  tp_fb_vector instructions; /* [Instruction] of the single chain */
  tp_fb_vector delegates;    /* [BackendDelegate] */
  uint32_t num_buffers;
  uint64_t buffer_sizes[TP_MAX_BUFFERS];
  /* Constants: inline buffers, or a data segment with per-tensor offsets. */
  tp_fb_vector constant_buffers; /* [Buffer] */
  tp_fb_vector segment_offsets;  /* [uint64], len 0 when constants are inline */
  size_t segment_start;          /* file offset of the constant segment */
  uint64_t segment_size;
  const tp_kernel_registry *kernels; /* to find each operator's kernel and its state size */
} tp_plan_view;

/* How much of each kind of pool storage a plan needs. */
typedef struct tp_pool_counts {
  uint32_t tensors;
  uint32_t planned_tensors; /* tensors whose data is in a planned buffer */
  uint32_t kernel_calls;   /* kernel and delegate calls (each has argument slots and state) */
  uint32_t delegate_calls;
  uint32_t int_items;
  uint32_t double_items;
  uint32_t tensor_items;
  uint32_t call_args;   /* argument slots of all kernel calls */
  size_t state_bytes;   /* prepared state of all kernel calls, each 8-byte aligned */
  bool has_jumps;
  /* On TP_ERR_OPERATOR_MISSING, the operator without a kernel (in the program bytes): */
  int32_t missing_instruction;
  const char *missing_operator;
  const char *missing_overload;
  /* When a delegate's init fails: its backend's one-line reason (or NULL). */
  const char *failure_reason;
} tp_pool_counts;

/** Open method `name` of `program` and check its top-level tables; `kernels` serves its operators. */
tp_status tp_plan_open(const tp_program *program, const char *name, const tp_kernel_registry *kernels,
                       tp_plan_view *view);

/* The pool's arrays and states each start on an 8-byte boundary. */
#define TP_POOL_ALIGN(bytes) (((size_t)(bytes) + 7u) & ~(size_t)7u)

/* Where a walk writes what it decodes; all NULL to validate and count only. The arrays
 * are laid out in the state pool by tp_method_init from a previous counting walk. */
typedef struct tp_plan_sink {
  const tp_method_memory *memory;
  tp_value *values;
  tp_tensor *tensors;
  int64_t *int_items;
  double *double_items;
  tp_tensor **tensor_items;
  tp_instruction *instructions;
  tp_value **call_args; /* kernel calls' argument slots, in instruction order */
  uint8_t *states;      /* kernel calls' state, in instruction order */
} tp_plan_sink;

/** Give dynamic tensor `t` writable sizes: dim int64 items of the int_items space for its sizes,
 *  then its bound. With a NULL sink, count them only. Defined by dynamic.c; plan.c's weak
 *  stand-in, used when dynamic.c is not linked, returns TP_ERR_UNSUPPORTED. */
tp_status tp_dynamic_tensor(tp_tensor *t, const tp_plan_sink *sink, tp_pool_counts *counts);

/** The kernel of operator `op_index`; TP_ERR_OPERATOR_MISSING (naming it in `counts`) if the
 *  registry has none, TP_ERR_CORRUPT if there is no such operator. */
tp_status tp_plan_find_kernel(const tp_plan_view *view, uint32_t op_index, const tp_kernel **kernel,
                              tp_pool_counts *counts);

/** A KernelCall's or DelegateCall's index (op_index / delegate_index, below `limit`) and
 *  argument vector, checked. */
tp_status tp_plan_call_fields(const tp_plan_view *view, const tp_fb_table *args_table, uint32_t limit, uint32_t *index,
                              tp_fb_vector *args);

/** Give a call its argument slots and `state_size` bytes of state, placed in the sink's arrays
 *  in instruction order (so the counting walk and the filling walk agree on every offset). */
void tp_plan_place_call(const tp_plan_view *view, const tp_fb_vector *args, size_t state_size, tp_instruction *out,
                        const tp_plan_sink *sink, tp_pool_counts *counts);

/** A DelegateCall: its backend (TP_ERR_OPERATOR_MISSING naming the delegate's id if the registry
 *  has none), argument slots and the state the backend asks for; the filling walk runs the
 *  backend's init (tinypte/backend.h). Defined by delegate.c, which firmware links only with a
 *  backend (a backend references tp_delegate_compile_spec); weak, so that without it plan.c
 *  reports any delegate as missing its backend. */
tp_status tp_plan_decode_delegate_call(const tp_plan_view *view, const tp_fb_table *args_table, tp_instruction *out,
                                       const tp_plan_sink *sink, tp_pool_counts *counts) __attribute__((weak));

/** Check the caller's memory for a plan: the pool holds `pool_bytes`, each planned buffer is there,
 *  big enough and aligned (method.c). */
tp_status tp_plan_check_memory(const tp_plan_view *view, const tp_method_memory *memory, size_t pool_bytes);

/** Walk (check, count and, with a sink, decode) every value and instruction of the plan. */
tp_status tp_plan_walk(const tp_plan_view *view, const tp_plan_sink *sink, tp_pool_counts *counts);

/* tp_plan_walk's first half (plan.c): clears *counts, then decodes every value. The rest, the
 * instructions, is walk.c's. */
tp_status tp_plan_walk_values(const tp_plan_view *view, const tp_plan_sink *sink, tp_pool_counts *counts);

/* TP_OK when 0 <= index < limit, else TP_ERR_CORRUPT. */
static inline tp_status tp_plan_check_index(int64_t index, uint32_t limit) {
  return index >= 0 && index < (int64_t)limit ? TP_OK : TP_ERR_CORRUPT;
}

#endif /* TINYPTE_PLAN_H */
