/* Board API: what every board provides to firmware, and what firmware provides back.
 *
 * A board's support library (tinypte_board's `<board>_support`) implements the tp_board_*
 * and tp_console_* functions: semihosting under QEMU, a UART on real hardware. The
 * application provides `int main(void)`; when it returns, its value is the exit status.
 */
#ifndef TINYPTE_BOARD_H
#define TINYPTE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses that the board code itself uses. Applications return 0 on success. */
enum {
  TP_EXIT_OK = 0,
  TP_EXIT_FAILURE = 1,
  TP_EXIT_FAULT = 2 /* a CPU fault or trap was caught and reported */
};

/** @retval The board's name, e.g. "mps2_an505". */
const char *tp_board_name(void);

/** Board bring-up that must happen before main (clocks, console). Called once. */
void tp_board_init(void);

/**
 * Write bytes to the board console (no newline translation).
 * @param text  bytes to write.
 * @param size  number of bytes.
 */
void tp_console_write(const char *text, size_t size);

/**
 * Read bytes from the board console (what a terminal or the host sends; no echo, no line
 * editing): waits until at least one byte has come, then returns the bytes there are, at most
 * `size`. Returns 0 at the end of the input (an emulator's standard input closed, a USB
 * terminal that closed the port); on hardware a UART's input never ends.
 * @param buffer  where the bytes go.
 * @param size    room in `buffer`, at least 1.
 * @retval        bytes read, 0 at the end of the input.
 */
size_t tp_console_read(char *buffer, size_t size);

/** Write a NUL-terminated string to the console. */
void tp_console_puts(const char *text);

/** Write `value` as 0x-prefixed, 8-digit hexadecimal. */
void tp_console_put_hex(uint32_t value);

/**
 * A free-running tick counter for timing code (SysTick at the CPU clock on Cortex-M,
 * mcycle on RISC-V); the first call starts it. Elapsed ticks between two readings a and b
 * are (b - a) & tp_board_ticks_mask(). Under QEMU the ticks follow QEMU's virtual clock.
 */
uint32_t tp_board_ticks(void);
uint32_t tp_board_ticks_mask(void);
/** "systick" or "mcycle": what the ticks count. */
const char *tp_board_ticks_source(void);

/**
 * true on boards that have nowhere to exit to (real hardware): demo apps then repeat
 * their work forever so a serial monitor keeps receiving. The default (weak, in start.c)
 * is false; the Pico 2 W returns true.
 */
bool tp_board_loops_forever(void);

/**
 * End the program with `status`: under an emulator QEMU exits with it; on hardware the
 * board parks the CPU. Never returns.
 */
_Noreturn void tp_board_exit(int status);

/** Report a fault or trap on the console and exit with TP_EXIT_FAULT. */
_Noreturn void tp_board_fault(const char *what, const uint32_t *words, const char *const *names, size_t count);

/** Bytes reserved for the main stack (the linker script's .stack). */
uint32_t tp_board_stack_size(void);

/**
 * The stack's high-water mark so far, in bytes: tp_start paints the stack before main, and
 * this finds the deepest word a call or an interrupt overwrote (an upper bound by tp_start's
 * own frame and 64 bytes below it).
 */
uint32_t tp_board_stack_used(void);

/* Entered from each architecture's reset code with a valid stack: initializes .data and
 * .bss, calls tp_board_init() and main(), then tp_board_exit(main's result). */
_Noreturn void tp_start(void);

/* Two cores: a board whose chip has a second core implements the two-core part's board
 * interface, tinypte/two_cores_board.h (runtime/two_cores), in its two_cores.c. */

/* The board's Arm Ethos-U55 register block, on a board with one: its start-up defines it (e.g.
 * platforms/corstone300_npu/npu.c). Weak, so that firmware for a board without an NPU links and
 * sees &tp_board_ethos_u55_base == NULL. */
extern const uintptr_t tp_board_ethos_u55_base __attribute__((weak));

#endif /* TINYPTE_BOARD_H */
