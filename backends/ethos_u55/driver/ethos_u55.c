/* Ethos-U55 driver (tinypte/ethos_u55.h): checks Vela's driver payload, programs the regions
 * and the command queue, starts the NPU and polls STATUS to the end of each command stream.
 *
 * The payload format is Vela's (ethos-u-vela 5.1.0, ethosu/vela/driver_actions.py: the
 * 'COP1' fourcc, then DACommands actions); the registers and fields are the Ethos-U55's
 * (ethos_u55_regs.h). Settings that are the driver's choice, not the hardware's: region 0
 * (Vela's weights, which Vela reads through the NPU's external-memory port) and the command
 * stream use AXI1's counter 2, every other region AXI0's counter 0 (the SRAM port); all four
 * AXI limits allow 64-byte bursts, 32 reads and 16 writes outstanding, normal non-cacheable
 * bufferable memory. */
#include "tinypte/ethos_u55.h"

#include <stdbool.h>
#include <stddef.h>

#include "ethos_u55_regs.h"
#include "tinypte/ethos_u55_configs.h"

/* --- Vela's driver payload (driver_actions.py) --- */
#define TP__PAYLOAD_FOURCC 0x31504F43u /* 'C' 'O' 'P' '1', first byte lowest */
#define TP__ACTION_RESERVED 0x00u
#define TP__ACTION_OPTIMIZER_CONFIG 0x01u /* + the CONFIG word and the ID word */
#define TP__ACTION_COMMAND_STREAM 0x02u   /* + the stream: length in words in bits 16-31, 8-15 */
#define TP__ACTION_READ_APB_REG 0x03u
#define TP__ACTION_DUMP_SHRAM 0x04u
#define TP__ACTION_NOP 0x05u
#define TP__PAYLOAD_VERSION 0u /* OPTIMIZER_CONFIG's release field (bits 16-19) Vela writes */
#define TP__RESET_POLLS 100000u /* STATUS polls a soft reset may take */

/* --- Registers --- */

static uint32_t tp__read(const tp_ethos_u55 *npu, uint32_t offset) {
  return *(volatile const uint32_t *)(npu->base + offset);
}

static void tp__write(const tp_ethos_u55 *npu, uint32_t offset, uint32_t value) {
  *(volatile uint32_t *)(npu->base + offset) = value;
}

/* --- The one-line reason --- */

typedef struct tp__line {
  char *text;
  size_t size;
  size_t length;
} tp__line;

static tp__line tp__line_start(tp_ethos_u55 *npu) {
  tp__line line = {npu->reason, sizeof npu->reason, 0};
  npu->reason[0] = '\0';
  return line;
}

static void tp__put(tp__line *line, const char *text) {
  while (*text != '\0' && line->length + 1 < line->size) {
    line->text[line->length++] = *text++;
  }
  line->text[line->length] = '\0';
}

/* 0x and eight lowercase hex digits. */
static void tp__put_hex(tp__line *line, uint32_t value) {
  char digits[11];
  digits[0] = '0';
  digits[1] = 'x';
  for (uint32_t i = 0; i < 8u; i++) {
    const uint32_t nibble = (value >> (28u - 4u * i)) & 0xFu;
    digits[2u + i] = (char)(nibble < 10u ? '0' + nibble : 'a' + (nibble - 10u));
  }
  digits[10] = '\0';
  tp__put(line, digits);
}

/* Decimal, without leading zeros. */
static void tp__put_dec(tp__line *line, uint32_t value) {
  char digits[11];
  size_t at = sizeof digits - 1u;
  digits[at] = '\0';
  do {
    digits[--at] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0u);
  tp__put(line, &digits[at]);
}

/* "Ethos-U55 <REG>=0x........" */
static void tp__put_register(tp__line *line, const char *name, uint32_t value) {
  tp__put(line, "Ethos-U55 ");
  tp__put(line, name);
  tp__put(line, "=");
  tp__put_hex(line, value);
}

/* "Vela payload: <what> at byte N" */
static tp_status tp__payload_error(tp_ethos_u55 *npu, tp_status status, const char *what, uint32_t word) {
  tp__line line = tp__line_start(npu);
  tp__put(&line, "Vela payload: ");
  tp__put(&line, what);
  tp__put(&line, " at byte ");
  tp__put_dec(&line, 4u * word);
  return status;
}

/* log2 of `macs` when it is an Ethos-U55 configuration, else 0. The configurations are
 * tinypte/ethos_u55_configs.h's: each is checked here to be a power of two in 2^5..2^8. */
