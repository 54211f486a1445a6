/* Number formatting for the console without printf (keeps float printf out of firmware). */
#ifndef TINYPTE_FORMAT_H
#define TINYPTE_FORMAT_H

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

#endif /* TINYPTE_FORMAT_H */
