/* The console's USB descriptors (USB 2.0 chapter 9; CDC 1.2 and its PSTN subclass for the
 * ACM functional descriptors). Little-endian 16-bit fields are written low byte first. */
#include "usb_descriptors.h"

#include <stddef.h>

#define LO(x) ((uint8_t)((x) & 0xffu))
#define HI(x) ((uint8_t)((x) >> 8))

const uint8_t tp_usb_device_descriptor[18] = {
    18, 1,                   /* bLength, DEVICE */
    0x00, 0x02,              /* bcdUSB 2.00 */
    0x02, 0x00, 0x00,        /* class: Communications (interfaces say the rest) */
    TP_USB_PACKET,           /* bMaxPacketSize0 */
    LO(TP_USB_VID), HI(TP_USB_VID), LO(TP_USB_PID), HI(TP_USB_PID),
    0x00, 0x01,              /* bcdDevice 1.00 */
    TP_USB_STRING_MANUFACTURER, TP_USB_STRING_PRODUCT, TP_USB_STRING_SERIAL,
    1,                       /* bNumConfigurations */
};

const uint8_t tp_usb_config_descriptor[67] = {
    9, 2, 67, 0,             /* CONFIGURATION, wTotalLength 67 */
    2, 1, 0,                 /* 2 interfaces, bConfigurationValue 1, no string */
    0x80, 50,                /* bus powered, 100 mA */
    /* Interface 0: Communications, ACM, no protocol; one interrupt endpoint. */
    9, 4, 0, 0, 1, 0x02, 0x02, 0x00, 0,
    5, 0x24, 0x00, 0x10, 0x01,  /* CDC Header: bcdCDC 1.10 */
    5, 0x24, 0x01, 0x00, 1,     /* Call Management: none, data interface 1 */
    4, 0x24, 0x02, 0x02,        /* ACM: SET/GET_LINE_CODING, SET_CONTROL_LINE_STATE */
    5, 0x24, 0x06, 0, 1,        /* Union: control interface 0, data interface 1 */
    7, 5, 0x80 | TP_USB_EP_NOTIFY_IN, 0x03, 8, 0, 16, /* interrupt IN, 8 bytes, 16 ms */
    /* Interface 1: CDC Data; bulk OUT and IN. */
    9, 4, 1, 0, 2, 0x0a, 0x00, 0x00, 0,
    7, 5, TP_USB_EP_DATA_OUT, 0x02, TP_USB_PACKET, 0, 0,
    7, 5, 0x80 | TP_USB_EP_DATA_IN, 0x02, TP_USB_PACKET, 0, 0,
};

const char *tp_usb_string(uint32_t index, const char *serial) {
  switch (index) {
    case TP_USB_STRING_MANUFACTURER:
      return "tinypte";
    case TP_USB_STRING_PRODUCT:
      return "tinypte Pico 2 W console";
    case TP_USB_STRING_SERIAL:
      return serial;
    default:
      return NULL;
  }
}
