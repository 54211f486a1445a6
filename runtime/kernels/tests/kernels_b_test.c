/* Host unit test for the NN kernels (addmm, mm, bmm, convolution, max_pool2d_with_indices,
 * avg_pool2d, _adaptive_avg_pool2d, native_layer_norm, _native_batch_norm_legit_no_training).
 *
 * kernels_b_cases.h (from gen_kernels_b_cases.py, PyTorch references) lists each case's
 * argument values in KernelCall order and the expected outputs. For every case this builds
 * tp_tensor/tp_value objects (each tensor in its own exactly-sized heap block, so ASan sees
 * out-of-bounds accesses), calls the kernel and compares the outs within 1e-6 relative +
 * 1e-6 absolute (int64 outs exactly). The first passing case of each operator is then
 * mutated into error cases: missing / extra argument, a None instead of the first tensor,
 * an out of the wrong shape, and a wrong dtype for the first input and each out.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror -fsanitize=address,undefined -g -Iruntime/include \
 *     -Iruntime/kernels runtime/kernels/kernel_util.c runtime/kernels/nn_util.c \
 *     runtime/kernels/{addmm,mm,bmm,convolution,max_pool2d_with_indices,avg_pool2d}.c \
 *     runtime/kernels/{_adaptive_avg_pool2d,native_layer_norm,_native_batch_norm_legit_no_training}.c \
 *     runtime/src/dtype.c runtime/src/program.c runtime/src/flatbuffer.c \
 *     runtime/kernels/tests/kernels_b_test.c -lm -o /tmp/kernels_b_test && /tmp/kernels_b_test
 *
 * To compare with ExecuTorch's own kernels instead of PyTorch, generate the cases with
 * `gen_kernels_b_cases.py --reference executorch --out /tmp/cases_et.h` and add
 * -DKB_CASES_HEADER='"/tmp/cases_et.h"' to the command above.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_util.h"

TP_KERNEL(aten, addmm, out);
TP_KERNEL(aten, mm, out);
TP_KERNEL(aten, bmm, out);
TP_KERNEL(aten, convolution, out);
TP_KERNEL(aten, max_pool2d_with_indices, out);
TP_KERNEL(aten, avg_pool2d, out);
TP_KERNEL(aten, _adaptive_avg_pool2d, out);
TP_KERNEL(aten, native_layer_norm, out);
TP_KERNEL(aten, _native_batch_norm_legit_no_training, out);

typedef enum kb_kind {
  KB_IN,          /* input tensor: kb_tensors[tensor] */
  KB_OUT,         /* out tensor: expected values in kb_tensors[tensor] (data NULL for error cases) */
  KB_NONE,        /* None */
  KB_INT,         /* Int i */
  KB_DOUBLE,      /* Double d */
  KB_BOOL,        /* Bool i */
  KB_INT_LIST,    /* int list list[0..n) */
  KB_RET,         /* a return value: the same value as the argument at position i */
  KB_RET_LIST     /* a returned TensorList of the outs at positions list[0..n) */
} kb_kind;

typedef struct kb_tensor {
  uint8_t dtype;
  uint8_t dim;
  const int32_t *sizes;
  uint32_t numel;
  const void *data;
} kb_tensor;

typedef struct kb_arg {
  int kind;
  int32_t tensor;
  int64_t i;
  double d;
  const int64_t *list;
  uint32_t n;
} kb_arg;

typedef struct kb_case {
  const char *op;
  const char *name;
  uint32_t first_arg;
  uint32_t nargs;
  int status;
} kb_case;

/* -DKB_CASES_HEADER='"/tmp/cases_et.h"' runs cases generated with another reference
 * (gen_kernels_b_cases.py --reference executorch). */
#ifdef KB_CASES_HEADER
#include KB_CASES_HEADER
#else
#include "kernels_b_cases.h"
#endif

#define NCASES (sizeof(kb_cases) / sizeof(kb_cases[0]))
#define MAX_ARGS 16
#define RTOL 1e-6
#define ATOL 1e-6

