"""The export stage: a model file and its trained weights become a float .pte (ExecuTorch's
to_edge -> to_executorch with tinypte's memory planning)."""
