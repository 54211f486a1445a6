/* tp_parse_float (format.h) against the C library's strtof on the host: 200,000 float32 values
 * written with "%.9g" (the digits a float needs to round-trip) and 200,000 written with "%.6g"
 * read back within 2 units in the last place, exactly where the digits fit 24 bits and the
 * exponent is within 10; malformed numbers refused. Prints the counts and fails below them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

#define CASES 200000
#define MIN_EXACT 100000 /* of the "%.6g" cases, which must all be exact */

static uint32_t state = 12345u;
static uint32_t next_random(void) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

/* Units in the last place between two finite floats of one sign. */
static uint32_t ulps(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  return ia > ib ? (uint32_t)(ia - ib) : (uint32_t)(ib - ia);
}

int main(void) {
  uint32_t checked = 0, exact = 0, worst = 0, failures = 0;
  for (int i = 0; i < 2 * CASES; i++) {
    /* Finite values from 1e-30 to 1e30 of both signs, uniformly over their bit patterns. */
    uint32_t bits = (next_random() % (0x7149f2caU - 0x0da24260U)) + 0x0da24260U;
    bits |= next_random() & 0x80000000u;
    float value;
    memcpy(&value, &bits, 4);
    char text[40];
    snprintf(text, sizeof text, i < CASES ? "%.9g" : "%.6g", (double)value);
    float expected = strtof(text, NULL);
    float parsed = 0.0f;
    if (!tp_parse_float(text, strlen(text), &parsed)) {
      printf("refused %s\n", text);
      failures++;
      continue;
    }
    checked++;
    uint32_t off = ulps(parsed, expected);
    worst = off > worst ? off : worst;
    int exponent = (int)floor(log10(fabs((double)expected)));
    bool must_be_exact = i >= CASES && exponent >= -4 && exponent <= 4; /* 6 digits: < 2^24, |exp| <= 10 */
    if (off == 0) {
      exact += i >= CASES;
    } else if (off > 2 || must_be_exact) {
      printf("%s: read %.9g, strtof %.9g (%u ulps)\n", text, (double)parsed, (double)expected, off);
      failures++;
    }
  }
  const char *const refused[] = {"", "-", "+", ".", "e5", "1e", "1e+", "abc", "1.2.3", "nan", "inf", "1e39", "--1", "1x"};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    float value;
    if (tp_parse_float(refused[i], strlen(refused[i]), &value)) {
      printf("accepted \"%s\" as %g\n", refused[i], (double)value);
      failures++;
    }
  }
  const struct { const char *text; float value; } known[] = {
      {"0", 0.0f}, {"-0.5", -0.5f}, {".25", 0.25f}, {"1e-45", 1e-45f}, {"3.4028234e38", 3.4028234e38f},
      {"12345678901234", 12345678901234.0f}, {"0.000001", 0.000001f}, {"+7", 7.0f}, {"1E2", 100.0f}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    float value = -1.0f;
    if (!tp_parse_float(known[i].text, strlen(known[i].text), &value) || ulps(value, known[i].value) > 2) {
      printf("\"%s\" read as %.9g, expected %.9g\n", known[i].text, (double)value, (double)known[i].value);
      failures++;
    }
  }
  printf("parse_float: %u values read (%u of the 6-digit ones exact), worst %u ulps, %zu refusals, %zu known, %u failures\n",
         checked, exact, worst, sizeof refused / sizeof refused[0], sizeof known / sizeof known[0], failures);
  if (checked < 2 * CASES || exact < MIN_EXACT || failures != 0) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}
