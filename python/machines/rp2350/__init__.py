"""The RP2350 of the Pico 2 W: two Cortex-M33 cores sharing memory and the SIO (machine.py, sio.py),
the boot ROM (boot_rom.py, core1_launch.py), the peripherals the firmware touches
(peripherals.py), a USB host on its USB port (usb.py), and the entry point (run.py)."""
