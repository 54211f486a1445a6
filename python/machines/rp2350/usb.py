"""The RP2350 USB controller in device mode, and a USB host on the other end of the cable.

The controller's registers (0x50110000, with the atomic aliases) are a register block; its
4 KiB DPRAM (0x50100000) is plain memory that the firmware and this model share: SETUP
packets at 0x0, endpoint control words at 0x8 + 8 (ep - 1), buffer control words at
0x80 + 8 ep (IN) and 0x84 + 8 ep (OUT), EP0's buffer at 0x100 (RP2350 datasheet, "USB").

The host is a script of USB transactions (a generator): it waits for the firmware to
connect (controller enabled, D+ pull-up on), resets the bus, enumerates the device as a
host does (device descriptor at address 0, SET_ADDRESS, descriptors, strings,
SET_CONFIGURATION), checks every descriptor of a CDC ACM serial port, sets the line coding
and DTR as a terminal opening the port does, then reads the bulk IN endpoint forever and
hands the bytes to the console. Given input (run.py --input), it also writes it to the bulk OUT
endpoint meanwhile, in packets of at most 64 bytes, each when the firmware has armed the OUT
buffer (AVAILABLE, not FULL) and with the DATA0/DATA1 toggle the firmware armed it for; once
the firmware has taken the last packet and armed the buffer again (it asks for more), the host
closes the port (SET_CONTROL_LINE_STATE with DTR clear: the end of the input) and opens it again
(DTR set), as `cat FILE > /dev/ttyACM0; cat /dev/ttyACM0` would, and reads on. Each time the firmware reads a controller register, the
host tries its next transaction: a buffer the firmware has not handed over (AVAILABLE) is
a NAK and the host tries again later, as on a real bus. Anything a host would reject (a
wrong descriptor, a wrong DATA0/DATA1 toggle, a stall where none is allowed) fails the run.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from machines.cortex_m.register_block import Block
from machines.rp2350.usb_ids import pico2w_usb_ids

VID, PID = pico2w_usb_ids()  # the firmware's own header, as its descriptor must say

DPRAM = 0x50100000
REGS = 0x50110000
ADDR_ENDP, MAIN_CTRL, SIE_CTRL, SIE_STATUS, BUFF_STATUS, EP_STALL_ARM = 0x00, 0x40, 0x4C, 0x50, 0x58, 0x68
USB_MUXING, USB_PWR, INTR, INTE, INTS = 0x74, 0x78, 0x8C, 0x90, 0x98
SETUP_REC, BUS_RESET = 1 << 17, 1 << 19
FULL, DATA1, STALL, AVAILABLE = 1 << 15, 1 << 13, 1 << 11, 1 << 10
CHIP_ID = 0x1234_5678_9ABC_DEF0  # the model's OTP CHIPID rows
DEVICE_ADDRESS = 5

Step = Generator[None, None, Any]


class UsbError(Exception):
    """What a host would reject, or a device that never answers."""


@dataclass
class Enumeration:
    """What the host learned; `summary()` is the line the test prints."""

    manufacturer: str = ""
    product: str = ""
    serial: str = ""
    line_coding: bytes = b""
    dtr: bool = False
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"usb: enumerated {VID:04x}:{PID:04x} '{self.manufacturer}' '{self.product}' serial {self.serial}, "
            f"CDC ACM, line coding {int.from_bytes(self.line_coding[:4], 'little')} baud, DTR set"
        )


def registers() -> Block:
    """USBCTRL_REGS: SIE_STATUS and BUFF_STATUS are write-1-to-clear; INTS = INTR & INTE."""
    names = {ADDR_ENDP: "ADDR_ENDP"} | {4 * i: f"ADDR_ENDP{i}" for i in range(1, 16)}
    names |= {MAIN_CTRL: "MAIN_CTRL", 0x44: "SOF_WR", 0x48: "SOF_RD", SIE_CTRL: "SIE_CTRL", SIE_STATUS: "SIE_STATUS"}
    names |= {0x54: "INT_EP_CTRL", BUFF_STATUS: "BUFF_STATUS", 0x5C: "BUFF_CPU_SHOULD_HANDLE", 0x60: "EP_ABORT"}
    names |= {0x64: "EP_ABORT_DONE", EP_STALL_ARM: "EP_STALL_ARM", 0x6C: "NAK_POLL", 0x70: "EP_STATUS_STALL_NAK"}
    names |= {USB_MUXING: "USB_MUXING", USB_PWR: "USB_PWR", 0x7C: "USBPHY_DIRECT", 0x80: "USBPHY_DIRECT_OVERRIDE"}
    names |= {0x84: "USBPHY_TRIM", 0x88: "LINESTATE_TUNING", INTR: "INTR", INTE: "INTE", 0x94: "INTF", INTS: "INTS"}
    block = Block("USBCTRL_REGS", REGS, {offset: 0 for offset in names}, names)
    block.registers[MAIN_CTRL] = 1 << 2  # PHY_ISO: the PHY is isolated after reset
    block.write_one_to_clear = {SIE_STATUS, BUFF_STATUS}
    block.on_read[INTR] = lambda: interrupts(block)
    block.on_read[INTS] = lambda: interrupts(block) & block.registers[INTE]
    return block


def interrupts(regs: Block) -> int:
    """INTR from the status bits: BUFF_STATUS (4), BUS_RESET (12), SETUP_REQ (16)."""
    status = regs.registers[SIE_STATUS]
    return (
        (1 << 4 if regs.registers[BUFF_STATUS] else 0)
        | (1 << 12 if status & BUS_RESET else 0)
        | (1 << 16 if status & SETUP_REC else 0)
    )


def otp_chip_id() -> Block:
    """OTP_DATA (0x40130000), ECC-corrected rows: rows 0-3 hold CHIP_ID, 16 bits each."""
    rows = [(CHIP_ID >> (16 * row)) & 0xFFFF for row in range(4)]
    names = {0x0: "CHIPID0/1", 0x4: "CHIPID2/3"}
    return Block(
        "OTP_DATA",
        0x40130000,
        {0x0: rows[0] | rows[1] << 16, 0x4: rows[2] | rows[3] << 16},
        names,
        atomic_aliases=False,
    )


class Host:
    """The host side; `step()` runs its next transaction attempt."""

    def __init__(self, regs: Block, memory: Any, console: Callable[[int], None], data: bytes | None = None) -> None:
        self.regs = regs
        self.input = data  # what the terminal writes to the port, or None: it writes nothing
        self.memory = memory  # unicorn: mem_read / mem_write
        self.console = console
        self.result = Enumeration()
        self.enumerated = False
        self.address = 0
        self.toggles: dict[int, int] = {}  # bulk/interrupt endpoint -> next PID (0 or DATA1)
        self.sent = 0  # bytes of the input the firmware has taken (its OUT packets acknowledged)
        self.closed = False  # the port was closed at the end of the input (and opened again)
        self._script = self.script()

    def connected(self) -> bool:
        r = self.regs.registers
        return bool(r[MAIN_CTRL] & 1 and not r[MAIN_CTRL] & 4 and r[SIE_CTRL] & (1 << 16) and r[USB_MUXING] & 1)

    def step(self) -> None:
        if self.connected():
            next(self._script)

    # --- DPRAM ---

    def word(self, offset: int) -> int:
        return int.from_bytes(self.memory.mem_read(DPRAM + offset, 4), "little")

    def set_word(self, offset: int, value: int) -> None:
        self.memory.mem_write(DPRAM + offset, (value & 0xFFFFFFFF).to_bytes(4, "little"))

    def buffer_offset(self, ep: int, direction_in: bool) -> int:
        if ep == 0:
            return 0x100
        control = self.word(8 * ep + (0 if direction_in else 4))
        if not control & (1 << 31):
            raise UsbError(
                f"EP{ep} {'IN' if direction_in else 'OUT'} is used but its endpoint control word is not enabled"
            )
        return control & 0xFFC0

    def done(self, bit: int) -> None:
        self.regs.registers[BUFF_STATUS] |= 1 << bit

    # --- Transactions (each `yield` is a NAK: try again at the next step) ---

    def addressed(self) -> bool:
        return self.regs.registers[ADDR_ENDP] & 0x7F == self.address

    def setup(self, packet: bytes) -> Step:
        while not self.addressed():
            yield
        self.memory.mem_write(DPRAM, packet)
        self.regs.registers[EP_STALL_ARM] = 0  # a SETUP clears EP0's stall
        self.regs.registers[SIE_STATUS] |= SETUP_REC
        yield

    def transfer_in(self, ep: int, pid: int) -> Generator[None, None, bytes]:
        control = 0x80 + 8 * ep
        while True:
            word = self.word(control)
            stalled = word & STALL and (ep != 0 or self.regs.registers[EP_STALL_ARM] & 1)
            if stalled:
                raise StallError(ep)
            if self.addressed() and word & AVAILABLE and word & FULL:
                break
            yield
        if word & DATA1 != pid:
            raise UsbError(f"EP{ep} IN sent DATA{int(bool(word & DATA1))}, the host expected DATA{int(bool(pid))}")
        size = word & 0x3FF
        if size > 64:
            raise UsbError(f"EP{ep} IN packet of {size} bytes (full speed allows 64)")
        data = bytes(self.memory.mem_read(DPRAM + self.buffer_offset(ep, True), size))
        self.set_word(control, word & ~(AVAILABLE | FULL))
        self.done(2 * ep)
        return data

    def transfer_out(self, ep: int, pid: int, data: bytes) -> Step:
        control = 0x84 + 8 * ep
        while True:
            word = self.word(control)
            if word & STALL and (ep != 0 or self.regs.registers[EP_STALL_ARM] & 2):
                raise StallError(ep)
            if self.addressed() and word & AVAILABLE and not word & FULL:
                break
            yield
        if word & DATA1 != pid:
            raise UsbError(
                f"EP{ep} OUT was armed for DATA{int(bool(word & DATA1))}, the host's packet is DATA{int(bool(pid))}"
            )
        if word & 0x3FF < len(data):
            raise UsbError(f"EP{ep} OUT buffer of {word & 0x3FF} bytes for a {len(data)}-byte packet")
        self.memory.mem_write(DPRAM + self.buffer_offset(ep, False), data)
        self.set_word(control, (word & ~(AVAILABLE | 0x3FF | DATA1)) | FULL | pid | len(data))
        self.done(2 * ep + 1)

    def control_read(self, request: bytes, length: int) -> Generator[None, None, bytes]:
        yield from self.setup(request)
        data, pid = b"", DATA1
        while True:
            packet = yield from self.transfer_in(0, pid)
            data, pid = data + packet, pid ^ DATA1
            if len(packet) < 64 or len(data) >= length:
                break
        yield from self.transfer_out(0, DATA1, b"")  # status stage
        return data

    def control_write(self, request: bytes, data: bytes = b"") -> Step:
        yield from self.setup(request)
        if data:
            yield from self.transfer_out(0, DATA1, data)
        status = yield from self.transfer_in(0, DATA1)
        if status:
            raise UsbError(f"status stage of request 0x{request[1]:02x} carried {len(status)} bytes")

    def get_descriptor(self, kind: int, index: int, length: int) -> Generator[None, None, bytes]:
        request = bytes([0x80, 6, index, kind, 0x09 if kind == 3 and index else 0, 0x04 if kind == 3 and index else 0])
        data = yield from self.control_read(request + length.to_bytes(2, "little"), length)
        if len(data) < 2 or data[1] != kind or (data[0] > len(data) and len(data) < length):
            raise UsbError(f"descriptor type {kind} index {index}: malformed reply {data.hex()}")
        return data

    def script(self) -> Step:
        # Bus reset: the device must notice it (clear BUS_RESET) and answer at address 0.
        self.regs.registers[SIE_STATUS] |= BUS_RESET | (1 << 16)  # BUS_RESET, CONNECTED
        while self.regs.registers[SIE_STATUS] & BUS_RESET:
            yield
        yield from self.enumerate()
        yield from self.open_port()
        self.enumerated = True
        # The terminal reads the port and, given input, writes it at the same time: each step
        # runs each one's next transaction attempt.
        tasks = [self.read_port()] + ([self.write_port(self.input)] if self.input is not None else [])
        while True:
            for task in list(tasks):
                try:
                    next(task)
                except StopIteration:
                    tasks.remove(task)
            yield

    def read_port(self) -> Step:
        """A terminal reading the port: the bulk IN endpoint's packets to the console."""
        ep = 1
        while True:
            try:
                data = yield from self.transfer_in(ep, self.toggles.get(ep, 0))
            except StallError as error:
                raise UsbError("the bulk IN endpoint stalled") from error
            self.toggles[ep] = self.toggles.get(ep, 0) ^ DATA1
            for byte in data:
                self.console(byte)
            yield

    def write_port(self, data: bytes) -> Step:
        """The terminal writes `data` to the bulk OUT endpoint (64-byte packets), waits until the
        firmware has taken the last one and asks for more (the OUT buffer armed again), then
        closes the port (DTR clear: the firmware's read returns 0) and opens it again."""
        ep = 2
        for start in range(0, len(data), 64):
            try:
                yield from self.transfer_out(ep, self.toggles.get(ep, 0), data[start : start + 64])
            except StallError as error:
                raise UsbError("the bulk OUT endpoint stalled") from error
            self.toggles[ep] = self.toggles.get(ep, 0) ^ DATA1
            self.sent = min(len(data), start + 64)
            yield
        while not self.word(0x84 + 8 * ep) & AVAILABLE:
            yield
        yield from self.control_write(bytes([0x21, 0x22, 0, 0, 0, 0, 0, 0]))  # SET_CONTROL_LINE_STATE: DTR clear
        self.closed = True
        yield from self.control_write(bytes([0x21, 0x22, 3, 0, 0, 0, 0, 0]))  # opened again: DTR, RTS

    def enumerate(self) -> Step:
        device = yield from self.get_descriptor(1, 0, 64)
        check_device(device)
        yield from self.control_write(bytes([0, 5, DEVICE_ADDRESS, 0, 0, 0, 0, 0]))
        self.address = DEVICE_ADDRESS
        device = yield from self.get_descriptor(1, 0, 18)
        check_device(device)
        head = yield from self.get_descriptor(2, 0, 9)
        total = int.from_bytes(head[2:4], "little")
        config = yield from self.get_descriptor(2, 0, total)
        check_configuration(config)
        languages = yield from self.get_descriptor(3, 0, 255)
        if languages[2:4] != b"\x09\x04":
            raise UsbError(f"string 0 lists languages {languages[2:].hex()}, not US English (0409)")
        texts = []
        for index in device[14:17]:
            raw = yield from self.get_descriptor(3, index, 255)
            texts.append(raw[2 : raw[0]].decode("utf-16-le"))
        self.result.manufacturer, self.result.product, self.result.serial = texts
        if self.result.serial != f"{CHIP_ID:016X}":
            raise UsbError(f"serial number '{self.result.serial}' is not the chip ID {CHIP_ID:016X} from OTP")
        try:
            yield from self.get_descriptor(6, 0, 10)  # DEVICE_QUALIFIER: a full-speed device stalls it
            raise UsbError("the device answered DEVICE_QUALIFIER: a full-speed-only device must stall it")
        except StallError:
            pass
        yield from self.control_write(bytes([0, 9, 1, 0, 0, 0, 0, 0]))  # SET_CONFIGURATION 1
        status = yield from self.control_read(bytes([0x80, 0, 0, 0, 0, 0, 2, 0]), 2)  # GET_STATUS
        if len(status) != 2:
            raise UsbError(f"GET_STATUS returned {len(status)} bytes")

    def open_port(self) -> Step:
        """What a terminal opening /dev/ttyACM0 makes the host driver send."""
        coding = (115200).to_bytes(4, "little") + bytes([0, 0, 8])
        yield from self.control_write(bytes([0x21, 0x20, 0, 0, 0, 0, 7, 0]), coding)  # SET_LINE_CODING
        self.result.line_coding = yield from self.control_read(bytes([0xA1, 0x21, 0, 0, 0, 0, 7, 0]), 7)
        if self.result.line_coding != coding:
            raise UsbError(f"GET_LINE_CODING returned {self.result.line_coding.hex()}, set {coding.hex()}")
        yield from self.control_write(bytes([0x21, 0x22, 3, 0, 0, 0, 0, 0]))  # SET_CONTROL_LINE_STATE: DTR, RTS
        self.result.dtr = True


