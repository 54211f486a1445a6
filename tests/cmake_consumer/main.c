/* The consumer's application: runs a tinypte model library (only through its generated API) on
 * every input of cases.h and prints each output element's bits, one line each:
 *     out case=3 index=0 bits=0x3f56c2e1
 * then `consumer: outputs=N`. The Bazel test compares the values with the golden data. */
#include <stdint.h>
#include <string.h>

#include "cases.h" /* CASES, CASE_INPUTS, cases_in[CASES][CASE_INPUTS], written by the test */
#include "console.h"

#define CONSUMER_CAT2(a, b) a##b
#define CONSUMER_CAT(a, b) CONSUMER_CAT2(a, b)
#define CONSUMER_STR2(a) #a
#define CONSUMER_STR(a) CONSUMER_STR2(a)
#include CONSUMER_STR(TINYPTE_MODEL.h)

#define MODEL_INIT CONSUMER_CAT(TINYPTE_MODEL, _init)
#define MODEL_RUN CONSUMER_CAT(TINYPTE_MODEL, _run)
#define MODEL_REASON CONSUMER_CAT(TINYPTE_MODEL, _reason)

/* `value` in hexadecimal, 8 digits, after `text`. */
static char *put_hex(char *text, uint32_t value) {
  static const char digits[] = "0123456789abcdef";
  *text++ = '0';
  *text++ = 'x';
  for (int shift = 28; shift >= 0; shift -= 4) {
    *text++ = digits[(value >> shift) & 0xFu];
  }
  *text = '\0';
  return text;
}

static char *put_uint(char *text, uint32_t value) {
  char reversed[10];
  int n = 0;
  do {
    reversed[n++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0);
  while (n > 0) {
    *text++ = reversed[--n];
  }
  *text = '\0';
  return text;
}

int main(void) {
  char line[96];
  if (MODEL_INIT() != 0) {
    console_write("consumer: init failed: ");
    console_write(MODEL_REASON());
    console_write("\n");
    return 1;
  }
  uint32_t printed = 0;
  for (uint32_t c = 0; c < CASES; c++) {
    CASE_OUTPUT_TYPE out[CASE_OUTPUTS];
    if (MODEL_RUN(cases_in[c], out) != 0) {
      console_write("consumer: run failed: ");
      console_write(MODEL_REASON());
      console_write("\n");
      return 1;
    }
    for (uint32_t j = 0; j < CASE_OUTPUTS; j++) {
      uint32_t bits = 0;
      memcpy(&bits, &out[j], sizeof out[j]);
      char *at = line;
      strcpy(at, "out case=");
      at = put_uint(at + strlen(at), c);
      strcpy(at, " index=");
      at = put_uint(at + strlen(at), j);
      strcpy(at, " bits=");
      at = put_hex(at + strlen(at), bits);
      strcpy(at, "\n");
      console_write(line);
      printed++;
    }
  }
  strcpy(line, "consumer: outputs=");
  put_uint(line + strlen(line), printed);
  strcat(line, "\n");
  console_write(line);
  return 0;
}
