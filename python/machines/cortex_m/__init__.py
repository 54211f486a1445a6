"""A Cortex-M core as the machine models run it: unicorn's Cortex-M33 with exact instruction counts
(core.py, with its C block hook block_counter.c), its System Control Space (system_control.py) and
memory-mapped register blocks (register_block.py)."""
