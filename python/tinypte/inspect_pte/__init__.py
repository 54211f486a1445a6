"""The inspect stage: a .pte's operators, memory plan, MACs and human summary."""
