/* tinypte runtime API: load an ExecuTorch .pte from memory and run one of its methods.
 *
 * Freestanding C11: no malloc, no OS, no recursion on file data. The application owns
 * all memory:
 *   - the program bytes (typically a const array in flash, read in place),
 *   - one planned buffer per memory id of the method's memory plan,
 *   - a state pool for the runtime's bookkeeping (values, tensors, instructions and the
 *     kernels' prepared state).
 * tp_method_requirements_get() says how big the buffers and the pool must be. Firmware
 * builds ask it at build time (//runtime/tools:pte_requirements, compiled with the boards'
 * data layout) and size static arrays; hosts can ask at run time.
 *
 *   tp_program program;
 *   tp_program_load(&program, model_pte, model_pte_size);
 *   tp_method_requirements req;
 *   tp_method_requirements_get(&program, "forward", &tp_selected_kernels, &req);
 *   tp_method method;
 *   tp_method_memory memory = {pool, sizeof pool, buffers, buffer_sizes, req.num_buffers};
 *   tp_method_init(&method, &program, "forward", &memory, &tp_selected_kernels);
 *   tp_method_set_input(&method, 0, &x, sizeof x);
 *   tp_method_execute(&method);
 *   const tp_tensor *y; tp_method_output(&method, 0, &y);
 */
#ifndef TINYPTE_RUNTIME_H
#define TINYPTE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"
#include "tinypte/status.h"
#include "tinypte/value.h"

/* Planned buffers a method may have (memory ids 1..TP_MAX_BUFFERS-1; id 0 is unused). */
#define TP_MAX_BUFFERS 8

/* A loaded program: a validated view of the .pte bytes. Cheap; holds no copies. */
typedef struct tp_program {
  const uint8_t *data;     /* the whole file */
  size_t size;             /* bytes in the file */
  uint32_t program_table;  /* offset of the root Program table */
  uint32_t flatbuffer_end; /* end of the flatbuffer part (program_size in the extended header) */
  size_t segment_base;     /* offset of the first data segment, 0 when there are none */
  uint32_t version;        /* Program.version */
  uint32_t num_methods;
} tp_program;

/**
 * Check the header and root table of `data` and fill `program`.
 * `data` must stay valid and unchanged while the program and its methods are used, and
 * must be 16-byte aligned (constants are read in place).
 * @retval TP_ERR_NOT_A_PROGRAM, TP_ERR_VERSION, TP_ERR_CORRUPT, TP_ERR_MISALIGNED
 */
tp_status tp_program_load(tp_program *program, const void *data, size_t size);

/** Name of method `index` (e.g. "forward"), NUL-terminated, inside the program bytes. */
tp_status tp_program_method_name(const tp_program *program, uint32_t index, const char **name);

/* Where the state pool's bytes go, by kind (they add up to pool_bytes). */
typedef struct tp_pool_parts {
  size_t values;       /* one tp_value per value of the plan */
  size_t tensors;      /* one tp_tensor per tensor value */
  size_t instructions; /* one tp_instruction per instruction */
  size_t lists;        /* the items of int, double and tensor lists (and dynamic tensors' sizes) */
  size_t call_args;    /* one pointer per argument of each kernel call */
  size_t states;       /* the kernels' prepared state, each call's 8-byte aligned */
} tp_pool_parts;

/* What tp_method_init needs for one method. */
typedef struct tp_method_requirements {
  uint32_t num_buffers;                  /* entries of buffer_sizes (memory id 0 included) */
  uint64_t buffer_sizes[TP_MAX_BUFFERS]; /* planned bytes per memory id; [0] is 0 */
  size_t pool_bytes;                     /* state pool bytes tp_method_init will use */
  tp_pool_parts pool_parts;              /* what they hold */
  uint32_t num_inputs;
  uint32_t num_outputs;
  uint32_t num_values;
  uint32_t num_instructions;
  uint32_t num_operators;
  uint32_t num_tensors;          /* tensor values (constants included) */
  uint32_t num_planned_tensors;  /* tensors whose data is in a planned buffer */
  uint32_t num_kernel_calls;
  uint32_t num_delegate_calls;   /* DelegateCalls (tinypte/backend.h) */
  const char *missing_operator; /* on TP_ERR_OPERATOR_MISSING: "aten::relu" (in the program) */
  const char *missing_overload; /* and "out" */
} tp_method_requirements;

/**
 * Walk method `name` (checking every value, instruction and operator reference) and report
 * what it needs. The pool holds each kernel's prepared state, so the size depends on the
 * kernels: every operator must have one in `kernels`. Needs no memory.
 * @retval TP_ERR_OPERATOR_MISSING  requirements->missing_operator/missing_overload name it
 */
tp_status tp_method_requirements_get(const tp_program *program, const char *name, const tp_kernel_registry *kernels,
                                     tp_method_requirements *requirements);

