"""ExecuTorch's own view of a .pte (its selective-build tool and host runtime), for tests."""
