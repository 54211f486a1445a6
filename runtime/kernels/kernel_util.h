/* Helpers every kernel uses: the TP_KERNEL definition macro, typed argument accessors
 * that check the value kind, and shape checks. All return a tp_status; none assert.
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

/* Defines kernel ns::name.overload with a per-instruction state of type `state_type`; the
 * body that follows is its prepare function, which receives `call`, `state` (the call's
 * state, zeroed) and `run` (set it to the routine to run). It defines the registry entry
 * `const tp_kernel tp_kernel_<ns>_<name>_<overload>`. TP_KERNEL_WITH adds tp_kernel flags
 * (activation fusion, see tinypte/kernel.h). */
#define TP_KERNEL(ns, name, overload, state_type) TP_KERNEL_WITH(ns, name, overload, state_type, 0u)

#define TP_KERNEL_WITH(ns, name, overload, state_type, kernel_flags)                                        \
  static tp_status tp__prepare_##ns##_##name##_##overload(const tp_kernel_call *call, state_type *state,       \
                                                          tp_kernel_run_fn *run);                             \
  static tp_status tp__entry_##ns##_##name##_##overload(const tp_kernel_call *call, tp_kernel_run_fn *run) {   \
    return tp__prepare_##ns##_##name##_##overload(call, (state_type *)call->state, run);                        \
  }                                                                                                            \
  const tp_kernel tp_kernel_##ns##_##name##_##overload = {#ns "::" #name, #overload,                           \
                                                          tp__entry_##ns##_##name##_##overload,                 \
                                                          sizeof(state_type), (kernel_flags)};                 \
  static tp_status tp__prepare_##ns##_##name##_##overload(const tp_kernel_call *call, state_type *state,       \
                                                          tp_kernel_run_fn *run)

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

/* --- Argument accessors: args[index] must exist and be of the right kind. --- */

/** A tensor argument. */
tp_status tp_arg_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out);
/** An optional tensor argument: *out is NULL for None. */
tp_status tp_arg_optional_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out);
/** An int argument (Int; Bool counts as 0/1). */
tp_status tp_arg_int(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out);
/** An optional int: *present is false for None. */
tp_status tp_arg_optional_int(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out, bool *present);
/** A Scalar argument (Int, Double or Bool) as a double. */
tp_status tp_arg_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, double *out);
/** A bool argument. */
tp_status tp_arg_bool(tp_value *const *args, uint32_t nargs, uint32_t index, bool *out);
/** An int list argument (int[] in the schema). */
tp_status tp_arg_int_list(tp_value *const *args, uint32_t nargs, uint32_t index, const int64_t **items,
                          uint32_t *len);
/** An optional int list: *items NULL and *len 0 for None. */
tp_status tp_arg_optional_int_list(tp_value *const *args, uint32_t nargs, uint32_t index, const int64_t **items,
                                   uint32_t *len);
/** A tensor list argument (Tensor[]). */
tp_status tp_arg_tensor_list(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor *const **items,
                             uint32_t *len);
/** A string argument (e.g. gelu's approximate="tanh"); compare with tp_string_equals. */
tp_status tp_arg_string(tp_value *const *args, uint32_t nargs, uint32_t index, const char **chars, uint32_t *len);
bool tp_string_equals(const char *chars, uint32_t len, const char *literal);

/* --- Shapes --- */

/** true when a and b have the same dim and sizes. */
bool tp_same_shape(const tp_tensor *a, const tp_tensor *b);
/** Normalize a possibly negative dim against `dim` dimensions (dim 0 tensors accept 0/-1). */
tp_status tp_normalize_dim(int64_t d, uint32_t dim, uint32_t *out);
/** Size of dimension d, 1 for scalar tensors' virtual dim. */
static inline int32_t tp_size(const tp_tensor *t, uint32_t d) { return d < t->dim ? t->sizes[d] : 1; }

/* --- Float32 elementwise maps --- */

/* The operands of a float32 elementwise kernel `op.out(Tensor self, ..., *, Tensor(a!) out)`. */
typedef struct tp_float_map {
  const float *x; /* self's elements */
  float *y;       /* out's elements */
  uint32_t n;     /* elements in each */
} tp_float_map;

/** Check a float32 map call: nargs == out_index + 2 (out, then the returned out), self at
 *  args[0] and out at args[out_index] float32 tensors (else TP_ERR_KERNEL_DTYPE) of the same
 *  shape (else TP_ERR_KERNEL_ARGS). Arguments between them are the kernel's to read. */
tp_status tp_float_map_args(tp_value *const *args, uint32_t nargs, uint32_t out_index, tp_float_map *map);

