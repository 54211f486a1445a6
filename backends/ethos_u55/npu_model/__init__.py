"""A bit-exact functional model of the Arm Ethos-U55 NPU (device.py's `EthosU55`)."""
