/* Unit test of the portable kernels, each found by operator name and overload in the
 * //runtime/kernels:all registry (tp_selected_kernels), with cases generated from PyTorch.
 *
 * kernel_cases.h (written at build time by gen_kernel_cases.py) lists each case's argument
 * values in KernelCall order and the expected outs (or the expected error status). For every
 * case this builds tp_tensor/tp_value objects (each tensor in its own exactly-sized heap block,
 * so AddressSanitizer sees any out-of-bounds access), calls the kernel and checks:
 *   - the status;
 *   - float32 outs within 1e-6 relative + the case's absolute tolerance (NaN must match NaN),
 *     other dtypes exactly;
 *   - every out element written: an OK case runs twice, its outs filled first with 0xA5 bytes
 *     and then with 0x5A bytes, and must give the expected values both times;
 *   - no input changed.
 * Kernels that take a fused activation (TP_KERNEL_TAKES_CLAMP) run every OK case once more
 * with call->clamp = [-0.25, 0.25], against the expected values clamped the same way.
 * Every passing OK case is then changed into error cases: one argument fewer or more and None
 * as the first argument (TP_ERR_KERNEL_ARGS), each out one element longer and shorter in its
 * last dimension (ARGS), each out float16 and the first input float64 (TP_ERR_KERNEL_DTYPE).
 * Every OK case of an int8 convolution whose fast path takes scratch checks that the scratch
 * the case was given, sized by tinypte's export (python/tinypte/quantize/scratch.py), is
 * exactly what the kernel needs (tp_s8_conv_scratch_bytes): the Python rule restates the C one.
 * Direct checks of the kernel_util / broadcast helpers come first.
 *
 * Prints a line per operator and a total line. Fails (exit 1) on any failure, on an operator
 * the cases name that the registry lacks, and when fewer cases were checked than the MIN_*
 * numbers below. Bazel: //runtime/kernels/tests:kernel_test (ASan + UBSan).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cortex_m/engines/s8_conv_call.h"
#include "cortex_m/engines/s8_matmul_two_cores.h"
#include "inline_worker.h"
#include "kernel_util.h"
#include "tinypte/kernel.h"
#include "tinypte/two_cores.h"
#include "util/broadcast.h"

/* The test fails below these numbers of passing cases: in total (generated and derived; the
 * count when last raised: raise it with the cases), and for every operator that has cases, OK
 * cases and error cases. */
#define MIN_CASES 5264
#define MIN_OK_CASES_PER_OPERATOR 3
#define MIN_ERROR_CASES_PER_OPERATOR 20
/* OK cases of int8 convolutions whose scratch size is checked against the kernel's. */
#define MIN_SCRATCH_CHECKS 17

#define RTOL 1e-6
#define MAX_ARGS 20
#define MAX_TENSORS 16

/* --- The case tables (kernel_cases.h fills them) --- */

typedef enum kc_kind {
  KC_IN,          /* input tensor kc_tensors[tensor] */
  KC_SCRATCH,     /* input tensor kc_tensors[tensor] the kernel may overwrite (a `scratch` argument) */
  KC_OUT,         /* out tensor: shape, dtype and expected values in kc_tensors[tensor] (data NULL: not checked) */
  KC_NONE,        /* None */
  KC_INT,         /* Int i */
  KC_DOUBLE,      /* Double d */
  KC_BOOL,        /* Bool i */
  KC_STRING,      /* String s */
  KC_INT_LIST,    /* int list list[0..n) */
  KC_TENSOR_LIST, /* input tensors kc_tensors[list[0..n)] */
  KC_RET,         /* a returned value: the argument at position i again */
  KC_RET_LIST     /* a returned TensorList of the out arguments at positions list[0..n) */
} kc_kind;

typedef struct kc_tensor {
  tp_dtype dtype;
  uint8_t dim;
  const int32_t *sizes;
  uint32_t numel;
  const void *data; /* numel elements (float16/float64: little-endian bytes) */
} kc_tensor;

typedef struct kc_arg {
  kc_kind kind;
  int32_t tensor;
  int64_t i;
  double d;
  const int64_t *list;
  uint32_t n;
  const char *s;
} kc_arg;

typedef struct kc_case {
  const char *name;     /* "aten::add" */
  const char *overload; /* "out" */
  const char *label;
  uint32_t first_arg; /* its arguments are kc_args[first_arg .. first_arg + nargs) */
  uint32_t nargs;
  tp_status status;
  double atol; /* absolute tolerance of float32 outs */
} kc_case;

#include "runtime/kernels/tests/kernel_cases.h"

#define NCASES (sizeof(kc_cases) / sizeof(kc_cases[0]))

static int failures = 0;

