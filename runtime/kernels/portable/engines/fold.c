/* The fold engine of engines/fold.h. */
#include "portable/engines/fold.h"

#include "util/elem.h"

/* Fold one pass over output i's elements (the position is left at the output's first row). */
static void fold_pass(const tp_fold_state *st, const void *x, tp_reduce_pos *pos, tp_fold *f, bool second) {
  const tp_reduce_loop *l = &st->loop;
  uint32_t r = 0;
  f->count = 0;
  for (uint32_t row = 0; row < l->red_rows; row++) {
    const uint32_t base = pos->koff + pos->roff;
    for (uint32_t j = 0; j < l->red_len; j++, r++) {
      const uint32_t at = base + j * l->red_step;
      const double v = tp_elem_load_f64(x, st->in, at);
      if (second) {
        st->fns->step2(f, v);
      } else {
        st->fns->step(f, v, tp_elem_load_i64(x, st->in, at), r);
      }
      f->count++;
    }
    tp_reduce_next_row(l, pos);
  }
}

static tp_status fold_run(const tp_kernel_call *call) {
  const tp_fold_state *st = call->state;
  const void *x = call->args[0]->as.tensor->data;
  void *o = call->args[st->out_slot]->as.tensor->data;
  int64_t *idx = st->index_slot != 0 ? (int64_t *)call->args[st->index_slot]->as.tensor->data : 0;
  tp_reduce_pos pos;
  tp_reduce_pos_start(&pos);
  for (uint32_t i = 0; i < st->loop.out_numel; i++) {
    tp_fold f = {0};
    f.param = st->param;
    st->fns->start(&f);
    fold_pass(st, x, &pos, &f, false);
    if (st->fns->between != 0) {
      st->fns->between(&f);
      fold_pass(st, x, &pos, &f, true);
    }
    if (st->fns->int_result) {
      tp_elem_store_i64(o, st->out, i, f.iacc);
    } else {
      tp_elem_store_f64(o, st->out, i, st->fns->result(&f));
    }
    if (idx != 0) {
      idx[i] = f.index;
    }
    tp_reduce_next_out(&st->loop, &pos);
  }
  return TP_OK;
}

tp_status tp_fold_prepare(tp_fold_state *st, const tp_fold_fns *fns, const tp_tensor *in, const int64_t *dims,
                          uint32_t ndims, bool keepdim, const tp_tensor *out, uint32_t out_slot,
                          const tp_tensor *index_out, uint32_t index_slot, bool empty_ok, tp_kernel_run_fn *run) {
  if (!tp_dtype_is_real_or_bool(in->dtype) || !tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_reduce_plan_init(&plan, in, dims, ndims, keepdim));
  TP_CHECK_ARGS(tp_shape_is(out, plan.out_dim, plan.out_sizes));
  if (index_out != 0) {
    if (index_out->dtype != TP_DTYPE_INT64) {
      return TP_ERR_KERNEL_DTYPE;
    }
    TP_CHECK_ARGS(tp_shape_is(index_out, plan.out_dim, plan.out_sizes));
  }
  TP_CHECK_ARGS(empty_ok || plan.red_numel > 0 || plan.out_numel == 0);
  tp_reduce_loop_init(&st->loop, &plan);
  st->fns = fns;
  st->in = (uint8_t)in->dtype;
  st->out = (uint8_t)out->dtype;
  st->out_slot = (uint8_t)out_slot;
  st->index_slot = (uint8_t)(index_out != 0 ? index_slot : 0);
  *run = fold_run;
  return TP_OK;
}
