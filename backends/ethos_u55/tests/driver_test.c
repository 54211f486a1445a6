/* The Ethos-U55 driver (//backends/ethos_u55/driver) on the Corstone-300 machine model's NPU.
 *
 * A real Vela command stream (npu_case.h, made by make_npu_case.py: a 3x3 convolution with ReLU)
 * runs through the driver and its 144 output bytes must equal tosa_reference_model's. Then
 * each way a run can fail must fail with its status and its one-line reason (printed as
 * "driver_test: reason <case>: <line>", which the BUILD file's patterns check word for word):
 * bad arguments, an NPU of another MAC configuration, payloads with a wrong fourcc, version,
 * MAC configuration, an unknown action or a truncated stream, a command stream with an invalid
 * opcode (STATUS.cmd_parse_error), and regions the NPU cannot reach (STATUS.bus_status). After
 * the NPU errors a new init brings it back, and the convolution runs again, bit-exact.
 * Prints one line per check and "driver_test: PASS (N checks)" only when all TP__CHECKS ran
 * and passed; exits 0 only then. */
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "backends/ethos_u55/tests/npu_case.h"
#include "tinypte/board.h"
#include "tinypte/ethos_u55.h"

#define TP__CHECKS 21

/* Buffers the NPU reads and writes: in the board's RAM region, the SRAM (the NPU does not reach
 * the TCMs, which the board's memory map leaves out). */
static uint8_t scratch[NPU_CASE_SCRATCH_BYTES] __attribute__((aligned(16)));
static uint8_t payload[sizeof npu_case_cmd_data] __attribute__((aligned(16)));
/* The DTCM (Secure alias): memory the chip has and the NPU cannot reach. */
#define TCM_SCRATCH ((uint8_t *)(uintptr_t)0x30000000u)

static int checks_run, checks_failed;

static void check(const char *what, int ok) {
  checks_run++;
  checks_failed += !ok;
  tp_console_puts(ok ? "driver_test: ok   " : "driver_test: FAIL ");
  tp_console_puts(what);
  tp_console_puts("\n");
}

/* `got` must be `want`; the reason line is printed for the BUILD file's pattern. */
static void check_failure(const char *what, tp_status got, tp_status want, const tp_ethos_u55 *npu) {
  tp_console_puts("driver_test: reason ");
  tp_console_puts(what);
  tp_console_puts(": ");
  tp_console_puts(tp_ethos_u55_reason(npu));
  tp_console_puts("\n");
  check(what, got == want && tp_ethos_u55_reason(npu)[0] != '\0');
}

static void put_decimal(uint32_t value) {
  char digits[TP_FORMAT_SIZE];
  tp_console_puts(tp_format_uint(digits, value));
}

/* The payload's word `index`, for patching a copy. */
static void set_word(uint32_t index, uint32_t value) {
  for (uint32_t i = 0; i < 4; ++i) payload[4 * index + i] = (uint8_t)(value >> (8 * i));
}

static uint32_t word(uint32_t index) {
  uint32_t value = 0;
  for (uint32_t i = 0; i < 4; ++i) value |= (uint32_t)npu_case_cmd_data[4 * index + i] << (8 * i);
  return value;
}

static tp_status run_payload(tp_ethos_u55 *npu, const uint8_t *data, uint32_t bytes, uint8_t *region1) {
  const uint64_t bases[2] = {(uintptr_t)npu_case_weights, (uintptr_t)region1};
  return tp_ethos_u55_run(npu, data, bytes, bases, 2);
}

/* The convolution on the NPU: its output against tosa_reference_model's, byte for byte. */
static void check_convolution(tp_ethos_u55 *npu, const char *what) {
  memset(scratch, 0, sizeof scratch);
  memcpy(scratch + NPU_CASE_INPUT_OFFSET, npu_case_input, NPU_CASE_INPUT_BYTES);
  const tp_status status = run_payload(npu, npu_case_cmd_data, sizeof npu_case_cmd_data, scratch);
  uint32_t same = 0;
  for (uint32_t i = 0; i < NPU_CASE_OUTPUT_BYTES; ++i) same += scratch[NPU_CASE_OUTPUT_OFFSET + i] == npu_case_expected[i];
  if (status != TP_OK) {
    tp_console_puts("driver_test: reason ");
    tp_console_puts(tp_ethos_u55_reason(npu));
    tp_console_puts("\n");
  }
  tp_console_puts("driver_test: output bytes as tosa_reference_model: ");
  put_decimal(same);
  tp_console_puts(" of ");
  put_decimal(NPU_CASE_OUTPUT_BYTES);
  tp_console_puts("\n");
  check(what, status == TP_OK && same == NPU_CASE_OUTPUT_BYTES && npu->polls >= 1u);
}