/* OK cases whose calls were split over two cores (run_split): at least MIN_SPLIT_CASES, the
 * cortex_m convolutions, depthwise convolutions, linear layers, matmuls, poolings and adds. */
#define MIN_SPLIT_CASES 60
static uint32_t split_cases = 0;

/* --- Derived error cases --- */

typedef enum mutation_kind {
  MUT_NONE,
  MUT_DROP_LAST,   /* one argument fewer */
  MUT_EXTRA_NONE,  /* one more argument, None */
  MUT_ARG0_NONE,   /* None instead of the first argument */
  MUT_IN_F64,      /* the first input tensor is float64 */
  MUT_OUT_LONGER,  /* out `out`'s last size + 1 (a 0-dim out becomes [2]) */
  MUT_OUT_SHORTER, /* out `out`'s last size - 1 (only when it is above 1) */
  MUT_OUT_F16,     /* out `out` is float16 */
  MUT_FUSED_CLAMP, /* call->clamp set: the float32 outs clamped to FUSED_CLAMP */
  MUT_COUNT
} mutation_kind;

typedef struct mutation {
  mutation_kind kind;
  uint32_t out; /* which out (0 = the first KC_OUT argument) */
} mutation;

static const struct {
  const char *what;
  tp_status status;
} mutation_info[MUT_COUNT] = {
    {"", TP_OK},
    {"one argument fewer", TP_ERR_KERNEL_ARGS},
    {"one argument more", TP_ERR_KERNEL_ARGS},
    {"None as first argument", TP_ERR_KERNEL_ARGS},
    {"float64 first input", TP_ERR_KERNEL_DTYPE},
    {"out %u one longer", TP_ERR_KERNEL_ARGS},
    {"out %u one shorter", TP_ERR_KERNEL_ARGS},
    {"out %u float16", TP_ERR_KERNEL_DTYPE},
    {"fused clamp", TP_OK},
};

/* The activation MUT_FUSED_CLAMP fuses: tight enough to clip most outs. */
static const tp_clamp FUSED_CLAMP = {-0.25f, 0.25f};

/* Operators whose out dtype does not depend on the input's: a float64 input is no error. */
static const char *const input_dtype_free[] = {"aten::full_like"};

static bool takes_any_input_dtype(const kc_case *kc) {
  for (size_t k = 0; k < sizeof(input_dtype_free) / sizeof(input_dtype_free[0]); k++) {
    if (strcmp(kc->name, input_dtype_free[k]) == 0) {
      return true;
    }
  }
  return false;
}

static void describe(char *buf, size_t size, const kc_case *kc, mutation m) {
  char what[64];
  snprintf(what, sizeof what, mutation_info[m.kind].what, m.out);
  snprintf(buf, size, "%s.%s [%s%s%s]", kc->name, kc->overload, kc->label, m.kind ? " / " : "", what);
}

/* --- One call: a case built into runtime values --- */

typedef struct call {
  tp_value values[MAX_ARGS + 1];
  tp_value *ptrs[MAX_ARGS + 1];
  tp_tensor tensors[MAX_TENSORS];
  int32_t sizes[MAX_TENSORS][TP_MAX_DIM];
  const kc_tensor *spec[MAX_TENSORS];
  bool is_out[MAX_TENSORS];
  bool mutated[MAX_TENSORS]; /* also scratch tensors: their values are not checked */
  tp_tensor *lists[MAX_ARGS][MAX_TENSORS];
  tp_tensor *arg_tensor[MAX_ARGS]; /* the tensor of a KC_IN / KC_OUT argument */
  uint32_t ntensors;
  uint32_t ninputs;
  uint32_t nouts;
  uint32_t nargs;
  bool applied; /* the mutation found what it changes */
  const tp_clamp *clamp; /* MUT_FUSED_CLAMP: the fused activation, else NULL */
} call;

static void die(const char *what) {
  fprintf(stderr, "kernel_test: %s\n", what);
  exit(2);
}

/* Change the shape or dtype of the tensor being built, as the mutation says. */
static void mutate_tensor(call *c, uint32_t k, bool is_out, mutation m) {
  tp_tensor *t = &c->tensors[k];
  int32_t *sizes = c->sizes[k];
  const bool this_out = is_out && c->nouts == m.out;
  const bool first_input = !is_out && c->ninputs == 0 && m.kind == MUT_IN_F64;
  if (first_input && t->dtype != TP_DTYPE_FLOAT64) {
    t->dtype = TP_DTYPE_FLOAT64;
  } else if (this_out && m.kind == MUT_OUT_F16 && t->dtype != TP_DTYPE_FLOAT16) {
    t->dtype = TP_DTYPE_FLOAT16;
  } else if (this_out && m.kind == MUT_OUT_LONGER) {
    if (t->dim == 0) {
      t->dim = 1;
      sizes[0] = 1;
    }
    sizes[t->dim - 1] += 1;
  } else if (this_out && m.kind == MUT_OUT_SHORTER && t->dim > 0 && sizes[t->dim - 1] > 1) {
    sizes[t->dim - 1] -= 1;
  } else {
    return;
  }
  c->applied = true;
  c->mutated[k] = true;
  t->numel = 1;
  for (uint32_t d = 0; d < t->dim; d++) {
    t->numel *= (uint32_t)sizes[d];
  }
}

