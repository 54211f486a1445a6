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

/* --- Two cores ---
 * Boards whose chip has a second core (board(cores = 2): the RP2350, the AN521's second
 * Cortex-M33) implement these in their support library when the firmware is built with two
 * cores (the board's `cores` flag; firmware then has TP_BOARD_CORES == 2). The inference app
 * starts core 1 once and hands it to the runtime as its worker (tinypte/two_cores.h): kernels
 * post half of a large call to core 1, compute the other half, then wait. One job at a time. */

/** A job core 1 runs: job(arg). */
typedef void (*tp_core1_job)(void *arg);

/**
 * Start core 1 (once, before any post) on its own stack; it then waits for jobs.
 * @retval true once core 1 answered that it runs; false if it did not come up (the app reports
 *         it and runs on one core).
 */
bool tp_board_core1_start(void);

/** Hand `job(arg)` to core 1 and return at once (the previous job must have been waited for). */
void tp_board_core1_post(tp_core1_job job, void *arg);

/**
 * Wait until core 1 finished the job posted last.
 * @retval true when it did; false when core 1 did not answer within the board's timeout
 *         (TP_BOARD_CORE1_TIMEOUT_US), so a crashed core 1 ends the run with a status, not a hang.
 */
bool tp_board_core1_wait(void);

/* How long tp_board_core1_wait waits for core 1, in microseconds: far beyond any half of a
 * kernel call (the largest of the zoo's takes a few milliseconds at the boards' clocks). */
#define TP_BOARD_CORE1_TIMEOUT_US 2000000u

/** Core 1's stack high-water mark in bytes and its reservation (0, 0 when it never ran). */
uint32_t tp_board_core1_stack_used(void);
uint32_t tp_board_core1_stack_size(void);

/* The board's Arm Ethos-U55 register block, on a board with one: its start-up defines it (e.g.
 * platforms/corstone300_npu/npu.c). Weak, so that firmware for a board without an NPU links and
 * sees &tp_board_ethos_u55_base == NULL. */
extern const uintptr_t tp_board_ethos_u55_base __attribute__((weak));

#endif /* TINYPTE_BOARD_H */
