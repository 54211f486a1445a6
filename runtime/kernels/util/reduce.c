/* Reduction plans and their loops (see reduce.h). */
#include "kernel_util.h"

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