/* A tensor in its own heap block of exactly its size: an input holds the case's values (as far
 * as they go, after a mutation), an out `fill` bytes. */
static tp_tensor *add_tensor(call *c, const kc_tensor *spec, bool is_out, mutation m, uint8_t fill) {
  if (c->ntensors >= MAX_TENSORS || spec->dim > TP_MAX_DIM) {
    die("a case has too many tensors or dimensions");
  }
  const uint32_t k = c->ntensors++;
  tp_tensor *t = &c->tensors[k];
  memset(t, 0, sizeof *t);
  if (spec->dim > 0) {
    memcpy(c->sizes[k], spec->sizes, spec->dim * sizeof(int32_t));
  }
  t->sizes = c->sizes[k];
  t->dim = spec->dim;
  t->dtype = (uint8_t)spec->dtype;
  t->numel = spec->numel;
  c->spec[k] = spec;
  c->is_out[k] = is_out;
  mutate_tensor(c, k, is_out, m);
  c->ninputs += !is_out;
  c->nouts += is_out;
  t->nbytes = t->numel * (uint32_t)tp_dtype_size(t->dtype);
  if (t->nbytes == 0) {
    return t;
  }
  t->data = malloc(t->nbytes);
  if (t->data == NULL) {
    die("out of memory");
  }
  if (is_out) {
    memset(t->data, fill, t->nbytes);
  } else {
    const size_t have = spec->numel * tp_dtype_size(spec->dtype);
    memset(t->data, 0, t->nbytes);
    memcpy(t->data, spec->data, have < t->nbytes ? have : t->nbytes);
  }
  return t;
}

static void set_tensor_list(call *c, uint32_t k, tp_tensor **items, uint32_t n) {
  c->values[k].tag = TP_TAG_TENSOR_LIST;
  c->values[k].as.tensor_list.items = items;
  c->values[k].as.tensor_list.len = n;
}

/* The value of argument k. */
static void build_arg(call *c, uint32_t k, const kc_arg *a, mutation m, uint8_t fill) {
  tp_value *v = &c->values[k];
  c->ptrs[k] = v;
  switch (a->kind) {
    case KC_IN:
    case KC_SCRATCH:
    case KC_OUT:
      v->tag = TP_TAG_TENSOR;
      v->as.tensor = add_tensor(c, &kc_tensors[a->tensor], a->kind == KC_OUT, m, fill);
      c->arg_tensor[k] = v->as.tensor;
      if (a->kind == KC_SCRATCH) {
        c->mutated[c->ntensors - 1] = true;
      }
      break;
    case KC_NONE:
      v->tag = TP_TAG_NONE;
      break;
    case KC_INT:
      v->tag = TP_TAG_INT;
      v->as.i = a->i;
      break;
    case KC_DOUBLE:
      v->tag = TP_TAG_DOUBLE;
      v->as.d = a->d;
      break;
    case KC_BOOL:
      v->tag = TP_TAG_BOOL;
      v->as.b = a->i != 0;
      break;
    case KC_STRING:
      v->tag = TP_TAG_STRING;
      v->as.string.chars = a->s;
      v->as.string.len = (uint32_t)strlen(a->s);
      break;
    case KC_INT_LIST:
      v->tag = TP_TAG_INT_LIST;
      v->as.int_list.items = a->list;
      v->as.int_list.len = a->n;
      break;
    case KC_TENSOR_LIST:
      if (a->n > MAX_TENSORS) {
        die("a case has too many tensors");
      }
      for (uint32_t j = 0; j < a->n; j++) {
        c->lists[k][j] = add_tensor(c, &kc_tensors[a->list[j]], false, m, fill);
      }
      set_tensor_list(c, k, c->lists[k], a->n);
      break;
    case KC_RET:
      if (a->i < 0 || a->i >= (int64_t)k) {
        die("a return refers to no earlier argument");
      }
      c->ptrs[k] = c->ptrs[a->i]; /* the out's own value, as ExecuTorch emits it */
      break;
    case KC_RET_LIST:
      if (a->n > MAX_TENSORS) {
        die("a case returns too many tensors");
      }
      for (uint32_t j = 0; j < a->n; j++) {
        if (a->list[j] < 0 || a->list[j] >= (int64_t)k || c->arg_tensor[a->list[j]] == NULL) {
          die("a returned list refers to no earlier tensor argument");
        }
        c->lists[k][j] = c->arg_tensor[a->list[j]];
      }
      set_tensor_list(c, k, c->lists[k], a->n);
      break;
  }
}

