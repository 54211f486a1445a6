/* Argument accessors and shape helpers for kernels (see kernel_util.h). */
#include "kernel_util.h"

#include <string.h>

static tp_status arg(tp_value *const *args, uint32_t nargs, uint32_t index, const tp_value **out) {
  if (args == NULL || index >= nargs || args[index] == NULL) {
    return TP_ERR_KERNEL_ARGS;
  }
  *out = args[index];
  return TP_OK;
}

tp_status tp_arg_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_TENSOR && v->as.tensor != NULL);
  *out = v->as.tensor;
  return TP_OK;
}

tp_status tp_arg_optional_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_NONE) {
    *out = NULL;
    return TP_OK;
  }
  return tp_arg_tensor(args, nargs, index, out);
}

tp_status tp_arg_int(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_INT) {
    *out = v->as.i;
  } else if (v->tag == TP_TAG_BOOL) {
    *out = v->as.b ? 1 : 0;
  } else {
    return TP_ERR_KERNEL_ARGS;
  }
  return TP_OK;
}

tp_status tp_arg_optional_int(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out, bool *present) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  *present = v->tag != TP_TAG_NONE;
  if (!*present) {
    *out = 0;
    return TP_OK;
  }
  return tp_arg_int(args, nargs, index, out);
}

tp_status tp_arg_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, double *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  switch (v->tag) {
    case TP_TAG_INT:
      *out = (double)v->as.i;
      return TP_OK;
    case TP_TAG_DOUBLE:
      *out = v->as.d;
      return TP_OK;
    case TP_TAG_BOOL:
      *out = v->as.b ? 1.0 : 0.0;
      return TP_OK;
    default:
      return TP_ERR_KERNEL_ARGS;
  }
}

tp_status tp_arg_bool(tp_value *const *args, uint32_t nargs, uint32_t index, bool *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_BOOL);
  *out = v->as.b;
  return TP_OK;
}

tp_status tp_arg_int_list(tp_value *const *args, uint32_t nargs, uint32_t index, const int64_t **items,
                          uint32_t *len) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_INT_LIST);
  *items = v->as.int_list.items;
  *len = v->as.int_list.len;
  return TP_OK;
}

tp_status tp_arg_optional_int_list(tp_value *const *args, uint32_t nargs, uint32_t index, const int64_t **items,
                                   uint32_t *len) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_NONE) {
    *items = NULL;
    *len = 0;
    return TP_OK;
  }
  return tp_arg_int_list(args, nargs, index, items, len);
}

tp_status tp_arg_tensor_list(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor *const **items,
                             uint32_t *len) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_TENSOR_LIST);
  *items = v->as.tensor_list.items;
  *len = v->as.tensor_list.len;
  return TP_OK;
}

tp_status tp_arg_string(tp_value *const *args, uint32_t nargs, uint32_t index, const char **chars, uint32_t *len) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_STRING);
  *chars = v->as.string.chars;
  *len = v->as.string.len;
  return TP_OK;
}

bool tp_string_equals(const char *chars, uint32_t len, const char *literal) {
  size_t n = strlen(literal);
  return n == len && memcmp(chars, literal, n) == 0;
}

tp_status tp_float_map_args(tp_value *const *args, uint32_t nargs, uint32_t out_index, tp_float_map *map) {
  TP_CHECK_ARGS(nargs == out_index + 2);
  tp_tensor *in, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_tensor(args, nargs, out_index, &out));
  TP_TRY(tp_arg_tensor(args, nargs, out_index + 1, &ret));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  map->x = (const float *)in->data;
  map->y = (float *)out->data;
  map->n = out->numel;
  return TP_OK;
}

bool tp_same_shape(const tp_tensor *a, const tp_tensor *b) {
  if (a->dim != b->dim) {
    return false;
  }
  for (uint32_t d = 0; d < a->dim; d++) {
    if (a->sizes[d] != b->sizes[d]) {
      return false;
    }
  }
  return true;
}

