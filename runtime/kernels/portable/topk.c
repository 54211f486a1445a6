/* aten::topk.values: the k largest (or smallest) elements along dim, sorted, with their int64
 * indices; NaN counts as larger than every number (ExecuTorch's float_less_than). Ties are taken
 * in index order (ExecuTorch's order among equal values is unspecified). Any real dtype. No
 * scratch memory: each of the k picks scans the slice for the best element ranked after the
 * previous pick, O(k * n). */
#include "util/elem.h"
#include "kernel_util.h"

typedef struct topk_state {
  uint32_t outer, size, inner, k; /* self as (outer, size along dim, inner) */
  uint8_t dtype;
  bool largest;
} topk_state;

/* topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!)
 * values, Tensor(b!) indices): args self, k, dim, largest, sorted, values, indices, and a list of the
 * two. */
enum { TOPK_SELF, TOPK_K, TOPK_DIM, TOPK_LARGEST, TOPK_SORTED, TOPK_VALUES, TOPK_INDICES, TOPK_NARGS = 8 };

/* a < b with NaN above every number (and NaN < NaN false). */
static bool topk_less(double a, double b) { return b != b ? a == a : a < b; }

/* Whether (a, ia) ranks before (b, ib): larger (or smaller) value first, then lower index. */
static bool topk_before(const topk_state *st, double a, uint32_t ia, double b, uint32_t ib) {
  const bool better = st->largest ? topk_less(b, a) : topk_less(a, b);
  const bool worse = st->largest ? topk_less(a, b) : topk_less(b, a);
  return better || (!worse && ia < ib);
}

static tp_status topk_run(const tp_kernel_call *call) {
  const topk_state *st = call->state;
  const void *x = call->args[TOPK_SELF]->as.tensor->data;
  void *values = call->args[TOPK_VALUES]->as.tensor->data;
  int64_t *indices = (int64_t *)call->args[TOPK_INDICES]->as.tensor->data;
  for (uint32_t a = 0; a < st->outer; a++) {
    for (uint32_t c = 0; c < st->inner; c++) {
      const uint32_t base = a * st->size * st->inner + c;
      double prev = 0.0;
      uint32_t prev_i = 0;
      for (uint32_t j = 0; j < st->k; j++) {
        bool found = false;
        double best = 0.0;
        uint32_t best_i = 0;
        for (uint32_t i = 0; i < st->size; i++) {
          const double v = tp_elem_load_f64(x, st->dtype, base + i * st->inner);
          if (j > 0 && !topk_before(st, prev, prev_i, v, i)) {
            continue; /* already picked, or ranked before the previous pick */
          }
          if (!found || topk_before(st, v, i, best, best_i)) {
            best = v;
            best_i = i;
            found = true;
          }
        }
        const uint32_t out = (a * st->k + j) * st->inner + c;
        tp_elem_store_f64(values, st->dtype, out, best);
        indices[out] = best_i;
        prev = best;
        prev_i = best_i;
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, topk, values, topk_state) {
  tp_tensor *in, *values, *indices;
  int64_t k, dim_arg;
  bool largest, sorted;
  uint32_t dim;
  TP_CHECK_ARGS(nargs == TOPK_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, TOPK_SELF, &in));
  TP_TRY(tp_arg_int(args, nargs, TOPK_K, &k));
  TP_TRY(tp_arg_int(args, nargs, TOPK_DIM, &dim_arg));
  TP_TRY(tp_arg_bool(args, nargs, TOPK_LARGEST, &largest));
  TP_TRY(tp_arg_bool(args, nargs, TOPK_SORTED, &sorted));
  TP_TRY(tp_arg_tensor(args, nargs, TOPK_VALUES, &values));
  TP_TRY(tp_arg_tensor(args, nargs, TOPK_INDICES, &indices));
  if (!tp_dtype_is_real(in->dtype) || values->dtype != in->dtype || indices->dtype != TP_DTYPE_INT64) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  const int64_t size = tp_size(in, dim);
  TP_CHECK_ARGS(k >= 0 && k <= size);
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0; d < in->dim; d++) {
    sizes[d] = d == dim ? (int32_t)k : in->sizes[d];
  }
  tp_dim_blocks(in, dim, &state->outer, &state->inner);
  TP_CHECK_ARGS(tp_shape_is(values, in->dim, sizes) && tp_shape_is(indices, in->dim, sizes));
  state->size = (uint32_t)size;
  state->k = (uint32_t)k;
  state->dtype = (uint8_t)in->dtype;
  state->largest = largest;
  *run = topk_run;
  return TP_OK;
}
