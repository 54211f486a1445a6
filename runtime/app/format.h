/* Number formatting and reading for the console without printf or strtof (keeps float printf and
 * the C library's decimal conversion out of firmware). */
#ifndef TINYPTE_FORMAT_H
#define TINYPTE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Enough for any value these functions write. */
#define TP_FORMAT_SIZE 32

/** "-1.234567": fixed point with `decimals` (<= 9) digits; "nan", "inf", "big" outside +-1e9. */
char *tp_format_fixed(char *out, float value, int decimals);

/** "1.23e-07": three significant digits and an exponent. */
char *tp_format_sci(char *out, float value);

/** Decimal unsigned integer. */
char *tp_format_uint(char *out, uint32_t value);

/** Decimal signed integer. */
char *tp_format_int(char *out, int64_t value);

/** `value` as 0x and eight lowercase hex digits. */
char *tp_format_hex(char *out, uint32_t value);

/**
 * Read a decimal number ("-1.5", "2", ".25", "3e-4", "1.0E+2") of `length` characters as a float:
 * up to 9 significant digits are used, exactly when they fit 24 bits and the exponent is within
 * 10 (one rounding), within 2 units in the last place otherwise (tests/parse_float_test.c). "nan" and "inf" are refused.
 * @retval false when the text is not such a number, or its magnitude is beyond float's range.
 */
bool tp_parse_float(const char *text, size_t length, float *value);

#endif /* TINYPTE_FORMAT_H */
