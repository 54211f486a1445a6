/* Firmware test of the int8 convolutions' fast routines (runtime/kernels/cortex_m/s8_conv_{c,dsp,mve}.c):
 * on each emulated board the routine its core compiles (Helium on the Cortex-M55, DSP on the
 * Cortex-M33 and M7, blocked portable C on RISC-V) must give exactly the out bytes of the
 * portable routine, on random NHWC convolutions (one group) and depthwise convolutions: shapes,
 * strides, padding, dilation, depth multipliers, offsets, multipliers and shifts (extremes
 * included), activation ranges; a third of them shaped as the zoo's layers (3 x 3 and 1 x 1,
 * right shifts, all of int8), which the written-out routines take. Prints the path, the cases
 * checked and failures; exits 0 only with no failure, at least S8_CONV_MIN_CASES cases,
 * S8_CONV_MIN_ZOO_CASES of the zoo's shape and S8_CONV_MIN_POINTWISE_CASES pointwise ones (1 x 1,
 * stride 1, no padding, Cin a multiple of 4, at least four out positions: the DSP path's
 * whole-pass window) and S8_CONV_MIN_DW_BORDER_CASES zoo-shaped depthwise ones of a depth
 * multiplier 1 over groups of four channels with padded columns (the DSP path's routines that skip
 * a border column's outside taps) and S8_CONV_MIN_NARROW_INNER_CASES convolutions over a few
 * channels (Cin not a multiple of 4) with a column whose taps all lie inside (the DSP path's
 * word-copy gather) and S8_CONV_MIN_WORD_ROW_CASES convolutions whose rows of K weights are
 * whole words, K >= 16 (its four-word weight sums) and S8_CONV_MIN_NARROW_PASS_CASES convolutions
 * whose out positions end in a pass of 1 or 2 columns (its conv_narrow). And
 * S8_CONV_MIN_WHOLE16_CASES zoo-shaped convolutions of two or
 * more out channels with K a multiple of 16 (the Helium path's two channels a step) and
 * S8_CONV_MIN_INSIDE_PASS_CASES zoo-shaped ones of Cin a multiple of 16 with a pass of four
 * columns of one out row inside the image (the Helium path's window read a row run at a time) and
 * S8_CONV_MIN_SMALL_RUN_BORDER_CASES zoo-shaped ones whose rows of taps are runs of at most 16
 * bytes with left or right padding (the Helium path's predicated window of a border column), and
 * S8_CONV_MIN_DW16_CASES zoo-shaped depthwise ones of a depth multiplier 1 over 16 or more
 * channels (the Helium path's 3 x 3 columns sixteen channels a step), and
 * S8_CONV_MIN_ONE_INPUT16_CASES depthwise ones of one input channel over 16 or more taps with right
 * shifts (the Helium path's convolution of gather-transposed weights; drawn apart, check_one_input). A routine that writes past its scratch (tp_s8_conv_scratch_bytes) fails
 * the case.
 *
 * Then S8_CONV_IN_PLACE_CASES calls run in place (extensions/s8_conv_in_place.c): the out stored over the
 * input, through a ring of a random number of rows (the fewest it needs and up to four more),
 * must equal the portable routine's out computed apart, and the ring's bytes past those rows
 * stay untouched; at least S8_CONV_MIN_IN_PLACE_CASES of them, a quarter of them with padding
 * rows that wait in the ring.
 *
 * Then S8_CONV_SPLIT_CASES calls split over two cores (tp_s8_conv_fast_split with a test worker,
 * runtime/kernels/tests/inline_worker.h, every call split): the first half of the out rows with
 * the call's scratch, the second with the worker's, must equal the portable routine's out, the
 * worker's scratch untouched past the routine's need; at least S8_CONV_MIN_SPLIT_CASES, of them
 * S8_CONV_MIN_SPLIT_STRIDED strided and S8_CONV_MIN_SPLIT_BY_COLUMNS split by columns (one out row,
 * or bands of one row); every other one runs in place, each band split. */
#include <stdint.h>
#include <string.h>

