"""expect_failure_test: a test that passes when a command fails for the stated reason.

tinypte's errors are features: a model that does not fit, a missing kernel, a firmware that
faults must each fail with one clear line. These tests pin those lines down:

    expect_failure_test(
        name = "missing_kernel_fails_test",
        message = "no kernel for operator aten::relu.out",   # grep -E
        command = ["$(location //python/tinypte/kernels:tool)", "kernels", ...],
        data = ["//python/tinypte/kernels:tool"],
    )
"""

load("//rules/private:labels.bzl", "tinypte_label")

def expect_failure_test(*, name, message, command, data = [], size = "small", tags = None):
    """An sh_test running `command` through expect_failure.sh: it passes only when the
    command exits non-zero and prints a line matching `message`.

    Args:
      name: Test name (`<what>_fails_test` by convention).
      message: Extended regular expression (grep -E) the failure output must match.
      command: The command and its arguments (`$(location ...)` expanded).
      data: Files the command needs.
      size: Bazel test size.
      tags: Tags of the test.
    """
    native.sh_test(
        name = name,
        size = size,
        srcs = [tinypte_label("//rules/private:expect_failure.sh")],
        args = ["'{}'".format(message)] + command,
        data = data,
        tags = tags,
    )
