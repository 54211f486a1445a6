/* Console number formatting and reading (see format.h). */
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

/* 10^0 .. 10^38 (exact up to 10^10, correctly rounded above). */
static const float powers_of_ten[] = {
    1e0f,  1e1f,  1e2f,  1e3f,  1e4f,  1e5f,  1e6f,  1e7f,  1e8f,  1e9f,  1e10f, 1e11f, 1e12f,
    1e13f, 1e14f, 1e15f, 1e16f, 1e17f, 1e18f, 1e19f, 1e20f, 1e21f, 1e22f, 1e23f, 1e24f, 1e25f,
    1e26f, 1e27f, 1e28f, 1e29f, 1e30f, 1e31f, 1e32f, 1e33f, 1e34f, 1e35f, 1e36f, 1e37f, 1e38f};

bool tp_parse_float(const char *text, size_t length, float *value) {
  size_t at = 0;
  bool negative = false;
  if (at < length && (text[at] == '-' || text[at] == '+')) {
    negative = text[at++] == '-';
  }
  uint32_t mantissa = 0;
  int32_t exponent = 0; /* value = mantissa * 10^exponent */
  uint32_t digits = 0;   /* significant digits kept */
  bool any_digit = false;
  bool point = false;
  for (; at < length; at++) {
    char c = text[at];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') {
      break;
    }
    any_digit = true;
    if (digits < 9 && (mantissa != 0 || c != '0')) {
      mantissa = mantissa * 10u + (uint32_t)(c - '0');
      digits++;
      exponent -= point ? 1 : 0;
    } else if (digits >= 9 && !point) {
      exponent++; /* a digit past the ninth, before the point */
    } else if (digits < 9 && point) {
      exponent--; /* a leading zero after the point */
    }
  }
  if (!any_digit) {
    return false;
  }
  if (at < length && (text[at] == 'e' || text[at] == 'E')) {
    at++;
    bool exponent_negative = false;
    if (at < length && (text[at] == '-' || text[at] == '+')) {
      exponent_negative = text[at++] == '-';
    }
    int32_t written = 0;
    bool exponent_digit = false;
    for (; at < length && text[at] >= '0' && text[at] <= '9'; at++) {
      exponent_digit = true;
      written = written < 1000 ? written * 10 + (text[at] - '0') : written;
    }
    if (!exponent_digit) {
      return false;
    }
    exponent += exponent_negative ? -written : written;
  }
  if (at != length) {
    return false;
  }
  float result = (float)mantissa;
  if (mantissa != 0) {
    if (exponent > 38 + 9 || exponent < -45 - 9) {
      if (exponent > 0) {
        return false;
      }
      result = 0.0f;
    }
    /* One multiplication or division by a power of ten (two for the smallest numbers). */
    while (exponent > 38) {
      result *= powers_of_ten[10];
      exponent -= 10;
    }
    while (exponent < -38) {
      result /= powers_of_ten[20];
      exponent += 20;
    }
    result = exponent >= 0 ? result * powers_of_ten[exponent] : result / powers_of_ten[-exponent];
    if (result > 3.40282347e38f) {
      return false;
    }
  }
  *value = negative ? -result : result;
  return true;
}
