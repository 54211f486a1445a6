/* RP2350 register addresses and fields the Pico 2 W start-up and consoles use (RP2350
 * datasheet; names as in its register tables). Writes to the +0x2000 (SET) and +0x3000 (CLR)
 * aliases change only the given bits ("Atomic register access"). */
#ifndef TINYPTE_RP2350_REGS_H
#define TINYPTE_RP2350_REGS_H

#include <stdint.h>

#define TP_REG(addr) (*(volatile uint32_t *)(addr))
#define TP_SET(addr) TP_REG((addr) + 0x2000u)
#define TP_CLR(addr) TP_REG((addr) + 0x3000u)

/* XOSC: the 12 MHz crystal. */
#define TP_XOSC_CTRL 0x40048000u
#define TP_XOSC_STATUS 0x40048004u
#define TP_XOSC_STARTUP 0x4004800cu
#define TP_XOSC_CTRL_1_15MHZ 0xaa0u        /* FREQ_RANGE: 1-15 MHz crystal */
#define TP_XOSC_CTRL_ENABLE (0xfabu << 12) /* ENABLE magic value */
#define TP_XOSC_STATUS_STABLE (1u << 31)
#define TP_XOSC_STARTUP_DELAY 47u /* (12 MHz / 1000 + 128) / 256: ~1 ms */
#define TP_XOSC_HZ 12000000u

/* CLOCKS: CTRL, DIV and SELECTED of each clock. */
#define TP_CLK_REF_CTRL 0x40010030u
#define TP_CLK_REF_SELECTED 0x40010038u
#define TP_CLK_REF_SRC_XOSC 2u
#define TP_CLK_SYS_CTRL 0x4001003cu
#define TP_CLK_SYS_SELECTED 0x40010044u
#define TP_CLK_SYS_SRC_AUX 1u      /* SRC: clksrc_clk_sys_aux (AUXSRC 0 = PLL_SYS) */
#define TP_CLK_PERI_CTRL 0x40010048u
#define TP_CLK_PERI_AUXSRC_XOSC (4u << 5)
#define TP_CLK_USB_CTRL 0x40010060u
#define TP_CLK_USB_DIV 0x40010064u /* integer part in bits 31:16 */
#define TP_CLK_ENABLE (1u << 11)   /* CLK_PERI_CTRL, CLK_USB_CTRL: ENABLE; AUXSRC 0 = PLL_USB for clk_usb */

/* PLL_SYS, PLL_USB: CS, PWR, FBDIV_INT, PRIM. */
#define TP_PLL_SYS 0x40050000u
#define TP_PLL_USB 0x40058000u
#define TP_PLL_CS 0x0u
#define TP_PLL_PWR 0x4u
#define TP_PLL_FBDIV_INT 0x8u
#define TP_PLL_PRIM 0xcu
#define TP_PLL_CS_LOCK (1u << 31)
#define TP_PLL_PWR_PD (1u << 0)
#define TP_PLL_PWR_POSTDIVPD (1u << 3)
#define TP_PLL_PWR_VCOPD (1u << 5)

/* RESETS: RESET (1 = held in reset), RESET_DONE. */
#define TP_RESETS_RESET 0x40020000u
#define TP_RESETS_DONE 0x40020008u
#define TP_RESET_IO_BANK0 (1u << 6)
#define TP_RESET_PADS_BANK0 (1u << 9)
#define TP_RESET_PLL_SYS (1u << 14)
#define TP_RESET_PLL_USB (1u << 15)
#define TP_RESET_TIMER0 (1u << 23)
#define TP_RESET_UART0 (1u << 26)
#define TP_RESET_USBCTRL (1u << 28)

/* TICKS: the tick generator of TIMER0 (1 tick per microsecond from clk_ref). */
#define TP_TICKS_TIMER0_CTRL 0x40108018u
#define TP_TICKS_TIMER0_CYCLES 0x4010801cu
#define TP_TICKS_ENABLE 1u

/* TIMER0: the microsecond counter. */
#define TP_TIMER0_TIMERAWL 0x400b0028u

/* OTP: ECC-corrected rows, 16 bits each, two per word; rows 0-3 are the chip's unique ID. */
#define TP_OTP_DATA 0x40130000u

/* USB controller: registers, and its 4 KiB dual-port RAM (endpoint and buffer control
 * words, the EP0 buffer and data buffers). */
#define TP_USB_REGS 0x50110000u
#define TP_USB_ADDR_ENDP (TP_USB_REGS + 0x00u)
#define TP_USB_MAIN_CTRL (TP_USB_REGS + 0x40u)
#define TP_USB_SIE_CTRL (TP_USB_REGS + 0x4cu)
#define TP_USB_SIE_STATUS (TP_USB_REGS + 0x50u)
#define TP_USB_BUFF_STATUS (TP_USB_REGS + 0x58u)
#define TP_USB_EP_STALL_ARM (TP_USB_REGS + 0x68u)
#define TP_USB_MUXING (TP_USB_REGS + 0x74u)
#define TP_USB_PWR (TP_USB_REGS + 0x78u)
#define TP_USB_MAIN_CTRL_CONTROLLER_EN (1u << 0)
#define TP_USB_SIE_CTRL_PULLUP_EN (1u << 16)
#define TP_USB_SIE_CTRL_EP0_INT_1BUF (1u << 29)
#define TP_USB_SIE_STATUS_SETUP_REC (1u << 17)
#define TP_USB_SIE_STATUS_BUS_RESET (1u << 19)
#define TP_USB_MUXING_TO_PHY (1u << 0)
#define TP_USB_MUXING_SOFTCON (1u << 3)
#define TP_USB_PWR_VBUS_DETECT (1u << 2)
#define TP_USB_PWR_VBUS_DETECT_OVERRIDE_EN (1u << 3)

#define TP_USB_DPRAM 0x50100000u
#define TP_USB_DPRAM_SIZE 4096u
#define TP_USB_EP_CTRL_IN(ep) (TP_USB_DPRAM + 8u * (ep))        /* ep 1-15 */
#define TP_USB_EP_CTRL_OUT(ep) (TP_USB_DPRAM + 8u * (ep) + 4u)  /* ep 1-15 */
#define TP_USB_BUF_CTRL_IN(ep) (TP_USB_DPRAM + 0x80u + 8u * (ep))
#define TP_USB_BUF_CTRL_OUT(ep) (TP_USB_DPRAM + 0x84u + 8u * (ep))
#define TP_USB_EP0_BUF 0x100u /* DPRAM offset of EP0's 64-byte buffer (IN and OUT) */
#define TP_USB_EP_CTRL_ENABLE (1u << 31)
#define TP_USB_EP_CTRL_INT_PER_BUFF (1u << 29)
#define TP_USB_EP_CTRL_TYPE_BULK (2u << 26)
#define TP_USB_EP_CTRL_TYPE_INTERRUPT (3u << 26)
#define TP_USB_BUF_FULL (1u << 15)
#define TP_USB_BUF_LAST (1u << 14)
#define TP_USB_BUF_DATA1 (1u << 13)
#define TP_USB_BUF_STALL (1u << 11)
#define TP_USB_BUF_AVAILABLE (1u << 10)
#define TP_USB_BUF_LENGTH 0x3ffu /* the buffer's byte count: set by the controller for a received packet */

#endif /* TINYPTE_RP2350_REGS_H */
