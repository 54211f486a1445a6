/* Pico 2 W console on UART0 (console = "uart"): 115200 8N1 on GPIO0 (TX) / GPIO1 (RX), for a
 * USB-serial adapter on pins 1 and 2; output and input (the RX FIFO, polled). clk_peri runs from the 12 MHz crystal (clocks.c), so
 * the baud rate is exact. Register addresses and fields are from the RP2350 datasheet. */
#include <stdint.h>

#include "clocks.h"
#include "rp2350_regs.h"
#include "tinypte/board.h"

/* GPIO chapter: IO_BANK0 GPIO0_CTRL 0x40028004, GPIO1_CTRL 0x4002800c; FUNCSEL 2 = UART.
 * PADS_BANK0 GPIO0 0x40038004, GPIO1 0x40038008: ISO bit 8 (isolation, set at reset on
 * RP2350), OD bit 7 (output disable), IE bit 6 (input enable). */
#define TP_IO_GPIO0_CTRL 0x40028004u
#define TP_IO_GPIO1_CTRL 0x4002800cu
#define TP_GPIO_FUNC_UART 2u
#define TP_PADS_GPIO0 0x40038004u
#define TP_PADS_GPIO1 0x40038008u
#define TP_PAD_ISO (1u << 8)
#define TP_PAD_OD (1u << 7)
#define TP_PAD_IE (1u << 6)

/* UART chapter (Arm PL011): UART0_BASE 0x40070000. */
#define TP_UART0_DR 0x40070000u
#define TP_UART0_FR 0x40070018u
#define TP_UART0_IBRD 0x40070024u
#define TP_UART0_FBRD 0x40070028u
#define TP_UART0_LCR_H 0x4007002cu
#define TP_UART0_CR 0x40070030u
#define TP_UART_FR_TXFF (1u << 5)
#define TP_UART_FR_RXFE (1u << 4)
#define TP_UART_FR_BUSY (1u << 3)
#define TP_UART_LCR_H_8N1_FIFO ((3u << 5) | (1u << 4)) /* WLEN = 8 bits, FEN */
#define TP_UART_CR_ENABLE ((1u << 0) | (1u << 8) | (1u << 9)) /* UARTEN, TXE, RXE */
/* 12 MHz / (16 * 115200) = 6.5104: IBRD 6, FBRD round(0.5104 * 64) = 33. */
#define TP_UART_IBRD_115200 6u
#define TP_UART_FBRD_115200 33u

void tp_board_init(void) {
  tp_rp2350_clocks_init();
  tp_rp2350_unreset(TP_RESET_IO_BANK0 | TP_RESET_PADS_BANK0 | TP_RESET_UART0);

  /* Pads: GPIO0 drives (clear ISO and OD); GPIO1 receives (clear ISO, set IE). */
  TP_CLR(TP_PADS_GPIO0) = TP_PAD_ISO | TP_PAD_OD;
  TP_CLR(TP_PADS_GPIO1) = TP_PAD_ISO;
  TP_SET(TP_PADS_GPIO1) = TP_PAD_IE;
  /* IO_BANK0: GPIOx_CTRL.FUNCSEL = UART. */
  TP_REG(TP_IO_GPIO0_CTRL) = TP_GPIO_FUNC_UART;
  TP_REG(TP_IO_GPIO1_CTRL) = TP_GPIO_FUNC_UART;

  /* UART: divisors, then LCR_H (which latches them), then enable. */
  TP_REG(TP_UART0_IBRD) = TP_UART_IBRD_115200;
  TP_REG(TP_UART0_FBRD) = TP_UART_FBRD_115200;
  TP_REG(TP_UART0_LCR_H) = TP_UART_LCR_H_8N1_FIFO;
  TP_REG(TP_UART0_CR) = TP_UART_CR_ENABLE;
}

static void uart_putc(char c) {
  while (TP_REG(TP_UART0_FR) & TP_UART_FR_TXFF) {
  }
  TP_REG(TP_UART0_DR) = (uint8_t)c;
}

void tp_console_write(const char *text, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (text[i] == '\n') uart_putc('\r');
    uart_putc(text[i]);
  }
}

/* Waits for the RX FIFO to hold a byte, then takes what it holds (at most `size`). A UART's
 * input never ends, so this never returns 0 for a non-zero `size`. */
size_t tp_console_read(char *buffer, size_t size) {
  size_t n = 0;
  if (size == 0) {
    return 0;
  }
  while (TP_REG(TP_UART0_FR) & TP_UART_FR_RXFE) {
  }
  do {
    buffer[n++] = (char)(TP_REG(TP_UART0_DR) & 0xffu); /* bits 11:8 are the byte's error flags */
  } while (n < size && !(TP_REG(TP_UART0_FR) & TP_UART_FR_RXFE));
  return n;
}

/* Real hardware: demo apps repeat forever so a serial monitor keeps receiving lines. */
bool tp_board_loops_forever(void) { return true; }

/* No host to exit to: report the status, let the FIFO drain, and sleep forever. */
_Noreturn void tp_board_exit(int status) {
  tp_console_puts("tinypte: main returned ");
  tp_console_put_hex((uint32_t)status);
  tp_console_puts("\n");
  while (TP_REG(TP_UART0_FR) & TP_UART_FR_BUSY) {
  }
  for (;;) {
    __asm__ volatile("wfi");
  }
}
