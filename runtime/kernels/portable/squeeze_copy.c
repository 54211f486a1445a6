/* aten::squeeze_copy.dim_out / dims_out: self's elements (any dtype) with the named dimensions
 * removed where their size is 1 (others are kept, as ATen); negative dims allowed, a 0-dim self
 * accepts dim 0/-1 and stays 0-dim. prepare checks the shapes and sizes the copy; run is
 * tp_copy_run. */
#include "kernel_util.h"

/* squeeze_copy.dim_out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!) and
 * squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!):
 * args self, dim(s), out, out. */
enum { SQUEEZE_SELF, SQUEEZE_DIM, SQUEEZE_OUT, SQUEEZE_NARGS = 4 };

/* Check out == self without the marked size-1 dims, and size the copy. */
static tp_status squeeze_prepare(const tp_tensor *in, const bool *marked, const tp_tensor *out,
                                 tp_copy_state *state, tp_kernel_run_fn *run) {
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  int32_t sizes[TP_MAX_DIM];
  uint32_t n = 0;
  for (uint32_t d = 0; d < in->dim; d++) {
    if (!(marked[d] && in->sizes[d] == 1)) {
      sizes[n++] = in->sizes[d];
    }
  }
  TP_CHECK_ARGS(tp_shape_is(out, n, sizes));
  state->nbytes = out->numel * (uint32_t)esize;
  state->out = SQUEEZE_OUT;
  *run = tp_copy_run;
  return TP_OK;
}

TP_KERNEL(aten, squeeze_copy, dim_out, tp_copy_state) {
  TP_CHECK_ARGS(nargs == SQUEEZE_NARGS);
  tp_tensor *in, *out, *ret;
  int64_t dim_arg;
  TP_TRY(tp_arg_tensor(args, nargs, SQUEEZE_SELF, &in));
  TP_TRY(tp_arg_int(args, nargs, SQUEEZE_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor(args, nargs, SQUEEZE_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, SQUEEZE_OUT + 1, &ret));
  TP_CHECK_ARGS(in->dim <= TP_MAX_DIM);
  uint32_t dim;
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  bool marked[TP_MAX_DIM] = {false};
  if (in->dim > 0) {
    marked[dim] = true;
  }
  return squeeze_prepare(in, marked, out, state, run);
}

TP_KERNEL(aten, squeeze_copy, dims_out, tp_copy_state) {
  TP_CHECK_ARGS(nargs == SQUEEZE_NARGS);
  tp_tensor *in, *out, *ret;
  const int64_t *dims;
  uint32_t len;
  TP_TRY(tp_arg_tensor(args, nargs, SQUEEZE_SELF, &in));
  TP_TRY(tp_arg_int_list(args, nargs, SQUEEZE_DIM, &dims, &len));
  TP_TRY(tp_arg_tensor(args, nargs, SQUEEZE_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, SQUEEZE_OUT + 1, &ret));
  TP_CHECK_ARGS(in->dim <= TP_MAX_DIM);
  bool marked[TP_MAX_DIM] = {false};
  for (uint32_t k = 0; k < len; k++) {
    uint32_t dim;
    TP_TRY(tp_normalize_dim(dims[k], in->dim, &dim));
    if (in->dim == 0) {
      TP_CHECK_ARGS(len == 1);
      continue;
    }
    TP_CHECK_ARGS(!marked[dim]); /* "dim appears multiple times in the list of dims" */
    marked[dim] = true;
  }
  return squeeze_prepare(in, marked, out, state, run);
}