tp_status tp_normalize_dim(int64_t d, uint32_t dim, uint32_t *out) {
  int64_t extent = dim == 0 ? 1 : (int64_t)dim;
  if (d < -extent || d >= extent) {
    return TP_ERR_KERNEL_ARGS;
  }
  *out = (uint32_t)(d < 0 ? d + extent : d);
  return TP_OK;
}

/* --- Scalars --- */

tp_status tp_arg_optional_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, double *out, bool *present) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  *present = v->tag != TP_TAG_NONE;
  if (!*present) {
    *out = 0.0;
    return TP_OK;
  }
  return tp_arg_scalar(args, nargs, index, out);
}

tp_status tp_arg_int_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_DOUBLE) {
    return TP_ERR_KERNEL_DTYPE;
  }
  return tp_arg_int(args, nargs, index, out);
}

/* Integer range of an integer dtype; false for other dtypes. */
static bool int_range(int dtype, int64_t *lo, int64_t *hi) {
  switch (dtype) {
    case TP_DTYPE_UINT8:
      *lo = 0;
      *hi = UINT8_MAX;
      return true;
    case TP_DTYPE_INT8:
      *lo = INT8_MIN;
      *hi = INT8_MAX;
      return true;
    case TP_DTYPE_INT16:
      *lo = INT16_MIN;
      *hi = INT16_MAX;
      return true;
    case TP_DTYPE_INT32:
      *lo = INT32_MIN;
      *hi = INT32_MAX;
      return true;
    case TP_DTYPE_INT64:
      *lo = INT64_MIN;
      *hi = INT64_MAX;
      return true;
    default:
      return false;
  }
}

