"""expect_failure_test: a test that passes when a command fails for the stated reason."""

def expect_failure_test(*, name, message, command, data = [], size = "small"):
    """An sh_test running `command` through expect_failure.sh: it passes only when the
    command exits non-zero and prints a line matching `message`.

    Args:
      name: Test name (`<what>_fails_test` by convention).
      message: Extended regular expression (grep -E) the failure output must match.
      command: The command and its arguments (`$(location ...)` expanded).
      data: Files the command needs.
      size: Bazel test size.
    """
    native.sh_test(
        name = name,
        size = size,
        srcs = ["//tests/smoke:expect_failure.sh"],
        args = ["'{}'".format(message)] + command,
        data = data,
    )
