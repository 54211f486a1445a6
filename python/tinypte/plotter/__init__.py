"""The serial plotter: x/y/ref lines from firmware output, live or from a log."""
