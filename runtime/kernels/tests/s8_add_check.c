/* Firmware test of cortex_m::quantized_add's same-shape loop (runtime/kernels/cortex_m/engines/
 * s8_add.c): on each emulated board the routine its core compiles (Helium four lanes a vector on
 * the Cortex-M55, the SMMULR loop in assembly on the M33/M7 when the sum's shift is a right
 * shift by at least 1, the same arithmetic in C elsewhere) must give exactly the bytes of the
 * definition element by element (tp_s8_add_one), on seeded random calls: lengths (vector tails
 * included), zero points, multipliers, shifts (0 and right shifts for the fast path, left shifts for
 * the general one), activation ranges, and inputs at the int8 extremes. Prints the path, the calls
 * and bytes checked and the mismatches; exits 0 only with none and at least S8_ADD_MIN_CALLS
 * calls, S8_ADD_MIN_FAST of them on the fast path (and, on DSP cores, S8_ADD_MIN_DSP on the
 * assembly loop). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cortex_m/engines/s8_add.h"
#include "check_rng.h"
#include "tinypte/board.h"

#define S8_ADD_CALLS 300
#define S8_ADD_MIN_CALLS 300
#define S8_ADD_MIN_FAST 200
#define S8_ADD_MIN_DSP 100

enum { MAX_N = 600 };

static int8_t x[MAX_N], y[MAX_N], out_fast[MAX_N], out_ref[MAX_N];



/* A shift as the backend makes them (right shifts), or now and then any legal one. */
static int32_t a_shift(int32_t lo, int32_t hi) { return range(0, 9) == 0 ? range(-31, 30) : range(lo, hi); }

int main(void) {
  check_seed(0x5EED0ADDu);
  uint32_t calls = 0, fast = 0, dsp = 0, bytes = 0, mismatches = 0;
  for (uint32_t c = 0; c < S8_ADD_CALLS; c++) {
    tp_s8_add a;
    a.zp[0] = range(-128, 127);
    a.zp[1] = range(-128, 127);
    a.mult[0] = range(1 << 30, INT32_MAX);
    a.mult[1] = range(1 << 30, INT32_MAX);
    a.shift[0] = a_shift(-4, 0);
    a.shift[1] = a_shift(-4, 0);
    a.out_zp = range(-128, 127);
    a.out_mult = range(1 << 30, INT32_MAX);
    a.out_shift = a_shift(-24, -14);
    a.lo = range(0, 1) ? -128 : range(-128, 0);
    a.hi = range(0, 1) ? 127 : range(a.lo, 127);
    const uint32_t n = (uint32_t)range(1, MAX_N);
    for (uint32_t i = 0; i < n; i++) {
      const int extreme = range(0, 7) == 0;
      x[i] = (int8_t)(extreme ? (range(0, 1) ? -128 : 127) : (int32_t)(int8_t)rnd());
      y[i] = (int8_t)(range(0, 7) == 0 ? (range(0, 1) ? -128 : 127) : (int32_t)(int8_t)rnd());
      out_ref[i] = tp_s8_add_one(&a, x[i], y[i]);
    }
    memset(out_fast, 0x5a, sizeof out_fast);
    tp_s8_add_same_shape(&a, x, y, out_fast, n);
    calls++;
    fast += strcmp(tp_s8_add_path(&a), "general") != 0;
    dsp += strcmp(tp_s8_add_path(&a), "dsp") == 0;
    bytes += n;
    for (uint32_t i = 0; i < n; i++) {
      mismatches += out_fast[i] != out_ref[i];
    }
    mismatches += out_fast[n < MAX_N ? n : MAX_N - 1] != (n < MAX_N ? (int8_t)0x5a : out_ref[MAX_N - 1]);
  }
  tp_s8_add a_quick = {{0, 0}, {1 << 30, 1 << 30}, {-1, -1}, 0, 1 << 30, -20, -128, 127};
  tp_console_puts("s8_add_check: path=");
  tp_console_puts(tp_s8_add_path(&a_quick));
  tp_console_puts(", ");
  put_u32(calls);
  tp_console_puts(" calls (");
  put_u32(fast);
  tp_console_puts(" fast, ");
  put_u32(dsp);
  tp_console_puts(" dsp), ");
  put_u32(bytes);
  tp_console_puts(" bytes checked, ");
  put_u32(mismatches);
  tp_console_puts(" mismatches\n");
  const bool dsp_core = strcmp(tp_s8_add_path(&a_quick), "dsp") == 0;
  const int ok = mismatches == 0 && calls >= S8_ADD_MIN_CALLS && fast >= S8_ADD_MIN_FAST &&
                 (!dsp_core || dsp >= S8_ADD_MIN_DSP);
  tp_console_puts(ok ? "s8_add_check: PASS\n" : "s8_add_check: FAIL\n");
  return ok ? 0 : 1;
}