#define TP__CONFIG_CHECK(config_macs, log2_macs, shram_kb)                        \
  _Static_assert((config_macs) == 1u << (log2_macs) && (log2_macs) >= 5 && (log2_macs) <= 8, \
                 "an Ethos-U55 configuration outside what tp__log2_macs finds");
TP_ETHOS_U55_CONFIG_LIST(TP__CONFIG_CHECK)
#undef TP__CONFIG_CHECK

static uint32_t tp__log2_macs(uint32_t macs) {
  for (uint32_t log2 = 5; log2 <= 8; ++log2) {
    if (macs == 1u << log2) {
      return log2;
    }
  }
  return 0;
}

/* --- Init --- */

static tp_status tp__reset(tp_ethos_u55 *npu) {
  /* Soft reset into the state the firmware runs in: privileged, Secure (pending_csl 0). */
  tp__write(npu, TP_U55_RESET, TP_U55_RESET_PENDING_CPL_PRIVILEGED);
  uint32_t status = tp__read(npu, TP_U55_STATUS);
  for (uint32_t polls = 1; status & TP_U55_STATUS_RESET_STATUS; ++polls) {
    if (polls >= TP__RESET_POLLS) {
      tp__line line = tp__line_start(npu);
      tp__put_register(&line, "STATUS", status);
      tp__put(&line, " reset_status still set after ");
      tp__put_dec(&line, polls);
      tp__put(&line, " polls");
      return TP_ERR_DELEGATE;
    }
    status = tp__read(npu, TP_U55_STATUS);
  }
  const uint32_t prot = tp__read(npu, TP_U55_PROT);
  if (prot != TP_U55_PROT_ACTIVE_CPL_PRIVILEGED) {
    tp__line line = tp__line_start(npu);
    tp__put_register(&line, "PROT", prot);
    tp__put(&line, " after reset: expected active_cpl=1 (privileged), active_csl=0 (secure)");
    return TP_ERR_DELEGATE;
  }
  return TP_OK;
}

static tp_status tp__init(tp_ethos_u55 *npu, uintptr_t base, uint32_t macs) {
  *npu = (tp_ethos_u55){.base = base, .macs = macs, .poll_limit = TP_ETHOS_U55_DEFAULT_POLL_LIMIT};
  const uint32_t log2_macs = tp__log2_macs(macs);
  if (base == 0u || log2_macs == 0u) {
    tp__line line = tp__line_start(npu);
    tp__put(&line, base == 0u ? "Ethos-U55: base address 0" : "Ethos-U55: ");
    if (base != 0u) {
      tp__put_dec(&line, macs);
      tp__put(&line, " MACs/cycle is not an Ethos-U55 configuration (32, 64, 128 or 256)");
    }
    return TP_ERR_INVALID_ARGUMENT;
  }
  npu->id = tp__read(npu, TP_U55_ID);
  npu->config = tp__read(npu, TP_U55_CONFIG);
  tp__line line = tp__line_start(npu);
  if (TP_U55_CONFIG_PRODUCT(npu->config) != TP_U55_PRODUCT_ETHOS_U55) {
    tp__put_register(&line, "CONFIG", npu->config);
    tp__put(&line, " product=");
    tp__put_dec(&line, TP_U55_CONFIG_PRODUCT(npu->config));
    tp__put(&line, ": not an Ethos-U55 (product 0)");
    return TP_ERR_DELEGATE;
  }
  if (TP_U55_ID_ARCH_MAJOR(npu->id) != 1u) {
    tp__put_register(&line, "ID", npu->id);
    tp__put(&line, " arch_major_rev=");
    tp__put_dec(&line, TP_U55_ID_ARCH_MAJOR(npu->id));
    tp__put(&line, ": the driver knows architecture 1");
    return TP_ERR_DELEGATE;
  }
  if (TP_U55_CONFIG_MACS_PER_CC(npu->config) != log2_macs) {
    tp__put_register(&line, "CONFIG", npu->config);
    tp__put(&line, " macs_per_cc=");
    tp__put_dec(&line, TP_U55_CONFIG_MACS_PER_CC(npu->config));
    tp__put(&line, ": expected ");
    tp__put_dec(&line, log2_macs);
    tp__put(&line, " (");
    tp__put_dec(&line, macs);
    tp__put(&line, " MACs/cycle)");
    return TP_ERR_DELEGATE;
  }
  return tp__reset(npu);
}

