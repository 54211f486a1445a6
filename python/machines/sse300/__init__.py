"""The Corstone-300 (SSE-300) with its Ethos-U55: one Cortex-M33 with the board's memories
(memory_map.py), semihosting (semihosting.py) and the NPU's registers backed by its functional
model (npu_port.py); machine.py puts them together, run.py is the entry point."""
