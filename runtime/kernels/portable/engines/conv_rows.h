/* The inner loops of a stride-1, dilation-1 float32 convolution with 3-wide filters: add the
 * taps of one filter row (or of three) to a row of partial sums.
 *
 * out[ox] += r[ox - pad + kx] * w[kx] for kx = 0, 1, 2, skipping taps outside [0, in_w),
 * one product at a time in increasing kx (and filter row), so a sum built by calling these
 * for input channel after channel has exactly the order of ExecuTorch's portable kernel.
 */
#ifndef TINYPTE_KERNELS_ENGINES_CONV_ROWS_H
#define TINYPTE_KERNELS_ENGINES_CONV_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "tinypte/kernel.h"

/** Adds one filter row w[0..3) applied to input row r (in_w wide) to out[0..out_w). */
void tp_conv_row3(float *out, const float *r, const float *w, int32_t out_w, int32_t in_w, int32_t pad);

/** Adds a whole 3x3 filter w[0..9) applied to input rows r, r + in_w, r + 2 * in_w. */
void tp_conv_rows3x3(float *out, const float *r, const float *w, int32_t out_w, int32_t in_w, int32_t pad);

/** The 3x3, padding 1 ("same") case for a whole plane: out (h x in_w) += w[0..9) applied to
 *  the input plane in (h x in_w), in_w >= 2. */
void tp_conv_plane3x3_pad1(float *out, const float *in, const float *w, int32_t h, int32_t in_w);

/* One out channel's plane of a valid 3x3 convolution (every tap inside: the input is
 * zero-padded), summed over its input channels. */
typedef struct tp_conv3x3_plane {
  float *out;            /* out_h x out_w */
  const float *in;       /* the first input channel: out_h + 2 rows, in_w >= out_w + 2 apart */
  uint32_t in_plane;     /* floats from one input channel to the next */
  const float *w;        /* the 3x3 filters of the out channel, one per input channel */
  int32_t channels, out_h, out_w, in_w;
  const float *bias;     /* this out channel's bias, or NULL */
  const tp_clamp *clamp; /* the fused activation, or NULL */
} tp_conv3x3_plane;

/** out = clamp(sum over channels, filter rows and columns, in that order, of in * w, + bias),
 *  each sum started at 0 and accumulated one product at a time, two rows by four columns of
 *  outputs at a time in registers. */
void tp_conv_valid3x3(const tp_conv3x3_plane *job);

#endif /* TINYPTE_KERNELS_ENGINES_CONV_ROWS_H */
