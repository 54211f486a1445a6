/* Pico 2 W console over its own USB port: a CDC ACM serial device (/dev/ttyACM0 on Linux,
 * /dev/cu.usbmodem* on macOS, a COM port on Windows), so no USB-serial adapter is needed.
 *
 * Start-up connects to the host and waits, up to TP_USB_WAIT_FOR_TERMINAL_US, for a terminal
 * to open the port (the host sets DTR), so the first lines are not printed into the void
 * while the host is still enumerating. Output goes out in packets of up to 64 bytes, one per
 * line; while no terminal has the port open, output is dropped (the firmware never blocks on
 * an absent host) and resumes when one opens it. The controller is polled (usb_device.h)
 * whenever the console writes, reads or waits. Input is what the host sends to the bulk OUT
 * endpoint; it ends (tp_console_read returns 0) when the terminal that had the port open closes
 * it (DTR cleared). The serial-number string is the chip's unique ID, read from OTP rows 0-3. */
#include <stdint.h>

#include "clocks.h"
#include "rp2350_regs.h"
#include "tinypte/board.h"
#include "usb_device.h"

/* How long start-up waits for a terminal, and how long a packet may wait for the host. */
#define TP_USB_WAIT_FOR_TERMINAL_US 5000000u
#define TP_USB_SEND_TIMEOUT_US 250000u
/* A full-speed bulk packet: the most one read returns. */
#define TP_USB_PACKET_BYTES 64u

static char serial_number[17];
static uint8_t pending[64];
static uint32_t pending_size;

/* The 64-bit chip ID (OTP rows CHIPID3..CHIPID0, 16 bits each) as 16 hex digits. */
static void read_serial_number(void) {
  static const char hex[] = "0123456789ABCDEF";
  for (uint32_t row = 0; row < 4; row++) {
    uint32_t bits = *(volatile uint16_t *)(TP_OTP_DATA + 2u * (3u - row));
    for (uint32_t digit = 0; digit < 4; digit++) {
      serial_number[4 * row + digit] = hex[(bits >> (12 - 4 * digit)) & 0xfu];
    }
  }
  serial_number[16] = '\0';
}

void tp_board_init(void) {
  tp_rp2350_clocks_init();
  read_serial_number();
  tp_usb_init(serial_number);
  const uint32_t start = tp_rp2350_microseconds();
  while (!tp_usb_dtr() && tp_rp2350_microseconds() - start < TP_USB_WAIT_FOR_TERMINAL_US) {
    tp_usb_poll();
  }
}

/* Send the pending bytes as one packet, or drop them when no terminal is there to read. */
static void flush(void) {
  const uint32_t start = tp_rp2350_microseconds();
  while (tp_usb_dtr() && !tp_usb_ready() && tp_rp2350_microseconds() - start < TP_USB_SEND_TIMEOUT_US) {
    tp_usb_poll();
  }
  tp_usb_poll();
  if (tp_usb_dtr() && tp_usb_ready()) {
    tp_usb_send(pending, pending_size);
  }
  pending_size = 0;
}

static void put(char c) {
  if (pending_size == sizeof pending) {
    flush();
  }
  pending[pending_size++] = (uint8_t)c;
}

void tp_console_write(const char *text, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (text[i] == '\n') {
      put('\r');
      put('\n');
      flush();
    } else {
      put(text[i]);
    }
  }
}

/* Waits, polling the controller, for bytes from the host (returned at once, at most one packet's
 * worth) or for the end of the input. Bytes that came before the port was closed are read
 * first: the host sends them before it clears DTR. */
size_t tp_console_read(char *buffer, size_t size) {
  if (size == 0) {
    return 0;
  }
  const uint32_t room = size < TP_USB_PACKET_BYTES ? (uint32_t)size : TP_USB_PACKET_BYTES;
  for (;;) {
    const uint32_t n = tp_usb_receive((uint8_t *)buffer, room);
    if (n != 0) {
      return n;
    }
    if (tp_usb_input_ended()) {
      return 0;
    }
    tp_usb_poll();
  }
}

/* Real hardware: demo apps repeat forever so a terminal keeps receiving lines. */
bool tp_board_loops_forever(void) { return true; }

/* No host to exit to: report the status and keep the device answering the host. */
_Noreturn void tp_board_exit(int status) {
  tp_console_puts("tinypte: main returned ");
  tp_console_put_hex((uint32_t)status);
  tp_console_puts("\n");
  for (;;) {
    tp_usb_poll();
  }
}
