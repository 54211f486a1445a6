"""tinypte's Arm Ethos-U55 backend: its AOT side (`ethos_u55.aot`), its NPU functional model
(`ethos_u55.npu_model`) and its configurations (`ethos_u55.configs`). See README.md."""
