"""The Ethos-U55 configurations for Starlark (executorch_model's `delegate`, the models' NPU target).

A copy, since Starlark cannot read the C header that is their single source
(include/tinypte/ethos_u55_configs.h); //backends/ethos_u55/tests:configs_test checks it against
the header.
"""

# MACs per cycle of each configuration, in the header's order.
ETHOS_U55_MACS = [32, 64, 128, 256]

# Their Vela target names: the values of executorch_model's `delegate`.
ETHOS_U55_TARGETS = ["ethos-u55-%d" % macs for macs in ETHOS_U55_MACS]

# The configuration programs are lowered for unless they name one (TP_ETHOS_U55_DEFAULT_MACS).
ETHOS_U55_DEFAULT = "ethos-u55-128"