/* Build the (mutated) case; false when the mutation does not apply to it. */
static bool build(call *c, const kc_case *kc, mutation m, uint8_t fill) {
  memset(c, 0, sizeof *c);
  if (kc->nargs > MAX_ARGS) {
    die("a case has too many arguments");
  }
  c->nargs = kc->nargs;
  for (uint32_t k = 0; k < kc->nargs; k++) {
    build_arg(c, k, &kc_args[kc->first_arg + k], m, fill);
  }
  c->clamp = m.kind == MUT_FUSED_CLAMP ? &FUSED_CLAMP : NULL;
  switch (m.kind) {
    case MUT_NONE:
    case MUT_FUSED_CLAMP:
      return true;
    case MUT_DROP_LAST:
      c->nargs--;
      return true;
    case MUT_EXTRA_NONE:
      c->values[c->nargs].tag = TP_TAG_NONE;
      c->ptrs[c->nargs] = &c->values[c->nargs];
      c->nargs++;
      return true;
    case MUT_ARG0_NONE:
      c->values[0].tag = TP_TAG_NONE;
      return true;
    default:
      return c->applied;
  }
}

static void release(call *c) {
  for (uint32_t k = 0; k < c->ntensors; k++) {
    free(c->tensors[k].data);
  }
}

/* --- Checking the outs --- */

typedef struct op_stats {
  const char *name;
  const char *overload;
  const tp_kernel *kernel; /* NULL: not in the registry */
  uint32_t ok;     /* passing cases expecting TP_OK */
  uint32_t errors; /* passing cases expecting an error */
  uint32_t failed;
  double max_abs;   /* largest |got - want| of float32 outs */
  double max_ratio; /* largest |got - want| / tolerance: 1 is the limit */
} op_stats;

static float load_f32(const void *p, uint32_t i) {
  float v;
  memcpy(&v, (const uint8_t *)p + (size_t)i * 4, 4);
  return v;
}

/* float32 out k against its expected values. */
static bool check_f32(const call *c, uint32_t k, const kc_case *kc, const char *what, op_stats *op) {
  const tp_tensor *t = &c->tensors[k];
  for (uint32_t i = 0; i < t->numel; i++) {
    const double got = load_f32(t->data, i);
    double want = load_f32(c->spec[k]->data, i);
    if (c->clamp != NULL) {
      want = want < c->clamp->lo ? c->clamp->lo : want;
      want = c->clamp->hi < want ? c->clamp->hi : want;
    }
    const double tol = RTOL * fabs(want) + kc->atol;
    const double err = fabs(got - want);
    bool same;
    if (isnan(want)) {
      same = isnan(got);
    } else if (isinf(want)) {
      same = got == want;
    } else {
      same = err <= tol;
      if (same && err > op->max_abs) {
        op->max_abs = err;
      }
      if (same && err / tol > op->max_ratio) {
        op->max_ratio = err / tol;
      }
    }
    if (!same) {
      printf("FAIL %s: tensor %u [%u] = %.9g, expected %.9g\n", what, k, i, got, want);
      return false;
    }
  }
  return true;
}

/* An out of another dtype: byte for byte. */
static bool check_exact(const call *c, uint32_t k, const char *what) {
  const tp_tensor *t = &c->tensors[k];
  const size_t esize = tp_dtype_size(t->dtype);
  for (uint32_t i = 0; i < t->numel; i++) {
    const uint8_t *got = (const uint8_t *)t->data + i * esize;
    const uint8_t *want = (const uint8_t *)c->spec[k]->data + i * esize;
    if (memcmp(got, want, esize) != 0) {
      int64_t g = 0, w = 0;
      memcpy(&g, got, esize);
      memcpy(&w, want, esize);
      printf("FAIL %s: tensor %u [%u] = 0x%llx, expected 0x%llx\n", what, k, i, (unsigned long long)g,
             (unsigned long long)w);
      return false;
    }
  }
  return true;
}

/* Inputs against the case's (unless mutated), and with `outs` the outs against the expected values. */
static bool check_values(const call *c, const kc_case *kc, const char *what, bool outs, op_stats *op) {
  bool ok = true;
  for (uint32_t k = 0; k < c->ntensors; k++) {
    const tp_tensor *t = &c->tensors[k];
    if (t->nbytes == 0 || c->mutated[k]) {
      continue;
    }
    if (!c->is_out[k]) {
      if (memcmp(t->data, c->spec[k]->data, t->nbytes) != 0) {
        printf("FAIL %s: input tensor %u was changed\n", what, k);
        ok = false;
      }
    } else if (outs && c->spec[k]->data != NULL) {
      ok = (t->dtype == TP_DTYPE_FLOAT32 ? check_f32(c, k, kc, what, op) : check_exact(c, k, what)) && ok;
    }
  }
  return ok;
}