tp_status tp_ethos_u55_init(tp_ethos_u55 *npu, uintptr_t base, uint32_t macs) {
  if (npu == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  const tp_status status = tp__init(npu, base, macs);
  if (status != TP_OK) {
    npu->base = 0; /* runs fail with "not initialized" until an init succeeds */
  }
  return status;
}

/* --- The payload --- */

static uint32_t tp__word(const uint8_t *data, uint32_t index) {
  const uint8_t *p = data + 4u * index;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The OPTIMIZER_CONFIG words against the NPU's CONFIG and ID. */
static tp_status tp__check_config(tp_ethos_u55 *npu, uint32_t config, uint32_t id, uint32_t at) {
  struct {
    const char *field;
    uint32_t payload, npu;
    bool ok;
  } const checks[] = {
      {"product", TP_U55_CONFIG_PRODUCT(config), TP_U55_CONFIG_PRODUCT(npu->config),
       TP_U55_CONFIG_PRODUCT(config) == TP_U55_CONFIG_PRODUCT(npu->config)},
      {"macs_per_cc", TP_U55_CONFIG_MACS_PER_CC(config), TP_U55_CONFIG_MACS_PER_CC(npu->config),
       TP_U55_CONFIG_MACS_PER_CC(config) == TP_U55_CONFIG_MACS_PER_CC(npu->config)},
      {"cmd_stream_version", TP_U55_CONFIG_CMD_STREAM_VERSION(config), TP_U55_CONFIG_CMD_STREAM_VERSION(npu->config),
       TP_U55_CONFIG_CMD_STREAM_VERSION(config) <= TP_U55_CONFIG_CMD_STREAM_VERSION(npu->config)},
      {"shram_size", TP_U55_CONFIG_SHRAM_SIZE(config), TP_U55_CONFIG_SHRAM_SIZE(npu->config),
       TP_U55_CONFIG_SHRAM_SIZE(config) == TP_U55_CONFIG_SHRAM_SIZE(npu->config)},
      {"arch_major_rev", TP_U55_ID_ARCH_MAJOR(id), TP_U55_ID_ARCH_MAJOR(npu->id),
       TP_U55_ID_ARCH_MAJOR(id) == TP_U55_ID_ARCH_MAJOR(npu->id)},
      {"arch_minor_rev", TP_U55_ID_ARCH_MINOR(id), TP_U55_ID_ARCH_MINOR(npu->id),
       TP_U55_ID_ARCH_MINOR(id) <= TP_U55_ID_ARCH_MINOR(npu->id)},
  };
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; ++i) {
    if (!checks[i].ok) {
      const bool in_id = i >= 4;
      tp__line line = tp__line_start(npu);
      tp__put(&line, "Vela payload: OPTIMIZER_CONFIG ");
      tp__put(&line, in_id ? "ID " : "CONFIG ");
      tp__put(&line, checks[i].field);
      tp__put(&line, "=");
      tp__put_dec(&line, checks[i].payload);
      tp__put(&line, " at byte ");
      tp__put_dec(&line, 4u * at);
      tp__put(&line, ", NPU ");
      tp__put(&line, in_id ? "ID " : "CONFIG ");
      tp__put_hex(&line, in_id ? npu->id : npu->config);
      tp__put(&line, " has ");
      tp__put_dec(&line, checks[i].npu);
      return TP_ERR_DELEGATE;
    }
  }
  return TP_OK;
}

/* Walk the payload's actions; with `npu_run` set, run each command stream on the way (the
 * caller walks once without it first, so nothing reaches the NPU from a payload it rejects). */
typedef tp_status (*tp__stream_fn)(tp_ethos_u55 *npu, const uint8_t *stream, uint32_t words, const uint64_t *bases,
                                   uint32_t count);

static tp_status tp__walk(tp_ethos_u55 *npu, const uint8_t *data, uint32_t words, tp__stream_fn npu_run,
                          const uint64_t *bases, uint32_t count) {
  bool configured = false;
  uint32_t streams = 0;
  for (uint32_t at = 1; at < words;) {
    const uint32_t tag = tp__word(data, at);
    const uint32_t param = tag >> 16;
    switch (tag & 0xFFu) {
      case TP__ACTION_OPTIMIZER_CONFIG:
        if (words - at < 3u) {
          return tp__payload_error(npu, TP_ERR_CORRUPT, "OPTIMIZER_CONFIG truncated", at);
        }
        if ((param & 0xFu) != TP__PAYLOAD_VERSION) {
          tp__line line = tp__line_start(npu);
          tp__put(&line, "Vela payload: OPTIMIZER_CONFIG version ");
          tp__put_dec(&line, param & 0xFu);
          tp__put(&line, ".");
          tp__put_dec(&line, param >> 4);
          tp__put(&line, " at byte ");
          tp__put_dec(&line, 4u * at);
          tp__put(&line, ", the driver reads version 0.x");
          return TP_ERR_DELEGATE;
        }
        TP_TRY(tp__check_config(npu, tp__word(data, at + 1u), tp__word(data, at + 2u), at));
        configured = true;
        at += 3u;
        break;
      case TP__ACTION_COMMAND_STREAM: {
        const uint32_t length = param | ((tag >> 8) & 0xFFu) << 16;
        if (!configured) {
          return tp__payload_error(npu, TP_ERR_CORRUPT, "COMMAND_STREAM before any OPTIMIZER_CONFIG", at);
        }
        if (length == 0u || length > words - at - 1u) {
          return tp__payload_error(npu, TP_ERR_CORRUPT, "COMMAND_STREAM empty or past the payload's end", at);
        }
        if ((at + 1u) % 4u != 0u) {
          return tp__payload_error(npu, TP_ERR_CORRUPT, "COMMAND_STREAM not 16-byte aligned", at + 1u);
        }
        if (npu_run != NULL) {
          TP_TRY(npu_run(npu, data + 4u * (at + 1u), length, bases, count));
        }
        streams++;
        at += 1u + length;
        break;
      }
      case TP__ACTION_READ_APB_REG: /* debug dumps into a buffer this driver does not keep */
      case TP__ACTION_DUMP_SHRAM:
      case TP__ACTION_NOP:
        at++;
        break;
      default: {
        tp__line line = tp__line_start(npu);
        tp__put(&line, "Vela payload: unknown driver action ");
        tp__put_dec(&line, tag & 0xFFu);
        tp__put(&line, " (tag ");
        tp__put_hex(&line, tag);
        tp__put(&line, ") at byte ");
        tp__put_dec(&line, 4u * at);
        return TP_ERR_CORRUPT;
      }
    }
  }
  if (streams == 0u) {
    return tp__payload_error(npu, TP_ERR_CORRUPT, "no COMMAND_STREAM action", words * 4u);
  }
  return TP_OK;
}

/* --- A run --- */

/* The STATUS of a stopped run as one line, or TP_OK when it reached the end cleanly. */
static tp_status tp__judge(tp_ethos_u55 *npu, uint32_t status, uint32_t qsize) {
  static const struct {
    uint32_t bit;
    const char *name;
  } errors[] = {
      {TP_U55_STATUS_BUS_STATUS, " bus_status"},
      {TP_U55_STATUS_CMD_PARSE_ERROR, " cmd_parse_error"},
      {TP_U55_STATUS_WD_FAULT, " wd_fault"},
      {TP_U55_STATUS_ECC_FAULT, " ecc_fault"},
  };
  if (!(status & TP_U55_STATUS_ERRORS) && (status & TP_U55_STATUS_CMD_END_REACHED)) {
    return TP_OK;
  }
  tp__line line = tp__line_start(npu);
  tp__put_register(&line, "STATUS", status);
  if (!(status & TP_U55_STATUS_ERRORS)) {
    tp__put(&line, " stopped without cmd_end_reached");
  }
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i) {
    if (status & errors[i].bit) {
      tp__put(&line, errors[i].name);
    }
  }
  if (status & TP_U55_STATUS_BUS_STATUS) {
    tp__put(&line, " (AXI");
    tp__put_dec(&line, TP_U55_STATUS_FAULTING_INTERFACE(status));
    tp__put(&line, " channel ");
    tp__put_dec(&line, TP_U55_STATUS_FAULTING_CHANNEL(status));
    tp__put(&line, ")");
  }
  tp__put(&line, " at QREAD=");
  tp__put_hex(&line, tp__read(npu, TP_U55_QREAD));
  tp__put(&line, " of QSIZE=");
  tp__put_hex(&line, qsize);
  return TP_ERR_DELEGATE;
}

