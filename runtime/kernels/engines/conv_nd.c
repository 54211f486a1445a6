/* The general float32 convolution (see conv_nd.h): one output element at a time. */
#include "engines/conv_nd.h"

#include "engines/gemm.h"

/* The sum of one output element over one input channel's taps (`t` walks the taps, outermost
 * spatial dim first), added to *sum in that order. */
static void direct_taps(const tp_conv_nd *st, const float *in, const float *w, const int32_t *o, float *sum) {
  int32_t t[TP_CONV_ND_MAX_SPATIAL] = {0, 0, 0};
  const uint32_t sp = st->spatial;
  for (;;) {
    bool inside = true;
    int32_t in_off = 0, w_off = 0;
    for (uint32_t a = 0; a < sp; a++) {
      const int32_t i = o[a] * st->s[a] - st->p[a] + t[a] * st->d[a];
      inside = inside && i >= 0 && i < st->in[a];
      in_off += i * st->in_st[2 + a];
      w_off += t[a] * st->w_st[2 + a];
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

/* Transposed: the taps t whose input position i = (o + p - t * d) / s is whole and inside. */
static void transposed_taps(const tp_conv_nd *st, const float *in, const float *w, const int32_t *o, float *sum) {
  int32_t t[TP_CONV_ND_MAX_SPATIAL] = {0, 0, 0};
  const uint32_t sp = st->spatial;
  for (;;) {
    bool inside = true;
    int32_t in_off = 0, w_off = 0;
    for (uint32_t a = 0; a < sp; a++) {
      const int32_t num = o[a] + st->p[a] - t[a] * st->d[a];
      const int32_t i = num >= 0 ? num / st->s[a] : -1;
      inside = inside && num >= 0 && num % st->s[a] == 0 && i < st->in[a];
      in_off += i * st->in_st[2 + a];
      w_off += t[a] * st->w_st[2 + a];
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
  const float *in = (const float *)call->args[st->in_slot]->as.tensor->data;
  const float *w = (const float *)call->args[st->w_slot]->as.tensor->data;
  const float *bias =
      st->has_bias ? (const float *)call->args[st->bias_slot]->as.tensor->data : NULL;
  float *out = (float *)call->args[st->out_slot]->as.tensor->data;
  const uint32_t sp = st->spatial;
  for (int32_t n = 0; n < st->n; n++) {
    for (int32_t oc = 0; oc < st->oc; oc++) {
      const int32_t g = oc / st->ocg;
      int32_t o[TP_CONV_ND_MAX_SPATIAL] = {0, 0, 0};
      for (;;) {
        float sum = 0.0f;
        int32_t out_off = n * st->out_st[0] + oc * st->out_st[1];
        for (uint32_t a = 0; a < sp; a++) {
          out_off += o[a] * st->out_st[2 + a];
        }
        for (int32_t ci = 0; ci < st->cg; ci++) {
          const int32_t c = g * st->cg + ci;
          const float *in_c = in + n * st->in_st[0] + c * st->in_st[1];
          if (st->transposed) {
            transposed_taps(st, in_c, w + c * st->w_st[0] + (oc - g * st->ocg) * st->w_st[1], o, &sum);
          } else {
            direct_taps(st, in_c, w + oc * st->w_st[0] + ci * st->w_st[1], o, &sum);
          }
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
