#!/usr/bin/env bash
# Runs a Python test of the RP2350 model on the instruction models' venv (unicorn):
#   on_emulator_python.sh PYTHON SCRIPT   (runfiles paths)
# with the model's directory (core.py, libblock_counter.so beside it) and tools/ on PYTHONPATH.
set -euo pipefail
export PYTHONPATH=platforms/pico2w/emulator:tools
exec "$1" "$2"
