/* Host unit test for the elementwise, activation, shape/copy, reduction and fill kernels (add,
 * sub, mul, div [+ Scalar overloads], relu, hardtanh, sigmoid, tanh, gelu, clamp, clone,
 * view_copy, permute_copy, expand_copy, cat, squeeze_copy, unsqueeze_copy, constant_pad_nd,
 * _softmax, _log_softmax, mean, sum, argmax, full, full_like) and the helpers they added to
 * kernel_util / broadcast.
 *
 * kernels_a_cases.h (from gen_kernels_a_cases.py, PyTorch references) lists each case's
 * argument values in KernelCall order and the expected out (or the expected error status).
 * For every case this builds tp_tensor/tp_value objects by hand (each tensor in its own
 * exactly-sized heap block, so ASan sees any out-of-bounds access), calls the kernel, and
 * compares the out within 1e-6 relative + 1e-7 absolute for float32 (NaN must match NaN),
 * exactly for other dtypes; every out element must have been written and no input changed.
 * The first passing case of each operator is then mutated into error cases: one argument
 * missing / one extra (TP_ERR_KERNEL_ARGS), None for the first argument (ARGS), an out of the
 * wrong shape (ARGS), a float16 out and a float64 first input (TP_ERR_KERNEL_DTYPE).
 * Prints a per-kernel count of checked cases; exits 1 on any failure.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror -fsanitize=address,undefined -g -Iruntime/include \
 *     -Iruntime/kernels runtime/kernels/[a-z_]*.c runtime/src/dtype.c runtime/src/program.c \
 *     runtime/src/flatbuffer.c runtime/kernels/tests/kernels_a_test.c -lm \
 *     -o /tmp/kernels_a_test && /tmp/kernels_a_test
 * (every .c in runtime/kernels, and the runtime files with tp_dtype_size and tp_status_name;
 * Bazel: //runtime/kernels/tests:kernels_a_test.)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadcast.h"
#include "kernel_util.h"

typedef enum ka_kind {
  KA_IN,          /* input tensor ka_tensors[tensor] */
  KA_OUT,         /* out tensor: shape/dtype and expected bytes in ka_tensors[tensor] (NULL data for errors) */
  KA_NONE,        /* None */
  KA_INT,         /* Int i */
  KA_DOUBLE,      /* Double d */
  KA_BOOL,        /* Bool i */
  KA_STRING,      /* String s */
  KA_INT_LIST,    /* int list list[0..n) */
  KA_TENSOR_LIST, /* tensor list: ka_tensors[list[0..n)] */
  KA_RET          /* the returned value: the same value as the argument at position i */
} ka_kind;

typedef struct ka_tensor {
  uint8_t dtype;
  uint8_t dim;
  const int32_t *sizes;
  uint32_t numel;
  const void *data; /* numel elements of the dtype's C type (float16/float64: little-endian bytes) */
} ka_tensor;

typedef struct ka_arg {
  int kind;
  int32_t tensor;
  int64_t i;
  double d;
  const int64_t *list;
  uint32_t n;
  const char *s;
} ka_arg;

typedef struct ka_case {
  const char *op;
  const char *label;
  uint32_t first_arg;
  uint32_t nargs;
  int status;
} ka_case;

/* -DKA_CASES_HEADER='"/tmp/ka_cases_et.h"' runs cases whose expected values come from the
 * ExecuTorch runtime instead (gen_kernels_a_cases.py --reference executorch). */
#ifdef KA_CASES_HEADER
#include KA_CASES_HEADER
#else
#include "kernels_a_cases.h"
#endif

#define NCASES (sizeof(ka_cases) / sizeof(ka_cases[0]))
#define MAX_ARGS 12
#define MAX_TENSORS 16
#ifndef RTOL
#define RTOL 1e-6
#endif
#ifndef ATOL
#define ATOL 1e-7
#endif

