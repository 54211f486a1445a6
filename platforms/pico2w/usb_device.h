/* A polled USB full-speed device on the RP2350's USB controller: enumeration (EP0), and the
 * CDC ACM console's endpoints (usb_device.c): data IN (output), data OUT (input). Nothing runs in
 * interrupts: the controller is serviced by tp_usb_poll(), which the console calls while it
 * writes, reads and waits. */
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

/** Bytes the host sent to the data OUT endpoint: copies up to `size` bytes of the packet that
 *  has come into `data` and returns how many; 0 when none is there. A packet stays in its
 *  buffer (the host's next one waits, NAKed) until it has been handed out completely and the
 *  next call asks for more: only then is the buffer handed back to the controller. */
uint32_t tp_usb_receive(uint8_t *data, uint32_t size);

/** Whether the host's input has ended: a terminal that had the port open (DTR set) closed it
 *  (DTR cleared) or the bus was reset. Stays true while the port is closed; a call that finds a
 *  terminal has opened the port again reports it once and clears it. */
bool tp_usb_input_ended(void);

#endif /* TINYPTE_PICO2W_USB_DEVICE_H */