/* --- Running cases --- */

static uint32_t scratch_checks;

/* An int8 convolution (state tp_s8_conv_call, described by tp_s8_conv_derive) prepared for a
 * case: the scratch the case gives it (python/tinypte/quantize/scratch.py's size) must be what
 * its fast path needs. */
static void check_scratch(const tp_kernel *kernel, const tp_kernel_call *call) {
  const bool s8_conv = strncmp(kernel->name, "cortex_m::quantized_", 20) == 0 && strstr(kernel->name, "conv2d") &&
                       !strstr(kernel->name, "transpose");
  if (!s8_conv) {
    return;
  }
  tp_s8_conv derived;
  tp_s8_conv_derive(call, &derived);
  const tp_s8_conv *st = &derived;
  if (!st->fast) {
    return;
  }
  const tp_tensor *scratch = call->args[st->a_scratch]->as.tensor;
  const uint32_t need = tp_s8_conv_scratch_bytes(st, true);
  scratch_checks++;
  if (scratch->numel != need) {
    printf("FAIL %s.%s: the export plans %u B of scratch, the kernel needs %u B (python/tinypte/quantize/scratch.py "
           "and tp_s8_conv_scratch_bytes disagree)\n",
           kernel->name, kernel->overload, (unsigned)scratch->numel, (unsigned)need);
    failures++;
  }
}

/* Prepare the kernel for the call (its state on the heap, so ASan sees overruns) and, when
 * that succeeds, run it; *at_run says which of the two returned the status. `plain`: the
 * case as generated (no mutation), whose scratch is checked. */
static tp_status prepare_and_run(const tp_kernel *kernel, const call *c, bool plain, bool *at_run) {
  void *state = calloc(1, kernel->state_size + 1);
  if (state == NULL) {
    die("out of memory");
  }
  tp_kernel_call kernel_call = {c->ptrs, c->nargs, state, c->clamp};
  tp_kernel_run_fn run = NULL;
  tp_status status = tp_kernel_prepare(kernel, &kernel_call, &run);
  *at_run = status == TP_OK;
  /* A case that gives less scratch on purpose (scratch_one_byte_short: what another exporter
   * plans) runs the fast routine on stack scratch; the others were sized by the export's rule. */
  if (status == TP_OK && plain && run != tp_s8_conv_run_fast_stack) {
    check_scratch(kernel, &kernel_call);
  }
  if (status == TP_OK) {
    status = run(&kernel_call);
  }
  free(state);
  return status;
}

/* One call with outs filled with `fill`; true when it passes. Returns -1 when the mutation
 * does not apply. */
static int run_once(op_stats *op, const kc_case *kc, mutation m, uint8_t fill) {
  call *c = malloc(sizeof *c);
  if (c == NULL) {
    die("out of memory");
  }
  int result = -1;
  if (build(c, kc, m, fill)) {
    char what[256];
    describe(what, sizeof what, kc, m);
    const tp_status want = m.kind == MUT_NONE || m.kind == MUT_FUSED_CLAMP ? kc->status : mutation_info[m.kind].status;
    bool at_run = false;
    const tp_status got = prepare_and_run(op->kernel, c, m.kind == MUT_NONE && fill == 0xA5, &at_run);
    if (got != want) {
      printf("FAIL %s: returned %s, expected %s\n", what, tp_status_name(got), tp_status_name(want));
      result = 0;
    } else if (got != TP_OK && at_run) {
      printf("FAIL %s: %s came from run; prepare must reject it\n", what, tp_status_name(got));
      result = 0;
    } else {
      result = check_values(c, kc, what, want == TP_OK, op);
    }
  }
  release(c);
  free(c);
  return result;
}

/* An OK case once more with a second core (inline_worker.h) splitting every call it can: the
 * split parts must give the same values (kernels split out rows, columns or elements over two
 * cores; tinypte/two_cores_hand_over.h). Returns run_once's result. */
static int run_split(op_stats *op, const kc_case *kc, mutation m) {
  tp_two_cores_install(&inline_worker);
  tp_two_cores_set_min_work(0);
  const uint32_t before = inline_worker_jobs;
  const int result = run_once(op, kc, m, 0x3C);
  split_cases += inline_worker_jobs > before;
  tp_two_cores_set_min_work(TP_TWO_CORES_MIN_WORK);
  tp_two_cores_install(NULL);
  return result;
}