TP_KERNEL(aten, add, out);
TP_KERNEL(aten, add, Scalar_out);
TP_KERNEL(aten, sub, out);
TP_KERNEL(aten, sub, Scalar_out);
TP_KERNEL(aten, mul, out);
TP_KERNEL(aten, mul, Scalar_out);
TP_KERNEL(aten, div, out);
TP_KERNEL(aten, div, Scalar_out);
TP_KERNEL(aten, relu, out);
TP_KERNEL(aten, hardtanh, out);
TP_KERNEL(aten, sigmoid, out);
TP_KERNEL(aten, tanh, out);
TP_KERNEL(aten, gelu, out);
TP_KERNEL(aten, clamp, out);
TP_KERNEL(aten, clone, out);
TP_KERNEL(aten, view_copy, out);
TP_KERNEL(aten, permute_copy, out);
TP_KERNEL(aten, expand_copy, out);
TP_KERNEL(aten, cat, out);
TP_KERNEL(aten, squeeze_copy, dim_out);
TP_KERNEL(aten, squeeze_copy, dims_out);
TP_KERNEL(aten, unsqueeze_copy, out);
TP_KERNEL(aten, constant_pad_nd, out);
TP_KERNEL(aten, _softmax, out);
TP_KERNEL(aten, _log_softmax, out);
TP_KERNEL(aten, mean, out);
TP_KERNEL(aten, sum, IntList_out);
TP_KERNEL(aten, argmax, out);
TP_KERNEL(aten, full, out);
TP_KERNEL(aten, full_like, out);

static struct {
  const char *op;
  tp_kernel_fn fn;
  int ok;      /* checked cases expecting TP_OK */
  int errors;  /* checked cases expecting an error */
  int failed;
} kernels[] = {
    {"add.out", tp_kernel_aten_add_out, 0, 0, 0},
    {"add.Scalar_out", tp_kernel_aten_add_Scalar_out, 0, 0, 0},
    {"sub.out", tp_kernel_aten_sub_out, 0, 0, 0},
    {"sub.Scalar_out", tp_kernel_aten_sub_Scalar_out, 0, 0, 0},
    {"mul.out", tp_kernel_aten_mul_out, 0, 0, 0},
    {"mul.Scalar_out", tp_kernel_aten_mul_Scalar_out, 0, 0, 0},
    {"div.out", tp_kernel_aten_div_out, 0, 0, 0},
    {"div.Scalar_out", tp_kernel_aten_div_Scalar_out, 0, 0, 0},
    {"relu.out", tp_kernel_aten_relu_out, 0, 0, 0},
    {"hardtanh.out", tp_kernel_aten_hardtanh_out, 0, 0, 0},
    {"sigmoid.out", tp_kernel_aten_sigmoid_out, 0, 0, 0},
    {"tanh.out", tp_kernel_aten_tanh_out, 0, 0, 0},
    {"gelu.out", tp_kernel_aten_gelu_out, 0, 0, 0},
    {"clamp.out", tp_kernel_aten_clamp_out, 0, 0, 0},
    {"clone.out", tp_kernel_aten_clone_out, 0, 0, 0},
    {"view_copy.out", tp_kernel_aten_view_copy_out, 0, 0, 0},
    {"permute_copy.out", tp_kernel_aten_permute_copy_out, 0, 0, 0},
    {"expand_copy.out", tp_kernel_aten_expand_copy_out, 0, 0, 0},
    {"cat.out", tp_kernel_aten_cat_out, 0, 0, 0},
    {"squeeze_copy.dim_out", tp_kernel_aten_squeeze_copy_dim_out, 0, 0, 0},
    {"squeeze_copy.dims_out", tp_kernel_aten_squeeze_copy_dims_out, 0, 0, 0},
    {"unsqueeze_copy.out", tp_kernel_aten_unsqueeze_copy_out, 0, 0, 0},
    {"constant_pad_nd.out", tp_kernel_aten_constant_pad_nd_out, 0, 0, 0},
    {"_softmax.out", tp_kernel_aten__softmax_out, 0, 0, 0},
    {"_log_softmax.out", tp_kernel_aten__log_softmax_out, 0, 0, 0},
    {"mean.out", tp_kernel_aten_mean_out, 0, 0, 0},
    {"sum.IntList_out", tp_kernel_aten_sum_IntList_out, 0, 0, 0},
    {"argmax.out", tp_kernel_aten_argmax_out, 0, 0, 0},
    {"full.out", tp_kernel_aten_full_out, 0, 0, 0},
    {"full_like.out", tp_kernel_aten_full_like_out, 0, 0, 0},
};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

/* How to change a case before calling the kernel. */
typedef enum mutation {
  MUT_NONE,
  MUT_DROP_LAST, /* one argument fewer */
  MUT_EXTRA,     /* one more (None) argument */
  MUT_ARG0_NONE, /* None instead of the first argument */
  MUT_OUT_SHAPE, /* the out's last size + 1 (or [2] for a 0-dim out); its buffer keeps the old size */
  MUT_OUT_F16,   /* a float16 out */
  MUT_IN_F64,    /* the first input tensor claims float64 (its buffer keeps the old size) */
  MUT_COUNT
} mutation;

