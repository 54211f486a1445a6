/* Two model libraries in one firmware: sine (float) and sine_int8 (int8 in and out, through its
 * header's quantize and dequantize helpers) side by side, each with its own runtime copy and memory, since
 * only their APIs are global. Prints "two models: ok" when both give sin(1) to within 0.05. */
#include <stdint.h>

#include "console.h"
#include "sine.h"
#include "sine_int8.h"

int main(void) {
  float x = 1.0f;
  float y = 0.0f;
  int8_t q = sine_int8_input0_quantize(x);
  int8_t r = 0;
  if (sine_init() != 0 || sine_int8_init() != 0 || sine_run(&x, &y) != 0 || sine_int8_run(&q, &r) != 0) {
    console_write("two models: failed\n");
    return 1;
  }
  float y8 = sine_int8_output0_dequantize(r);
  const float sin1 = 0.841471f;
  int ok = y > sin1 - 0.05f && y < sin1 + 0.05f && y8 > sin1 - 0.05f && y8 < sin1 + 0.05f;
  console_write(ok ? "two models: ok\n" : "two models: wrong values\n");
  return ok ? 0 : 1;
}
