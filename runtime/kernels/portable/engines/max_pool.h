/* What aten::max_pool2d_with_indices.out shares with its extensions (integer, channels-last):
 * the state, the argument slots and the loops of the general routines. */
#ifndef TINYPTE_KERNELS_ENGINES_MAX_POOL_H
#define TINYPTE_KERNELS_ENGINES_MAX_POOL_H

#include "util/nn.h"

typedef struct tp_max_pool_state {
  tp_nn_planes2d planes; /* plane count, input and output plane sizes */
  tp_nn_window2d w;      /* kernel size, stride, padding, dilation */
  uint32_t channels;     /* C of a channels-last input (N, H, W, C in memory); 0: contiguous */
} tp_max_pool_state;

/* max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2]
 * padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices):
 * the slots run reads. */
enum { TP_MAX_POOL_IN = 0, TP_MAX_POOL_OUT = 6, TP_MAX_POOL_INDICES = 7 };

/* The loops of every routine of the kernel, in out's memory order: group (one plane, or with
 * `channels` > 1 one image of channels-last planes), out row, out column, channel. Each out
 * element is the max of its window's taps inside the plane, rows in turn, the first tap starting
 * the max and a later one replacing it only when strictly greater (so the first of equal maxima
 * wins), with the tap's index h * W + w in the plane; a window that lies in the padding gives 0
 * with index 0. `group` is where the current group starts (a pointer or an element offset, moved
 * on a group's elements after each), `T` the element type, `AT(i)` the value of the group's
 * element i, `PUT(best, best_idx)` writes the next out element and its index. */
#define TP_MAX_POOL_LOOPS(st, channels, group, T, AT, PUT)                                                   \
  do {                                                                                                       \
    const tp_nn_window2d w_ = (st)->w;                                                                       \
    const int32_t H_ = (st)->planes.in[0], W_ = (st)->planes.in[1];                                          \
    const int32_t OH_ = (st)->planes.out[0], OW_ = (st)->planes.out[1];                                      \
    const uint32_t C_ = (channels);                                                                          \
    for (uint32_t g_ = 0; g_ < (st)->planes.count / C_; g_++, (group) += (uint32_t)H_ * (uint32_t)W_ * C_) { \
      for (int32_t oy_ = 0; oy_ < OH_; oy_++) {                                                              \
        const int32_t iy0_ = oy_ * w_.s[0] - w_.p[0];                                                        \
        int32_t ky_lo_, ky_hi_;                                                                              \
        tp_nn_taps(iy0_, w_.k[0], w_.d[0], H_, &ky_lo_, &ky_hi_);                                            \
        for (int32_t ox_ = 0; ox_ < OW_; ox_++) {                                                            \
          const int32_t ix0_ = ox_ * w_.s[1] - w_.p[1];                                                      \
          int32_t kx_lo_, kx_hi_;                                                                            \
          tp_nn_taps(ix0_, w_.k[1], w_.d[1], W_, &kx_lo_, &kx_hi_);                                          \
          for (uint32_t c_ = 0; c_ < C_; c_++) {                                                             \
            T best_ = 0;                                                                                     \
            int32_t best_idx_ = 0;                                                                           \
            if (ky_hi_ > ky_lo_ && kx_hi_ > kx_lo_) {                                                        \
              const int32_t x_first_ = ix0_ + kx_lo_ * w_.d[1];                                              \
              const int32_t x_end_ = ix0_ + kx_hi_ * w_.d[1]; /* one step past the last tap */               \
              int32_t row_ = (iy0_ + ky_lo_ * w_.d[0]) * W_;                                                 \
              best_idx_ = row_ + x_first_;                                                                   \
              best_ = AT((uint32_t)best_idx_ * C_ + c_);                                                     \
              for (int32_t ky_ = ky_lo_; ky_ < ky_hi_; ky_++, row_ += w_.d[0] * W_) {                        \
                for (int32_t x_ = x_first_; x_ != x_end_; x_ += w_.d[1]) {                                   \
                  const T v_ = AT((uint32_t)(row_ + x_) * C_ + c_);                                          \
                  if (v_ > best_) {                                                                          \
                    best_ = v_;                                                                              \
                    best_idx_ = row_ + x_;                                                                   \
                  }                                                                                          \
                }                                                                                            \
              }                                                                                              \
            }                                                                                                \
            PUT(best_, best_idx_);                                                                           \
          }                                                                                                  \
        }                                                                                                    \
      }                                                                                                      \
    }                                                                                                        \
  } while (0)

/* The float32 routines' loops: contiguous planes (channels 1: the kernel's general routine) or
 * channels-last images (the extension's). Inlined into each, so that with channels 1 the channel
 * loop compiles away. */
static inline __attribute__((always_inline)) void tp_max_pool_f32(const tp_kernel_call *call, uint32_t channels) {
  const float *in = (const float *)call->args[TP_MAX_POOL_IN]->as.tensor->data;
  float *o = (float *)call->args[TP_MAX_POOL_OUT]->as.tensor->data;
  int64_t *oi = (int64_t *)call->args[TP_MAX_POOL_INDICES]->as.tensor->data;
#define TP_MAX_POOL_F32_AT(i) in[i]
#define TP_MAX_POOL_F32_PUT(best, best_idx) (*o++ = (best), *oi++ = (best_idx))
  TP_MAX_POOL_LOOPS((const tp_max_pool_state *)call->state, channels, in, float, TP_MAX_POOL_F32_AT,
                    TP_MAX_POOL_F32_PUT);
#undef TP_MAX_POOL_F32_AT
#undef TP_MAX_POOL_F32_PUT
}

/** The routine for integer inputs: the extension's (extensions/max_pool_int.c), weak: NULL
 *  when firmware does not link it. */
tp_status tp_max_pool_int_run(const tp_kernel_call *call) __attribute__((weak));

/** The routine for float32 channels-last tensors: the extension's (extensions/max_pool_nhwc.c),
 *  weak: NULL when firmware does not link it. */
tp_status tp_max_pool_nhwc_run(const tp_kernel_call *call) __attribute__((weak));

#endif /* TINYPTE_KERNELS_ENGINES_MAX_POOL_H */
