/* The general float32 convolution (see conv_nd.h): one output element at a time. */
#include "portable/engines/conv_nd.h"

#include "portable/engines/gemm.h"
#include "util/shape.h"

/* Element strides of what run reads, from the tensors (their dim orders applied). */
typedef struct conv_strides {
  int32_t in[TP_CONV_ND_MAX_SPATIAL + 2], out[TP_CONV_ND_MAX_SPATIAL + 2], w[TP_CONV_ND_MAX_SPATIAL + 2];
} conv_strides;

/* Add to *sum one output element's products over one input channel's taps `t` (outermost
 * spatial dim first, each in increasing order). Direct: the input position of tap t is
 * o * stride - padding + t * dilation; transposed: the taps t whose position
 * (o + padding - t * dilation) / stride is whole and inside. Taps outside the input add nothing. */
static void channel_taps(const tp_conv_nd *st, const conv_strides *x, const float *in, const float *w,
                         const int32_t *o, float *sum) {
  int32_t t[TP_CONV_ND_MAX_SPATIAL] = {0, 0, 0};
  const uint32_t sp = st->spatial;
  for (;;) {
    bool inside = true;
    int32_t in_off = 0, w_off = 0;
    for (uint32_t a = 0; a < sp; a++) {
      int32_t i;
      if (st->transposed) {
        const int32_t num = o[a] + st->p[a] - t[a] * st->d[a];
        i = num >= 0 && num % st->s[a] == 0 ? num / st->s[a] : -1;
      } else {
        i = o[a] * st->s[a] - st->p[a] + t[a] * st->d[a];
      }
      inside = inside && i >= 0 && i < st->in[a];
      in_off += i * x->in[2 + a];
      w_off += t[a] * x->w[2 + a];
    }
    if (inside) {
      *sum += in[in_off] * w[w_off];
    }
    uint32_t a = sp;
    while (a-- > 0) {
      if (++t[a] < st->k[a]) {
        break;
      }
      t[a] = 0;
    }
    if (a == UINT32_MAX) {
      return;
    }
  }
}

tp_status tp_conv_nd_run(const tp_kernel_call *call) {
  const tp_conv_nd *st = call->state;
  const tp_tensor *in_t = call->args[TP_CONV_IN]->as.tensor, *w_t = call->args[TP_CONV_WEIGHT]->as.tensor;
  const tp_tensor *out_t = call->args[TP_CONV_OUT]->as.tensor;
  conv_strides x;
  int32_t strides[TP_MAX_DIM];
  tp_tensor_strides(in_t, strides);
  for (uint32_t d = 0; d < in_t->dim; d++) {
    x.in[d] = strides[d];
  }
  tp_tensor_strides(out_t, strides);
  for (uint32_t d = 0; d < out_t->dim; d++) {
    x.out[d] = strides[d];
  }
  tp_tensor_strides(w_t, strides);
  for (uint32_t d = 0; d < w_t->dim; d++) {
    x.w[d] = strides[d];
  }
  const float *in = (const float *)in_t->data;
  const float *w = (const float *)w_t->data;
  const float *bias = st->has_bias ? (const float *)call->args[TP_CONV_BIAS]->as.tensor->data : NULL;
  float *out = (float *)out_t->data;
  const int32_t batches = in_t->sizes[0], out_channels = out_t->sizes[1];
  const uint32_t sp = st->spatial;
  for (int32_t n = 0; n < batches; n++) {
    for (int32_t oc = 0; oc < out_channels; oc++) {
      const int32_t g = oc / st->ocg;
      int32_t o[TP_CONV_ND_MAX_SPATIAL] = {0, 0, 0};
      for (;;) {
        float sum = 0.0f;
        int32_t out_off = n * x.out[0] + oc * x.out[1];
        for (uint32_t a = 0; a < sp; a++) {
          out_off += o[a] * x.out[2 + a];
        }
        for (int32_t ci = 0; ci < st->cg; ci++) {
          const int32_t c = g * st->cg + ci;
          const float *in_c = in + n * x.in[0] + c * x.in[1];
          const float *filter = st->transposed ? w + c * x.w[0] + (oc - g * st->ocg) * x.w[1]
                                                : w + oc * x.w[0] + ci * x.w[1];
          channel_taps(st, &x, in_c, filter, o, &sum);
        }
        if (bias != NULL) {
          sum += bias[oc];
        }
        out[out_off] = st->clamped ? tp_clamp_apply(&st->clamp, sum) : sum;
        uint32_t a = sp;
        while (a-- > 0) {
          if (++o[a] < st->out[a]) {
            break;
          }
          o[a] = 0;
        }
        if (a == UINT32_MAX) {
          break;
        }
      }
    }
  }
  return TP_OK;
}
