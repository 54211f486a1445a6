/* The RP2350 USB controller in device mode, on its registers and DPRAM (RP2350 datasheet,
 * "USB": "Device mode", "Buffer control", "Programmer's model"). No Pico SDK, no TinyUSB.
 *
 * EP0 answers the standard requests a host makes while enumerating (GET_DESCRIPTOR,
 * SET_ADDRESS, SET_CONFIGURATION, GET_STATUS, GET_CONFIGURATION) and the CDC ACM class
 * requests (SET/GET_LINE_CODING, SET_CONTROL_LINE_STATE, whose DTR bit says a terminal has
 * opened the port, and whose clearing ends the input); anything else is stalled. A packet the
 * host sends to the data OUT endpoint stays in its DPRAM buffer until tp_usb_receive has handed
 * it out; only then is the buffer armed again, so the host sends no faster than the firmware
 * reads (a firmware that never reads takes one packet, and the host's next write waits). A
 * buffer is handed to the controller by writing its control word without AVAILABLE, waiting,
 * then setting AVAILABLE, as the datasheet asks when clk_sys is faster than clk_usb. */
#include "usb_device.h"

#include <stddef.h>
#include <string.h>

#include "clocks.h"
#include "rp2350_regs.h"
#include "usb_descriptors.h"

/* DPRAM offsets of the data endpoints' buffers (after EP0's at 0x100..0x17f). */
#define DATA_IN_BUF 0x180u
#define DATA_OUT_BUF 0x1c0u
#define NOTIFY_IN_BUF 0x200u

/* USB 2.0 table 9-4 requests, and CDC PSTN's. */
enum {
  GET_STATUS = 0,
  SET_ADDRESS = 5,
  GET_DESCRIPTOR = 6,
  GET_CONFIGURATION = 8,
  SET_CONFIGURATION = 9,
  SET_LINE_CODING = 0x20,
  GET_LINE_CODING = 0x21,
  SET_CONTROL_LINE_STATE = 0x22,
};

typedef struct usb_state {
  const uint8_t *in_data; /* rest of an EP0 IN data stage */
  uint32_t in_left;
  uint32_t ep0_pid;       /* TP_USB_BUF_DATA1 or 0: the next EP0 packet's PID */
  uint32_t data_in_pid;
  uint32_t data_out_pid;
  uint8_t address;        /* set after the SET_ADDRESS status stage */
  uint8_t data_out_taken; /* bytes of the received OUT packet tp_usb_receive has handed out */
  bool address_pending;
  bool line_coding_pending; /* the EP0 OUT buffer holds SET_LINE_CODING's data */
  bool configured;
  bool dtr;
  bool hung_up; /* DTR dropped (or a bus reset) after a terminal had the port open */
  bool data_in_busy;
  uint8_t line_coding[7]; /* dwDTERate, bCharFormat, bParityType, bDataBits */
  uint8_t reply[64];      /* EP0 replies built at run time (strings, status) */
  const char *serial;
} usb_state;

static usb_state usb;

static volatile uint8_t *dpram(uint32_t offset) { return (volatile uint8_t *)(TP_USB_DPRAM + offset); }

/* Give a buffer to the controller: control word first, AVAILABLE after >= 12 clk_sys cycles. */
static void hand_over(uint32_t buf_ctrl, uint32_t word) {
  TP_REG(buf_ctrl) = word;
  for (int i = 0; i < 12; i++) {
    __asm__ volatile("nop");
  }
  TP_REG(buf_ctrl) = word | TP_USB_BUF_AVAILABLE;
}

static void copy_to_dpram(uint32_t offset, const uint8_t *data, uint32_t size) {
  for (uint32_t i = 0; i < size; i++) {
    dpram(offset)[i] = data[i];
  }
}

/* The next packet of the EP0 IN data stage (or a zero-length status packet). */
static void ep0_send_next(void) {
  uint32_t size = usb.in_left < TP_USB_PACKET ? usb.in_left : TP_USB_PACKET;
  if (size != 0) {
    copy_to_dpram(TP_USB_EP0_BUF, usb.in_data, size);
    usb.in_data += size;
    usb.in_left -= size;
  }
  hand_over(TP_USB_BUF_CTRL_IN(0), size | usb.ep0_pid | TP_USB_BUF_FULL | TP_USB_BUF_LAST);
  usb.ep0_pid ^= TP_USB_BUF_DATA1;
}