tp_status tp_arg_scalar_as(tp_value *const *args, uint32_t nargs, uint32_t index, int dtype, void *dst) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_INT || v->tag == TP_TAG_DOUBLE || v->tag == TP_TAG_BOOL);
  const bool is_double = v->tag == TP_TAG_DOUBLE;
  const int64_t i = v->tag == TP_TAG_INT ? v->as.i : (v->tag == TP_TAG_BOOL ? (v->as.b ? 1 : 0) : 0);
  const double d = is_double ? v->as.d : (double)i;
  int64_t lo, hi;
  if (int_range(dtype, &lo, &hi)) {
    int64_t value = i;
    if (is_double) {
      /* Truncation toward zero; the cast is defined only inside [-2^63, 2^63) (false for NaN). */
      TP_CHECK_ARGS(d >= -9223372036854775808.0 && d < 9223372036854775808.0);
      value = (int64_t)d;
    }
    TP_CHECK_ARGS(value >= lo && value <= hi);
    switch (dtype) {
      case TP_DTYPE_UINT8: {
        uint8_t x = (uint8_t)value;
        memcpy(dst, &x, sizeof x);
        break;
      }
      case TP_DTYPE_INT8: {
        int8_t x = (int8_t)value;
        memcpy(dst, &x, sizeof x);
        break;
      }
      case TP_DTYPE_INT16: {
        int16_t x = (int16_t)value;
        memcpy(dst, &x, sizeof x);
        break;
      }
      case TP_DTYPE_INT32: {
        int32_t x = (int32_t)value;
        memcpy(dst, &x, sizeof x);
        break;
      }
      default: {
        memcpy(dst, &value, sizeof value);
        break;
      }
    }
    return TP_OK;
  }
  switch (dtype) {
    case TP_DTYPE_FLOAT32: {
      /* NaN and infinities convert; finite values beyond float range are an error (ATen: overflow). */
      TP_CHECK_ARGS(d != d || d > 1.7976931348623157e308 || d < -1.7976931348623157e308 ||
                    (d <= 3.4028234663852886e38 && d >= -3.4028234663852886e38));
      float x = (float)d;
      memcpy(dst, &x, sizeof x);
      return TP_OK;
    }
    case TP_DTYPE_FLOAT64:
      memcpy(dst, &d, sizeof d);
      return TP_OK;
    case TP_DTYPE_BOOL: {
      uint8_t x = is_double ? (d != 0.0) : (i != 0);
      memcpy(dst, &x, sizeof x);
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}

void tp_fill(void *dst, uint32_t count, const void *elem, size_t esize) {
  const size_t total = (size_t)count * esize;
  uint8_t *o = (uint8_t *)dst;
  if (total == 0) {
    return;
  }
  memcpy(o, elem, esize);
  for (size_t done = esize; done < total;) { /* doubling copies */
    const size_t n = done < total - done ? done : total - done;
    memcpy(o + done, o, n);
    done += n;
  }
}

/* --- More shapes --- */

bool tp_shape_is(const tp_tensor *t, uint32_t dim, const int32_t *sizes) {
  if (t->dim != dim) {
    return false;
  }
  for (uint32_t d = 0; d < dim; d++) {
    if (t->sizes[d] != sizes[d]) {
      return false;
    }
  }
  return true;
}

/* Append a dimension to a (sizes, strides) list, dropping size 1 and merging with the previous
 * dimension when they are contiguous (prev stride == stride * size). */
static void push_dim(uint32_t *n, uint32_t *sizes, uint32_t *strides, uint32_t size, uint32_t stride) {
  if (size == 1) {
    return;
  }
  if (*n > 0 && strides[*n - 1] == stride * size) {
    sizes[*n - 1] *= size;
    strides[*n - 1] = stride;
    return;
  }
  sizes[*n] = size;
  strides[*n] = stride;
  (*n)++;
}

tp_status tp_reduce_plan_init(tp_reduce_plan *plan, const tp_tensor *in, const int64_t *dims, uint32_t ndims,
                              bool keepdim) {
  TP_CHECK_ARGS(in->dim <= TP_MAX_DIM);
  bool reduced[TP_MAX_DIM] = {false};
  if (dims == NULL || ndims == 0) {
    for (uint32_t d = 0; d < in->dim; d++) {
      reduced[d] = true;
    }
  } else {
    for (uint32_t k = 0; k < ndims; k++) {
      uint32_t d;
      TP_TRY(tp_normalize_dim(dims[k], in->dim, &d));
      if (in->dim == 0) {
        continue; /* a 0-dim tensor accepts dim 0 / -1 and stays 0-dim */
      }
      TP_CHECK_ARGS(!reduced[d]); /* "dim appears multiple times in the list of dims" */
      reduced[d] = true;
    }
  }
  uint32_t strides[TP_MAX_DIM];
  uint32_t stride = 1;
  for (uint32_t d = in->dim; d-- > 0;) {
    TP_CHECK_ARGS(in->sizes[d] >= 0);
    strides[d] = stride;
    stride *= (uint32_t)in->sizes[d];
  }
  plan->out_dim = 0;
  plan->out_numel = 1;
  plan->kept_dim = 0;
  plan->red_dim = 0;
  plan->red_numel = 1;
  for (uint32_t d = 0; d < in->dim; d++) {
    const uint32_t size = (uint32_t)in->sizes[d];
    if (reduced[d]) {
      plan->red_numel *= size;
      push_dim(&plan->red_dim, plan->red_sizes, plan->red_strides, size, strides[d]);
      if (keepdim) {
        plan->out_sizes[plan->out_dim++] = 1;
      }
    } else {
      plan->out_numel *= size;
      push_dim(&plan->kept_dim, plan->kept_sizes, plan->kept_strides, size, strides[d]);
      plan->out_sizes[plan->out_dim++] = (int32_t)size;
    }
  }
  return TP_OK;
}

tp_status tp_dim_reduction_args_get(tp_value *const *args, uint32_t nargs, tp_dim_reduction_args *a) {
  tp_tensor *ret;
  TP_CHECK_ARGS(nargs == 6);
  TP_TRY(tp_arg_tensor(args, nargs, 0, &a->in));
  TP_TRY(tp_arg_optional_int_list(args, nargs, 1, &a->dims, &a->ndims));
  TP_TRY(tp_arg_bool(args, nargs, 2, &a->keepdim));
  TP_TRY(tp_arg_optional_int(args, nargs, 3, &a->dtype, &a->has_dtype));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &a->out));
  return tp_arg_tensor(args, nargs, 5, &ret);
}

