/* An int8 convolution's out split over two cores (s8_conv_two_cores.h): linked only into
 * firmware that references it (two-core firmware, through the kernels' two-core part
 * runtime/kernels/two_cores.c) and the tests of the split paths. */
#include "cortex_m/engines/s8_conv_two_cores.h"

#include <stdbool.h>
#include <stddef.h>

#include "tinypte/two_cores_hand_over.h"

const uint8_t tp_s8_conv_two_cores_linked = 1;

/* Out columns [x0, x1) of `st` (one out row: out_h == 1) on `d` as a convolution of their own
 * (*sub on *sd): each core's part of a split call of one row. Not inlined: in conv_part it would
 * take registers and 24 bytes of stack from the routine's path. */
static __attribute__((noinline)) void cols(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t x0, int32_t x1, tp_s8_conv *sub,
                 tp_s8_conv_data *sd) {
  /* One out row's columns [x0, x1): contiguous outs (a row's positions follow each other), the
   * input from the first column they read (at the left, the padding instead); the rows keep
   * their stride (in_sy). */
  const int32_t left = x0 * st->stride_w - st->pad_w, first = left > 0 ? left : 0;
  *sub = *st;
  sub->in_w = st->in_w - first;
  sub->pad_w = first - left;
  sub->out_w = x1 - x0;
  *sd = *d;
  sd->in = d->in + first * st->in_sx;
  sd->out = d->out + x0 * st->out_sx;
}

/* One core's part of a split call (ctx: the whole call): out rows [o0, o1), or for a call of one
 * out row, out columns. (Whole rows: a part that starts or ends inside a row costs the routines
 * more than the rows' imbalance saves, measured on the zoo's depthwise and pointwise bands.) */
typedef struct conv_split {
  const tp_s8_conv *st;
  const tp_s8_conv_data *d;
  bool by_cols;
} conv_split;

static void conv_part(const void *ctx, int32_t o0, int32_t o1, void *scratch) {
  const conv_split *c = ctx;
  tp_s8_conv sub;
  tp_s8_conv_data sd;
  if (c->by_cols) {
    cols(c->st, c->d, o0, o1, &sub, &sd);
  } else {
    tp_s8_conv_rows(c->st, c->d, o0, o1, &sub, &sd);
  }
  if (scratch != c->d->scratch) {
    sub.prepared = c->st->worker_prepared; /* the worker's scratch, and whether it holds the records */
  }
  sd.scratch = scratch;
  tp_s8_conv_fast(&sub, &sd);
}

/* A pointwise call whose input and out pixels each follow one another (1 x 1, stride 1, no
 * padding, whole rows): the same call as one row of all its out positions. */
static bool pointwise_flat(const tp_s8_conv *st, tp_s8_conv *flat) {
  if (!(st->k_h == 1 && st->k_w == 1 && st->stride_h == 1 && st->stride_w == 1 && st->pad_h == 0 &&
        st->pad_w == 0 && st->in_sx == st->in_c && st->in_sy == st->in_w * st->in_c && st->out_w == st->in_w &&
        st->out_h <= st->in_h && st->out_sx == st->out_c && st->out_sy == st->out_w * st->out_c)) {
    return false;
  }
  *flat = *st;
  flat->in_h = 1;
  flat->out_h = 1;
  flat->in_w = st->out_h * st->out_w;
  flat->out_w = flat->in_w;
  flat->in_sy = flat->in_w * st->in_c;
  flat->out_sy = flat->out_w * st->out_c;
  flat->in_sn = flat->in_sy;
  flat->out_sn = flat->out_sy;
  return true;
}

/* Split points of a row's columns fall on multiples of four: the routines take four out
 * positions at a time, so each part's groups are the one-core run's. */
#define CONV_COLUMN_ALIGN 4

tp_status tp_s8_conv_two_cores(const tp_s8_conv *st, const tp_s8_conv_data *d, uint64_t work, bool *split) {
  /* Out rows; one row (a band of one, a 1 x W out, or a pointwise call seen as one row of all its
   * positions, which balances the parts to four positions): its columns. */
  tp_s8_conv flat;
  const tp_s8_conv *view = pointwise_flat(st, &flat) ? &flat : st;
  const bool by_cols = view->out_h == 1;
  const int32_t count = by_cols ? view->out_w : view->out_h;
  const int32_t align = by_cols && count >= 2 * CONV_COLUMN_ALIGN ? CONV_COLUMN_ALIGN : 1;
  const int32_t mid = tp_two_cores_point_linked(count, align, work, tp_s8_conv_scratch_bytes(st, true));
  *split = mid > 0;
  if (mid <= 0) {
    tp_s8_conv_fast(st, d);
    return TP_OK;
  }
  const conv_split c = {view, d, by_cols};
  return tp_two_cores_run_at(conv_part, &c, mid, count, d->scratch);
}
