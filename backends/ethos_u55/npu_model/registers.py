"""The Ethos-U55's MMIO register block (offsets from Vela's ethos_u55_regs: BASE,
BASE_POINTERS, ID), what reads return and which bits writes keep.

ID and CONFIG are read-only: ID as Vela's regor stamps into the command payload
(arch 1.0.6, product major 6, status 1: 0x10066001), CONFIG from the MAC count (log2 MACs per
cycle, SHRAM KB; product 0 = U55). STATUS is the device's (device.py). QBASE0/1 and BASEPn are
64-bit pairs of 32-bit registers (region n: BASEP 0x80 + 8n low word, + 4 high word), as
ethos-u-core-driver writes them. PMU, debug and SHARED_BUFFER offsets read as zero and ignore
writes.
"""

from __future__ import annotations

from ethosu.vela.ethos_u55_regs.ethos_u55_regs import BASE, BASE_POINTERS, ID  # type: ignore[import-untyped]

from ethos_u55 import configs

NPU_ID = 0x10066001
# MACs per cycle -> (log2 MACs, SHRAM size in KB), from their single source (ethos_u55_configs.h).
_CONFIGS = {c.macs: (c.log2_macs, c.shram_kb) for c in configs.CONFIGS}

ID_REG = BASE.ID.value
STATUS = BASE.STATUS.value
CMD = BASE.CMD.value
RESET = BASE.RESET.value
QBASE0 = BASE.QBASE0.value
QBASE1 = BASE.QBASE1.value
QREAD = BASE.QREAD.value
QCONFIG = BASE.QCONFIG.value
QSIZE = BASE.QSIZE.value
PROT = BASE.PROT.value
CONFIG = BASE.CONFIG.value
LOCK = BASE.LOCK.value
REGIONCFG = BASE.REGIONCFG.value
AXI_LIMITS = tuple(getattr(BASE, f"AXI_LIMIT{i}").value for i in range(4))
BASEP = tuple(getattr(BASE_POINTERS, f"BASEP{i}").value for i in range(16))
REVISION = ID.REVISION.value

# STATUS bits (ethos_u55_regs status_r).
STATE_RUNNING = 1 << 0
IRQ_RAISED = 1 << 1
BUS_STATUS = 1 << 2
RESET_STATUS = 1 << 3
CMD_PARSE_ERROR = 1 << 4
CMD_END_REACHED = 1 << 5
# CMD bits (cmd_r).
TRANSITION_TO_RUNNING = 1 << 0
CLEAR_IRQ = 1 << 1
CLOCK_Q_ENABLE = 1 << 2
POWER_Q_ENABLE = 1 << 3
STOP_REQUEST = 1 << 4
IRQ_HISTORY_SHIFT = 16
# RESET bits (reset_r): the privilege and security levels PROT (prot_r) takes.
PENDING_CPL = 1 << 0
PENDING_CSL = 1 << 1

# Plain read/write registers and their reset values.
_PLAIN = (QBASE0, QBASE1, QCONFIG, QSIZE, LOCK, REGIONCFG, *AXI_LIMITS, *BASEP)


def config_value(macs: int) -> int:
    if macs not in _CONFIGS:
        raise ValueError(f"Ethos-U55 has 32, 64, 128 or 256 MACs, not {macs}")
    log2_macs, shram_kb = _CONFIGS[macs]
    return log2_macs | shram_kb << 8


class RegisterFile:
    """The plain registers' values, and the read-only ones."""

    def __init__(self, macs: int) -> None:
        self.config = config_value(macs)
        self.values: dict[int, int] = {}
        self.reset()

    def reset(self) -> None:
        self.values = dict.fromkeys(_PLAIN, 0)
        self.values[PROT] = 0

    def read(self, offset: int) -> int | None:
        """The value of a plain or constant register; None for the device's own (STATUS, CMD...)."""
        if offset == ID_REG:
            return NPU_ID
        if offset == CONFIG:
            return self.config
        if offset in self.values:
            return self.values[offset]
        return None

    def write(self, offset: int, value: int) -> bool:
        """Store a plain register; False if the offset is not one."""
        if offset in _PLAIN:
            self.values[offset] = value & 0xFFFFFFFF
            return True
        return False

    @property
    def queue_base(self) -> int:
        return self.values[QBASE0] | self.values[QBASE1] << 32

    @property
    def queue_size(self) -> int:
        return self.values[QSIZE]

    def region_base(self, region: int) -> int:
        return self.values[BASEP[2 * region]] | self.values[BASEP[2 * region + 1]] << 32
