"""tinypte's ahead-of-time toolkit: train and export models, inspect .pte files, make
golden data, C headers, UF2 images and size reports. One module per subcommand."""
