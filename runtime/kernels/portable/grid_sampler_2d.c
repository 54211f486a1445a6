/* aten::grid_sampler_2d.out: sample float32 input (N, C, H, W) at the normalized (x, y) locations
 * of grid (N, H_out, W_out, 2): out (N, C, H_out, W_out). Interpolation 0 bilinear, 1 nearest
 * (round half to even), 2 bicubic (A = -0.75); padding 0 zeros, 1 border, 2 reflection;
 * align_corners maps -1 and 1 to the corner pixels' centers (else to their outer edges). The
 * arithmetic of ExecuTorch's portable kernel, in float. */
#include <math.h>

#include "kernel_util.h"

enum { GS_BILINEAR = 0, GS_NEAREST = 1, GS_BICUBIC = 2 };
enum { GS_ZEROS = 0, GS_BORDER = 1, GS_REFLECTION = 2 };

typedef struct grid_sampler_state {
  uint32_t n, c, in_h, in_w, out_h, out_w;
  uint8_t interpolation, padding;
  bool align_corners;
} grid_sampler_state;

/* grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool
 * align_corners, *, Tensor(a!) out) -> Tensor(a!): args input, grid, interpolation_mode,
 * padding_mode, align_corners, out, out. */
enum { GS_INPUT, GS_GRID, GS_INTERPOLATION, GS_PADDING, GS_ALIGN, GS_OUT };

static float gs_unnormalize(float coord, int64_t size, bool align) {
  return align ? ((coord + 1.0f) / 2.0f) * (float)(size - 1) : ((coord + 1.0f) * (float)size - 1.0f) / 2.0f;
}

static float gs_clip(float v, int64_t size) {
  const float hi = (float)(size - 1);
  v = v > 0.0f ? v : 0.0f;
  return hi < v ? hi : v;
}

/* Reflect v into [twice_low / 2, twice_high / 2]. */
static float gs_reflect(float v, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) {
    return 0.0f;
  }
  const float min = (float)twice_low / 2.0f, span = (float)(twice_high - twice_low) / 2.0f;
  v = fabsf(v - min);
  const float extra = fmodf(v, span);
  const float flips = floorf(v / span); /* parity in float: no conversion of a huge value */
  return fmodf(flips, 2.0f) == 0.0f ? extra + min : span - extra + min;
}

static float gs_reflect_size(float v, int64_t size, bool align) {
  return align ? gs_reflect(v, 0, 2 * (size - 1)) : gs_reflect(v, -1, 2 * size - 1);
}

static float gs_source_index(const grid_sampler_state *st, float coord, int64_t size) {
  coord = gs_unnormalize(coord, size, st->align_corners);
  if (st->padding == GS_BORDER) {
    coord = gs_clip(coord, size);
  } else if (st->padding == GS_REFLECTION) {
    coord = gs_clip(gs_reflect_size(coord, size, st->align_corners), size);
  }
  return coord;
}

/* Grid values are data (NaN, inf, anything): pixel coordinates far outside the image, NaN
 * included, become a coordinate just as far outside (out of every image), so no float is ever
 * converted out of int64's range. */
enum { GS_FAR = 1 << 24 };

static int64_t gs_floor(float v) {
  return v > -(float)GS_FAR ? (v < (float)GS_FAR ? (int64_t)floorf(v) : GS_FAR) : -GS_FAR;
}

static int64_t gs_round(float v) {
  return v > -(float)GS_FAR ? (v < (float)GS_FAR ? (int64_t)nearbyintf(v) : GS_FAR) : -GS_FAR;
}

static bool gs_inside(int64_t y, int64_t x, const grid_sampler_state *st) {
  return y >= 0 && y < (int64_t)st->in_h && x >= 0 && x < (int64_t)st->in_w;
}

/* The input value at (y, x) of one plane, for bilinear and nearest: zero outside with zeros
 * padding, else clamped to the edge (the coordinate was already reflected or clipped). */
