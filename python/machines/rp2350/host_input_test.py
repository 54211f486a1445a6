"""Unit tests of the console input the RP2350 model's host sends (run.py --input): usb.py's host
writing the bulk OUT endpoint (packets of at most 64 bytes, each only into a buffer the device
armed, with the toggle it armed it for; then the port closed and opened again), and
peripherals.py's UART0 RX FIFO (RXFE, DR pops, the wait after the input ran out). A stand-in for
the firmware arms buffers and answers control transfers in the DPRAM, as usb_device.c does."""

from __future__ import annotations

import sys

import pytest

from machines.rp2350 import peripherals, usb

EP2_OUT_CONTROL = 0x84 + 8 * 2
EP0_IN_CONTROL = 0x80
DATA_OUT_BUF = 0x1C0


class Dpram:
    """The USB DPRAM as unicorn's mem_read / mem_write show it."""

    def __init__(self) -> None:
        self.bytes = bytearray(0x1000)

    def mem_read(self, address: int, size: int) -> bytes:
        return bytes(self.bytes[address - usb.DPRAM : address - usb.DPRAM + size])

    def mem_write(self, address: int, data: bytes) -> None:
        self.bytes[address - usb.DPRAM : address - usb.DPRAM + len(data)] = data


class Device:
    """What usb_device.c does for the host's OUT packets and CDC requests."""

    def __init__(self) -> None:
        self.memory = Dpram()
        self.regs = usb.registers()
        self.host = usb.Host(self.regs, self.memory, lambda byte: None)
        self.host.set_word(8 * 2 + 4, (1 << 31) | DATA_OUT_BUF)  # EP2 OUT enabled, its buffer

    def arm(self, pid: int, size: int = 64) -> None:
        self.host.set_word(EP2_OUT_CONTROL, size | pid | usb.AVAILABLE)

    def control(self) -> int:
        return self.host.word(EP2_OUT_CONTROL)

    def take_setup(self) -> bytes:
        """Take a SETUP packet and arm EP0's zero-length status packet (DATA1), as on_setup does."""
        assert self.regs.registers[usb.SIE_STATUS] & usb.SETUP_REC, "no SETUP packet came"
        self.regs.registers[usb.SIE_STATUS] &= ~usb.SETUP_REC
        self.host.set_word(EP0_IN_CONTROL, usb.FULL | usb.DATA1 | usb.AVAILABLE)
        return self.memory.mem_read(usb.DPRAM, 8)


def test_the_host_sends_packets_only_into_armed_buffers_then_closes_and_reopens_the_port() -> None:
    device = Device()
    data = bytes(range(150))  # 64 + 64 + 22
    writer = device.host.write_port(data)
    for _ in range(3):  # nothing armed: NAK, nothing written
        next(writer)
    assert device.regs.registers[usb.BUFF_STATUS] == 0 and device.host.sent == 0
    packets = []
    pid = 0
    for start in range(0, len(data), 64):
        device.arm(pid)
        next(writer)
        control = device.control()
        size = control & 0x3FF
        packets.append(device.memory.bytes[DATA_OUT_BUF : DATA_OUT_BUF + size])
        assert control & usb.FULL and not control & usb.AVAILABLE, f"packet at {start}: control 0x{control:x}"
        assert control & usb.DATA1 == pid
        assert device.regs.registers[usb.BUFF_STATUS] == 1 << 5  # EP2 OUT done
        device.regs.registers[usb.BUFF_STATUS] = 0
        assert device.host.sent == min(len(data), start + 64)
        next(writer)  # not armed again yet: NAK
        assert device.control() == control and device.regs.registers[usb.BUFF_STATUS] == 0
        pid ^= usb.DATA1
    assert len(packets) == 3 and b"".join(packets) == data
    assert not device.regs.registers[usb.SIE_STATUS] & usb.SETUP_REC  # the firmware has not asked for more
    device.arm(pid)  # it has read everything and asks for more: the host closes the port
    next(writer)
    assert device.take_setup() == bytes([0x21, 0x22, 0, 0, 0, 0, 0, 0])  # SET_CONTROL_LINE_STATE, DTR clear
    next(writer)  # status stage collected; the port is opened again at once
    assert device.host.closed
    assert device.take_setup() == bytes([0x21, 0x22, 3, 0, 0, 0, 0, 0])  # DTR and RTS set
    with pytest.raises(StopIteration):
        next(writer)


def test_empty_input_closes_the_port_once_the_buffer_is_armed() -> None:
    device = Device()
    writer = device.host.write_port(b"")
    next(writer)
    assert not device.regs.registers[usb.SIE_STATUS] & usb.SETUP_REC
    device.arm(0)
    next(writer)
    assert device.take_setup()[2] == 0 and device.host.sent == 0


@pytest.mark.parametrize(
    ("pid", "size", "message"),
    [
        (usb.DATA1, 64, "EP2 OUT was armed for DATA1, the host's packet is DATA0"),
        (0, 16, "EP2 OUT buffer of 16 bytes for a 20-byte packet"),
    ],
)
def test_a_wrongly_armed_buffer_fails_the_run(pid: int, size: int, message: str) -> None:
    device = Device()
    writer = device.host.write_port(bytes(20))
    device.arm(pid, size)
    with pytest.raises(usb.UsbError, match=message):
        next(writer)


def test_uart_rx_hands_out_the_input_and_reports_a_wait_after_it() -> None:
    sent: list[int] = []
    waits: list[str] = []
    data = bytes(range(40))
    rx = peripherals.UartRx(data, 5, waits.append)
    uart = peripherals.uart0(sent.append, rx)
    assert uart.read(0x18) == 0x80 | 1 << 6  # TXFE; 40 queued: the 32-byte FIFO is full (RXFF)
    got = bytes(uart.read(0x0) for _ in data)
    assert got == data and rx.read == len(data)
    for polls in range(1, 5):
        assert uart.read(0x18) == 0x90 and waits == [], f"poll {polls}"  # TXFE | RXFE
    uart.write(0x0, ord("x"))  # a DR access: the polls in a row start again
    assert sent == [ord("x")]
    for _ in range(4):
        uart.read(0x18)
    assert waits == []
    uart.read(0x18)
    assert waits == ["firmware waits for console input after all 40 bytes of --input were read "
                     "(UART0 RX polled 5 times with nothing queued)"]  # fmt: skip
    assert uart.read(0x0) == 0  # an empty FIFO reads 0


def test_uart_rx_without_input_says_so() -> None:
    waits: list[str] = []
    uart = peripherals.uart0(lambda byte: None, peripherals.UartRx(None, 2, waits.append))
    uart.read(0x18)
    uart.read(0x18)
    assert waits == ["firmware waits for console input (UART0 RX polled 2 times), and no --input was given"]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
