/* Extension: the kernels' routines for their less common dtypes (portable/engines/dtypes.h). Linked when
 * a kernel registry lists tinypte::dtypes.ext, which it does for programs that need it
 * (python/tinypte/inspect_pte/extensions.py). The extension kernel is never a program's
 * operator. */
#include "portable/engines/dtypes.h"

#include "util/elem.h"
#include "util/nn.h"

static int64_t apply(tp_dtypes_op op, int64_t x, int64_t y, int64_t k) {
  return op == TP_DTYPES_ADD ? (int64_t)((uint64_t)x + (uint64_t)k * (uint64_t)y) : (int64_t)((uint64_t)x * (uint64_t)y);
}

void tp_dtypes_bcast(const tp_bcast *bc, int dtype, tp_dtypes_op op, const void *a, const void *b, void *out,
                     int64_t k) {
  const uint32_t n = bc->sizes[bc->dim - 1];
  const uint32_t sa = bc->strides[0][bc->dim - 1];
  const uint32_t sb = bc->strides[1][bc->dim - 1];
  tp_bcast_pos pos;
  tp_bcast_pos_start(&pos);
  uint32_t i = 0;
  for (uint32_t r = 0; r < bc->rows; r++) {
    for (uint32_t j = 0; j < n; j++, i++) {
      const int64_t x = tp_elem_load_i64(a, dtype, pos.off[0] + j * sa);
      const int64_t y = tp_elem_load_i64(b, dtype, pos.off[1] + j * sb);
      tp_elem_store_i64(out, dtype, i, apply(op, x, y, k));
    }
    tp_bcast_next_row(bc, &pos);
  }
}

void tp_dtypes_scalar(tp_dtypes_op op, const void *x, int self, void *o, int out, uint32_t n, float cf, uint64_t ci) {
  for (uint32_t i = 0; i < n; i++) {
    if (out == TP_DTYPE_FLOAT32) {
      const float v = tp_elem_load_f32(x, self, i);
      ((float *)o)[i] = op == TP_DTYPES_ADD ? v + cf : op == TP_DTYPES_MUL ? v * cf : v / cf;
    } else {
      tp_elem_store_i64(o, out, i, apply(op, tp_elem_load_i64(x, self, i), (int64_t)ci, 1));
    }
  }
}

void tp_dtypes_to_f32(const void *x, int dtype, float *o, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    o[i] = tp_elem_load_f32(x, dtype, i);
  }
}

void tp_dtypes_clamp_int(const void *x, void *o, int dtype, uint32_t n, int64_t lo, bool has_lo, int64_t hi,
                         bool has_hi) {
  for (uint32_t i = 0; i < n; i++) {
    int64_t v = tp_elem_load_i64(x, dtype, i);
    v = has_lo && v < lo ? lo : v;
    v = has_hi && v > hi ? hi : v;
    tp_elem_store_i64(o, dtype, i, v);
  }
}

tp_status tp_dtypes_sum(const tp_kernel_call *call, const tp_reduce_loop *l, const tp_tensor *in, tp_tensor *out) {
  (void)call;
  tp_reduce_pos pos;
  tp_reduce_pos_start(&pos);
  for (uint32_t i = 0; i < l->out_numel; i++) {
    float facc = 0.0f;
    uint64_t iacc = 0;
    for (uint32_t r = 0; r < l->red_rows; r++) {
      const uint32_t base = pos.koff + pos.roff;
      for (uint32_t j = 0; j < l->red_len; j++) {
        if (out->dtype == TP_DTYPE_FLOAT32) {
          facc += tp_elem_load_f32(in->data, in->dtype, base + j * l->red_step);
        } else {
          iacc += (uint64_t)tp_elem_load_i64(in->data, in->dtype, base + j * l->red_step);
        }
      }
      tp_reduce_next_row(l, &pos);
    }
    if (out->dtype == TP_DTYPE_FLOAT32) {
      ((float *)out->data)[i] = facc;
    } else {
      tp_elem_store_i64(out->data, out->dtype, i, (int64_t)iacc);
    }
    tp_reduce_next_out(l, &pos);
  }
  return TP_OK;
}

void tp_gemm_int(const tp_gemm *g, void *z, const void *x, const void *y, const void *bias) {
  const int dtype = g->dtype;
  const uint64_t alpha = (uint64_t)(int64_t)g->alpha, beta = (uint64_t)(int64_t)g->beta;
  for (uint32_t i = 0; i < g->m; i++) {
    for (uint32_t j = 0; j < g->p; j++) {
      uint64_t sum = 0;
      for (uint32_t k = 0; k < g->n; k++) {
        sum += (uint64_t)tp_elem_load_i64(x, dtype, i * g->x_row + k) *
               (uint64_t)tp_elem_load_i64(y, dtype, k * g->y_row + j);
      }
      if (bias != NULL) {
        sum = sum * alpha + (uint64_t)tp_elem_load_i64(bias, dtype, i * g->bias_row + j * g->bias_col) * beta;
      }
      tp_elem_store_i64(z, dtype, i * g->p + j, (int64_t)sum);
    }
  }
}

tp_status tp_dtypes_int_scalar_f32(tp_value *const *args, uint32_t nargs, uint32_t index, float *out) {
  double v;
  TP_TRY(tp_arg_scalar(args, nargs, index, &v));
  TP_CHECK_ARGS(v > -16777217.0 && v < 16777217.0);
  *out = (float)(int64_t)v;
  return TP_OK;
}

tp_status tp_dtypes_pow_scalar(const tp_kernel_call *call, tp_binary_state *state, tp_kernel_run_fn *run) {
  return tp_binary_prepare(call, state, run, &tp_pow_fns, TP_BINARY_SCALAR_OTHER, 2);
}

void tp_dtypes_avg_pool_i64(const tp_dtypes_pool2d *pool, const int64_t *in, int64_t *out) {
  const int32_t H = pool->h, W = pool->w;
  for (uint32_t c = 0; c < pool->planes; c++, in += (uint32_t)H * (uint32_t)W) {
    for (int32_t oy = 0; oy < pool->oh; oy++) {
      int32_t y0, y1;
      const int32_t pool_h = tp_nn_avg_span(oy * pool->s[0] - pool->p[0], pool->k[0], H, pool->p[0], &y0, &y1);
      for (int32_t ox = 0; ox < pool->ow; ox++) {
        int32_t x0, x1;
        const int32_t pool_w = tp_nn_avg_span(ox * pool->s[1] - pool->p[1], pool->k[1], W, pool->p[1], &x0, &x1);
        int64_t value = 0;
        if (y1 > y0 && x1 > x0) {
          uint64_t sum = 0;
          for (int32_t y = y0; y < y1; y++) {
            for (int32_t x = x0; x < x1; x++) {
              sum += (uint64_t)in[y * W + x];
            }
          }
          const int64_t count = pool->has_divisor         ? pool->divisor
                                : pool->count_include_pad ? (int64_t)pool_h * pool_w
                                                          : (int64_t)(y1 - y0) * (x1 - x0);
          value = (int64_t)sum / count;
        }
        *out++ = value;
      }
    }
  }
}

/* The extension's registry entry: what makes firmware link this file. Never a program's operator. */
TP_KERNEL(tinypte, dtypes, ext, uint8_t) {
  (void)call;
  (void)state;
  (void)run;
  return TP_ERR_UNSUPPORTED;
}