static const char *const mutation_names[MUT_COUNT] = {
    "", "one argument fewer", "one argument more", "None as first argument", "out of the wrong shape",
    "float16 out", "float64 first input"};
static const int mutation_status[MUT_COUNT] = {0,
                                               TP_ERR_KERNEL_ARGS,
                                               TP_ERR_KERNEL_ARGS,
                                               TP_ERR_KERNEL_ARGS,
                                               TP_ERR_KERNEL_ARGS,
                                               TP_ERR_KERNEL_DTYPE,
                                               TP_ERR_KERNEL_DTYPE};

/* A case built into runtime objects. */
typedef struct built {
  tp_value values[MAX_ARGS + 1];
  tp_value *ptrs[MAX_ARGS + 1];
  tp_tensor tensors[MAX_TENSORS];
  int32_t sizes[MAX_TENSORS][TP_MAX_DIM];
  const ka_tensor *spec[MAX_TENSORS];
  bool is_out[MAX_TENSORS];
  tp_tensor *lists[MAX_ARGS][MAX_TENSORS];
  uint32_t ntensors;
  uint32_t nargs;
  int out_tensor; /* index in tensors[] of the out */
} built;

static int failures = 0;

static tp_tensor *make_tensor(built *b, const ka_tensor *spec, bool is_out) {
  if (b->ntensors >= MAX_TENSORS || spec->dim > TP_MAX_DIM) {
    fprintf(stderr, "test case too large\n");
    exit(2);
  }
  const uint32_t k = b->ntensors++;
  tp_tensor *t = &b->tensors[k];
  memset(t, 0, sizeof *t);
  for (uint32_t d = 0; d < spec->dim; d++) {
    b->sizes[k][d] = spec->sizes[d];
  }
  t->sizes = b->sizes[k];
  t->dim = spec->dim;
  t->dtype = spec->dtype;
  t->numel = spec->numel;
  t->nbytes = spec->numel * (uint32_t)tp_dtype_size(spec->dtype);
  b->spec[k] = spec;
  b->is_out[k] = is_out;
  if (t->nbytes > 0) {
    t->data = malloc(t->nbytes);
    if (t->data == NULL) {
      exit(2);
    }
    if (is_out) {
      memset(t->data, 0xA5, t->nbytes); /* every element must be overwritten */
    } else {
      memcpy(t->data, spec->data, t->nbytes);
    }
  }
  return t;
}

static void build(built *b, const ka_case *c) {
  memset(b, 0, sizeof *b);
  b->out_tensor = -1;
  b->nargs = c->nargs;
  if (c->nargs > MAX_ARGS) {
    fprintf(stderr, "test case has too many arguments\n");
    exit(2);
  }
  for (uint32_t k = 0; k < c->nargs; k++) {
    const ka_arg *a = &ka_args[c->first_arg + k];
    tp_value *v = &b->values[k];
    b->ptrs[k] = v;
    switch (a->kind) {
      case KA_IN:
      case KA_OUT:
        if (a->kind == KA_OUT) {
          b->out_tensor = (int)b->ntensors;
        }
        v->tag = TP_TAG_TENSOR;
        v->as.tensor = make_tensor(b, &ka_tensors[a->tensor], a->kind == KA_OUT);
        break;
      case KA_NONE:
        v->tag = TP_TAG_NONE;
        break;
      case KA_INT:
        v->tag = TP_TAG_INT;
        v->as.i = a->i;
        break;
      case KA_DOUBLE:
        v->tag = TP_TAG_DOUBLE;
        v->as.d = a->d;
        break;
      case KA_BOOL:
        v->tag = TP_TAG_BOOL;
        v->as.b = a->i != 0;
        break;
      case KA_STRING:
        v->tag = TP_TAG_STRING;
        v->as.string.chars = a->s;
        v->as.string.len = (uint32_t)strlen(a->s);
        break;
      case KA_INT_LIST:
        v->tag = TP_TAG_INT_LIST;
        v->as.int_list.items = a->list;
        v->as.int_list.len = a->n;
        break;
      case KA_TENSOR_LIST:
        v->tag = TP_TAG_TENSOR_LIST;
        for (uint32_t j = 0; j < a->n; j++) {
          b->lists[k][j] = make_tensor(b, &ka_tensors[a->list[j]], false);
        }
        v->as.tensor_list.items = b->lists[k];
        v->as.tensor_list.len = a->n;
        break;
      case KA_RET:
        b->ptrs[k] = b->ptrs[a->i]; /* the out value again, as in a KernelCall */
        break;
      default:
        fprintf(stderr, "bad argument kind %d\n", a->kind);
        exit(2);
    }
  }
}

