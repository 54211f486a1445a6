/* A polled USB full-speed device on the RP2350's USB controller: enumeration (EP0), and the
 * CDC ACM console's endpoints (usb_device.c). Nothing runs in interrupts: the controller is
 * serviced by tp_usb_poll(), which the console calls while it writes and while it waits. */
#ifndef TINYPTE_PICO2W_USB_DEVICE_H
#define TINYPTE_PICO2W_USB_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

/** Reset and start the controller, then connect (pull-up on D+). `serial` (NUL-terminated,
 *  kept) is the serial-number string. Needs clk_usb running (tp_rp2350_clocks_init). */
void tp_usb_init(const char *serial);

/** Handle whatever the host did since the last call: bus reset, SETUP, finished buffers. */
void tp_usb_poll(void);

/** Whether the host has configured the device and set DTR (a terminal has the port open). */
bool tp_usb_dtr(void);

/** Whether the data IN endpoint can take a packet now (the last one was collected). */
bool tp_usb_ready(void);

/** Queue `size` (<= 64) bytes on the data IN endpoint; call only when tp_usb_ready(). */
void tp_usb_send(const uint8_t *data, uint32_t size);

#endif /* TINYPTE_PICO2W_USB_DEVICE_H */
