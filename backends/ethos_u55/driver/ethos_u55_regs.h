/* Ethos-U55 registers the driver uses: offsets from the NPU's base address and their fields.
 *
 * Written from the register description of the Ethos-U55 (architecture 1.0) that Arm ships
 * in machine-readable form with Vela (ethos-u-vela 5.1.0, ethosu/vela/ethos_u55_regs/
 * ethos_u55_regs.py: classes BASE, BASE_POINTERS and the id_r, status_r, cmd_r, reset_r,
 * prot_r, config_r, regioncfg_r and axi_limitN_r bit fields). Registers are 32 bits wide;
 * the 64-bit ones (QBASE, each region's base pointer) are two words, low word first. */
#ifndef TINYPTE_ETHOS_U55_REGS_H
#define TINYPTE_ETHOS_U55_REGS_H

/* --- Offsets --- */
#define TP_U55_ID 0x0000u        /* product and architecture revision */
#define TP_U55_STATUS 0x0004u    /* state, interrupt and error flags */
#define TP_U55_CMD 0x0008u       /* start, clear interrupts */
#define TP_U55_RESET 0x000Cu     /* soft reset, with the privilege and security it leaves */
#define TP_U55_QBASE0 0x0010u    /* command stream address, low word */
#define TP_U55_QBASE1 0x0014u    /* command stream address, high word */
#define TP_U55_QREAD 0x0018u     /* byte offset of the command the NPU reads */
#define TP_U55_QCONFIG 0x001Cu   /* AXI counter (memory type) of command stream fetches */
#define TP_U55_QSIZE 0x0020u     /* command stream length in bytes */
#define TP_U55_PROT 0x0024u      /* privilege and security the NPU runs with */
#define TP_U55_CONFIG 0x0028u    /* the configuration built into this NPU */
#define TP_U55_LOCK 0x002Cu      /* locks the configuration registers */
#define TP_U55_REGIONCFG 0x003Cu /* AXI counter (memory type) of each of the 8 regions */
#define TP_U55_AXI_LIMIT(n) (0x0040u + 4u * (n)) /* AXI_LIMIT0..3 */
#define TP_U55_BASEP_LO(n) (0x0080u + 8u * (n))  /* region n's base address, low word */
#define TP_U55_BASEP_HI(n) (0x0084u + 8u * (n))  /* and high word (n = 0..7) */
#define TP_U55_REGIONS 8u

/* --- ID --- */
#define TP_U55_ID_ARCH_MINOR(v) (((v) >> 20) & 0xFFu)
#define TP_U55_ID_ARCH_MAJOR(v) (((v) >> 28) & 0xFu)

/* --- STATUS --- */
#define TP_U55_STATUS_STATE_RUNNING (1u << 0)
#define TP_U55_STATUS_IRQ_RAISED (1u << 1)
#define TP_U55_STATUS_BUS_STATUS (1u << 2) /* an AXI access got an error response */
#define TP_U55_STATUS_RESET_STATUS (1u << 3) /* a reset is in progress */
#define TP_U55_STATUS_CMD_PARSE_ERROR (1u << 4)
#define TP_U55_STATUS_CMD_END_REACHED (1u << 5)
#define TP_U55_STATUS_PMU_IRQ_RAISED (1u << 6)
#define TP_U55_STATUS_WD_FAULT (1u << 7)
#define TP_U55_STATUS_ECC_FAULT (1u << 8)
#define TP_U55_STATUS_FAULTING_INTERFACE(v) (((v) >> 11) & 0x1u) /* 0: AXI0 (SRAM), 1: AXI1 */
#define TP_U55_STATUS_FAULTING_CHANNEL(v) (((v) >> 12) & 0xFu)
/* The flags that say a run failed. */
#define TP_U55_STATUS_ERRORS \
  (TP_U55_STATUS_BUS_STATUS | TP_U55_STATUS_CMD_PARSE_ERROR | TP_U55_STATUS_WD_FAULT | TP_U55_STATUS_ECC_FAULT)

/* --- CMD --- */
#define TP_U55_CMD_TRANSITION_TO_RUNNING (1u << 0)
#define TP_U55_CMD_CLEAR_IRQ (1u << 1)
#define TP_U55_CMD_CLOCK_Q_ENABLE (1u << 2)
#define TP_U55_CMD_POWER_Q_ENABLE (1u << 3)

/* --- RESET and PROT: privilege (cpl: 1 privileged) and security (csl: 0 secure) --- */
#define TP_U55_RESET_PENDING_CPL_PRIVILEGED (1u << 0)
#define TP_U55_RESET_PENDING_CSL_NON_SECURE (1u << 1)
#define TP_U55_PROT_ACTIVE_CPL_PRIVILEGED (1u << 0)
#define TP_U55_PROT_ACTIVE_CSL_NON_SECURE (1u << 1)

/* --- CONFIG --- */
#define TP_U55_CONFIG_MACS_PER_CC(v) ((v) & 0xFu) /* log2 of the MACs per cycle: 5..8 */
#define TP_U55_CONFIG_CMD_STREAM_VERSION(v) (((v) >> 4) & 0xFu)
#define TP_U55_CONFIG_SHRAM_SIZE(v) (((v) >> 8) & 0xFFu) /* KiB */
#define TP_U55_CONFIG_PRODUCT(v) (((v) >> 28) & 0xFu)
#define TP_U55_PRODUCT_ETHOS_U55 0u

/* --- REGIONCFG: 2 bits per region, the AXI counter (memory_type) it uses --- */
#define TP_U55_REGIONCFG_REGION(n, counter) ((uint32_t)(counter) << (2u * (n)))
#define TP_U55_AXI0_COUNTER0 0u /* AXI0: the NPU's SRAM port */
#define TP_U55_AXI1_COUNTER2 2u /* AXI1: its external memory (flash, DDR) port */

/* --- AXI_LIMITn --- */
#define TP_U55_AXI_LIMIT_MAX_BEATS_64B 0u /* bits 0-1: 0 64 B, 1 128 B, 2 256 B bursts */
#define TP_U55_AXI_LIMIT_MEMTYPE(t) ((uint32_t)(t) << 4) /* bits 4-7: axi_mem_encoding_type */
#define TP_U55_AXI_MEM_NORMAL_NON_CACHEABLE_BUFFERABLE 0x3u
#define TP_U55_AXI_LIMIT_MAX_READS_M1(n) ((uint32_t)(n) << 16)
#define TP_U55_AXI_LIMIT_MAX_WRITES_M1(n) ((uint32_t)(n) << 24)

#endif /* TINYPTE_ETHOS_U55_REGS_H */
