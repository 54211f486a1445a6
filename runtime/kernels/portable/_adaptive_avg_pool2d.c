/* aten::_adaptive_avg_pool2d.out for float32 (C, H, W) or (N, C, H, W) inputs: output cell
 * (oh, ow) averages input rows [floor(oh*H/OH), ceil((oh+1)*H/OH)) and the columns likewise,
 * as a float sum (row by row) divided by the cell's element count, as ExecuTorch's portable
 * kernel.
 */
#include "util/nn.h"

typedef struct adaptive_avg_pool_state {
  tp_nn_planes2d planes; /* plane count, input and output plane sizes */
} adaptive_avg_pool_state;

/* _adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!):
 * args self, output_size, out, out. */
enum { IN, OUTPUT_SIZE, OUT, NARGS = OUT + 2 };

static tp_status adaptive_avg_pool_run(const tp_kernel_call *call) {
  const adaptive_avg_pool_state *st = call->state;
  const int32_t H = st->planes.in[0], W = st->planes.in[1];
  const int32_t OH = st->planes.out[0], OW = st->planes.out[1];
  const float *plane = (const float *)call->args[IN]->as.tensor->data;
  float *o = (float *)call->args[OUT]->as.tensor->data;
  for (uint32_t c = 0; c < st->planes.count; c++, plane += (uint32_t)H * (uint32_t)W) {
    for (int32_t oy = 0; oy < OH; oy++) {
      const int32_t y0 = (int32_t)(((int64_t)oy * H) / OH);
      const int32_t y1 = (int32_t)(((int64_t)(oy + 1) * H + OH - 1) / OH);
      for (int32_t ox = 0; ox < OW; ox++) {
        const int32_t x0 = (int32_t)(((int64_t)ox * W) / OW);
        const int32_t x1 = (int32_t)(((int64_t)(ox + 1) * W + OW - 1) / OW);
        const float sum = tp_nn_window_sum_f32(plane, W, y0, y1, x0, x1);
        *o++ = sum / (float)((y1 - y0) * (x1 - x0));
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, _adaptive_avg_pool2d, out, adaptive_avg_pool_state) {
  tp_tensor *in, *out;
  tp_nn_planes2d *planes = &state->planes;
  const int64_t *size;
  uint32_t len;
  TP_CHECK_ARGS(nargs == NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_arg_int_list(args, nargs, OUTPUT_SIZE, &size, &len));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(out)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(len == 2 && size[0] >= 1 && size[1] >= 1 && size[0] <= INT32_MAX / 2 && size[1] <= INT32_MAX / 2);
  TP_TRY(tp_nn_pool_input(in, planes->in));
  planes->out[0] = (int32_t)size[0];
  planes->out[1] = (int32_t)size[1];
  TP_CHECK_ARGS(tp_nn_is_pooled(in, out, planes->out));
  *run = tp_nn_pool_routine(in, out, planes, adaptive_avg_pool_run);
  return TP_OK;
}