tp_status tp_dim_reduction_plan(const tp_dim_reduction_args *a, tp_reduce_plan *plan) {
  TP_TRY(tp_reduce_plan_init(plan, a->in, a->dims, a->ndims, a->keepdim));
  TP_TRY(tp_out_shape(a->out, plan->out_dim, plan->out_sizes));
  return TP_OK;
}

/* --- Elementwise (prepare/run) --- */

tp_status tp_elementwise_args(const tp_kernel_call *call, uint32_t out_index, tp_tensor **self, tp_tensor **out) {
  tp_tensor *ret;
  TP_CHECK_ARGS(call->nargs == out_index + 2);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, 0, self));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_index, out));
  return tp_arg_tensor(call->args, call->nargs, out_index + 1, &ret);
}

/* --- Shapes and reductions (prepare/run) --- */

tp_status tp_copy_run(const tp_kernel_call *call) {
  const tp_copy_state *st = call->state;
  const void *x = call->args[0]->as.tensor->data;
  void *o = call->args[st->out]->as.tensor->data;
  if (st->nbytes > 0 && o != x) {
    memmove(o, x, st->nbytes);
  }
  return TP_OK;
}

/* The gather routines: rows of contiguous elements are moved whole, other rows element by
 * element (E bytes each). */
static tp_status gather_rows(const tp_kernel_call *call) {
  const tp_gather_state *g = call->state;
  const uint8_t *s = (const uint8_t *)call->args[0]->as.tensor->data + (size_t)g->base * g->esize;
  uint8_t *o = (uint8_t *)call->args[g->out]->as.tensor->data;
  const size_t row_bytes = (size_t)g->len * g->esize;
  uint32_t index[TP_MAX_DIM] = {0};
  uint32_t off = 0;
  for (uint32_t r = 0; r < g->rows; r++) {
    memmove(o, s + (size_t)off * g->esize, row_bytes);
    o += row_bytes;
    off = tp_index_next(g->dim, g->sizes, g->strides, index, off);
  }
  return TP_OK;
}

#define TP_GATHER_ELEMENTS(NAME, E)                                             \
  static tp_status NAME(const tp_kernel_call *call) {                           \
    const tp_gather_state *g = call->state;                                     \
    const size_t esize = (E) ? (size_t)(E) : g->esize;                          \
    const uint8_t *s = (const uint8_t *)call->args[0]->as.tensor->data +        \
                       (size_t)g->base * esize;                                 \
    uint8_t *o = (uint8_t *)call->args[g->out]->as.tensor->data;                \
    uint32_t index[TP_MAX_DIM] = {0};                                           \
    uint32_t off = 0;                                                           \
    for (uint32_t r = 0; r < g->rows; r++) {                                    \
      const uint8_t *row = s + (size_t)off * esize;                             \
      for (uint32_t j = 0; j < g->len; j++) {                                   \
        memcpy(o + (size_t)j * esize, row + (size_t)j * g->step * esize, esize); \
      }                                                                         \
      o += (size_t)g->len * esize;                                              \
      off = tp_index_next(g->dim, g->sizes, g->strides, index, off);            \
    }                                                                           \
    return TP_OK;                                                               \
  }

TP_GATHER_ELEMENTS(gather_1, 1)
TP_GATHER_ELEMENTS(gather_2, 2)
TP_GATHER_ELEMENTS(gather_4, 4)
TP_GATHER_ELEMENTS(gather_8, 8)
TP_GATHER_ELEMENTS(gather_any, 0)