/* A case (twice for OK cases, with different out fills, then split over two cores); counts it.
 * Returns whether it passed. */
static bool run_case(op_stats *op, const kc_case *kc, mutation m) {
  int result = run_once(op, kc, m, 0xA5);
  if (result < 0) {
    return false; /* does not apply: not a case */
  }
  const bool expect_ok = (m.kind == MUT_NONE || m.kind == MUT_FUSED_CLAMP) && kc->status == TP_OK;
  if (result == 1 && expect_ok) {
    result = run_once(op, kc, m, 0x5A);
  }
  if (result == 1 && expect_ok) {
    result = run_split(op, kc, m);
  }
  if (result != 1) {
    op->failed++;
    failures++;
  } else if (expect_ok) {
    op->ok++;
  } else {
    op->errors++;
  }
  return result == 1;
}

static uint32_t count_outs(const kc_case *kc) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < kc->nargs; k++) {
    n += kc_args[kc->first_arg + k].kind == KC_OUT;
  }
  return n;
}

/* The error cases derived from a passing OK case, and its fused-activation run. */
static void run_derived(op_stats *op, const kc_case *kc) {
  if ((op->kernel->flags & TP_KERNEL_TAKES_CLAMP) != 0) {
    run_case(op, kc, (mutation){MUT_FUSED_CLAMP, 0});
  }
  for (int kind = MUT_DROP_LAST; kind <= MUT_IN_F64; kind++) {
    if (kind != MUT_IN_F64 || !takes_any_input_dtype(kc)) {
      run_case(op, kc, (mutation){(mutation_kind)kind, 0});
    }
  }
  const uint32_t nouts = count_outs(kc);
  for (uint32_t out = 0; out < nouts; out++) {
    for (int kind = MUT_OUT_LONGER; kind <= MUT_OUT_F16; kind++) {
      run_case(op, kc, (mutation){(mutation_kind)kind, out});
    }
  }
}

/* --- Operators: the registry's kernels --- */

static op_stats ops[NCASES];
static uint32_t nops = 0;

/* The stats of the case's operator, added (and looked up in the registry) on first use. */
static op_stats *operator_of(const kc_case *kc) {
  for (uint32_t k = 0; k < nops; k++) {
    if (strcmp(ops[k].name, kc->name) == 0 && strcmp(ops[k].overload, kc->overload) == 0) {
      return &ops[k];
    }
  }
  op_stats *op = &ops[nops++];
  op->name = kc->name;
  op->overload = kc->overload;
  op->kernel = tp_kernel_find(&tp_selected_kernels, kc->name, kc->overload);
  if (op->kernel == NULL) {
    printf("FAIL %s.%s: the cases name it, but //runtime/kernels:all has no kernel for it\n", kc->name,
           kc->overload);
    failures++;
  }
  return op;
}

/* --- Direct checks of the helpers in kernel_util / broadcast --- */
static int helper_checks = 0;

