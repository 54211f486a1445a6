/* tp_method_init_image on the host, under AddressSanitizer and UndefinedBehaviorSanitizer: the sine
 * program's build-time image (runtime/tests/image_source.py, python/tinypte/firmware/method_image.py,
 * from the requirements JSON the firmware build uses) must give the method tp_method_init gives:
 * the same outputs, bit for bit, on CASES inputs; and init from it must refuse a program it was not
 * made from and a registry without the program's kernels, naming the operator. */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "sine_program.h"
#include "tinypte/image.h"
#include "tinypte/runtime.h"

enum { CASES = 200 };

/* The image's planned buffer (image_source.py names it) and its pool, as firmware has them. */
alignas(16) uint8_t image_test_buffer_1[4096];
static alignas(16) uint8_t image_pool[4096];

/* The image and its init, from the generated file. */
tp_status tp_app_method_init(tp_method *method, const tp_program *program, const tp_method_memory *memory);
const tp_method_image *image_test_image(void);

static int failures;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAIL %s\n", what);
    failures++;
  }
}

static float run(tp_method *method, float x) {
  const tp_tensor *out;
  if (tp_method_set_input(method, 0, &x, sizeof x) != TP_OK || tp_method_execute(method) != TP_OK ||
      tp_method_output(method, 0, &out) != TP_OK) {
    return -1e30f;
  }
  return *(const float *)out->data;
}

int main(void) {
  tp_program program;
  expect(tp_program_load(&program, sine_pte, SINE_PTE_SIZE) == TP_OK, "load sine");
  tp_method_requirements req;
  expect(tp_method_requirements_get(&program, "forward", &tp_selected_kernels, &req) == TP_OK, "requirements");
  tp_host_memory host;
  tp_host_memory_alloc(&host, &req);
  tp_method decoded;
  expect(tp_method_init(&decoded, &program, "forward", &host.memory, &tp_selected_kernels) == TP_OK, "tp_method_init");

  void *buffers[2] = {NULL, image_test_buffer_1};
  size_t sizes[2] = {0, sizeof image_test_buffer_1};
  tp_method_memory memory = {image_pool, sizeof image_pool, buffers, sizes, 2};
  tp_method imaged;
  expect(tp_app_method_init(&imaged, &program, &memory) == TP_OK, "tp_method_init_image");

  int checked = 0;
  for (int i = 0; i < CASES; i++) {
    const float x = -7.0f + 14.0f * (float)i / (float)CASES;
    const float a = run(&decoded, x), b = run(&imaged, x);
    if (memcmp(&a, &b, sizeof a) != 0 || a == -1e30f) {
      printf("FAIL x=%g: decoded %.9g, image %.9g\n", (double)x, (double)a, (double)b);
      failures++;
    }
    checked++;
  }
  expect(checked == CASES, "every case checked");

  /* Another program: the same bytes and 16 more (an image must not be used with it). */
  uint8_t *longer = aligned_alloc(16, SINE_PTE_SIZE + 16);
  memcpy(longer, sine_pte, SINE_PTE_SIZE);
  memset(longer + SINE_PTE_SIZE, 0, 16);
  tp_program other;
  expect(tp_program_load(&other, longer, SINE_PTE_SIZE + 16) == TP_OK, "load the longer copy");
  tp_method refused;
  expect(tp_app_method_init(&refused, &other, &memory) == TP_ERR_CORRUPT, "another program is TP_ERR_CORRUPT");
  expect(tp_method_execute(&refused) == TP_ERR_INVALID_ARGUMENT, "a refused method does not run");

  /* A registry without the program's kernels: the first operator is named. */
  const tp_kernel_registry none = {NULL, 0, NULL, 0};
  expect(tp_method_init_image(&refused, &program, image_test_image(), &memory, &none) == TP_ERR_OPERATOR_MISSING,
         "no kernels is TP_ERR_OPERATOR_MISSING");
  expect(refused.failed_operator != NULL && strcmp(refused.failed_operator, "aten::addmm") == 0,
         "the missing operator is named");

  /* Too small a pool. */
  tp_method_memory small = memory;
  small.pool_size = 8;
  expect(tp_app_method_init(&refused, &program, &small) == TP_ERR_POOL_TOO_SMALL, "a small pool is refused");

  free(longer);
  tp_host_memory_free(&host);
  printf("image_test: %d cases compared, %d failures\n", checked, failures);
  return failures == 0 && checked >= CASES ? 0 : 1;
}
