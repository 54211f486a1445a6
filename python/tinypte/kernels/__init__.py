"""Selective build: the kernel registry of only the operators programs call."""