#define HCHECK(cond)                                            \
  do {                                                          \
    helper_checks++;                                            \
    if (!(cond)) {                                              \
      printf("FAIL helpers: %s (line %d)\n", #cond, __LINE__); \
      failures++;                                               \
    }                                                           \
  } while (0)

/* tp_arg_scalar_as / tp_arg_int_scalar / tp_arg_optional_scalar conversions and range checks. */
static void check_scalar_helpers(void) {
  tp_value v;
  tp_value *args[1] = {&v};
  uint8_t buf[8];
  int64_t i64;
  int32_t i32;
  float f;
  double d;
  bool present;

  v.tag = TP_TAG_INT;
  v.as.i = INT64_MAX - 1; /* not representable as a double */
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT64, buf) == TP_OK);
  memcpy(&i64, buf, 8);
  HCHECK(i64 == INT64_MAX - 1);
  HCHECK(tp_arg_int_scalar(args, 1, 0, &i64) == TP_OK && i64 == INT64_MAX - 1);
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT32, buf) == TP_ERR_KERNEL_ARGS);
  v.as.i = -129;
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT8, buf) == TP_ERR_KERNEL_ARGS);
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT16, buf) == TP_OK);
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_BOOL, buf) == TP_OK && buf[0] == 1);
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_FLOAT16, buf) == TP_ERR_KERNEL_DTYPE);
  HCHECK(tp_arg_scalar_as(args, 1, 0, 99, buf) == TP_ERR_KERNEL_DTYPE);

  v.tag = TP_TAG_DOUBLE;
  v.as.d = -2.9;
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT32, buf) == TP_OK);
  memcpy(&i32, buf, 4);
  HCHECK(i32 == -2);
  HCHECK(tp_arg_int_scalar(args, 1, 0, &i64) == TP_ERR_KERNEL_DTYPE);
  v.as.d = NAN;
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT64, buf) == TP_ERR_KERNEL_ARGS);
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_FLOAT32, buf) == TP_OK);
  memcpy(&f, buf, 4);
  HCHECK(isnan(f));
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_BOOL, buf) == TP_OK && buf[0] == 1);
  v.as.d = 9.3e18; /* beyond int64 */
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT64, buf) == TP_ERR_KERNEL_ARGS);
  v.as.d = -9223372036854775808.0;
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_INT64, buf) == TP_OK);
  memcpy(&i64, buf, 8);
  HCHECK(i64 == INT64_MIN);
  v.as.d = 1e39; /* beyond float */
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_FLOAT32, buf) == TP_ERR_KERNEL_ARGS);
  v.as.d = -INFINITY;
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_FLOAT32, buf) == TP_OK);
  memcpy(&f, buf, 4);
  HCHECK(isinf(f) && f < 0);
  v.as.d = 0.5;
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_FLOAT64, buf) == TP_OK);
  memcpy(&d, buf, 8);
  HCHECK(d == 0.5);

  v.tag = TP_TAG_BOOL;
  v.as.b = true;
  HCHECK(tp_arg_int_scalar(args, 1, 0, &i64) == TP_OK && i64 == 1);
  HCHECK(tp_arg_optional_scalar(args, 1, 0, &d, &present) == TP_OK && present && d == 1.0);
  v.tag = TP_TAG_NONE;
  HCHECK(tp_arg_optional_scalar(args, 1, 0, &d, &present) == TP_OK && !present);
  HCHECK(tp_arg_scalar_as(args, 1, 0, TP_DTYPE_FLOAT32, buf) == TP_ERR_KERNEL_ARGS);
  v.tag = TP_TAG_STRING;
  HCHECK(tp_arg_int_scalar(args, 1, 0, &i64) == TP_ERR_KERNEL_ARGS);
  HCHECK(tp_arg_optional_scalar(args, 1, 0, &d, &present) == TP_ERR_KERNEL_ARGS);
  HCHECK(tp_arg_optional_scalar(args, 0, 0, &d, &present) == TP_ERR_KERNEL_ARGS); /* index out of range */
}

/* tp_fill, the broadcast plan and the reduction plan. */
static void check_plan_helpers(void) {
  /* tp_fill with an odd element size and count */
  uint8_t fill[7 * 3];
  const uint8_t elem[3] = {1, 2, 3};
  tp_fill(fill, 7, elem, 3);
  bool filled = true;
  for (int k = 0; k < 21; k++) {
    filled = filled && fill[k] == elem[k % 3];
  }
  HCHECK(filled);

  /* broadcast plan: [3,1,5] x [1,4,1] merges nothing; [2,3] x [2,3] merges to one row */
  const int32_t s315[] = {3, 1, 5}, s141[] = {1, 4, 1}, s345[] = {3, 4, 5}, s23[] = {2, 3};
  tp_tensor a = {NULL, s315, 15, 60, 3, TP_DTYPE_FLOAT32, 0, 0, 0};
  tp_tensor b = {NULL, s141, 4, 16, 3, TP_DTYPE_FLOAT32, 0, 0, 0};
  tp_tensor o = {NULL, s345, 60, 240, 3, TP_DTYPE_FLOAT32, 0, 0, 0};
  tp_bcast bc;
  HCHECK(tp_bcast_init(&bc, &a, &b, &o) == TP_OK && bc.dim == 3 && bc.rows == 12 && bc.sizes[2] == 5);
  HCHECK(bc.strides[0][0] == 5 && bc.strides[0][1] == 0 && bc.strides[0][2] == 1);
  HCHECK(bc.strides[1][0] == 0 && bc.strides[1][1] == 1 && bc.strides[1][2] == 0);
  tp_tensor x = {NULL, s23, 6, 24, 2, TP_DTYPE_FLOAT32, 0, 0, 0};
  HCHECK(tp_bcast_init(&bc, &x, &x, &x) == TP_OK && bc.dim == 1 && bc.rows == 1 && bc.sizes[0] == 6);
  HCHECK(tp_bcast_init(&bc, &a, &b, &x) == TP_ERR_KERNEL_ARGS);

  /* reduce plan: [2,3,4] over dims {0,2} keepdim -> out [1,3,1], reduced dims do not merge */
  const int32_t s234[] = {2, 3, 4};
  tp_tensor r = {NULL, s234, 24, 96, 3, TP_DTYPE_FLOAT32, 0, 0, 0};
  tp_reduce_plan plan;
  const int64_t dims[] = {0, -1};
  HCHECK(tp_reduce_plan_init(&plan, &r, dims, 2, true) == TP_OK && plan.out_dim == 3 && plan.out_sizes[0] == 1 &&
         plan.out_sizes[1] == 3 && plan.out_sizes[2] == 1 && plan.out_numel == 3 && plan.red_numel == 8 &&
         plan.red_dim == 2 && plan.kept_dim == 1);
  const int64_t dims_last2[] = {1, 2};
  HCHECK(tp_reduce_plan_init(&plan, &r, dims_last2, 2, false) == TP_OK && plan.out_dim == 1 && plan.red_dim == 1 &&
         plan.red_sizes[0] == 12 && plan.red_strides[0] == 1);
  const int64_t dup[] = {1, -2};
  HCHECK(tp_reduce_plan_init(&plan, &r, dup, 2, false) == TP_ERR_KERNEL_ARGS);
}