/* --- Scalars --- */

/** An optional Scalar argument (Scalar? in the schema) as a double: *present is false for None. */
tp_status tp_arg_optional_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, double *out, bool *present);
/** A Scalar argument that must be integral (Int or Bool), e.g. alpha for integer tensors: exact int64.
 *  TP_ERR_KERNEL_DTYPE for a Double (it would promote an integer computation to float). */
tp_status tp_arg_int_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out);
/** Store the Scalar argument as one element of `dtype` at `dst` (tp_dtype_size(dtype) bytes), as a
 *  C cast would: Double to integer truncates toward zero, anything non-zero is true for bool.
 *  TP_ERR_KERNEL_ARGS when the value does not fit the dtype (NaN/inf/out of range for integers,
 *  finite values beyond float range); TP_ERR_KERNEL_DTYPE for dtypes without a C type (float16). */
tp_status tp_arg_scalar_as(tp_value *const *args, uint32_t nargs, uint32_t index, int dtype, void *dst);

/** Fill `count` elements of `esize` bytes at dst with copies of the element at `elem`. */
void tp_fill(void *dst, uint32_t count, const void *elem, size_t esize);

/* --- More shapes --- */

/** true when t has exactly `dim` dimensions of the given sizes (how kernels check an out shape). */
bool tp_shape_is(const tp_tensor *t, uint32_t dim, const int32_t *sizes);

/* tp_tensor_resize (runtime/src/dynamic.c) under a second name that kernels refer to weakly:
 * a kernel that only passes dynamic shapes on (tp_out_shape) does not pull dynamic.c into
 * firmware; the kernels that make dynamic shapes call tp_tensor_resize and do. A dynamic
 * tensor exists only when dynamic.c is linked, so the weak reference is never NULL when
 * called. */
tp_status tp_dynamic_resize(tp_tensor *tensor, uint32_t dim, const int32_t *sizes) __attribute__((weak));

/** Check that `out` has the shape sizes[0..dim) the kernel computed, after giving it that shape
 *  if it is dynamic (a kernel flagged TP_KERNEL_DYNAMIC_SHAPES checks its outs this way). */
static inline tp_status tp_out_shape(tp_tensor *out, uint32_t dim, const int32_t *sizes) {
  if (out->dynamic) {
    return tp_dynamic_resize(out, dim, sizes);
  }
  return tp_shape_is(out, dim, sizes) ? TP_OK : TP_ERR_KERNEL_ARGS;
}

/** Advance a row-major multi-index over `dim` dimensions of `sizes` by one element and return the
 *  element offset moved along `strides` (odometer order, last dimension fastest). After the last
 *  element the index wraps to all zeros and the offset to `off` minus the full span. */
static inline uint32_t tp_index_next(uint32_t dim, const uint32_t *sizes, const uint32_t *strides, uint32_t *index,
                                     uint32_t off) {
  for (uint32_t d = dim; d-- > 0;) {
    off += strides[d];
    if (++index[d] < sizes[d]) {
      return off;
    }
    off -= strides[d] * sizes[d];
    index[d] = 0;
  }
  return off;
}

/* A reduction over a set of dimensions (sum/mean/argmax-style): which input elements feed each
 * out element. Size-1 dimensions are dropped and adjacent dimensions merged, so iterating is
 * cheap; the reduced elements of one output are visited in increasing input offset (row-major)
 * order, and outputs in row-major order of the kept dimensions. */
typedef struct tp_reduce_plan {
  uint32_t out_dim;                  /* the out tensor's expected shape */
  int32_t out_sizes[TP_MAX_DIM];
  uint32_t out_numel;
  uint32_t kept_dim;                 /* kept (non-reduced) dimensions, coalesced */
  uint32_t kept_sizes[TP_MAX_DIM];
  uint32_t kept_strides[TP_MAX_DIM]; /* input element strides */
  uint32_t red_dim;                  /* reduced dimensions, coalesced */
  uint32_t red_sizes[TP_MAX_DIM];
  uint32_t red_strides[TP_MAX_DIM];
  uint32_t red_numel;                /* input elements per output (0 when a reduced dim is empty) */
} tp_reduce_plan;

/** Plan a reduction of `in` over `dims[0..ndims)` (negative dims allowed; duplicates rejected);
 *  `dims` NULL or ndims 0 reduces every dimension (ATen's dim=None and dim=[]). keepdim keeps
 *  reduced dimensions as size 1. A 0-dim input gives a 0-dim output. */
