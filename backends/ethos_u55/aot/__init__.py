"""The Ethos-U55's ahead-of-time side: lowering for the NPU with Vela (lowering.py), the delegate
blob's format (vela_blob.py) and the delegates' golden path in tosa_reference_model (tosa_golden.py)."""
