/* The int8 transposed convolution of the Cortex-M backend (see s8_transpose_conv.h). */
#include "cortex_m/engines/s8_transpose_conv.h"

/* Bound of the window parameters, so the index arithmetic of run stays well inside int32. */
#define TCONV_MAX_PARAM 65535
#define TCONV_MAX_OUT (1 << 28)

/* quantized_transpose_conv2d(_nhwc).out(Tensor input, Tensor weight, Tensor? bias, int[] stride,
 * int[] padding, int[] output_padding, int[] dilation, int input_offset, int output_offset,
 * Tensor requantize_multipliers, Tensor requantize_shifts, int activation_min,
 * int activation_max, Tensor scratch, Tensor output_scratch, *, Tensor(a!) out) -> Tensor(a!) */
enum { TC_INPUT, TC_WEIGHT, TC_BIAS, TC_STRIDE, TC_PADDING, TC_OUT_PADDING, TC_DILATION, TC_IN_OFFSET,
       TC_OUT_OFFSET, TC_MULTIPLIERS, TC_SHIFTS, TC_MIN, TC_MAX, TC_SCRATCH, TC_OUT_SCRATCH, TC_OUT,
       TC_NARGS = 17 };

/* A 1-D int32 tensor argument of `len` elements (dtype: TP_ERR_KERNEL_DTYPE, shape: _ARGS). */
static tp_status i32_vector(const tp_kernel_call *call, uint32_t index, bool optional, int32_t len,
                            tp_tensor **t) {
  TP_TRY(optional ? tp_arg_optional_tensor(call->args, call->nargs, index, t)
                  : tp_arg_tensor(call->args, call->nargs, index, t));
  if (*t == NULL) {
    return TP_OK;
  }
  if ((*t)->dtype != TP_DTYPE_INT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS((*t)->dim == 1 && (*t)->sizes[0] == len);
  return TP_OK;
}

tp_status tp_s8_tconv_prepare(const tp_kernel_call *call, tp_s8_tconv_state *st, bool nhwc) {
  tp_value *const *args = call->args;
  const uint32_t nargs = call->nargs;
  tp_tensor *in, *weight, *bias, *mult, *shift, *out, *ret;
  int32_t s[2], p[2], op[2], d[2];
  TP_CHECK_ARGS(nargs == TC_NARGS);
  TP_TRY(tp_arg_s8_tensor(args, nargs, TC_INPUT, &in));
  TP_TRY(tp_arg_s8_tensor(args, nargs, TC_WEIGHT, &weight));
  TP_TRY(tp_arg_s8_tensor(args, nargs, TC_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, TC_OUT + 1, &ret));
  TP_TRY(tp_arg_unused_scratch(args, nargs, TC_SCRATCH));
  TP_TRY(tp_arg_unused_scratch(args, nargs, TC_OUT_SCRATCH));
  TP_CHECK_ARGS(in->dim == 4 && weight->dim == 4);
  const int32_t co = weight->sizes[0];
  TP_TRY(i32_vector(call, TC_BIAS, true, co, &bias));
  TP_TRY(i32_vector(call, TC_MULTIPLIERS, false, co, &mult));
  TP_TRY(i32_vector(call, TC_SHIFTS, false, co, &shift));
  TP_TRY(tp_arg_pair(args, nargs, TC_STRIDE, s));
  TP_TRY(tp_arg_pair(args, nargs, TC_PADDING, p));
  TP_TRY(tp_arg_pair(args, nargs, TC_OUT_PADDING, op));
  TP_TRY(tp_arg_pair(args, nargs, TC_DILATION, d));
  TP_TRY(tp_arg_i32(args, nargs, TC_IN_OFFSET, &st->in_offset));
  TP_TRY(tp_arg_i32(args, nargs, TC_OUT_OFFSET, &st->out_offset));
  TP_TRY(tp_arg_s8_range(args, nargs, TC_MIN, TC_MAX, &st->lo, &st->hi));
  /* input_offset is minus an int8 zero point, output_offset one. */
  TP_CHECK_ARGS(st->in_offset >= -127 && st->in_offset <= 128);
  TP_CHECK_ARGS(st->out_offset >= -128 && st->out_offset <= 127);

  const int32_t n = in->sizes[0];
  const int32_t ci = in->sizes[nhwc ? 3 : 1];
  const int32_t hw[2] = {in->sizes[nhwc ? 1 : 2], in->sizes[nhwc ? 2 : 3]};
  const int32_t k[2] = {weight->sizes[1], weight->sizes[2]};
  TP_CHECK_ARGS(ci >= 1 && hw[0] >= 1 && hw[1] >= 1 && co >= 1 && weight->sizes[3] == ci);
  int32_t o[2];
  for (uint32_t i = 0; i < 2; i++) {
    TP_CHECK_ARGS(k[i] >= 1 && k[i] <= TCONV_MAX_PARAM);
    TP_CHECK_ARGS(s[i] >= 1 && s[i] <= TCONV_MAX_PARAM && d[i] >= 1 && d[i] <= TCONV_MAX_PARAM);
    TP_CHECK_ARGS(p[i] >= 0 && p[i] <= TCONV_MAX_PARAM && op[i] >= 0 && (op[i] < s[i] || op[i] < d[i]));
    const int64_t size = ((int64_t)hw[i] - 1) * s[i] - 2 * (int64_t)p[i] + (int64_t)d[i] * (k[i] - 1) + op[i] + 1;
    TP_CHECK_ARGS(size >= 1 && size <= TCONV_MAX_OUT);
    o[i] = (int32_t)size;
  }
  const int32_t want_nhwc[4] = {n, o[0], o[1], co};
  const int32_t want_nchw[4] = {n, co, o[0], o[1]};
  TP_CHECK_ARGS(tp_shape_is(out, 4, nhwc ? want_nhwc : want_nchw));
  /* The shifts are program constants (requantize_shifts); tp_requantize needs them in range. */
  const int32_t *shifts = (const int32_t *)shift->data;
  for (int32_t c = 0; c < co; c++) {
    TP_CHECK_ARGS(tp_shift_ok(shifts[c]));
  }
  st->n = n;
  st->ci = ci;
  st->ih = hw[0];
  st->iw = hw[1];
  st->co = co;
  st->oh = o[0];
  st->ow = o[1];
  st->kh = k[0];
  st->kw = k[1];
  st->sh = s[0];
  st->sw = s[1];
  st->ph = p[0];
  st->pw = p[1];
  st->dh = d[0];
  st->dw = d[1];
  return TP_OK;
}

/* sum (x[i * step] + offset) * w[i] over i < len, wrapping as int32. */
static inline uint32_t dot(const int8_t *restrict x, uint32_t step, const int8_t *restrict w, uint32_t len,
                           int32_t offset) {
  uint32_t acc = 0;
  for (uint32_t i = 0; i < len; i++) {
    acc += (uint32_t)(((int32_t)x[i * step] + offset) * (int32_t)w[i]);
  }
  return acc;
}

/* Element strides of a 4-D tensor's logical (n, c, y, x) dimensions. */
typedef struct strides4 {
  uint32_t n, c, y, x;
} strides4;

static inline strides4 layout_strides(bool nhwc, int32_t c, int32_t h, int32_t w) {
  const uint32_t uc = (uint32_t)c, uh = (uint32_t)h, uw = (uint32_t)w;
  return nhwc ? (strides4){uh * uw * uc, 1u, uw * uc, uc} : (strides4){uc * uh * uw, uh * uw, uw, 1u};
}

/* Gather form: each out element sums the taps that land on it, walking the window backwards
 * from (oy + padding) so the input row is (oy + padding - ky * dilation) / stride when exact. */
static inline void tconv(const tp_kernel_call *call, bool nhwc) {
  const tp_s8_tconv_state *st = call->state;
  const int8_t *restrict in = (const int8_t *)call->args[TC_INPUT]->as.tensor->data;
  const int8_t *restrict weight = (const int8_t *)call->args[TC_WEIGHT]->as.tensor->data;
  const tp_tensor *bias_t = call->args[TC_BIAS]->tag == TP_TAG_TENSOR ? call->args[TC_BIAS]->as.tensor : NULL;
  const int32_t *bias = bias_t != NULL ? (const int32_t *)bias_t->data : NULL;
  const int32_t *mult = (const int32_t *)call->args[TC_MULTIPLIERS]->as.tensor->data;
  const int32_t *shift = (const int32_t *)call->args[TC_SHIFTS]->as.tensor->data;
  int8_t *restrict out = (int8_t *)call->args[TC_OUT]->as.tensor->data;
  const strides4 is = layout_strides(nhwc, st->ci, st->ih, st->iw);
  const strides4 os = layout_strides(nhwc, st->co, st->oh, st->ow);
  const uint32_t ci = (uint32_t)st->ci;
  const uint32_t wtap = ci, wrow = (uint32_t)st->kw * ci, wout = (uint32_t)st->kh * wrow;
  for (int32_t n = 0; n < st->n; n++) {
    const int8_t *img = in + (uint32_t)n * is.n;
    int8_t *oimg = out + (uint32_t)n * os.n;
    for (int32_t oy = 0; oy < st->oh; oy++) {
      for (int32_t ox = 0; ox < st->ow; ox++) {
        int8_t *o = oimg + (uint32_t)oy * os.y + (uint32_t)ox * os.x;
        for (int32_t co = 0; co < st->co; co++) {
          uint32_t acc = bias != NULL ? (uint32_t)bias[co] : 0u;
          const int8_t *wco = weight + (uint32_t)co * wout;
          for (int32_t ky = 0; ky < st->kh; ky++) {
            const int32_t ty = oy + st->ph - ky * st->dh;
            if (ty < 0) {
              break;
            }
            const int32_t iy = ty / st->sh;
            if (iy * st->sh != ty || iy >= st->ih) {
              continue;
            }
            for (int32_t kx = 0; kx < st->kw; kx++) {
              const int32_t tx = ox + st->pw - kx * st->dw;
              if (tx < 0) {
                break;
              }
              const int32_t ix = tx / st->sw;
              if (ix * st->sw != tx || ix >= st->iw) {
                continue;
              }
              const int8_t *x = img + (uint32_t)iy * is.y + (uint32_t)ix * is.x;
              const int8_t *w = wco + (uint32_t)ky * wrow + (uint32_t)kx * wtap;
              acc += dot(x, is.c, w, ci, st->in_offset);
            }
          }
          const int32_t r = tp_requantize((int32_t)acc, mult[co], shift[co]);
          const int32_t v = (int32_t)((uint32_t)r + (uint32_t)st->out_offset);
          o[(uint32_t)co * os.c] = (int8_t)tp_clamp_i32(v, st->lo, st->hi);
        }
      }
    }
  }
}

tp_status tp_s8_tconv_nhwc_run(const tp_kernel_call *call) {
  tconv(call, true);
  return TP_OK;
}

tp_status tp_s8_tconv_nchw_run(const tp_kernel_call *call) {
  tconv(call, false);
  return TP_OK;
}