#include "check_rng.h"
#include "cortex_m/engines/s8_conv_band.h"
#include "extensions/s8_conv_in_place.h"
#include "runtime/kernels/tests/inline_worker.h"
#include "tinypte/board.h"
#include "tinypte/two_cores.h"
#include "two_cores.h"

#define S8_CONV_CASES 400
#define S8_CONV_MIN_CASES 380
#define S8_CONV_MIN_ZOO_CASES 100
#define S8_CONV_MIN_POINTWISE_CASES 20
#define S8_CONV_MIN_DW_BORDER_CASES 15
#define S8_CONV_MIN_NARROW_INNER_CASES 30
#define S8_CONV_MIN_WORD_ROW_CASES 40
#define S8_CONV_MIN_NARROW_PASS_CASES 40
#define S8_CONV_MIN_WHOLE16_CASES 30
#define S8_CONV_MIN_INSIDE_PASS_CASES 10
#define S8_CONV_MIN_SMALL_RUN_BORDER_CASES 10
#define S8_CONV_MIN_DW16_CASES 15
#define S8_CONV_ONE_INPUT_CASES 24
#define S8_CONV_MIN_ONE_INPUT16_CASES 20
#define S8_CONV_IN_PLACE_CASES 200
#define S8_CONV_MIN_IN_PLACE_CASES 190
#define S8_CONV_MIN_IN_PLACE_LAG_CASES 50
#define S8_CONV_SPLIT_CASES 400
#define S8_CONV_MIN_SPLIT_CASES 380
#define S8_CONV_MIN_SPLIT_STRIDED 30
#define S8_CONV_MIN_SPLIT_BY_COLUMNS 30

enum { MAX_IN = 2 * 9 * 9 * 40, MAX_W = 5 * 5 * 24 * 24, MAX_C = 96, MAX_OUT = 2 * 9 * 9 * 96, MAX_SCRATCH = 12288 };

/* w word-aligned: a convolution's rows of K weights, K a multiple of 4, are then whole words (the
 * DSP path's four-word weight sums). */
static int8_t in[MAX_IN], out_fast[MAX_OUT], out_ref[MAX_OUT];
static _Alignas(4) int8_t w[MAX_W];
static int32_t bias[MAX_C], mult[MAX_C], shift[MAX_C];
static uint32_t scratch[MAX_SCRATCH / 4];
enum { MAX_RING = 8 * 9 * MAX_C };
static int8_t io[MAX_IN], ring[MAX_RING];



/* A zoo-shaped convolution of at least two out channels whose K is whole chunks of 16 (the Helium
 * path's two channels a step, pairs_mve). */
static int is_whole16(const tp_s8_conv *st) {
  return !st->depthwise && (st->k_h * st->k_w * st->in_c) % 16 == 0 && st->out_c >= 2;
}

/* A call of Cin a multiple of 16 with a pass of four columns in one out row whose taps all lie
 * inside the image (the Helium path's window_rows4; passes start at multiples of 4). */
static int has_inside_pass(const tp_s8_conv *st) {
  if (st->depthwise || st->in_c % 16 != 0 || st->dil_w != 1) {
    return 0;
  }
  const int32_t npos = st->out_h * st->out_w;
  for (int32_t pos = 0; pos + 4 <= npos; pos += 4) {
    const int32_t oy = pos / st->out_w, ox = pos % st->out_w;
    const int32_t y0 = oy * st->stride_h - st->pad_h, x0 = ox * st->stride_w - st->pad_w;
    if (ox + 4 <= st->out_w && y0 >= 0 && y0 + (st->k_h - 1) * st->dil_h < st->in_h && x0 >= 0 &&
        x0 + 3 * st->stride_w + st->k_w <= st->in_w) {
      return 1;
    }
  }
  return 0;
}

/* A call whose rows of taps are runs of at most 16 bytes with columns over the left or right
 * border (the Helium path's predicated window of a border column, im2col_rows16). */