static void release(built *b) {
  for (uint32_t k = 0; k < b->ntensors; k++) {
    free(b->tensors[k].data);
  }
}

/* Apply a mutation; false when it does not apply to this case. */
static bool mutate(built *b, mutation m) {
  switch (m) {
    case MUT_NONE:
      return true;
    case MUT_DROP_LAST:
      b->nargs--;
      return true;
    case MUT_EXTRA:
      b->values[b->nargs].tag = TP_TAG_NONE;
      b->ptrs[b->nargs] = &b->values[b->nargs];
      b->nargs++;
      return true;
    case MUT_ARG0_NONE:
      b->values[0].tag = TP_TAG_NONE;
      return true;
    case MUT_OUT_SHAPE: {
      if (b->out_tensor < 0) {
        return false;
      }
      tp_tensor *t = &b->tensors[b->out_tensor];
      if (t->dim == 0) {
        t->dim = 1;
        b->sizes[b->out_tensor][0] = 2;
      } else {
        b->sizes[b->out_tensor][t->dim - 1] += 1;
      }
      uint32_t numel = 1;
      for (uint32_t d = 0; d < t->dim; d++) {
        numel *= (uint32_t)t->sizes[d];
      }
      t->numel = numel;
      t->nbytes = numel * (uint32_t)tp_dtype_size(t->dtype);
      return true;
    }
    case MUT_OUT_F16: {
      if (b->out_tensor < 0) {
        return false;
      }
      tp_tensor *t = &b->tensors[b->out_tensor];
      t->dtype = TP_DTYPE_FLOAT16;
      t->nbytes = t->numel * 2;
      return true;
    }
    case MUT_IN_F64:
      for (uint32_t k = 0; k < b->ntensors; k++) {
        if (!b->is_out[k]) {
          b->tensors[k].dtype = TP_DTYPE_FLOAT64;
          b->tensors[k].nbytes = b->tensors[k].numel * 8;
          return true;
        }
      }
      return false;
    default:
      return false;
  }
}

static float load_f32(const void *p, uint32_t i) {
  float v;
  memcpy(&v, (const uint8_t *)p + (size_t)i * 4, 4);
  return v;
}

/* Compare the out with the expected values and the inputs with their originals. */
static bool check_values(const built *b, const ka_case *c) {
  bool ok = true;
  for (uint32_t k = 0; k < b->ntensors; k++) {
    const tp_tensor *t = &b->tensors[k];
    const ka_tensor *spec = b->spec[k];
    if (t->nbytes == 0) {
      continue;
    }
    if (!b->is_out[k]) {
      if (memcmp(t->data, spec->data, t->nbytes) != 0) {
        printf("FAIL %s [%s]: input tensor %u was modified\n", c->op, c->label, k);
        ok = false;
      }
      continue;
    }
    if (spec->dtype != TP_DTYPE_FLOAT32) {
      const size_t esize = tp_dtype_size(spec->dtype);
      for (uint32_t i = 0; i < t->numel; i++) {
        const uint8_t *g = (const uint8_t *)t->data + i * esize;
        const uint8_t *w = (const uint8_t *)spec->data + i * esize;
        if (memcmp(g, w, esize) != 0) {
          int64_t got = 0, want = 0;
          memcpy(&got, g, esize);
          memcpy(&want, w, esize);
          printf("FAIL %s [%s]: out[%u] = 0x%llx, expected 0x%llx\n", c->op, c->label, i, (unsigned long long)got,
                 (unsigned long long)want);
          ok = false;
          break;
        }
      }
      continue;
    }
    for (uint32_t i = 0; i < t->numel; i++) {
      const double got = load_f32(t->data, i);
      const double want = load_f32(spec->data, i);
      bool same;
      if (isnan(want)) {
        same = isnan(got);
      } else if (isinf(want)) {
        same = got == want;
      } else {
        same = fabs(got - want) <= RTOL * fabs(want) + ATOL;
      }
      if (!same) {
        printf("FAIL %s [%s]: out[%u] = %.9g, expected %.9g\n", c->op, c->label, i, got, want);
        ok = false;
        break;
      }
    }
  }
  return ok;
}

static int kernel_index(const char *op) {
  for (uint32_t k = 0; k < NKERNELS; k++) {
    if (strcmp(kernels[k].op, op) == 0) {
      return (int)k;
    }
  }
  return -1;
}

