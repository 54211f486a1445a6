/* What every kernel includes: the TP_KERNEL definition macro, and the helpers of util/ (each
 * topic in its own header: args.h, shape.h, elementwise.h, reduce.h, copy.h). All return a
 * tp_status; none assert.
 *
 * A kernel file defines each kernel with
 *
 *     typedef struct { ... } addmm_state;
 *     static tp_status addmm_run(const tp_kernel_call *call) { ... }
 *     TP_KERNEL(aten, addmm, out, addmm_state) { ...checks...; *run = addmm_run; return TP_OK; }
 *
 * which defines the registry entry `const tp_kernel tp_kernel_aten_addmm_out` (see
 * tinypte/kernel.h for prepare and run). kernel_library() finds kernels by scanning for
 * these lines, so the registry and the sources cannot disagree.
 */
#ifndef TINYPTE_KERNEL_UTIL_H
#define TINYPTE_KERNEL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"
#include "util/args.h"
#include "util/copy.h"
#include "util/elementwise.h"
#include "util/reduce.h"
#include "util/shape.h"

/* Defines kernel ns::name.overload with a per-instruction state of type `state_type`; the
 * body that follows is its prepare function, which receives `call`, `state` (the call's
 * state, zeroed), `run` (set it to the routine to run), and the call's `args` and `nargs`
 * (call->args, call->nargs: what the util/args.h readers take). It defines the registry entry
 * `const tp_kernel tp_kernel_<ns>_<name>_<overload>`. TP_KERNEL_WITH adds tp_kernel flags
 * (activation fusion, see tinypte/kernel.h). */
#define TP_KERNEL(ns, name, overload, state_type) TP_KERNEL_WITH(ns, name, overload, state_type, 0u)

#define TP_KERNEL_WITH(ns, name, overload, state_type, kernel_flags)                                        \
  static tp_status tp__prepare_##ns##_##name##_##overload(                                                   \
      const tp_kernel_call *call, state_type *state, tp_kernel_run_fn *run, tp_value *const *args, uint32_t nargs); \
  static tp_status tp__entry_##ns##_##name##_##overload(const tp_kernel_call *call, tp_kernel_run_fn *run) {   \
    return tp__prepare_##ns##_##name##_##overload(call, (state_type *)call->state, run, call->args, call->nargs); \
  }                                                                                                            \
  const tp_kernel tp_kernel_##ns##_##name##_##overload = {#ns "::" #name, #overload,                           \
                                                          tp__entry_##ns##_##name##_##overload,                 \
                                                          sizeof(state_type), (kernel_flags)};                 \
  static tp_status tp__prepare_##ns##_##name##_##overload(                                                   \
      __attribute__((unused)) const tp_kernel_call *call, state_type *state, tp_kernel_run_fn *run,             \
      __attribute__((unused)) tp_value *const *args, __attribute__((unused)) uint32_t nargs)

/* The fusable bounds a TP_KERNEL_CLAMP kernel keeps first in its state: lo and hi, or NaN
 * and NaN ("do not fuse") when the call is not float32 or a bound is NaN. */
static inline void tp_clamp_offer(tp_clamp *c, bool float32, float lo, float hi) {
  const bool fusable = float32 && lo == lo && hi == hi; /* x == x: not NaN */
  c->lo = fusable ? lo : __builtin_nanf("");
  c->hi = fusable ? hi : __builtin_nanf("");
}

/* Return TP_ERR_KERNEL_ARGS when `cond` is false. */
#define TP_CHECK_ARGS(cond)       \
  do {                            \
    if (!(cond)) {                \
      return TP_ERR_KERNEL_ARGS;  \
    }                             \
  } while (0)

#endif /* TINYPTE_KERNEL_UTIL_H */
