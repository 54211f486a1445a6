/* USB descriptors of the Pico 2 W console: one CDC ACM function (a "USB serial port" that the
 * stock drivers of Linux, macOS and Windows 10+ bind to). */
#ifndef TINYPTE_PICO2W_USB_DESCRIPTORS_H
#define TINYPTE_PICO2W_USB_DESCRIPTORS_H

#include <stdint.h>

/* Raspberry Pi's USB vendor ID and the product ID it documents for a Pico CDC serial port on
 * RP2350 (the Pico SDK's stdio over USB uses the same pair, so host tools that know Pico
 * serial ports know this one). A product of your own should ask Raspberry Pi for its own PID. */
#define TP_USB_VID 0x2e8au
#define TP_USB_PID 0x0009u

/* Endpoints: EP1 IN bulk (console output), EP2 OUT bulk (host input, discarded), EP3 IN
 * interrupt (CDC notifications, never sent). Full speed, 64-byte packets. */
#define TP_USB_EP_DATA_IN 1u
#define TP_USB_EP_DATA_OUT 2u
#define TP_USB_EP_NOTIFY_IN 3u
#define TP_USB_PACKET 64u

/* String descriptor indices. */
enum { TP_USB_STRING_LANGUAGES, TP_USB_STRING_MANUFACTURER, TP_USB_STRING_PRODUCT, TP_USB_STRING_SERIAL };

extern const uint8_t tp_usb_device_descriptor[18];
extern const uint8_t tp_usb_config_descriptor[67];

/** The ASCII text of string `index` (1-3; the serial number is `serial`), or NULL. */
const char *tp_usb_string(uint32_t index, const char *serial);

#endif /* TINYPTE_PICO2W_USB_DESCRIPTORS_H */
