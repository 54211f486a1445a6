/* Driver of an Arm Ethos-U55 NPU: runs the command stream Vela writes into an ExecuTorch
 * Ethos-U delegate blob (its `cmd_data` block) and reports what went wrong in one line.
 *
 * Freestanding C11, no allocation, no interrupts: a run starts the NPU and polls STATUS. The
 * caller owns the memory the command stream addresses: `region_base[n]` is the address the
 * NPU adds to every region-n offset (Vela's regions: 0 the weights, 1 the scratch holding the
 * inputs and outputs, 2 the fast scratch when the memory mode has one). On Corstone-300 the
 * NPU reaches the SRAM and the DDR, so those buffers belong there.
 *
 * Usage:
 *
 *     tp_ethos_u55 npu;
 *     if (tp_ethos_u55_init(&npu, tp_board_ethos_u55_base, 128) != TP_OK ||
 *         tp_ethos_u55_run(&npu, cmd_data, cmd_data_bytes, bases, 2) != TP_OK) {
 *       puts(tp_ethos_u55_reason(&npu));
 *     }
 */
#ifndef TINYPTE_ETHOS_U55_H
#define TINYPTE_ETHOS_U55_H

#include <stdint.h>

#include "tinypte/status.h"

/* STATUS polls a run may take before it counts as hung, unless the caller sets `poll_limit`
 * after tp_ethos_u55_init (a soft reset gets 100000 polls). */
#define TP_ETHOS_U55_DEFAULT_POLL_LIMIT 10000000u

/* The regions a command stream can address (BASEP0..7). */
#define TP_ETHOS_U55_REGIONS 8u

typedef struct tp_ethos_u55 {
  uintptr_t base;      /**< the register block's address */
  uint32_t macs;       /**< MACs per cycle the caller's blobs are compiled for */
  uint32_t poll_limit; /**< STATUS polls before a run counts as hung */
  uint32_t id;         /**< ID read by tp_ethos_u55_init */
  uint32_t config;     /**< CONFIG read by tp_ethos_u55_init */
  uint32_t status;     /**< STATUS when the last run ended */
  uint32_t polls;      /**< STATUS polls the last run took */
  char reason[112];    /**< why the last call failed ("" after a success) */
} tp_ethos_u55;

/**
 * Read ID and CONFIG, soft-reset the NPU into the Secure, privileged state and check that it
 * is an Ethos-U55 with `macs` MACs per cycle.
 * @param npu   the driver state to fill in.
 * @param base  the register block's address (the board's: tp_board_ethos_u55_base, tinypte/board.h).
 * @param macs  MACs per cycle the blobs are compiled for: 32, 64, 128 or 256.
 * @retval TP_OK                   ready to run.
 * @retval TP_ERR_INVALID_ARGUMENT `npu` NULL, `base` 0 or `macs` not a U55 configuration.
 * @retval TP_ERR_DELEGATE         another product or configuration, or the reset did not
 *                                 finish (tp_ethos_u55_reason says which register showed it).
 * After a failed init, runs fail until an init succeeds. After a run fails with an NPU error
 * (STATUS error bits), init again: its soft reset clears the NPU's state.
 */
tp_status tp_ethos_u55_init(tp_ethos_u55 *npu, uintptr_t base, uint32_t macs);

/**
 * Check Vela's driver payload and run each command stream in it to the end.
 *
 * The payload is 32-bit words: the fourcc 'COP1', then driver actions, each a tag word (action
 * in bits 0-7, a parameter in bits 16-31): OPTIMIZER_CONFIG (payload version, then the CONFIG
 * and ID words the stream was compiled for), COMMAND_STREAM (its length in words, bits 16-31
 * and 8-15, then the stream), READ_APB_REG and DUMP_SHRAM (debug dumps: this driver keeps no
 * dump buffer and skips them) and NOP. The whole payload is checked before the NPU is touched.
 * @param npu            an initialized driver.
 * @param cmd_data       the payload; 16-byte aligned (the NPU fetches the stream from it).
 * @param cmd_data_bytes its size.
 * @param region_base    the base address of each region 0 .. region_count - 1.
 * @param region_count   1 .. TP_ETHOS_U55_REGIONS; the other regions get base 0.
 * @retval TP_OK                   every stream reached its end without an error.
 * @retval TP_ERR_INVALID_ARGUMENT a NULL pointer, a bad region count, a misaligned payload.
 * @retval TP_ERR_CORRUPT          a payload Vela did not write: wrong fourcc, a truncated or
 *                                 unknown action, no command stream.
 * @retval TP_ERR_DELEGATE         a payload for another NPU configuration or payload version,
 *                                 or the NPU reported an error or did not stop in time.
 */
tp_status tp_ethos_u55_run(tp_ethos_u55 *npu, const uint8_t *cmd_data, uint32_t cmd_data_bytes,
                           const uint64_t *region_base, uint32_t region_count);

/** @return why the last init or run failed, one line naming the register and field (e.g.
 *  "Ethos-U55 STATUS=0x00000013 cmd_parse_error at QREAD=0x00000010"); "" after a success,
 *  "Ethos-U55: no driver state" for NULL. */
const char *tp_ethos_u55_reason(const tp_ethos_u55 *npu);

#endif /* TINYPTE_ETHOS_U55_H */
