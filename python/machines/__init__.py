"""tinypte's instruction-level machine models: the chips its firmware tests run on where QEMU has no
machine, each executing the real ELF instruction by instruction on unicorn.

- `machines.cortex_m`: one Cortex-M33 core with exact instruction counts (a C block hook), its
  System Control Space, and memory-mapped register blocks;
- `machines.rp2350`: the RP2350 of the Pico 2 W (two cores, SIO, boot ROM, peripherals, USB host);
- `machines.sse300`: the Corstone-300 (SSE-300) with its Ethos-U55;
- `machines.execute_count`: the exact instruction count of one tp_method_execute, from executed
  addresses (the models' block hooks and the perf bench's QEMU trace reader feed it).

The models run on their own venv (requirements.lock here; defs.bzl's machines_py_binary and
machines_py_test); the parts without unicorn also run on the toolkit's.
"""