static tp_status tp__run_stream(tp_ethos_u55 *npu, const uint8_t *stream, uint32_t words, const uint64_t *bases,
                                uint32_t count) {
  uint32_t status = tp__read(npu, TP_U55_STATUS);
  if (status & TP_U55_STATUS_STATE_RUNNING) {
    tp__line line = tp__line_start(npu);
    tp__put_register(&line, "STATUS", status);
    tp__put(&line, " state=running before the start");
    return TP_ERR_DELEGATE;
  }
  uint32_t regions = TP_U55_REGIONCFG_REGION(0, TP_U55_AXI1_COUNTER2);
  for (uint32_t n = 1; n < TP_U55_REGIONS; ++n) {
    regions |= TP_U55_REGIONCFG_REGION(n, TP_U55_AXI0_COUNTER0);
  }
  tp__write(npu, TP_U55_REGIONCFG, regions);
  const uint32_t limit = TP_U55_AXI_LIMIT_MAX_BEATS_64B |
                         TP_U55_AXI_LIMIT_MEMTYPE(TP_U55_AXI_MEM_NORMAL_NON_CACHEABLE_BUFFERABLE) |
                         TP_U55_AXI_LIMIT_MAX_READS_M1(31u) | TP_U55_AXI_LIMIT_MAX_WRITES_M1(15u);
  for (uint32_t n = 0; n < 4u; ++n) {
    tp__write(npu, TP_U55_AXI_LIMIT(n), limit);
  }
  for (uint32_t n = 0; n < TP_U55_REGIONS; ++n) {
    const uint64_t base = n < count ? bases[n] : 0u;
    tp__write(npu, TP_U55_BASEP_LO(n), (uint32_t)base);
    tp__write(npu, TP_U55_BASEP_HI(n), (uint32_t)(base >> 32));
  }
  const uint64_t queue = (uint64_t)(uintptr_t)stream;
  const uint32_t qsize = 4u * words;
  tp__write(npu, TP_U55_QBASE0, (uint32_t)queue);
  tp__write(npu, TP_U55_QBASE1, (uint32_t)(queue >> 32));
  tp__write(npu, TP_U55_QCONFIG, TP_U55_AXI1_COUNTER2);
  tp__write(npu, TP_U55_QSIZE, qsize);
  tp__write(npu, TP_U55_CMD, TP_U55_CMD_CLEAR_IRQ);
  tp__write(npu, TP_U55_CMD, TP_U55_CMD_TRANSITION_TO_RUNNING);
  npu->polls = 0;
  do {
    status = tp__read(npu, TP_U55_STATUS);
    npu->polls++;
  } while ((status & TP_U55_STATUS_STATE_RUNNING) && npu->polls < npu->poll_limit);
  npu->status = status;
  if (status & TP_U55_STATUS_STATE_RUNNING) {
    tp__line line = tp__line_start(npu);
    tp__put_register(&line, "STATUS", status);
    tp__put(&line, " still running after ");
    tp__put_dec(&line, npu->polls);
    tp__put(&line, " polls at QREAD=");
    tp__put_hex(&line, tp__read(npu, TP_U55_QREAD));
    return TP_ERR_DELEGATE;
  }
  const tp_status verdict = tp__judge(npu, status, qsize);
  tp__write(npu, TP_U55_CMD, TP_U55_CMD_CLEAR_IRQ);
  return verdict;
}