static void ep0_receive(void) { hand_over(TP_USB_BUF_CTRL_OUT(0), TP_USB_PACKET | usb.ep0_pid); }

/* A control read: `size` bytes of `data` (at most what the host asked for), then the host's
 * zero-length OUT status packet. */
static void ep0_reply(const uint8_t *data, uint32_t size, uint32_t asked) {
  usb.in_data = data;
  usb.in_left = size < asked ? size : asked;
  ep0_send_next();
}

static void ep0_status_in(void) { ep0_reply(NULL, 0, 0); }

static void ep0_stall(void) {
  TP_REG(TP_USB_EP_STALL_ARM) = 3u; /* EP0 IN and OUT */
  TP_REG(TP_USB_BUF_CTRL_IN(0)) = TP_USB_BUF_STALL;
  TP_REG(TP_USB_BUF_CTRL_OUT(0)) = TP_USB_BUF_STALL;
}

/* A string descriptor: its ASCII text as UTF-16LE, or the language list (US English). */
static uint32_t string_descriptor(uint32_t index, uint8_t *out) {
  if (index == TP_USB_STRING_LANGUAGES) {
    const uint8_t languages[4] = {4, 3, 0x09, 0x04};
    memcpy(out, languages, sizeof languages);
    return sizeof languages;
  }
  const char *text = tp_usb_string(index, usb.serial);
  if (text == NULL) {
    return 0;
  }
  uint32_t n = 0;
  for (; text[n] != '\0' && 2u + 2u * n + 2u <= 64u; n++) {
    out[2 + 2 * n] = (uint8_t)text[n];
    out[3 + 2 * n] = 0;
  }
  out[0] = (uint8_t)(2 + 2 * n);
  out[1] = 3;
  return out[0];
}

static void get_descriptor(uint32_t type, uint32_t index, uint32_t asked) {
  switch (type) {
    case 1:
      ep0_reply(tp_usb_device_descriptor, sizeof tp_usb_device_descriptor, asked);
      return;
    case 2:
      ep0_reply(tp_usb_config_descriptor, sizeof tp_usb_config_descriptor, asked);
      return;
    case 3: {
      uint32_t size = string_descriptor(index, usb.reply);
      if (size != 0) {
        ep0_reply(usb.reply, size, asked);
        return;
      }
      break;
    }
    default: /* DEVICE_QUALIFIER and others: a full-speed-only device stalls them */
      break;
  }
  ep0_stall();
}

static void configure_data_endpoints(void) {
  TP_REG(TP_USB_EP_CTRL_IN(TP_USB_EP_DATA_IN)) =
      TP_USB_EP_CTRL_ENABLE | TP_USB_EP_CTRL_INT_PER_BUFF | TP_USB_EP_CTRL_TYPE_BULK | DATA_IN_BUF;
  TP_REG(TP_USB_EP_CTRL_OUT(TP_USB_EP_DATA_OUT)) =
      TP_USB_EP_CTRL_ENABLE | TP_USB_EP_CTRL_INT_PER_BUFF | TP_USB_EP_CTRL_TYPE_BULK | DATA_OUT_BUF;
  TP_REG(TP_USB_EP_CTRL_IN(TP_USB_EP_NOTIFY_IN)) =
      TP_USB_EP_CTRL_ENABLE | TP_USB_EP_CTRL_INT_PER_BUFF | TP_USB_EP_CTRL_TYPE_INTERRUPT | NOTIFY_IN_BUF;
  usb.data_in_pid = 0;
  usb.data_out_pid = 0;
  usb.data_out_taken = 0;
  usb.data_in_busy = false;
  hand_over(TP_USB_BUF_CTRL_OUT(TP_USB_EP_DATA_OUT), TP_USB_PACKET | usb.data_out_pid);
}