static const struct {
  const char *op;
  tp_kernel_fn fn;
} kernels[] = {
    {"addmm", tp_kernel_aten_addmm_out},
    {"mm", tp_kernel_aten_mm_out},
    {"bmm", tp_kernel_aten_bmm_out},
    {"convolution", tp_kernel_aten_convolution_out},
    {"max_pool2d_with_indices", tp_kernel_aten_max_pool2d_with_indices_out},
    {"avg_pool2d", tp_kernel_aten_avg_pool2d_out},
    {"_adaptive_avg_pool2d", tp_kernel_aten__adaptive_avg_pool2d_out},
    {"native_layer_norm", tp_kernel_aten_native_layer_norm_out},
    {"_native_batch_norm_legit_no_training", tp_kernel_aten__native_batch_norm_legit_no_training_out},
};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

/* How to change a case before calling the kernel. */
typedef enum mutation {
  MUT_NONE,
  MUT_DROP_LAST,   /* nargs - 1 */
  MUT_EXTRA_NONE,  /* an extra None argument at the end */
  MUT_FIRST_NONE,  /* None instead of the first (tensor) argument */
  MUT_OUT_SHAPE,   /* out number `which` has its last size changed */
  MUT_OUT_DTYPE,   /* out number `which` becomes int32 */
  MUT_IN_DTYPE     /* the first input tensor becomes int32 */
} mutation;

/* One call's values; tensors are heap blocks of exactly their byte size. */
typedef struct call {
  tp_tensor tensors[MAX_ARGS];
  int32_t sizes[MAX_ARGS][TP_MAX_DIM];
  tp_value values[MAX_ARGS + 1];
  tp_value *ptrs[MAX_ARGS + 1];
  tp_tensor *lists[MAX_ARGS][4];
  uint32_t nargs;
} call;