class StallError(UsbError):
    def __init__(self, ep: int) -> None:
        super().__init__(f"EP{ep} stalled")


def check_device(data: bytes) -> None:
    """The device descriptor (or its first 8 bytes): what a host and its drivers rely on."""
    if len(data) < 8 or data[0] != 18 or data[1] != 1:
        raise UsbError(f"device descriptor {data.hex()}: not 18 bytes of type 1")
    if data[7] != 64:
        raise UsbError(f"bMaxPacketSize0 {data[7]}: EP0 of a full-speed RP2350 device takes 64")
    if len(data) >= 18:
        vid, pid = int.from_bytes(data[8:10], "little"), int.from_bytes(data[10:12], "little")
        if (vid, pid) != (VID, PID):
            raise UsbError(f"VID:PID {vid:04x}:{pid:04x}, expected {VID:04x}:{PID:04x}")
        if data[17] != 1 or 0 in data[14:17]:
            raise UsbError("the device needs one configuration and manufacturer, product and serial strings")


def check_configuration(data: bytes) -> None:
    """One configuration holding a CDC ACM function: a Communications interface (class 2,
    subclass 2) with header, ACM and union functional descriptors and an interrupt IN endpoint,
    and a Data interface (class 0x0a) with a bulk IN and a bulk OUT endpoint."""
    if int.from_bytes(data[2:4], "little") != len(data):
        raise UsbError(f"wTotalLength {int.from_bytes(data[2:4], 'little')} but {len(data)} bytes came")
    interfaces: list[tuple[int, int]] = []
    functional: set[int] = set()
    endpoints: list[tuple[int, int, int]] = []  # interface index, address, attributes
    offset = 0
    while offset < len(data):
        length, kind = data[offset], data[offset + 1]
        if length < 2 or offset + length > len(data):
            raise UsbError(f"descriptor at byte {offset} of the configuration overruns it")
        body = data[offset : offset + length]
        if kind == 4:
            interfaces.append((body[5], body[6]))
        elif kind == 0x24:
            functional.add(body[2])
        elif kind == 5:
            endpoints.append((len(interfaces) - 1, body[2], body[3] & 3))
        offset += length
    if interfaces != [(2, 2), (0x0A, 0)] or data[4] != 2:
        raise UsbError(f"interfaces (class, subclass) {interfaces}: not a CDC ACM function")
    if not {0x00, 0x02, 0x06} <= functional:
        raise UsbError(f"CDC functional descriptors {sorted(functional)} lack header, ACM or union")
    kinds = sorted((interface, address & 0x80, attributes) for interface, address, attributes in endpoints)
    if kinds != [(0, 0x80, 3), (1, 0, 2), (1, 0x80, 2)]:
        raise UsbError(f"endpoints {endpoints}: want interrupt IN on interface 0, bulk IN and OUT on 1")