static int is_small_run_border(const tp_s8_conv *st) {
  return !st->depthwise && st->in_c % 16 != 0 && st->k_w * st->in_c <= 16 && st->dil_w == 1 && st->pad_w > 0;
}

/* A depthwise call with one input channel over 16 or more taps, every channel shifting right
 * (the Helium path runs it as a convolution, its weights transposed with gathers). */
static int is_one_input16(const tp_s8_conv *st) {
  int right = 1;
  for (int32_t c = 0; c < st->out_c; c++) {
    right = right && shift[c] < 0 && mult[c] != INT32_MIN;
  }
  return st->depthwise && st->in_c == 1 && st->k_h * st->k_w >= 16 && right;
}

/* A pointwise call (the DSP path's whole-pass window applies). */
static int is_pointwise(const tp_s8_conv *st) {
  return !st->depthwise && st->k_h == 1 && st->k_w == 1 && st->stride_h == 1 && st->stride_w == 1 &&
         st->pad_h == 0 && st->pad_w == 0 && st->in_c % 4 == 0 && st->out_h * st->out_w >= 4;
}

/* A convolution over a few channels (Cin not a multiple of 4: a first layer) with an out column
 * whose taps all lie inside the input (the DSP path's word-copy gather, gather_inside). */
static int is_narrow_inner(const tp_s8_conv *st) {
  if (st->depthwise || st->in_c % 4 == 0 || st->dil_w != 1 || st->k_w * st->in_c < 3 || st->dil_h * st->in_sy < 3) {
    return 0;
  }
  int rows = 0, cols = 0;
  for (int32_t oy = 0; oy < st->out_h; oy++) {
    const int32_t y0 = oy * st->stride_h - st->pad_h;
    rows |= y0 >= 0 && y0 + (st->k_h - 1) * st->dil_h < st->in_h;
  }
  for (int32_t ox = 0; ox < st->out_w; ox++) {
    const int32_t x0 = ox * st->stride_w - st->pad_w;
    cols |= x0 >= 0 && x0 + st->k_w <= st->in_w;
  }
  return rows && cols;
}

/* A random NHWC call, as tp_s8_conv_prepare would describe it; false when it has no out.
 * `zoo`: the shape of the zoo's layers, which the written-out routines take (3 x 3 or 1 x 1
 * filters, the activation range all of int8; main gives such calls right shifts only). */