static float gs_tap(const grid_sampler_state *st, const float *plane, int64_t y, int64_t x) {
  if (st->padding == GS_ZEROS) {
    return gs_inside(y, x, st) ? plane[y * st->in_w + x] : 0.0f;
  }
  const int64_t yc = (int64_t)gs_clip((float)y, st->in_h), xc = (int64_t)gs_clip((float)x, st->in_w);
  return plane[yc * st->in_w + xc];
}

/* The bicubic taps' value at (y, x): zeros, border clamping or reflection of the tap itself. */
static float gs_cubic_tap(const grid_sampler_state *st, const float *plane, int64_t y, int64_t x) {
  if (st->padding == GS_ZEROS) {
    return gs_inside(y, x, st) ? plane[y * st->in_w + x] : 0.0f;
  }
  if (st->padding == GS_BORDER) {
    const int64_t yc = y < 0 ? 0 : y > (int64_t)st->in_h - 1 ? (int64_t)st->in_h - 1 : y;
    const int64_t xc = x < 0 ? 0 : x > (int64_t)st->in_w - 1 ? (int64_t)st->in_w - 1 : x;
    return plane[yc * st->in_w + xc];
  }
  const int64_t yr = (int64_t)gs_clip(gs_reflect_size((float)y, st->in_h, st->align_corners), st->in_h);
  const int64_t xr = (int64_t)gs_clip(gs_reflect_size((float)x, st->in_w, st->align_corners), st->in_w);
  return plane[yr * st->in_w + xr];
}

static float gs_cubic1(float x, float a) { return ((a + 2.0f) * x - (a + 3.0f)) * x * x + 1.0f; }
static float gs_cubic2(float x, float a) { return ((a * x - 5.0f * a) * x + 8.0f * a) * x - 4.0f * a; }

static float gs_cubic_interp(float x0, float x1, float x2, float x3, float t) {
  const float a = -0.75f;
  const float c0 = gs_cubic2(t + 1.0f, a), c1 = gs_cubic1(t, a);
  const float c2 = gs_cubic1(1.0f - t, a), c3 = gs_cubic2((1.0f - t) + 1.0f, a);
  return x0 * c0 + x1 * c1 + x2 * c2 + x3 * c3;
}

static float gs_sample(const grid_sampler_state *st, const float *plane, float gx, float gy) {
  if (st->interpolation == GS_BICUBIC) {
    const float ix = gs_unnormalize(gx, st->in_w, st->align_corners);
    const float iy = gs_unnormalize(gy, st->in_h, st->align_corners);
    const int64_t x0 = gs_floor(ix), y0 = gs_floor(iy);
    const float tx = ix - (float)x0, ty = iy - (float)y0;
    float rows[4];
    for (int64_t r = 0; r < 4; r++) {
      const int64_t y = y0 - 1 + r;
      rows[r] = gs_cubic_interp(gs_cubic_tap(st, plane, y, x0 - 1), gs_cubic_tap(st, plane, y, x0),
                                gs_cubic_tap(st, plane, y, x0 + 1), gs_cubic_tap(st, plane, y, x0 + 2), tx);
    }
    return gs_cubic_interp(rows[0], rows[1], rows[2], rows[3], ty);
  }
  const float ix = gs_source_index(st, gx, st->in_w);
  const float iy = gs_source_index(st, gy, st->in_h);
  if (st->interpolation == GS_NEAREST) {
    return gs_tap(st, plane, gs_round(iy), gs_round(ix));
  }
  const int64_t x_nw = gs_floor(ix), y_nw = gs_floor(iy);
  const float fx = (float)x_nw, fy = (float)y_nw;
  const float nw = ((fx + 1.0f) - ix) * ((fy + 1.0f) - iy);
  const float ne = (ix - fx) * ((fy + 1.0f) - iy);
  const float sw = ((fx + 1.0f) - ix) * (iy - fy);
  const float se = (ix - fx) * (iy - fy);
  if (st->padding == GS_ZEROS) {
    float v = 0.0f;
    v += gs_inside(y_nw, x_nw, st) ? plane[y_nw * st->in_w + x_nw] * nw : 0.0f;
    v += gs_inside(y_nw, x_nw + 1, st) ? plane[y_nw * st->in_w + x_nw + 1] * ne : 0.0f;
    v += gs_inside(y_nw + 1, x_nw, st) ? plane[(y_nw + 1) * st->in_w + x_nw] * sw : 0.0f;
    v += gs_inside(y_nw + 1, x_nw + 1, st) ? plane[(y_nw + 1) * st->in_w + x_nw + 1] * se : 0.0f;
    return v;
  }
  return gs_tap(st, plane, y_nw, x_nw) * nw + gs_tap(st, plane, y_nw, x_nw + 1) * ne +
         gs_tap(st, plane, y_nw + 1, x_nw) * sw + gs_tap(st, plane, y_nw + 1, x_nw + 1) * se;
}