/* A copy of the payload with word `index` replaced by `value`, run on `npu`. */
static tp_status run_patched(tp_ethos_u55 *npu, uint32_t index, uint32_t value, uint32_t bytes) {
  memcpy(payload, npu_case_cmd_data, sizeof payload);
  set_word(index, value);
  return run_payload(npu, payload, bytes, scratch);
}

int main(void) {
  tp_ethos_u55 npu;
  const uint64_t base = (uintptr_t)scratch;

  /* Arguments. */
  check("init(NULL) is TP_ERR_INVALID_ARGUMENT",
        tp_ethos_u55_init(NULL, tp_board_ethos_u55_base, 128) == TP_ERR_INVALID_ARGUMENT);
  check_failure("100 MACs", tp_ethos_u55_init(&npu, tp_board_ethos_u55_base, 100), TP_ERR_INVALID_ARGUMENT, &npu);
  check_failure("NPU of 128 MACs for 64", tp_ethos_u55_init(&npu, tp_board_ethos_u55_base, 64), TP_ERR_DELEGATE,
                &npu);
  check_failure("run before init", tp_ethos_u55_run(&npu, npu_case_cmd_data, sizeof npu_case_cmd_data, &base, 1),
                TP_ERR_INVALID_ARGUMENT, &npu);

  /* The convolution. */
  const tp_status init = tp_ethos_u55_init(&npu, tp_board_ethos_u55_base, NPU_CASE_MACS);
  if (init != TP_OK) {
    tp_console_puts("driver_test: reason init: ");
    tp_console_puts(tp_ethos_u55_reason(&npu));
    tp_console_puts("\n");
  }
  check("init of the Corstone-300's Ethos-U55 (128 MACs)", init == TP_OK);
  check_convolution(&npu, "convolution on the NPU, bit-exact");

  check_failure("NULL payload", tp_ethos_u55_run(&npu, NULL, 16, &base, 1), TP_ERR_INVALID_ARGUMENT, &npu);
  check_failure("misaligned payload", run_payload(&npu, npu_case_cmd_data + 4, sizeof npu_case_cmd_data - 4, scratch),
                TP_ERR_INVALID_ARGUMENT, &npu);
  check_failure("9 regions", tp_ethos_u55_run(&npu, npu_case_cmd_data, sizeof npu_case_cmd_data, &base, 9),
                TP_ERR_INVALID_ARGUMENT, &npu);

  /* Payloads: word 0 the fourcc, 1 OPTIMIZER_CONFIG (version in bits 16-19), 2 CONFIG, 3 ID,
   * 4-6 NOPs, 7 COMMAND_STREAM, then the stream. */
  check_failure("fourcc", run_patched(&npu, 0, word(0) ^ 0x1Bu, sizeof payload), TP_ERR_CORRUPT, &npu);
  check_failure("payload version", run_patched(&npu, 1, word(1) | 1u << 16, sizeof payload), TP_ERR_DELEGATE, &npu);
  check_failure("payload for 64 MACs", run_patched(&npu, 2, (word(2) & ~0xFu) | 6u, sizeof payload), TP_ERR_DELEGATE,
                &npu);
  check_failure("unknown action", run_patched(&npu, 4, 0x00000006u, sizeof payload), TP_ERR_CORRUPT, &npu);
  check_failure("truncated stream", run_patched(&npu, 0, word(0), sizeof payload - 4), TP_ERR_CORRUPT, &npu);

  /* The NPU's own errors, each followed by a new init. */
  memcpy(scratch + NPU_CASE_INPUT_OFFSET, npu_case_input, NPU_CASE_INPUT_BYTES);
  check_failure("invalid opcode", run_patched(&npu, 8, 0x000003FFu, sizeof payload), TP_ERR_DELEGATE, &npu);
  check("init after cmd_parse_error", tp_ethos_u55_init(&npu, tp_board_ethos_u55_base, NPU_CASE_MACS) == TP_OK);
  check_failure("scratch at an unmapped address", run_payload(&npu, npu_case_cmd_data, sizeof npu_case_cmd_data,
                                                              (uint8_t *)(uintptr_t)0x80000000u),
                TP_ERR_DELEGATE, &npu);
  check("init after bus_status", tp_ethos_u55_init(&npu, tp_board_ethos_u55_base, NPU_CASE_MACS) == TP_OK);
  check_failure("scratch in the DTCM", run_payload(&npu, npu_case_cmd_data, sizeof npu_case_cmd_data, TCM_SCRATCH),
                TP_ERR_DELEGATE, &npu);
  check("init after the DTCM", tp_ethos_u55_init(&npu, tp_board_ethos_u55_base, NPU_CASE_MACS) == TP_OK);
  check_convolution(&npu, "convolution again after the errors, bit-exact");

  const int passed = checks_run == TP__CHECKS && checks_failed == 0;
  tp_console_puts(passed ? "driver_test: PASS (" : "driver_test: FAIL (");
  put_decimal((uint32_t)checks_run);
  tp_console_puts(" checks)\n");
  return passed ? 0 : 1;
}
