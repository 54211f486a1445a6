/* Pico 2 W clock set-up and the microsecond timer (clocks.c). */
#ifndef TINYPTE_PICO2W_CLOCKS_H
#define TINYPTE_PICO2W_CLOCKS_H

#include <stdint.h>

/** Crystal, clk_ref, clk_sys 150 MHz, clk_peri 12 MHz, clk_usb 48 MHz, TIMER0 in microseconds. */
void tp_rp2350_clocks_init(void);

/** Take `blocks` (TP_RESET_* bits) out of reset and wait until they are. */
void tp_rp2350_unreset(uint32_t blocks);

/** TIMER0's microsecond count (low 32 bits), after tp_rp2350_clocks_init. */
uint32_t tp_rp2350_microseconds(void);

#endif /* TINYPTE_PICO2W_CLOCKS_H */