static tp_status grid_sampler_run(const tp_kernel_call *call) {
  const grid_sampler_state *st = call->state;
  const float *in = (const float *)call->args[GS_INPUT]->as.tensor->data;
  const float *grid = (const float *)call->args[GS_GRID]->as.tensor->data;
  float *o = (float *)call->args[GS_OUT]->as.tensor->data;
  const size_t plane_size = (size_t)st->in_h * st->in_w, cells = (size_t)st->out_h * st->out_w;
  for (uint32_t n = 0; n < st->n; n++) {
    for (uint32_t c = 0; c < st->c; c++) {
      const float *plane = in + ((size_t)n * st->c + c) * plane_size;
      const float *g = grid + (size_t)n * cells * 2;
      for (size_t k = 0; k < cells; k++) {
        *o++ = gs_sample(st, plane, g[2 * k], g[2 * k + 1]);
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, grid_sampler_2d, out, grid_sampler_state) {
  tp_tensor *in, *grid, *out;
  int64_t interpolation, padding;
  bool align;
  TP_TRY(tp_elementwise_args(call, GS_OUT, &in, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, GS_GRID, &grid));
  TP_TRY(tp_arg_int(call->args, call->nargs, GS_INTERPOLATION, &interpolation));
  TP_TRY(tp_arg_int(call->args, call->nargs, GS_PADDING, &padding));
  TP_TRY(tp_arg_bool(call->args, call->nargs, GS_ALIGN, &align));
  if (in->dtype != TP_DTYPE_FLOAT32 || grid->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(interpolation >= GS_BILINEAR && interpolation <= GS_BICUBIC);
  TP_CHECK_ARGS(padding >= GS_ZEROS && padding <= GS_REFLECTION);
  TP_CHECK_ARGS(in->dim == 4 && grid->dim == 4 && grid->sizes[0] == in->sizes[0] && grid->sizes[3] == 2);
  TP_CHECK_ARGS(in->sizes[2] > 0 && in->sizes[3] > 0); /* something to sample (border taps clamp into it) */
  const int32_t sizes[4] = {in->sizes[0], in->sizes[1], grid->sizes[1], grid->sizes[2]};
  TP_CHECK_ARGS(tp_shape_is(out, 4, sizes));
  state->n = (uint32_t)in->sizes[0];
  state->c = (uint32_t)in->sizes[1];
  state->in_h = (uint32_t)in->sizes[2];
  state->in_w = (uint32_t)in->sizes[3];
  state->out_h = (uint32_t)grid->sizes[1];
  state->out_w = (uint32_t)grid->sizes[2];
  state->interpolation = (uint8_t)interpolation;
  state->padding = (uint8_t)padding;
  state->align_corners = align;
  *run = grid_sampler_run;
  return TP_OK;
}