static void on_setup(void) {
  uint8_t s[8];
  for (uint32_t i = 0; i < 8; i++) {
    s[i] = dpram(0)[i];
  }
  const uint32_t request_type = s[0], request = s[1];
  const uint32_t value = s[2] | (uint32_t)s[3] << 8, length = s[6] | (uint32_t)s[7] << 8;
  usb.ep0_pid = TP_USB_BUF_DATA1; /* the data or status stage starts with DATA1 */
  usb.in_left = 0;
  usb.line_coding_pending = false;
  if ((request_type & 0x60u) == 0x20u) { /* class request to the ACM interface */
    if (request == SET_LINE_CODING) {
      usb.line_coding_pending = true;
      ep0_receive();
    } else if (request == GET_LINE_CODING) {
      ep0_reply(usb.line_coding, sizeof usb.line_coding, length);
    } else if (request == SET_CONTROL_LINE_STATE) {
      const bool dtr = (value & 1u) != 0;
      usb.hung_up = usb.hung_up || (usb.dtr && !dtr);
      usb.dtr = dtr;
      ep0_status_in();
    } else {
      ep0_stall();
    }
    return;
  }
  switch (request) {
    case GET_DESCRIPTOR:
      get_descriptor(value >> 8, value & 0xffu, length);
      return;
    case SET_ADDRESS:
      usb.address = (uint8_t)(value & 0x7fu);
      usb.address_pending = true; /* takes effect after the status stage */
      ep0_status_in();
      return;
    case SET_CONFIGURATION:
      usb.configured = value == 1u;
      if (usb.configured) {
        configure_data_endpoints();
      }
      ep0_status_in();
      return;
    case GET_CONFIGURATION:
      usb.reply[0] = usb.configured ? 1u : 0u;
      ep0_reply(usb.reply, 1, length);
      return;
    case GET_STATUS:
      usb.reply[0] = 0; /* bus powered, no remote wake-up; endpoints not halted */
      usb.reply[1] = 0;
      ep0_reply(usb.reply, 2, length);
      return;
    default:
      ep0_stall();
  }
}

static void on_ep0_in_done(void) {
  if (usb.address_pending) {
    TP_REG(TP_USB_ADDR_ENDP) = usb.address;
    usb.address_pending = false;
  }
  if (usb.in_left != 0) {
    ep0_send_next();
  } else if (usb.in_data != NULL) {
    usb.in_data = NULL;
    usb.ep0_pid = TP_USB_BUF_DATA1; /* status stages are DATA1 */
    ep0_receive();                  /* the host's zero-length status packet */
  }
}

static void on_ep0_out_done(void) {
  if (usb.line_coding_pending) {
    for (uint32_t i = 0; i < sizeof usb.line_coding; i++) {
      usb.line_coding[i] = dpram(TP_USB_EP0_BUF)[i];
    }
    usb.line_coding_pending = false;
    usb.ep0_pid = TP_USB_BUF_DATA1;
    ep0_status_in();
  }
}

static void on_bus_reset(void) {
  TP_REG(TP_USB_ADDR_ENDP) = 0;
  usb.address_pending = false;
  usb.configured = false;
  usb.hung_up = usb.hung_up || usb.dtr;
  usb.dtr = false;
  usb.data_in_busy = false;
}

void tp_usb_poll(void) {
  const uint32_t status = TP_REG(TP_USB_SIE_STATUS);
  if (status & TP_USB_SIE_STATUS_BUS_RESET) {
    TP_REG(TP_USB_SIE_STATUS) = TP_USB_SIE_STATUS_BUS_RESET; /* write 1 to clear */
    on_bus_reset();
  }
  if (status & TP_USB_SIE_STATUS_SETUP_REC) {
    TP_REG(TP_USB_SIE_STATUS) = TP_USB_SIE_STATUS_SETUP_REC;
    on_setup();
  }
  const uint32_t done = TP_REG(TP_USB_BUFF_STATUS); /* bit 2n: EPn IN, 2n + 1: EPn OUT */
  if (done == 0) {
    return;
  }
  TP_REG(TP_USB_BUFF_STATUS) = done;
  if (done & (1u << 0)) {
    on_ep0_in_done();
  }
  if (done & (1u << 1)) {
    on_ep0_out_done();
  }
  if (done & (1u << (2 * TP_USB_EP_DATA_IN))) {
    usb.data_in_busy = false;
  }
  /* The data OUT endpoint's packet stays in its buffer (FULL, not AVAILABLE: the host's next
   * one is NAKed) until tp_usb_receive has handed it all out and is asked for more. */
}

