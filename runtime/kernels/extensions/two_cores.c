/* Extension: splitting kernel calls over two cores (tinypte/worker.h, util/split.h). The kernels
 * reach these through weak references, so only firmware that links this file splits: two-core
 * firmware does (runtime/app/second_core.c references tp_kernels_two_cores when the firmware is
 * built with TP_BOARD_CORES == 2), one-core firmware carries none of it, and the tests that check
 * the split paths reference it too. */
#include <stdbool.h>
#include <stddef.h>

#include "cortex_m/engines/s8_conv.h"
#include "cortex_m/engines/s8_matmul.h"
#include "tinypte/worker.h"
#include "util/split.h"

const uint8_t tp_kernels_two_cores = 1;

/* --- The split (util/split.h) --- */

/* What the worker runs: its part of the call. Lives on the calling core's stack until the wait. */
typedef struct split_job {
  tp_split_fn fn;
  const void *ctx;
  int32_t begin, end;
  void *scratch;
} split_job;

static void run_job(void *arg) {
  const split_job *job = arg;
  job->fn(job->ctx, job->begin, job->end, job->scratch);
}

int32_t tp_split_point_of(int32_t count, int32_t align, uint32_t scratch_bytes) {
  const tp_worker *worker = tp_worker_installed();
  if (worker == NULL || scratch_bytes > worker->scratch_bytes) {
    return 0;
  }
  /* The calling core takes the larger part: the worker also pays for taking the job, and its
   * routine makes the call's per-channel records again. Half, rounded up to a multiple of
   * `align` (the routines' groups: the worker's last group is the one-core run's last, maybe
   * partial), or down when that leaves the worker nothing. */
  const int32_t mid = count - count / 2;
  const int32_t up = align > 1 ? (mid + align - 1) / align * align : mid;
  const int32_t point = up < count ? up : mid - mid % align;
  return point > 0 && point < count ? point : 0;
}

tp_status tp_split_run_at(tp_split_fn fn, const void *ctx, int32_t mid, int32_t count, void *scratch) {
  const tp_worker *worker = tp_worker_installed();
  split_job job = {fn, ctx, mid, count, worker->scratch};
  worker->post(run_job, &job);
  fn(ctx, 0, mid, scratch);
  return worker->wait() ? TP_OK : TP_ERR_WORKER;
}

/* --- int8 convolutions (s8_conv.h): out rows, one row's columns, a pointwise call's positions --- */

void tp_s8_conv_cols(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t x0, int32_t x1, tp_s8_conv *sub,
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
    tp_s8_conv_cols(c->st, c->d, o0, o1, &sub, &sd);
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

tp_status tp_s8_conv_split(const tp_s8_conv *st, const tp_s8_conv_data *d, uint64_t work, bool *split) {
  /* Out rows; one row (a band of one, a 1 x W out, or a pointwise call seen as one row of all its
   * positions, which balances the parts to four positions): its columns. */
  tp_s8_conv flat;
  const tp_s8_conv *view = pointwise_flat(st, &flat) ? &flat : st;
  const bool by_cols = view->out_h == 1;
  const int32_t count = by_cols ? view->out_w : view->out_h;
  const int32_t align = by_cols && count >= 2 * CONV_COLUMN_ALIGN ? CONV_COLUMN_ALIGN : 1;
  const int32_t mid = tp_split_point(count, align, work, tp_s8_conv_scratch_bytes(st, true));
  *split = mid > 0;
  if (mid <= 0) {
    tp_s8_conv_fast(st, d);
    return TP_OK;
  }
  const conv_split c = {view, d, by_cols};
  return tp_split_run_at(conv_part, &c, mid, count, d->scratch);
}

/* --- int8 matrix products (s8_matmul.h) --- */

typedef struct matmul_split {
  const tp_s8_matmul *p;
  const int8_t *lhs, *rhs;
  const int32_t *bias;
  int8_t *out;
} matmul_split;

/* Rows [r0, r1) of the product. */
static void rows_part(const void *ctx, int32_t r0, int32_t r1, void *scratch) {
  (void)scratch;
  const matmul_split *m = ctx;
  tp_s8_matmul sub = *m->p;
  sub.rows = (uint32_t)(r1 - r0);
  tp_s8_matmul_run(&sub, m->lhs + (uint32_t)r0 * sub.depth, m->rhs, m->bias, m->out + (uint32_t)r0 * sub.cols);
}

/* Columns [c0, c1) of a one-row product: rhs rows c0.. and their outs. */
static void cols_part(const void *ctx, int32_t c0, int32_t c1, void *scratch) {
  (void)scratch;
  const matmul_split *m = ctx;
  tp_s8_matmul sub = *m->p;
  sub.cols = (uint32_t)(c1 - c0);
  tp_s8_matmul_run(&sub, m->lhs, m->rhs + (uint32_t)c0 * sub.depth, m->bias != NULL ? m->bias + c0 : NULL,
                   m->out + c0);
}

tp_status tp_s8_matmul_run_split(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                                 int8_t *out) {
  const uint64_t work = (uint64_t)p->rows * p->cols * p->depth;
  /* One row: its columns, blocks of four whole (the routines take four rhs rows at a time). */
  const bool by_cols = p->rows == 1;
  const int32_t count = (int32_t)(by_cols ? p->cols : p->rows);
  const int32_t mid = tp_split_point(count, by_cols ? 4 : 1, work, 0);
  if (mid <= 0) { /* one core: straight to the routine */
    tp_s8_matmul_run(p, lhs, rhs, bias, out);
    return TP_OK;
  }
  const matmul_split m = {p, lhs, rhs, bias, out};
  return tp_split_run_at(by_cols ? cols_part : rows_part, &m, mid, count, NULL);
}