tp_status tp_reduce_plan_init(tp_reduce_plan *plan, const tp_tensor *in, const int64_t *dims, uint32_t ndims,
                              bool keepdim);

/* The arguments of mean.out and sum.IntList_out, which share one schema:
 * (Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out). */
typedef struct tp_dim_reduction_args {
  tp_tensor *in;
  tp_tensor *out;
  const int64_t *dims; /* NULL for None */
  uint32_t ndims;
  bool keepdim;
  bool has_dtype;
  int64_t dtype; /* when has_dtype */
} tp_dim_reduction_args;

/** Read those arguments (args[5] is the returned out). */
tp_status tp_dim_reduction_args_get(tp_value *const *args, uint32_t nargs, tp_dim_reduction_args *a);

/** Plan the reduction they describe and check that out has the reduced shape. */
tp_status tp_dim_reduction_plan(const tp_dim_reduction_args *a, tp_reduce_plan *plan);

/* --- Elementwise (prepare/run) --- */

/** Set *run to the routine for `dtype` of a kernel with float32, int32 and int64 routines;
 *  TP_ERR_KERNEL_DTYPE for any other dtype. */
static inline tp_status tp_pick_run(int dtype, tp_kernel_run_fn f32, tp_kernel_run_fn i32, tp_kernel_run_fn i64,
                                    tp_kernel_run_fn *run) {
  *run = dtype == TP_DTYPE_FLOAT32 ? f32 : dtype == TP_DTYPE_INT32 ? i32 : dtype == TP_DTYPE_INT64 ? i64 : 0;
  return *run != 0 ? TP_OK : TP_ERR_KERNEL_DTYPE;
}

/* A constant operand of an elementwise kernel (add's sign * alpha, mul's Scalar other, ...):
 * prepare converts it once to the type the chosen run routine computes in, and keeps it in the
 * kernel's state. int32/int64 arithmetic wraps around, so their constants are kept unsigned. */
typedef union tp_elementwise_const {
  float f32;
  uint32_t u32;
  uint64_t u64;
} tp_elementwise_const;

/** The arguments an elementwise kernel `op(Tensor self, ..., *, Tensor(a!) out) -> Tensor(a!)`
 *  checks first in prepare: nargs == out_index + 2 (out at args[out_index], then the returned
 *  out), and self, out and the returned out are tensors (else TP_ERR_KERNEL_ARGS). Dtypes,
 *  shapes and the arguments between self and out are the kernel's to check. */
tp_status tp_elementwise_args(const tp_kernel_call *call, uint32_t out_index, tp_tensor **self, tp_tensor **out);

/* --- Shapes and reductions (prepare/run) --- */

/* Plans that prepare computes from the (static) shapes and keeps in a kernel's state, so that
 * run only moves data. The copy and gather routines read self at args[0] and write the out at
 * the argument slot their state names. */

/* A byte copy of a whole contiguous tensor into an out of the same bytes (clone, view_copy,
 * squeeze_copy, unsqueeze_copy, _clone_dim_order): a kernel whose state is a tp_copy_state
 * sets its fields and runs tp_copy_run. */
typedef struct tp_copy_state {
  uint32_t nbytes; /* bytes to copy (out's, equal to self's; 0: nothing) */
  uint32_t out;    /* argument slot of out */
} tp_copy_state;

/** Copy self into out (memmove; nothing when they are the same memory). */
tp_status tp_copy_run(const tp_kernel_call *call);

/* A gather copy of a strided view of self into the contiguous out (permute_copy, expand_copy):
 * size-1 dimensions dropped and adjacent contiguous ones merged, then `rows` rows of `len`
 * elements `step` apart, the rows walking the outer dimensions. */
typedef struct tp_gather_state {
  uint32_t rows;                        /* rows to copy (0: the view is empty) */
  uint32_t len;                         /* elements per row */
  uint32_t step;                        /* self elements between a row's elements */
  uint32_t esize;                       /* bytes per element */
  uint32_t base;                        /* self element where the view starts (0 unless a kernel sets it) */
  uint32_t out;                         /* argument slot of out */
  uint32_t dim;                         /* merged dimensions above the row */
  uint32_t sizes[TP_MAX_DIM - 1];       /* their sizes */
  uint32_t strides[TP_MAX_DIM - 1];     /* and self element strides (0: broadcast) */
} tp_gather_state;

/** Plan copying the view of `dim` (<= TP_MAX_DIM) dimensions of `sizes` whose element
 *  (i0, i1, ...) is self's element sum(i_d * src_strides[d]) into out (argument slot `out`), for
 *  elements of `esize` bytes; sets *run to the routine for that element size (rows of
 *  contiguous elements are moved whole). self and out must not overlap. The view starts at self's
 *  first element: a kernel whose view starts later (slice_copy) sets g->base after planning. */
