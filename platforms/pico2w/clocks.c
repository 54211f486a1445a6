/* Pico 2 W clocks, as the Pico SDK's defaults set them, on the registers (RP2350 datasheet,
 * "Clocks", "Crystal oscillator", "PLL"): the 12 MHz crystal drives clk_ref and clk_peri (the
 * UART), PLL_SYS makes clk_sys 150 MHz (1500 MHz VCO / 5 / 2), PLL_USB makes clk_usb 48 MHz
 * (1200 MHz VCO / 5 / 5), and TIMER0 counts microseconds (12 clk_ref cycles per tick). The
 * boot ROM leaves the chip on its ring oscillator, whose frequency is only roughly known. */
#include "clocks.h"

#include "rp2350_regs.h"

static void start_xosc(void) {
  TP_REG(TP_XOSC_CTRL) = TP_XOSC_CTRL_1_15MHZ;     /* CTRL.FREQ_RANGE */
  TP_REG(TP_XOSC_STARTUP) = TP_XOSC_STARTUP_DELAY; /* STARTUP.DELAY */
  TP_SET(TP_XOSC_CTRL) = TP_XOSC_CTRL_ENABLE;      /* CTRL.ENABLE */
  while (!(TP_REG(TP_XOSC_STATUS) & TP_XOSC_STATUS_STABLE)) {
  }
}

static void unreset(uint32_t blocks) {
  TP_CLR(TP_RESETS_RESET) = blocks;
  while ((TP_REG(TP_RESETS_DONE) & blocks) != blocks) {
  }
}

/* VCO = 12 MHz * fbdiv, out = VCO / postdiv1 / postdiv2; the PLL was just taken out of reset. */
static void start_pll(uint32_t pll, uint32_t fbdiv, uint32_t postdiv1, uint32_t postdiv2) {
  TP_REG(pll + TP_PLL_FBDIV_INT) = fbdiv;
  TP_CLR(pll + TP_PLL_PWR) = TP_PLL_PWR_PD | TP_PLL_PWR_VCOPD;
  while (!(TP_REG(pll + TP_PLL_CS) & TP_PLL_CS_LOCK)) {
  }
  TP_REG(pll + TP_PLL_PRIM) = (postdiv1 << 16) | (postdiv2 << 12);
  TP_CLR(pll + TP_PLL_PWR) = TP_PLL_PWR_POSTDIVPD;
}

void tp_rp2350_clocks_init(void) {
  start_xosc();
  /* clk_ref from the crystal (a glitchless mux: wait until it has switched). */
  TP_REG(TP_CLK_REF_CTRL) = TP_CLK_REF_SRC_XOSC;
  while (TP_REG(TP_CLK_REF_SELECTED) != (1u << TP_CLK_REF_SRC_XOSC)) {
  }
  /* clk_sys onto clk_ref while PLL_SYS starts, then onto PLL_SYS. */
  TP_REG(TP_CLK_SYS_CTRL) = 0;
  while (TP_REG(TP_CLK_SYS_SELECTED) != 1u) {
  }
  unreset(TP_RESET_PLL_SYS | TP_RESET_PLL_USB | TP_RESET_TIMER0);
  start_pll(TP_PLL_SYS, 125, 5, 2);
  start_pll(TP_PLL_USB, 100, 5, 5);
  TP_REG(TP_CLK_SYS_CTRL) = TP_CLK_SYS_SRC_AUX;
  while (TP_REG(TP_CLK_SYS_SELECTED) != (1u << TP_CLK_SYS_SRC_AUX)) {
  }
  /* clk_peri from the crystal (exact UART baud rates); clk_usb from PLL_USB, divider 1. */
  TP_REG(TP_CLK_PERI_CTRL) = TP_CLK_PERI_AUXSRC_XOSC | TP_CLK_ENABLE;
  TP_REG(TP_CLK_USB_DIV) = 1u << 16;
  TP_REG(TP_CLK_USB_CTRL) = TP_CLK_ENABLE;
  /* TIMER0 ticks once per microsecond of clk_ref. */
  TP_REG(TP_TICKS_TIMER0_CYCLES) = TP_XOSC_HZ / 1000000u;
  TP_REG(TP_TICKS_TIMER0_CTRL) = TP_TICKS_ENABLE;
}

void tp_rp2350_unreset(uint32_t blocks) { unreset(blocks); }

uint32_t tp_rp2350_microseconds(void) { return TP_REG(TP_TIMER0_TIMERAWL); }