void tp_gather_plan(tp_gather_state *g, uint32_t dim, const int32_t *sizes, const uint32_t *src_strides,
                    size_t esize, uint32_t out, tp_kernel_run_fn *run) {
  uint32_t n = 0;
  uint32_t sz[TP_MAX_DIM];
  uint32_t st[TP_MAX_DIM];
  uint32_t numel = 1;
  for (uint32_t d = 0; d < dim && d < TP_MAX_DIM; d++) {
    const uint32_t size = (uint32_t)sizes[d];
    numel *= size;
    if (size == 1) {
      continue;
    }
    if (n > 0 && st[n - 1] == src_strides[d] * size) {
      sz[n - 1] *= size;
      st[n - 1] = src_strides[d];
    } else {
      sz[n] = size;
      st[n] = src_strides[d];
      n++;
    }
  }
  if (n == 0) { /* one element (or none) */
    sz[0] = 1;
    st[0] = 1;
    n = 1;
  }
  g->len = sz[n - 1];
  g->step = st[n - 1];
  g->rows = numel == 0 ? 0 : numel / g->len;
  g->esize = (uint32_t)esize;
  g->base = 0;
  g->out = out;
  g->dim = n - 1;
  for (uint32_t d = 0; d + 1 < n; d++) {
    g->sizes[d] = sz[d];
    g->strides[d] = st[d];
  }
  if (g->step == 1) {
    *run = gather_rows;
    return;
  }
  switch (esize) {
    case 1:
      *run = gather_1;
      break;
    case 2:
      *run = gather_2;
      break;
    case 4:
      *run = gather_4;
      break;
    case 8:
      *run = gather_8;
      break;
    default:
      *run = gather_any;
      break;
  }
}

void tp_reduce_loop_init(tp_reduce_loop *loop, const tp_reduce_plan *plan) {
  loop->out_numel = plan->out_numel;
  loop->red_numel = plan->red_numel;
  loop->kept_dim = (uint8_t)plan->kept_dim;
  for (uint32_t d = 0; d < plan->kept_dim; d++) {
    loop->sizes[d] = plan->kept_sizes[d];
    loop->strides[d] = plan->kept_strides[d];
  }
  /* The innermost reduced dimension becomes the row; the others are walked row by row. */
  const uint32_t outer = plan->red_dim > 0 ? plan->red_dim - 1 : 0;
  loop->red_len = plan->red_dim > 0 ? plan->red_sizes[outer] : 1;
  loop->red_step = plan->red_dim > 0 ? plan->red_strides[outer] : 0;
  loop->red_rows = plan->red_numel == 0 ? 0 : plan->red_numel / loop->red_len;
  loop->red_dim = (uint8_t)outer;
  for (uint32_t d = 0; d < outer; d++) {
    loop->sizes[plan->kept_dim + d] = plan->red_sizes[d];
    loop->strides[plan->kept_dim + d] = plan->red_strides[d];
  }
}

tp_status tp_permutation(const tp_tensor *in, const int64_t *dims, uint32_t len, int32_t *sizes, uint32_t *strides) {
  TP_CHECK_ARGS(len == in->dim && len <= TP_MAX_DIM);
  uint32_t in_strides[TP_MAX_DIM];
  uint32_t stride = 1;
  for (uint32_t d = in->dim; d-- > 0;) {
    in_strides[d] = stride;
    stride *= (uint32_t)in->sizes[d];
  }
  bool seen[TP_MAX_DIM] = {false};
  for (uint32_t k = 0; k < len; k++) {
    uint32_t d;
    TP_TRY(tp_normalize_dim(dims[k], in->dim, &d));
    TP_CHECK_ARGS(!seen[d]); /* a permutation: each dim once */
    seen[d] = true;
    sizes[k] = in->sizes[d];
    strides[k] = in_strides[d];
  }
  return TP_OK;
}