void tp_gather_plan(tp_gather_state *g, uint32_t dim, const int32_t *sizes, const uint32_t *src_strides,
                    size_t esize, uint32_t out, tp_kernel_run_fn *run);

/** The element strides of contiguous `t` (row-major): strides[d] for d < t->dim. */
static inline void tp_contiguous_strides(const tp_tensor *t, uint32_t *strides) {
  uint32_t stride = 1;
  for (uint32_t d = t->dim; d-- > 0;) {
    strides[d] = stride;
    stride *= (uint32_t)t->sizes[d];
  }
}

/** `t` viewed as (outer, size along `dim`, inner): *outer is the product of the sizes before dim,
 *  *inner of those after (1 when there are none). */
static inline void tp_dim_blocks(const tp_tensor *t, uint32_t dim, uint32_t *outer, uint32_t *inner) {
  *outer = 1;
  *inner = 1;
  for (uint32_t d = 0; d < t->dim; d++) {
    if (d < dim) {
      *outer *= (uint32_t)t->sizes[d];
    } else if (d > dim) {
      *inner *= (uint32_t)t->sizes[d];
    }
  }
}

/** A Python slice bound along a dimension of `size`: negative counts from the end, then clamped
 *  to [0, size] (slice_copy, slice_scatter). */
static inline int64_t tp_slice_bound(int64_t v, int64_t size) {
  if (v < 0) {
    v += size;
  }
  return v < 0 ? 0 : v > size ? size : v;
}

/** The view of `in` with its dimensions permuted by `dims[0..len)` (len == in->dim, each dim
 *  once, negative ones allowed; TP_ERR_KERNEL_ARGS otherwise): out dimension k is in's
 *  dimension dims[k], with size sizes[k] and in element stride strides[k] (for tp_gather_plan). */
tp_status tp_permutation(const tp_tensor *in, const int64_t *dims, uint32_t len, int32_t *sizes, uint32_t *strides);

/* A tp_reduce_plan as run iterates it, in the plan's order: for each of `out_numel` outputs
 * (the kept dimensions, row-major), `red_rows` rows of `red_len` input elements `red_step`
 * apart, the rows walking the outer reduced dimensions. */
typedef struct tp_reduce_loop {
  uint32_t out_numel;          /* outputs */
  uint32_t red_numel;          /* input elements per output (0 when a reduced dim is empty) */
  uint32_t red_rows;           /* rows per output (0 when red_numel is) */
  uint32_t red_len;            /* the innermost reduced dimension: its size (1 when none) */
  uint32_t red_step;           /* and input element stride */
  uint8_t kept_dim;            /* kept dims: sizes/strides [0, kept_dim) */
  uint8_t red_dim;             /* outer reduced dims: sizes/strides [kept_dim, kept_dim + red_dim) */
  uint32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM]; /* input element strides */
} tp_reduce_loop;

/** The loop of `plan`. */
void tp_reduce_loop_init(tp_reduce_loop *loop, const tp_reduce_plan *plan);

/* Iterate a tp_reduce_loop: with `koff` the input offset of the current output's first
 * element, `roff` that of the current row (relative to koff). Both are back to 0 after a
 * full cycle, so one position serves every output. */
typedef struct tp_reduce_pos {
  uint32_t kept_index[TP_MAX_DIM];
  uint32_t red_index[TP_MAX_DIM];
  uint32_t koff;
  uint32_t roff;
} tp_reduce_pos;

/** The position of the first row of the first output. */
static inline void tp_reduce_pos_start(tp_reduce_pos *pos) {
  for (uint32_t d = 0; d < TP_MAX_DIM; d++) {
    pos->kept_index[d] = 0;
    pos->red_index[d] = 0;
  }
  pos->koff = 0;
  pos->roff = 0;
}

/** Move to the next row of the current output (after the last, back to its first). */
static inline void tp_reduce_next_row(const tp_reduce_loop *l, tp_reduce_pos *pos) {
  pos->roff = tp_index_next(l->red_dim, l->sizes + l->kept_dim, l->strides + l->kept_dim, pos->red_index, pos->roff);
}

/** Move to the next output. */
static inline void tp_reduce_next_out(const tp_reduce_loop *l, tp_reduce_pos *pos) {
  pos->koff = tp_index_next(l->kept_dim, l->sizes, l->strides, pos->kept_index, pos->koff);
}

#endif /* TINYPTE_KERNEL_UTIL_H */
