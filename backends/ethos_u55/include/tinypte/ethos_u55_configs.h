/* The Arm Ethos-U55 configurations tinypte knows, once: the single source the driver, the
 * runtime backend, the AOT side (Python, ethos_u55.configs) and the NPU's functional model read,
 * and the Starlark copy (configs.bzl) is checked against (//backends/ethos_u55/tests:configs_test).
 *
 * X(macs, log2_macs, shram_kb): MACs per cycle, their log2 (the CONFIG register's macs_per_cc
 * and Vela's OPTIMIZER_CONFIG field), the SHRAM size in KB (CONFIG's shram_size; Vela's
 * ethosu/vela/architecture_features.py). Vela's target name is "ethos-u55-<macs>". */
#ifndef TINYPTE_ETHOS_U55_CONFIGS_H
#define TINYPTE_ETHOS_U55_CONFIGS_H

#define TP_ETHOS_U55_CONFIG_LIST(X) \
  X(32, 5, 16)                      \
  X(64, 6, 16)                      \
  X(128, 7, 24)                     \
  X(256, 8, 48)

/* The configuration programs are lowered for unless they name one (models' NPU_TARGET). */
#define TP_ETHOS_U55_DEFAULT_MACS 128

#endif /* TINYPTE_ETHOS_U55_CONFIGS_H */