static void *xmalloc(size_t n) {
  void *p = malloc(n == 0 ? 1 : n);
  if (p == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

static void build(call *c, const kb_case *kc, mutation mut, uint32_t which) {
  memset(c, 0, sizeof(*c));
  c->nargs = kc->nargs;
  uint32_t out_no = 0;
  bool first_in = true;
  for (uint32_t a = 0; a < kc->nargs; a++) {
    const kb_arg *ka = &kb_args[kc->first_arg + a];
    tp_value *v = &c->values[a];
    c->ptrs[a] = v;
    switch (ka->kind) {
      case KB_IN:
      case KB_OUT: {
        const kb_tensor *kt = &kb_tensors[ka->tensor];
        tp_tensor *t = &c->tensors[a];
        if (kt->dim != 0) {
          memcpy(c->sizes[a], kt->sizes, kt->dim * sizeof(int32_t));
        }
        t->sizes = c->sizes[a];
        t->dim = kt->dim;
        t->dtype = kt->dtype;
        t->numel = kt->numel;
        if (ka->kind == KB_IN && first_in && mut == MUT_IN_DTYPE) {
          t->dtype = TP_DTYPE_INT32;
        }
        if (ka->kind == KB_OUT) {
          if (out_no == which && mut == MUT_OUT_SHAPE) {
            int32_t *last = &c->sizes[a][t->dim - 1];
            *last = *last > 1 ? *last - 1 : *last + 1;
            t->numel = 1;
            for (uint32_t d = 0; d < t->dim; d++) {
              t->numel *= (uint32_t)c->sizes[a][d];
            }
          }
          if (out_no == which && mut == MUT_OUT_DTYPE) {
            t->dtype = TP_DTYPE_INT32;
          }
          out_no++;
        }
        t->nbytes = t->numel * (uint32_t)tp_dtype_size(t->dtype);
        t->data = t->numel == 0 ? NULL : xmalloc(t->nbytes);
        if (t->data != NULL) {
          if (ka->kind == KB_IN) {
            memcpy(t->data, kt->data, t->nbytes); /* int32 mutations copy the float bits */
          } else {
            memset(t->data, 0xff, t->nbytes); /* NaN / -1 so unwritten outputs show */
          }
        }
        v->tag = TP_TAG_TENSOR;
        v->as.tensor = t;
        if (ka->kind == KB_IN && first_in && mut == MUT_FIRST_NONE) {
          v->tag = TP_TAG_NONE;
        }
        if (ka->kind == KB_IN) {
          first_in = false;
        }
        break;
      }
      case KB_NONE:
        v->tag = TP_TAG_NONE;
        break;
      case KB_INT:
        v->tag = TP_TAG_INT;
        v->as.i = ka->i;
        break;
      case KB_DOUBLE:
        v->tag = TP_TAG_DOUBLE;
        v->as.d = ka->d;
        break;
      case KB_BOOL:
        v->tag = TP_TAG_BOOL;
        v->as.b = ka->i != 0;
        break;
      case KB_INT_LIST:
        v->tag = TP_TAG_INT_LIST;
        v->as.int_list.items = ka->list;
        v->as.int_list.len = ka->n;
        break;
      case KB_RET:
        c->ptrs[a] = &c->values[ka->i]; /* the out's own value, as ExecuTorch emits it */
        break;
      case KB_RET_LIST:
        for (uint32_t k = 0; k < ka->n && k < 4; k++) {
          c->lists[a][k] = &c->tensors[ka->list[k]];
        }
        v->tag = TP_TAG_TENSOR_LIST;
        v->as.tensor_list.items = c->lists[a];
        v->as.tensor_list.len = ka->n;
        break;
    }
  }
  if (mut == MUT_DROP_LAST) {
    c->nargs--;
  } else if (mut == MUT_EXTRA_NONE) {
    c->values[c->nargs].tag = TP_TAG_NONE;
    c->ptrs[c->nargs] = &c->values[c->nargs];
    c->nargs++;
  }
}

static void release(call *c) {
  for (uint32_t a = 0; a < MAX_ARGS; a++) {
    free(c->tensors[a].data);
  }
}

typedef struct stats {
  uint32_t cases, errors, failed;
  double max_abs;   /* largest |got - want| */
  double max_ratio; /* largest |got - want| / (RTOL * |want| + ATOL): 1.0 is the limit */
} stats;

/* Compares the outs of a successful call with the expected values. */
static bool check_outputs(const call *c, const kb_case *kc, stats *st) {
  bool ok = true;
  for (uint32_t a = 0; a < kc->nargs; a++) {
    const kb_arg *ka = &kb_args[kc->first_arg + a];
    if (ka->kind != KB_OUT) {
      continue;
    }
    const kb_tensor *kt = &kb_tensors[ka->tensor];
    const tp_tensor *t = &c->tensors[a];
    for (uint32_t i = 0; i < kt->numel; i++) {
      if (kt->dtype == TP_DTYPE_INT64) {
        int64_t want = ((const int64_t *)kt->data)[i], got = ((const int64_t *)t->data)[i];
        if (want != got) {
          printf("    out %u [%u]: got %lld, want %lld\n", a, i, (long long)got, (long long)want);
          ok = false;
        }
        continue;
      }
      double want = ((const float *)kt->data)[i], got = ((const float *)t->data)[i];
      if (isnan(want)) {
        if (!isnan(got)) {
          printf("    out %u [%u]: got %.9g, want nan\n", a, i, got);
          ok = false;
        }
        continue;
      }
      double err = fabs(got - want);
      if (!(err <= RTOL * fabs(want) + ATOL)) {
        printf("    out %u [%u]: got %.9g, want %.9g (error %.3g)\n", a, i, got, want, err);
        ok = false;
        continue;
      }
      if (err > st->max_abs) {
        st->max_abs = err;
      }
      if (err / (RTOL * fabs(want) + ATOL) > st->max_ratio) {
        st->max_ratio = err / (RTOL * fabs(want) + ATOL);
      }
    }
  }
  return ok;
}

static tp_kernel_fn find_kernel(const char *op, uint32_t *index) {
  for (uint32_t k = 0; k < NKERNELS; k++) {
    if (strcmp(kernels[k].op, op) == 0) {
      *index = k;
      return kernels[k].fn;
    }
  }
  return NULL;
}

static uint32_t count_outs(const kb_case *kc) {
  uint32_t n = 0;
  for (uint32_t a = 0; a < kc->nargs; a++) {
    n += kb_args[kc->first_arg + a].kind == KB_OUT;
  }
  return n;
}

/* Runs one (possibly mutated) call and checks its status. */
static bool run(tp_kernel_fn fn, const kb_case *kc, mutation mut, uint32_t which, tp_status want, const char *what,
                stats *st) {
  call *c = xmalloc(sizeof(call));
  build(c, kc, mut, which);
  tp_status got = fn(c->ptrs, c->nargs);
  bool ok = got == want;
  if (!ok) {
    printf("FAIL %s \"%s\"%s: returned %s, want %s\n", kc->op, kc->name, what, tp_status_name(got),
           tp_status_name(want));
  } else if (got == TP_OK && mut == MUT_NONE && !check_outputs(c, kc, st)) {
    printf("FAIL %s \"%s\": wrong output values\n", kc->op, kc->name);
    ok = false;
  }
  release(c);
  free(c);
  return ok;
}

int main(void) {
  stats st[NKERNELS];
  bool mutated[NKERNELS];
  memset(st, 0, sizeof(st));
  memset(mutated, 0, sizeof(mutated));
  uint32_t failures = 0;

  for (uint32_t n = 0; n < NCASES; n++) {
    const kb_case *kc = &kb_cases[n];
    uint32_t k;
    tp_kernel_fn fn = find_kernel(kc->op, &k);
    if (fn == NULL || kc->nargs > MAX_ARGS) {
      printf("FAIL case %u: no kernel %s\n", n, kc->op);
      failures++;
      continue;
    }
    bool ok = run(fn, kc, MUT_NONE, 0, (tp_status)kc->status, "", &st[k]);
    if (kc->status == TP_OK) {
      st[k].cases++;
    } else {
      st[k].errors++;
    }
    if (!ok) {
      st[k].failed++;
      failures++;
    }
    if (!ok || kc->status != TP_OK || mutated[k]) {
      continue;
    }
    /* error variants of the operator's first passing case */
    mutated[k] = true;
    static const struct {
      mutation mut;
      tp_status want;
      const char *what;
    } muts[] = {
        {MUT_DROP_LAST, TP_ERR_KERNEL_ARGS, " with the last argument missing"},
        {MUT_EXTRA_NONE, TP_ERR_KERNEL_ARGS, " with an extra None argument"},
        {MUT_FIRST_NONE, TP_ERR_KERNEL_ARGS, " with None for the first tensor"},
        {MUT_IN_DTYPE, TP_ERR_KERNEL_DTYPE, " with an int32 first input"},
    };
    for (uint32_t m = 0; m < sizeof(muts) / sizeof(muts[0]); m++) {
      bool mok = run(fn, kc, muts[m].mut, 0, muts[m].want, muts[m].what, &st[k]);
      st[k].errors++;
      st[k].failed += !mok;
      failures += !mok;
    }
    for (uint32_t o = 0; o < count_outs(kc); o++) {
      char what[64];
      snprintf(what, sizeof(what), " with out %u of the wrong shape", o);
      bool mok = run(fn, kc, MUT_OUT_SHAPE, o, TP_ERR_KERNEL_ARGS, what, &st[k]);
      snprintf(what, sizeof(what), " with out %u of dtype int32", o);
      mok = run(fn, kc, MUT_OUT_DTYPE, o, TP_ERR_KERNEL_DTYPE, what, &st[k]) && mok;
      st[k].errors += 2;
      st[k].failed += !mok;
      failures += !mok;
    }
  }

  printf("%-38s %6s %7s %6s  %-9s %s\n", "kernel", "cases", "errors", "failed", "max |err|", "max err/tol");
  for (uint32_t k = 0; k < NKERNELS; k++) {
    printf("%-38s %6u %7u %6u  %-9.3g %.3g\n", kernels[k].op, st[k].cases, st[k].errors, st[k].failed,
           st[k].max_abs, st[k].max_ratio);
    if (st[k].cases == 0) {
      printf("FAIL %s: no value cases\n", kernels[k].op);
      failures++;
    }
  }
  printf("%s: %u failure(s)\n", failures == 0 ? "PASS" : "FAIL", failures);
  return failures == 0 ? 0 : 1;
}
