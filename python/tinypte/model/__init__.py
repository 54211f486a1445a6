"""Model files: loading one and calling its hooks (`loading`), and the training loops model files
share (`training`)."""
