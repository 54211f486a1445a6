/* The p-norm distance of two float32 rows, shared by _cdist_forward and _pdist_forward, in the
 * arithmetic of ExecuTorch's portable kernels: float sums of |a - b| mapped by the norm (p = 0:
 * count of differing elements; 1: sum; 2: sqrt of the sum of squares; inf: max; else
 * (sum |d|^p)^(1/p) with powf for the terms and pow in double for the root). */
#ifndef TINYPTE_KERNELS_ENGINES_DISTANCE_H
#define TINYPTE_KERNELS_ENGINES_DISTANCE_H

#include <math.h>
#include <stdint.h>

static inline float tp_distance(const float *a, const float *b, uint32_t m, double p) {
  float agg = 0.0f;
  const float pf = (float)p;
  for (uint32_t k = 0; k < m; k++) {
    const float d = fabsf(a[k] - b[k]);
    if (p == 0.0) {
      agg += d == 0.0f ? 0.0f : 1.0f;
    } else if (p == 1.0) {
      agg += d;
    } else if (p == 2.0) {
      agg += d * d;
    } else if (p == (double)__builtin_inff()) {
      agg = agg < d ? d : agg;
    } else {
      agg += powf(d, pf);
    }
  }
  if (p == 2.0) {
    return sqrtf(agg);
  }
  if (p == 0.0 || p == 1.0 || p == (double)__builtin_inff()) {
    return agg;
  }
  return (float)pow((double)agg, 1.0 / (double)pf);
}

#endif /* TINYPTE_KERNELS_ENGINES_DISTANCE_H */
