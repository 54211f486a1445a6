/* The kernel interface: how the runtime prepares and runs an operator implementation.
 *
 * A KernelCall instruction names an operator ("aten::addmm" + overload "out") and lists
 * the values it takes, in the operator schema's order: the inputs, then the out
 * argument(s), then the returned value(s) (for out variants these are the out tensors
 * again).
 *
 * A kernel has two parts (as in TensorFlow Lite Micro):
 *  - `prepare`, called once per instruction by tp_method_init. It checks everything the
 *    kernel reads (argument count and kinds, dtypes, shapes, out sizes) and returns
 *    TP_ERR_KERNEL_ARGS / TP_ERR_KERNEL_DTYPE instead of computing garbage, so a bad program
 *    fails at init, naming the instruction and operator. It picks the routine that will
 *    run (the variant for these dtypes and shapes), and stores what that routine needs
 *    (loop bounds, strides, scalars) in the call's state: `state_size` bytes from the
 *    runtime's pool, 8-byte aligned, whose size the build knows (pte_requirements).
 *  - `run`, the chosen routine, called by every tp_method_execute. It checks nothing that
 *    prepare checked; it reads tensor data through `call->args` (data pointers stay put,
 *    and a value only changes through a MOVE of a same-shaped tensor).
 *
 * Shapes are static in most programs, so an out tensor of the wrong size is an error at
 * prepare. Programs with data-dependent shapes (nonzero, masked_select) have dynamic tensors
 * (tinypte/value.h): a call that has one is prepared again before every run, and its kernel,
 * flagged TP_KERNEL_DYNAMIC_SHAPES, sets a dynamic out's sizes in prepare, or in run when
 * they depend on the data, with tp_tensor_resize. Calls of other kernels with a dynamic
 * tensor fail tp_method_init (TP_ERR_UNSUPPORTED).
 *
 * Dim orders: a tensor is contiguous or channels-last (value.h). Kernels flagged
 * TP_KERNEL_DIM_ORDERS read tp_tensor.channels_last (tp_tensor_strides gives the strides);
 * calls of other kernels with a channels-last tensor fail tp_method_init (TP_ERR_DIM_ORDER).
 *
 * Activation fusion: a kernel flagged TP_KERNEL_CLAMP (relu, hardtanh, clamp) keeps, for a
 * float32 call, the bounds it applies in a tp_clamp at the start of its state. When such a
 * call works in place on the out of the call just before it, and that kernel is flagged
 * TP_KERNEL_TAKES_CLAMP (matrix products, convolution), tp_method_init prepares the producer
 * again with `call->clamp` set and skips the activation (runtime/src/fusion.c says when that
 * is exact).
 */
#ifndef TINYPTE_KERNEL_H
#define TINYPTE_KERNEL_H

#include <stdint.h>

#include "tinypte/status.h"
#include "tinypte/value.h"

/* A float32 activation fused into the kernel before it: each out element x becomes
 * x < lo ? lo : x, then hi < x ? hi : x (NaN passes; relu is lo = 0, hi = +inf). The bounds
 * are never NaN. */
typedef struct tp_clamp {
  float lo, hi;
} tp_clamp;

/* One KernelCall as the kernel sees it. `args[0..nargs)` are never NULL. */
typedef struct tp_kernel_call {
  tp_value *const *args; /* the instruction's values, in schema order */
  uint32_t nargs;
  void *state;           /* the kernel's state_size bytes for this instruction */
  const tp_clamp *clamp; /* NULL, or the activation to apply to the out (TP_KERNEL_TAKES_CLAMP) */
} tp_kernel_call;

/** The routine prepare chose: computes the outputs. Returns TP_OK, or a status for
 *  data-dependent failures only (everything static was checked by prepare). */
typedef tp_status (*tp_kernel_run_fn)(const tp_kernel_call *call);

/** Check `call`, fill `call->state`, and set `*run` to the routine that computes it. */
typedef tp_status (*tp_kernel_prepare_fn)(const tp_kernel_call *call, tp_kernel_run_fn *run);

/* tp_kernel.flags */
enum {
  /* A float32 call's state starts with the tp_clamp it applies (lo = hi = NaN: not float32). */
  TP_KERNEL_CLAMP = 1u << 0,
  /* prepare honours call->clamp: the routine it picks applies it to every out element. */
  TP_KERNEL_TAKES_CLAMP = 1u << 1,
  /* prepare handles dynamic tensors: it reads the inputs' current sizes and sets the out's
   * with tp_tensor_resize (src/dynamic.c). */
  TP_KERNEL_DYNAMIC_SHAPES = 1u << 2,
  /* prepare reads each tensor's dim order (tp_tensor.channels_last) and takes channels-last
   * tensors; calls of other kernels with a channels-last tensor fail tp_method_init
   * (TP_ERR_DIM_ORDER). */
  TP_KERNEL_DIM_ORDERS = 1u << 3,
};

/* One operator implementation. */
typedef struct tp_kernel {
  const char *name;             /* with namespace: "aten::addmm" */
  const char *overload;         /* "out" */
  tp_kernel_prepare_fn prepare;
  uint32_t state_size;          /* bytes of state per instruction */
  uint32_t flags;               /* TP_KERNEL_CLAMP, TP_KERNEL_TAKES_CLAMP */
} tp_kernel;

struct tp_backend; /* tinypte/backend.h */

/* A set of kernels the runtime resolves a program's operators against, and the backends it
 * resolves its delegates against (tinypte/backend.h). */
typedef struct tp_kernel_registry {
  const tp_kernel *const *kernels;
  uint32_t count;
  const struct tp_backend *const *backends;
  uint32_t num_backends;
} tp_kernel_registry;

/* The registry generated by a kernel_library() target: only the kernels its models use. */
extern const tp_kernel_registry tp_selected_kernels;

/** The kernel of `registry` for operator `name` and `overload`, or NULL. */
const tp_kernel *tp_kernel_find(const tp_kernel_registry *registry, const char *name, const char *overload);

/**
 * Prepare `kernel` for `call` (whose state holds kernel->state_size bytes, 8-byte aligned:
 * zeroed here first, so preparing a call again starts afresh) and set `*run`. A prepare that
 * succeeds without choosing a routine is a bug in the kernel: TP_ERR_INVALID_ARGUMENT.
 */
tp_status tp_kernel_prepare(const tp_kernel *kernel, const tp_kernel_call *call, tp_kernel_run_fn *run);

/**
 * Give `tensor` the shape `sizes[0..dim)`. A dynamic tensor takes it if the rank is its own and
 * every size is within its bound; a static tensor only if it already has that shape. Else
 * TP_ERR_KERNEL_ARGS (nothing changes).
 */
tp_status tp_tensor_resize(tp_tensor *tensor, uint32_t dim, const int32_t *sizes);

#endif /* TINYPTE_KERNEL_H */
