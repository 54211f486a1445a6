/* Backend delegates: the interface between the runtime and a backend that runs part of a
 * program (an accelerator's command stream, a vendor library), with ExecuTorch's semantics.
 *
 * An ExecuTorch program lists its delegates in each execution plan: an id ("EthosUBackend"),
 * the processed blob the backend's ahead-of-time side made (inline in the program, or in a
 * segment after it) and compile specs (key/value pairs). A DelegateCall instruction hands
 * one delegate the call's values: its inputs, then its outputs.
 *
 * A backend is registered by id in the kernel registry (`tp_kernel_registry.backends`), which
 * selective builds generate from the backends the programs use, as they do for kernels: a
 * program that delegates to a backend the firmware lacks fails the build naming it, and
 * tp_method_init fails with TP_ERR_OPERATOR_MISSING (method->failed_operator is the id).
 *
 * Like a kernel, a backend has two parts:
 *  - `state_size` and `init`, at tp_method_init, once per DelegateCall: state_size tells the
 *    pool how many bytes the call needs (the blob decides: an accelerator's scratch memory is
 *    part of it, so the memory plan places it); init parses and checks the blob and compile
 *    specs against the hardware (a blob for another configuration fails here, before anything
 *    runs), fills the call's state and chooses the routine that runs the call;
 *  - that routine, at every tp_method_execute: copies inputs in, runs, copies outputs out.
 * A backend that fails gives TP_ERR_DELEGATE (or TP_ERR_CORRUPT for a malformed blob) and a
 * one-line reason, which tp_method_failure_reason() returns.
 */
#ifndef TINYPTE_BACKEND_H
#define TINYPTE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"
#include "tinypte/status.h"

/* One delegate of a program, as its backend sees it. */
typedef struct tp_delegate {
  const char *id;           /* the backend id, NUL-terminated, in the program */
  const uint8_t *processed; /* the processed blob (16-byte aligned in a valid program) */
  size_t processed_size;
  /* Private: where the compile specs are (read them with tp_delegate_compile_spec). */
  const uint8_t *program;
  size_t program_size;
  uint32_t specs_pos;
  uint32_t specs_len;
} tp_delegate;

/** Compile spec `key` of `delegate`: true and its value bytes if present, else false. */
bool tp_delegate_compile_spec(const tp_delegate *delegate, const char *key, const uint8_t **value, uint32_t *len);

/* One backend. */
typedef struct tp_backend {
  const char *id; /* "EthosUBackend" */
  /** The pool bytes one call of `delegate` needs (its state, scratch included); checks the blob. */
  tp_status (*state_size)(const tp_delegate *delegate, size_t *bytes);
  /** Check `delegate` against the hardware, fill `call->state` (state_size bytes, zeroed, 8-byte
   *  aligned; `call->args` are the DelegateCall's values) and set `*run`. */
  tp_status (*init)(const tp_delegate *delegate, const tp_kernel_call *call, tp_kernel_run_fn *run);
  /** The one-line reason of the last failure of a call whose state is `state`, or NULL. */
  const char *(*reason)(const void *state);
} tp_backend;

/** The backend of `registry` with id `id`, or NULL. */
const tp_backend *tp_backend_find(const tp_kernel_registry *registry, const char *id);

/* A backend's definition line, which selective builds find (python/tinypte/kernels/registry.py):
 *   TP_BACKEND(EthosUBackend, state_size_fn, init_fn, reason_fn);
 * defines `const tp_backend tp_backend_EthosUBackend`. */
#define TP_BACKEND(id_, state_size_, init_, reason_) \
  const tp_backend tp_backend_##id_ = {#id_, state_size_, init_, reason_}

#endif /* TINYPTE_BACKEND_H */