void tp_usb_init(const char *serial) {
  memset(&usb, 0, sizeof usb);
  usb.serial = serial;
  const uint8_t line_coding[7] = {0x00, 0xc2, 0x01, 0x00, 0, 0, 8}; /* 115200 8N1 */
  memcpy(usb.line_coding, line_coding, sizeof line_coding);
  TP_SET(TP_RESETS_RESET) = TP_RESET_USBCTRL;
  tp_rp2350_unreset(TP_RESET_USBCTRL);
  for (uint32_t i = 0; i < TP_USB_DPRAM_SIZE; i++) {
    dpram(0)[i] = 0;
  }
  /* Controller to the on-chip PHY, connection under software control, VBUS taken as present
   * (the Pico 2 W does not route VBUS sensing to the controller). Writing MAIN_CTRL also
   * clears PHY_ISO, which holds the PHY isolated after reset. */
  TP_REG(TP_USB_MUXING) = TP_USB_MUXING_TO_PHY | TP_USB_MUXING_SOFTCON;
  TP_REG(TP_USB_PWR) = TP_USB_PWR_VBUS_DETECT | TP_USB_PWR_VBUS_DETECT_OVERRIDE_EN;
  TP_REG(TP_USB_MAIN_CTRL) = TP_USB_MAIN_CTRL_CONTROLLER_EN;
  TP_REG(TP_USB_SIE_CTRL) = TP_USB_SIE_CTRL_EP0_INT_1BUF;
  TP_SET(TP_USB_SIE_CTRL) = TP_USB_SIE_CTRL_PULLUP_EN; /* connect: the host sees a device */
}

bool tp_usb_dtr(void) { return usb.configured && usb.dtr; }

bool tp_usb_input_ended(void) {
  const bool ended = usb.hung_up;
  if (ended && tp_usb_dtr()) {
    usb.hung_up = false; /* reported once; a terminal has opened the port again */
  }
  return ended;
}

uint32_t tp_usb_receive(uint8_t *data, uint32_t size) {
  const uint32_t control = TP_REG(TP_USB_BUF_CTRL_OUT(TP_USB_EP_DATA_OUT));
  if (!usb.configured || (control & TP_USB_BUF_FULL) == 0 || (control & TP_USB_BUF_AVAILABLE) != 0) {
    return 0; /* no packet has come since the buffer was handed over */
  }
  uint32_t length = control & TP_USB_BUF_LENGTH;
  length = length < TP_USB_PACKET ? length : TP_USB_PACKET;
  if (usb.data_out_taken >= length) { /* all handed out (or a zero-length packet): the next one */
    usb.data_out_taken = 0;
    usb.data_out_pid ^= TP_USB_BUF_DATA1;
    hand_over(TP_USB_BUF_CTRL_OUT(TP_USB_EP_DATA_OUT), TP_USB_PACKET | usb.data_out_pid);
    return 0;
  }
  uint32_t n = length - usb.data_out_taken;
  n = n < size ? n : size;
  for (uint32_t i = 0; i < n; i++) {
    data[i] = dpram(DATA_OUT_BUF + usb.data_out_taken)[i];
  }
  usb.data_out_taken = (uint8_t)(usb.data_out_taken + n);
  return n;
}

bool tp_usb_ready(void) { return usb.configured && !usb.data_in_busy; }

void tp_usb_send(const uint8_t *data, uint32_t size) {
  copy_to_dpram(DATA_IN_BUF, data, size);
  usb.data_in_busy = true;
  hand_over(TP_USB_BUF_CTRL_IN(TP_USB_EP_DATA_IN), size | usb.data_in_pid | TP_USB_BUF_FULL);
  usb.data_in_pid ^= TP_USB_BUF_DATA1;
}