static int random_conv(tp_s8_conv *st, int depthwise, int zoo, int in_place) {
  memset(st, 0, sizeof *st);
  st->batches = in_place ? 1 : range(1, 2);
  st->in_h = range(1, 9);
  st->in_w = range(1, 9);
  st->k_h = range(1, 5);
  st->k_w = range(1, 5);
  if (zoo) {
    st->k_h = st->k_w = depthwise || range(0, 1) ? 3 : 1;
  }
  st->stride_h = in_place ? 1 : range(1, 3);
  st->stride_w = range(1, 3);
  st->pad_h = range(0, 2);
  st->pad_w = range(0, 2);
  st->dil_h = range(1, 4) == 4 ? 2 : 1;
  st->dil_w = range(1, 4) == 4 ? 2 : 1;
  const int pointwise = zoo && !depthwise && st->k_h == 1 && range(0, 3) != 0;
  if (pointwise) { /* the zoo's pointwise layers */
    st->stride_h = st->stride_w = 1;
    st->pad_h = st->pad_w = 0;
  }
  if (depthwise) {
    st->in_c = range(1, 4) == 4 ? range(17, 40) : range(1, 9);
    if (range(0, 2) == 0) { /* whole groups of four channels, the Cortex-M33's in-place path */
      st->in_c = 4 * range(1, 10);
    }
    st->cout_g = range(1, 4) == 4 && !in_place ? range(2, 8) : 1;
    if (range(0, 3) == 0) { /* a first layer: one input channel, Cout = depth_multiplier */
      st->in_c = 1;
      st->cout_g = range(1, 20);
    }
    if (st->in_c * st->cout_g > MAX_C) {
      st->cout_g = 1;
    }
    st->out_c = st->in_c * st->cout_g;
    st->cin_g = 1;
    st->w_so = 1;
    st->w_sx = st->out_c;
    st->w_sy = st->k_w * st->out_c;
  } else {
    st->in_c = pointwise ? 4 * range(1, 6) : range(1, 24);
    const int pick = zoo ? range(0, 3) : 3;
    if (pick <= 1) { /* whole chunks of 16 (the Helium path's two channels a step) */
      st->in_c = 16 * range(1, 2);
    } else if (pick == 2 && !pointwise) { /* a first layer's few channels (runs of at most 16 bytes) */
      st->in_c = range(1, 5);
    }
    st->out_c = in_place ? range(1, st->in_c) : range(1, 24);
    st->cin_g = st->in_c;
    st->cout_g = st->out_c;
    st->w_si = 1;
    st->w_sx = st->in_c;
    st->w_sy = st->k_w * st->in_c;
    st->w_so = st->k_h * st->w_sy;
  }
  const int32_t sh = st->in_h + 2 * st->pad_h - st->dil_h * (st->k_h - 1) - 1;
  const int32_t sw = st->in_w + 2 * st->pad_w - st->dil_w * (st->k_w - 1) - 1;
  if (sh < 0 || sw < 0) {
    return 0;
  }
  st->out_h = sh / st->stride_h + 1;
  st->out_w = sw / st->stride_w + 1;
  st->in_sc = 1;
  st->in_sx = st->in_c;
  st->in_sy = st->in_w * st->in_c;
  st->in_sn = st->in_h * st->in_sy;
  st->out_sc = 1;
  st->out_sx = st->out_c;
  st->out_sy = st->out_w * st->out_c;
  st->out_sn = st->out_h * st->out_sy;
  st->input_offset = range(0, 3) == 0 ? (range(0, 1) ? 128 : -127) : range(-127, 128);
  st->output_offset = range(-128, 127);
  st->act_min = range(0, 1) || zoo ? -128 : range(-128, 0);
  st->act_max = range(0, 1) || zoo ? 127 : range(st->act_min, 127);
  st->depthwise = (uint8_t)depthwise;
  st->fast = 1;
  return (uint32_t)(st->batches * st->in_sn) <= MAX_IN && (uint32_t)(st->batches * st->out_sn) <= MAX_OUT &&
         tp_s8_conv_scratch_bytes(st, true) <= MAX_SCRATCH;
}

/* Random operands for `st`: input, weights, bias, multipliers and shifts (`zoo`: the zoo's
 * right shifts; otherwise a third of the calls with extreme multipliers and shifts). */
static void random_operands(const tp_s8_conv *st, int zoo) {
  for (int32_t k = 0; k < st->batches * st->in_sn; k++) {
    in[k] = (int8_t)rnd();
  }
  const int32_t nw = st->depthwise ? st->k_h * st->k_w * st->out_c : st->out_c * st->w_so;
  for (int32_t k = 0; k < nw; k++) {
    w[k] = (int8_t)rnd();
  }
  const int extreme = !zoo && range(0, 3) == 0;
  for (int32_t c = 0; c < st->out_c; c++) {
    bias[c] = range(0, 7) == 0 ? (int32_t)rnd() : range(-100000, 100000);
    mult[c] = extreme ? (int32_t)rnd() : range(1 << 29, INT32_MAX);
    if (extreme && range(0, 3) == 0) {
      mult[c] = range(0, 1) ? INT32_MIN : INT32_MAX;
    }
    shift[c] = extreme ? range(-31, 30) : range(-14, zoo ? -1 : 0);
    if (zoo && range(0, 7) == 0) { /* deep right shifts: past 23 the out zero point does not fold */
      shift[c] = range(-31, -15);
    }
  }
}

/* Runs S8_CONV_IN_PLACE_CASES calls in place against the portable routine apart; returns the
 * failures, counting the calls checked and those with waiting rows. */
