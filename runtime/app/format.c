/* Console number formatting (see format.h). */
#include "format.h"

#include <string.h>

char *tp_format_uint(char *out, uint32_t value) {
  uint32_t last = 0; /* index of the last digit */
  for (uint32_t rest = value; rest >= 10u; rest /= 10u) {
    last++;
  }
  out[last + 1] = '\0';
  do {
    out[last--] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0);
  return out;
}

char *tp_format_int(char *out, int64_t value) {
  if (value < 0) {
    out[0] = '-';
    tp_format_uint(out + 1, (uint32_t)(-value));
    return out;
  }
  return tp_format_uint(out, (uint32_t)value);
}

/* Writes sign and special values; returns where digits go, or NULL when done. */
static char *prefix(char *out, float *value) {
  if (*value != *value) {
    strcpy(out, "nan");
    return NULL;
  }
  char *p = out;
  if (*value < 0.0f) {
    *p++ = '-';
    *value = -*value;
  }
  if (*value > 1e9f) {
    strcpy(p, *value > 3.4e38f ? "inf" : "big");
    return NULL;
  }
  return p;
}

char *tp_format_fixed(char *out, float value, int decimals) {
  char *p = prefix(out, &value);
  if (p == NULL) {
    return out;
  }
  uint32_t scale = 1;
  for (int i = 0; i < decimals; i++) {
    scale *= 10u;
  }
  /* Single precision and 32-bit integers only: no soft-double or 64-bit division code
   * is pulled into firmware for printing. */
  uint32_t whole = (uint32_t)value;
  uint32_t fraction = (uint32_t)((value - (float)whole) * (float)scale + 0.5f);
  if (fraction >= scale) { /* 0.9999996 rounds up to the next integer */
    fraction -= scale;
    whole++;
  }
  p = tp_format_uint(p, whole) + strlen(p);
  if (decimals > 0) {
    *p++ = '.';
    for (int i = decimals - 1; i >= 0; i--) {
      p[i] = (char)('0' + fraction % 10u);
      fraction /= 10u;
    }
    p[decimals] = '\0';
  }
  return out;
}

char *tp_format_sci(char *out, float value) {
  char *p = prefix(out, &value);
  if (p == NULL) {
    return out;
  }
  int exponent = 0;
  if (value != 0.0f) {
    while (value >= 10.0f) {
      value /= 10.0f;
      exponent++;
    }
    while (value < 1.0f) {
      value *= 10.0f;
      exponent--;
    }
  }
  tp_format_fixed(p, value, 2);
  if (p[0] == '1' && p[1] == '0') { /* 9.995 rounded up to 10.00 */
    tp_format_fixed(p, value / 10.0f, 2);
    exponent++;
  }
  p += strlen(p);
  *p++ = 'e';
  *p++ = exponent < 0 ? '-' : '+';
  int magnitude = exponent < 0 ? -exponent : exponent;
  *p++ = (char)('0' + magnitude / 10);
  *p++ = (char)('0' + magnitude % 10);
  *p = '\0';
  return out;
}

char *tp_format_hex(char *out, uint32_t value) {
  static const char digits[] = "0123456789abcdef";
  out[0] = '0';
  out[1] = 'x';
  for (int i = 0; i < 8; i++) {
    out[2 + i] = digits[(value >> (28 - 4 * i)) & 0xFu];
  }
  out[10] = '\0';
  return out;
}
