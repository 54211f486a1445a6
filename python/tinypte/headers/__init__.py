"""What the runtime's C headers define that Python needs: status codes and dtypes (read from
runtime/include/tinypte, never restated)."""