static uint32_t check_in_place(uint32_t *checked, uint32_t *lagged) {
  uint32_t failed = 0;
  for (uint32_t i = 0; i < S8_CONV_IN_PLACE_CASES * 8 && *checked < S8_CONV_IN_PLACE_CASES; i++) {
    tp_s8_conv st;
    const int zoo = range(0, 2) == 0;
    if (!random_conv(&st, (int)(i & 1u), zoo, 1) || !tp_s8_conv_in_place_geometry(&st)) {
      continue;
    }
    const int32_t rows = st.pad_h + range(1, 4) + (range(0, 3) == 0 ? st.out_h : 0);
    const uint32_t ring_used = (uint32_t)(rows * st.out_sy);
    if (ring_used > MAX_RING) {
      continue;
    }
    random_operands(&st, zoo);
    const int no_bias = range(0, 4) == 0;
    tp_s8_conv_data d = {in, w, no_bias ? NULL : bias, mult, shift, scratch, out_ref};
    tp_s8_conv_portable(&st, &d);
    memcpy(io, in, (size_t)st.in_sn);
    memset(ring, 0x5a, sizeof ring);
    d.in = io;
    d.out = io;
    tp_s8_conv_fast_in_place(&st, &d, ring, rows);
    int overran = 0;
    for (uint32_t k = ring_used; k < sizeof ring; k++) {
      overran |= (uint8_t)ring[k] != 0x5au;
    }
    ++*checked;
    *lagged += (uint32_t)(st.pad_h > 0);
    if (overran || memcmp(io, out_ref, (size_t)st.out_sn) != 0) {
      failed++;
      if (failed <= 5) {
        tp_console_puts(overran ? "s8_conv_paths: RING OVERRUN in place case " : "s8_conv_paths: MISMATCH in place case ");
        put_u32(*checked);
        tp_console_puts(st.depthwise ? " depthwise" : " conv");
        tp_console_puts(" pad_h ");
        put_u32((uint32_t)st.pad_h);
        tp_console_puts(" ring rows ");
        put_u32((uint32_t)rows);
        tp_console_puts("\n");
      }
    }
  }
  return failed;
}

/* Runs S8_CONV_SPLIT_CASES calls split over two cores against the portable routine; returns the
 * failures, counting the calls checked and the strided ones. */