static void run_case(const ka_case *c, mutation m, bool *first_ok_done) {
  const int ki = kernel_index(c->op);
  if (ki < 0) {
    printf("FAIL %s: no kernel in the test's table\n", c->op);
    failures++;
    return;
  }
  built b;
  build(&b, c);
  if (!mutate(&b, m)) {
    release(&b);
    return;
  }
  const int want = m == MUT_NONE ? c->status : mutation_status[m];
  const tp_status got = kernels[ki].fn(b.ptrs, b.nargs);
  bool ok = (int)got == want;
  if (!ok) {
    printf("FAIL %s [%s%s%s]: returned %s, expected %s\n", c->op, c->label, m ? " / " : "", mutation_names[m],
           tp_status_name(got), tp_status_name((tp_status)want));
  } else if (want == TP_OK) {
    ok = check_values(&b, c);
  }
  if (want == TP_OK) {
    kernels[ki].ok++;
  } else {
    kernels[ki].errors++;
  }
  if (!ok) {
    kernels[ki].failed++;
    failures++;
  }
  release(&b);
  if (m == MUT_NONE && ok && c->status == TP_OK && first_ok_done != NULL && !*first_ok_done) {
    *first_ok_done = true;
    for (int mm = MUT_DROP_LAST; mm < MUT_COUNT; mm++) {
      /* full_like ignores its input's dtype, so a float64 self is not an error there */
      if (mm == MUT_IN_F64 && strcmp(c->op, "full_like.out") == 0) {
        continue;
      }
      run_case(c, (mutation)mm, NULL);
    }
  }
}

/* --- direct checks of the helpers added to kernel_util / broadcast --- */
static int helper_checks = 0;

#define HCHECK(cond)                                                  \
  do {                                                                \
    helper_checks++;                                                  \
    if (!(cond)) {                                                    \
      printf("FAIL helpers: %s (line %d)\n", #cond, __LINE__);       \
      failures++;                                                     \
    }                                                                 \
  } while (0)

static void check_helpers(void) {
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
  tp_tensor a = {NULL, s315, 15, 60, 3, TP_DTYPE_FLOAT32};
  tp_tensor b = {NULL, s141, 4, 16, 3, TP_DTYPE_FLOAT32};
  tp_tensor o = {NULL, s345, 60, 240, 3, TP_DTYPE_FLOAT32};
  tp_bcast bc;
  HCHECK(tp_bcast_init(&bc, &a, &b, &o) == TP_OK && bc.dim == 3 && bc.rows == 12 && bc.sizes[2] == 5);
  HCHECK(bc.strides[0][0] == 5 && bc.strides[0][1] == 0 && bc.strides[0][2] == 1);
  HCHECK(bc.strides[1][0] == 0 && bc.strides[1][1] == 1 && bc.strides[1][2] == 0);
  tp_tensor x = {NULL, s23, 6, 24, 2, TP_DTYPE_FLOAT32};
  HCHECK(tp_bcast_init(&bc, &x, &x, &x) == TP_OK && bc.dim == 1 && bc.rows == 1 && bc.sizes[0] == 6);
  HCHECK(tp_bcast_init(&bc, &a, &b, &x) == TP_ERR_KERNEL_ARGS);

  /* reduce plan: [2,3,4] over dims {0,2} keepdim -> out [1,3,1], reduced dims do not merge */
  const int32_t s234[] = {2, 3, 4};
  tp_tensor r = {NULL, s234, 24, 96, 3, TP_DTYPE_FLOAT32};
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

int main(void) {
  check_helpers();
  bool first_ok_done[NKERNELS] = {false};
  for (uint32_t i = 0; i < NCASES; i++) {
    const int ki = kernel_index(ka_cases[i].op);
    run_case(&ka_cases[i], MUT_NONE, ki >= 0 ? &first_ok_done[ki] : NULL);
  }
  printf("%-24s %6s %6s %6s\n", "kernel", "ok", "errors", "failed");
  int total = 0;
  for (uint32_t k = 0; k < NKERNELS; k++) {
    printf("%-24s %6d %6d %6d\n", kernels[k].op, kernels[k].ok, kernels[k].errors, kernels[k].failed);
    total += kernels[k].ok + kernels[k].errors;
    if (kernels[k].ok == 0) {
      printf("FAIL %s: no passing case checked\n", kernels[k].op);
      failures++;
    }
  }
  printf("%-24s %6d\n", "helpers", helper_checks);
  printf("%d kernel cases, %d helper checks, %d failures\n", total, helper_checks, failures);
  return failures == 0 ? 0 : 1;
}