/* Memory the application gives a method. */
typedef struct tp_method_memory {
  void *pool;                  /* state pool, 8-byte aligned */
  size_t pool_size;            /* bytes in pool */
  void *const *buffers;        /* buffers[memory id], 16-byte aligned; [0] unused (may be NULL) */
  const size_t *buffer_sizes;  /* bytes in each buffer */
  uint32_t num_buffers;        /* entries in buffers and buffer_sizes */
} tp_method_memory;

/* One decoded instruction (its fields are private to the runtime). */
typedef struct tp_instruction {
  uint8_t kind;             /* KernelCall, DelegateCall, MoveCall, JumpFalseCall or FreeCall */
  uint32_t a;               /* op index | move from | jump condition value | freed value */
  uint32_t b;               /* move to | jump destination */
  union {
    const tp_kernel *kernel;          /* KernelCall: the operator's kernel */
    const struct tp_backend *backend; /* DelegateCall: its delegate's backend (a: delegate index) */
  };
  tp_kernel_run_fn run;     /* KernelCall, DelegateCall: the routine its prepare (init) chose */
  tp_kernel_call call;      /* KernelCall, DelegateCall: its arguments and prepared state */
} tp_instruction;

/* A method ready to run. Its fields are private to the runtime except the failure report. */
typedef struct tp_method {
  const tp_program *program;
  tp_value *values;
  uint32_t num_values;
  uint32_t num_operators;
  uint32_t operators;          /* offset of the operator vector (for error messages) */
  tp_instruction *instructions;
  uint32_t num_instructions;
  const int32_t *inputs;       /* value index of each input */
  uint32_t num_inputs;
  const int32_t *outputs;      /* value index of each output */
  uint32_t num_outputs;
  uint32_t step_limit;         /* instructions one execute() may run (JumpFalse loops) */
  /* Where the last failure happened, for messages: */
  int32_t failed_instruction;  /* instruction index, -1 if none */
  const char *failed_operator; /* "aten::addmm" of a missing or failing kernel, or NULL */
  const char *failed_overload; /* "out" ("" for a delegate: failed_operator is its backend id) */
  const char *failure_reason;  /* a failing delegate's one-line reason from its backend, or NULL */
} tp_method;

/**
 * Prepare method `name`: place planned tensors in `memory->buffers`, point constants into
 * the program, materialize lists, resolve every operator against `kernels`, and prepare
 * every kernel call (which checks its arguments: bad ones fail here, not when running).
 * @retval TP_ERR_OPERATOR_MISSING  method->failed_operator/failed_overload name it (for a
 *         delegate whose backend the registry lacks: its id, overload "")
 * @retval TP_ERR_DELEGATE  a backend refused its delegate: tp_method_failure_reason() says why
 * @retval TP_ERR_KERNEL_ARGS, TP_ERR_KERNEL_DTYPE  a kernel's prepare rejected an
 *         instruction: method->failed_instruction and failed_operator/overload name it
 * @retval TP_ERR_POOL_TOO_SMALL, TP_ERR_ARENA_TOO_SMALL, TP_ERR_CORRUPT, TP_ERR_UNSUPPORTED
 */
tp_status tp_method_init(tp_method *method, const tp_program *program, const char *name,
                         const tp_method_memory *memory, const tp_kernel_registry *kernels);

/** The tensor of input `index` (to read its shape/dtype or write its data in place). */
tp_status tp_method_input(const tp_method *method, uint32_t index, tp_tensor **tensor);

/** Copy `nbytes` of `data` into input `index`; nbytes must equal the tensor's nbytes. */
tp_status tp_method_set_input(tp_method *method, uint32_t index, const void *data, size_t nbytes);

/**
 * Copy `value` into input `index` after checking that its dtype, shape and dim order are the
 * program's: TP_ERR_INPUT_MISMATCH otherwise (e.g. a [1,28,28] image for a [1,1,8,8] input, or
 * NCHW data for a channels-last input).
 */
tp_status tp_method_set_input_tensor(tp_method *method, uint32_t index, const tp_tensor *value);

/** Run every instruction. On a kernel error, failed_instruction/failed_operator say where. */
tp_status tp_method_execute(tp_method *method);

/** One line saying why the last tp_method_init or tp_method_execute failed in a backend
 *  delegate (its backend's words, e.g. the accelerator's error register), or NULL. */
const char *tp_method_failure_reason(const tp_method *method);

/** The value of output `index` (a tensor for most models). */
tp_status tp_method_output_value(const tp_method *method, uint32_t index, const tp_value **value);

/** The tensor of output `index`; TP_ERR_INVALID_ARGUMENT if that output is not a tensor. */
tp_status tp_method_output(const tp_method *method, uint32_t index, const tp_tensor **tensor);

/** The kernel instruction `pc` of an initialized method calls (NULL if it is not a kernel call),
 *  and in *fused whether init fused it into the call before it (an activation that no longer
 *  runs on its own; see tinypte/kernel.h). For tools that explain a program. */
const tp_kernel *tp_method_instruction_kernel(const tp_method *method, uint32_t pc, bool *fused);

#endif /* TINYPTE_RUNTIME_H */