static uint32_t check_split(uint32_t *checked, uint32_t *strided, uint32_t *by_cols) {
  uint32_t failed = 0;
  tp_two_cores_install(&inline_worker);
  tp_two_cores_set_min_work(0);
  for (uint32_t i = 0; i < S8_CONV_SPLIT_CASES * 8 && *checked < S8_CONV_SPLIT_CASES; i++) {
    tp_s8_conv st;
    const int zoo = range(0, 2) == 0, in_place = (int)(i & 2u);
    if (!random_conv(&st, (int)(i & 1u), zoo, in_place) || st.out_h * st.out_w < 2 ||
        (in_place && !tp_s8_conv_in_place_geometry(&st))) {
      continue;
    }
    st.batches = 1;
    const int32_t rows = st.pad_h + range(1, 4); /* bands of one row split by columns */
    if (in_place && rows == st.pad_h + 1 && st.out_w < 2) {
      continue; /* a band of one out position: nothing to split */
    }
    if (in_place && (uint32_t)(rows * st.out_sy) > MAX_RING) {
      continue;
    }
    random_operands(&st, zoo);
    tp_s8_conv_data d = {in, w, range(0, 4) == 0 ? NULL : bias, mult, shift, scratch, out_ref};
    tp_s8_conv_portable(&st, &d);
    memset(inline_worker_scratch, 0xa5, sizeof inline_worker_scratch);
    const uint32_t jobs = inline_worker_jobs;
    tp_status status;
    if (in_place) {
      memcpy(io, in, (size_t)st.in_sn);
      d.in = io;
      d.out = io;
      status = tp_s8_conv_fast_in_place(&st, &d, ring, rows);
    } else {
      memset(out_fast, 0x55, (size_t)st.out_sn);
      d.out = out_fast;
      status = tp_s8_conv_fast_split(&st, &d);
    }
    const uint8_t *const wb = (const uint8_t *)inline_worker_scratch;
    int overran = 0;
    for (uint32_t k = tp_s8_conv_scratch_bytes(&st, true); k < sizeof inline_worker_scratch; k++) {
      overran |= wb[k] != 0xa5;
    }
    ++*checked;
    *strided += (uint32_t)(st.stride_h > 1 || st.stride_w > 1);
    *by_cols += (uint32_t)(st.out_h == 1 || (in_place && rows == st.pad_h + 1));
    if (status != TP_OK || inline_worker_jobs == jobs || overran ||
        memcmp(in_place ? io : out_fast, out_ref, (size_t)st.out_sn) != 0) {
      failed++;
      if (failed <= 5) {
        tp_console_puts(overran ? "s8_conv_paths: WORKER SCRATCH OVERRUN split case " : "s8_conv_paths: MISMATCH split case ");
        put_u32(*checked);
        tp_console_puts(st.depthwise ? " depthwise" : " conv");
        tp_console_puts(in_place ? " in place" : "");
        tp_console_puts(" out_h ");
        put_u32((uint32_t)st.out_h);
        tp_console_puts(" stride_h ");
        put_u32((uint32_t)st.stride_h);
        tp_console_puts(" k ");
        put_u32((uint32_t)st.k_h);
        tp_console_puts("x");
        put_u32((uint32_t)st.k_w);
        tp_console_puts(" pad ");
        put_u32((uint32_t)st.pad_h);
        tp_console_puts(",");
        put_u32((uint32_t)st.pad_w);
        tp_console_puts(" dil_h ");
        put_u32((uint32_t)st.dil_h);
        tp_console_puts(" in ");
        put_u32((uint32_t)st.in_h);
        tp_console_puts("x");
        put_u32((uint32_t)st.in_w);
        tp_console_puts("x");
        put_u32((uint32_t)st.in_c);
        tp_console_puts(" out_w ");
        put_u32((uint32_t)st.out_w);
        tp_console_puts(" out_c ");
        put_u32((uint32_t)st.out_c);
        tp_console_puts("\n");
      }
    }
  }
  tp_two_cores_set_min_work(TP_TWO_CORES_MIN_WORK);
  tp_two_cores_install(NULL);
  return failed;
}

/* The in-place routine is an extension, referenced weakly by the kernels: this reference links it,
 * and the next one the two-core extension (the split routines). */
extern const tp_kernel tp_kernel_tinypte_s8_conv_in_place_ext;
const tp_kernel *const s8_conv_in_place_ext = &tp_kernel_tinypte_s8_conv_in_place_ext;
const void *const *const s8_conv_two_cores_ext = tp_kernels_two_cores;

/* S8_CONV_ONE_INPUT_CASES depthwise calls of one input channel over 16 or more taps with right
 * shifts (kws's 10 x 4 first layer is one), drawn apart from the main cases: the fast routine's
 * out bytes must equal the portable routine's, within its scratch. Adds the cases checked to
 * *checked and returns the failures. */
static uint32_t check_one_input(uint32_t *checked) {
  uint32_t failed = 0;
  for (uint32_t i = 0; i < 40000u && *checked < S8_CONV_ONE_INPUT_CASES; i++) {
    tp_s8_conv st;
    if (!random_conv(&st, 1, 0, 0) || st.in_c != 1 || st.k_h * st.k_w < 16) {
      continue;
    }
    random_operands(&st, 1);
    if (!is_one_input16(&st)) {
      continue;
    }
    tp_s8_conv_data d = {in, w, range(0, 4) == 0 ? NULL : bias, mult, shift, scratch, out_fast};
    const uint32_t nout = (uint32_t)(st.batches * st.out_sn);
    memset(out_fast, 0x55, nout);
    memset(scratch, 0xa5, sizeof scratch);
    tp_s8_conv_fast(&st, &d);
    const uint8_t *const sb = (const uint8_t *)scratch;
    int overran = 0;
    for (uint32_t k = tp_s8_conv_scratch_bytes(&st, true); k < sizeof scratch; k++) {
      overran |= sb[k] != 0xa5;
    }
    d.out = out_ref;
    tp_s8_conv_portable(&st, &d);
    (*checked)++;
    if (overran || memcmp(out_fast, out_ref, nout) != 0) {
      failed++;
      tp_console_puts("s8_conv_paths: MISMATCH one input channel case ");
      put_u32(*checked);
      tp_console_puts("\n");
    }
  }
  return failed;
}

