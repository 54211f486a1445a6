"""Program files other stages read: .pte files (through ExecuTorch's deserializer) and the
quantized edge programs the quantize stage writes for the golden stage."""