/* --- Report --- */

/* Per-operator lines, the registry kernels without cases, the minimums; returns the total. */
static uint32_t report(void) {
  printf("%-48s %5s %6s %6s  %-9s %s\n", "operator", "ok", "errors", "failed", "max |err|", "max err/tol");
  uint32_t total = 0;
  for (uint32_t k = 0; k < nops; k++) {
    const op_stats *op = &ops[k];
    char name[128];
    snprintf(name, sizeof name, "%s.%s", op->name, op->overload);
    printf("%-48s %5u %6u %6u  %-9.3g %.3g\n", name, op->ok, op->errors, op->failed, op->max_abs, op->max_ratio);
    total += op->ok + op->errors;
    if (op->ok < MIN_OK_CASES_PER_OPERATOR || op->errors < MIN_ERROR_CASES_PER_OPERATOR) {
      printf("FAIL %s: %u OK and %u error cases passed, fewer than %d and %d\n", name, op->ok, op->errors,
             MIN_OK_CASES_PER_OPERATOR, MIN_ERROR_CASES_PER_OPERATOR);
      failures++;
    }
  }
  for (uint32_t k = 0; k < tp_selected_kernels.count; k++) {
    const tp_kernel *kernel = tp_selected_kernels.kernels[k];
    bool has_cases = false;
    for (uint32_t j = 0; j < nops; j++) {
      has_cases |= strcmp(ops[j].name, kernel->name) == 0 && strcmp(ops[j].overload, kernel->overload) == 0;
    }
    if (!has_cases) {
      printf("note: registry kernel %s.%s has no cases here\n", kernel->name, kernel->overload);
    }
  }
  if (total < MIN_CASES) {
    printf("FAIL: %u cases passed, fewer than %d\n", total, MIN_CASES);
    failures++;
  }
  if (scratch_checks < MIN_SCRATCH_CHECKS) {
    printf("FAIL: %u int8 convolution scratch sizes checked, fewer than %d\n", scratch_checks, MIN_SCRATCH_CHECKS);
    failures++;
  }
  return total;
}

/* A second core that never answers: the split call returns TP_ERR_WORKER. Returns the failures. */
static int check_worker_timeout(void) {
  int8_t x[64], y[64], out[64];
  memset(x, 3, sizeof x);
  memset(y, 4, sizeof y);
  tp_two_cores_install(&inline_worker);
  tp_two_cores_set_min_work(0);
  inline_worker_fail = true;
  const tp_s8_matmul p = {2, 2, 16, 0, 0, 1 << 30, 0, 0, -128, 127, false};
  const tp_status status = tp_s8_matmul_two_cores(&p, x, y, NULL, out);
  tp_two_cores_set_min_work(TP_TWO_CORES_MIN_WORK);
  tp_two_cores_install(NULL);
  if (status != TP_ERR_WORKER) {
    printf("FAIL a split call whose second core never answers returned %s, not TP_ERR_WORKER\n",
           tp_status_name(status));
    return 1;
  }
  return 0;
}

int main(void) {
  failures += check_worker_timeout();
  check_scalar_helpers();
  check_plan_helpers();
  for (uint32_t n = 0; n < NCASES; n++) {
    const kc_case *kc = &kc_cases[n];
    op_stats *op = operator_of(kc);
    if (op->kernel == NULL) {
      continue;
    }
    const bool passed = run_case(op, kc, (mutation){MUT_NONE, 0});
    if (passed && kc->status == TP_OK) {
      run_derived(op, kc);
    }
  }
  const uint32_t total = report();
  if (split_cases < MIN_SPLIT_CASES) {
    printf("FAIL: %u cases split over two cores, fewer than %d\n", split_cases, MIN_SPLIT_CASES);
    failures++;
  }
  printf("total: %u cases passed over %u operators (%u generated), %d helper checks, %u scratch sizes, %u split over "
         "two cores; %d failure(s)\n",
         total, nops, (unsigned)NCASES, helper_checks, scratch_checks, split_cases, failures);
  return failures == 0 ? 0 : 1;
}