int main(void) {
  check_seed(0x2026112Bu);
  const char *path = tp_s8_conv_fast_path_name();
  uint32_t checked = 0, failed = 0, zoo_checked = 0, pointwise_checked = 0, dw_border_checked = 0;
  uint32_t narrow_checked = 0, word_rows_checked = 0, last_pass_checked = 0;
  uint32_t whole16_checked = 0, inside_pass_checked = 0, small_run_border_checked = 0, dw16_checked = 0,
           one_input16_checked = 0;
  for (uint32_t i = 0; i < S8_CONV_CASES * 2 && checked < S8_CONV_CASES; i++) {
    tp_s8_conv st;
    const int zoo = range(0, 2) == 0;
    if (!random_conv(&st, (int)(i & 1u), zoo, 0)) {
      continue;
    }
    zoo_checked += (uint32_t)zoo;
    pointwise_checked += (uint32_t)is_pointwise(&st);
    whole16_checked += (uint32_t)(zoo && is_whole16(&st));
    inside_pass_checked += (uint32_t)(zoo && has_inside_pass(&st));
    small_run_border_checked += (uint32_t)(zoo && is_small_run_border(&st));
    dw16_checked += (uint32_t)(zoo && st.depthwise && st.cout_g == 1 && st.in_c >= 16);
    dw_border_checked += (uint32_t)(zoo && st.depthwise && st.cout_g == 1 && st.in_c >= 4 && st.pad_w > 0);
    narrow_checked += (uint32_t)is_narrow_inner(&st);
    word_rows_checked += (uint32_t)(!st.depthwise && st.w_so % 4 == 0 && st.w_so >= 16);
    last_pass_checked += (uint32_t)(!st.depthwise && (st.out_h * st.out_w) % 4 != 0 && (st.out_h * st.out_w) % 4 <= 2);
    random_operands(&st, zoo);
    const int no_bias = range(0, 4) == 0;
    tp_s8_conv_data d = {in, w, no_bias ? NULL : bias, mult, shift, scratch, out_fast};
    const uint32_t nout = (uint32_t)(st.batches * st.out_sn);
    memset(out_fast, 0x55, nout);
    memset(out_ref, 0x33, nout);
    memset(scratch, 0xa5, sizeof scratch);
    tp_s8_conv_fast(&st, &d);
    /* The routine keeps to its scratch (tp_s8_conv_scratch_bytes): the bytes after it untouched. */
    const uint8_t *const sb = (const uint8_t *)scratch;
    int overran = 0;
    for (uint32_t k = tp_s8_conv_scratch_bytes(&st, true); k < sizeof scratch; k++) {
      overran |= sb[k] != 0xa5;
    }
    d.out = out_ref;
    tp_s8_conv_portable(&st, &d);
    checked++;
    if (overran) {
      tp_console_puts("s8_conv_paths: SCRATCH OVERRUN case ");
      put_u32(checked);
      tp_console_puts("\n");
      failed++;
    } else if (memcmp(out_fast, out_ref, nout) != 0) {
      failed++;
      if (failed <= 5) {
        tp_console_puts("s8_conv_paths: MISMATCH case ");
        put_u32(checked);
        tp_console_puts(st.depthwise ? " depthwise" : " conv");
        tp_console_puts(" cin ");
        put_u32((uint32_t)st.in_c);
        tp_console_puts(" cout ");
        put_u32((uint32_t)st.out_c);
        tp_console_puts(" k ");
        put_u32((uint32_t)st.k_h);
        tp_console_puts("x");
        put_u32((uint32_t)st.k_w);
        tp_console_puts("\n");
      }
    }
  }
  failed += check_one_input(&one_input16_checked);
  tp_console_puts("s8_conv_paths: path=");
  tp_console_puts(path);
  tp_console_puts(", ");
  put_u32(checked);
  tp_console_puts(" cases checked (");
  put_u32(zoo_checked);
  tp_console_puts(" of the zoo's shape, ");
  put_u32(pointwise_checked);
  tp_console_puts(" pointwise, ");
  put_u32(dw_border_checked);
  tp_console_puts(" depthwise with border columns, ");
  put_u32(narrow_checked);
  tp_console_puts(" narrow with inner columns, ");
  put_u32(word_rows_checked);
  tp_console_puts(" with word rows of weights, ");
  put_u32(last_pass_checked);
  tp_console_puts(" with a last pass of 1-2 columns, ");
  put_u32(whole16_checked);
  tp_console_puts(" with K whole chunks of 16, ");
  put_u32(inside_pass_checked);
  tp_console_puts(" with an inside pass of Cin 16k, ");
  put_u32(small_run_border_checked);
  tp_console_puts(" with short runs over a border, ");
  put_u32(dw16_checked);
  tp_console_puts(" depthwise over 16 or more channels, ");
  put_u32(one_input16_checked);
  tp_console_puts(" depthwise of one input channel over 16 or more taps), ");
  put_u32(failed);
  tp_console_puts(" failed\n");
  uint32_t in_place = 0, lagged = 0;
  const uint32_t in_place_failed = check_in_place(&in_place, &lagged);
  tp_console_puts("s8_conv_paths: in place ");
  put_u32(in_place);
  tp_console_puts(" cases checked (");
  put_u32(lagged);
  tp_console_puts(" with waiting rows), ");
  put_u32(in_place_failed);
  tp_console_puts(" failed\n");
  uint32_t split = 0, strided = 0, by_cols = 0;
  const uint32_t split_failed = check_split(&split, &strided, &by_cols);
  tp_console_puts("s8_conv_paths: split over two cores ");
  put_u32(split);
  tp_console_puts(" cases checked (");
  put_u32(strided);
  tp_console_puts(" strided, ");
  put_u32(by_cols);
  tp_console_puts(" by columns), ");
  put_u32(split_failed);
  tp_console_puts(" failed\n");
  const int ok = failed == 0 && checked >= S8_CONV_MIN_CASES && zoo_checked >= S8_CONV_MIN_ZOO_CASES &&
                 pointwise_checked >= S8_CONV_MIN_POINTWISE_CASES && dw_border_checked >= S8_CONV_MIN_DW_BORDER_CASES &&
                 narrow_checked >= S8_CONV_MIN_NARROW_INNER_CASES &&
                 word_rows_checked >= S8_CONV_MIN_WORD_ROW_CASES &&
                 last_pass_checked >= S8_CONV_MIN_NARROW_PASS_CASES &&
                 whole16_checked >= S8_CONV_MIN_WHOLE16_CASES &&
                 inside_pass_checked >= S8_CONV_MIN_INSIDE_PASS_CASES &&
                 small_run_border_checked >= S8_CONV_MIN_SMALL_RUN_BORDER_CASES &&
                 dw16_checked >= S8_CONV_MIN_DW16_CASES &&
                 one_input16_checked >= S8_CONV_MIN_ONE_INPUT16_CASES &&
                 in_place_failed == 0 &&
                 in_place >= S8_CONV_MIN_IN_PLACE_CASES && lagged >= S8_CONV_MIN_IN_PLACE_LAG_CASES &&
                 split_failed == 0 && split >= S8_CONV_MIN_SPLIT_CASES && strided >= S8_CONV_MIN_SPLIT_STRIDED &&
                 by_cols >= S8_CONV_MIN_SPLIT_BY_COLUMNS;
  tp_console_puts(ok ? "s8_conv_paths: PASS\n" : "s8_conv_paths: FAIL\n");
  return ok ? 0 : 1;
}