tp_status tp_ethos_u55_run(tp_ethos_u55 *npu, const uint8_t *cmd_data, uint32_t cmd_data_bytes,
                           const uint64_t *region_base, uint32_t region_count) {
  if (npu == NULL) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  tp__line line = tp__line_start(npu);
  if (npu->base == 0u || cmd_data == NULL || region_base == NULL || region_count == 0u ||
      region_count > TP_ETHOS_U55_REGIONS || ((uintptr_t)cmd_data & 15u) != 0u) {
    tp__put(&line, "Ethos-U55: ");
    tp__put(&line, npu->base == 0u                          ? "not initialized"
                   : cmd_data == NULL || region_base == NULL ? "NULL payload or region bases"
                   : ((uintptr_t)cmd_data & 15u) != 0u        ? "payload not 16-byte aligned (QBASE)"
                                                             : "region_count not 1..8 (BASEP0..7)");
    return TP_ERR_INVALID_ARGUMENT;
  }
  if (cmd_data_bytes < 4u || cmd_data_bytes % 4u != 0u) {
    tp__put(&line, "Vela payload: ");
    tp__put_dec(&line, cmd_data_bytes);
    tp__put(&line, " bytes, not whole 32-bit words");
    return TP_ERR_CORRUPT;
  }
  const uint32_t fourcc = tp__word(cmd_data, 0);
  if (fourcc != TP__PAYLOAD_FOURCC) {
    tp__put(&line, "Vela payload: fourcc ");
    tp__put_hex(&line, fourcc);
    tp__put(&line, " at byte 0, expected 0x31504f43 ('COP1')");
    return TP_ERR_CORRUPT;
  }
  const uint32_t words = cmd_data_bytes / 4u;
  TP_TRY(tp__walk(npu, cmd_data, words, NULL, region_base, region_count));
  TP_TRY(tp__walk(npu, cmd_data, words, tp__run_stream, region_base, region_count));
  npu->reason[0] = '\0';
  return TP_OK;
}

const char *tp_ethos_u55_reason(const tp_ethos_u55 *npu) {
  return npu == NULL ? "Ethos-U55: no driver state" : npu->reason;
}
