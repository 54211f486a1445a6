"""The quantize stage: a model file and its trained weights become an int8 .pte (ExecuTorch's
Cortex-M backend), a float-vs-int8 report and the quantized edge program."""
