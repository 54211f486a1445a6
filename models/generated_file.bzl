"""generated_bzl(): the two targets of a generated .bzl file of models/ (generated_file.py)."""

load("//python:defs.bzl", "tinypte_py_binary", "tinypte_py_test")

def generated_bzl(*, name, args, data, deps = [], test_size = "small"):
    """`bazel run //models:update_<name>` rewrites models/<name>.bzl; `:<name>_test` fails when it is stale.

    Args:
      name: the file's name without `.bzl`; its tool is `<name>.py`.
      args: the tool's arguments after --write/--check (its inputs).
      data: the files those arguments name.
      deps: the toolkit stages the tool imports.
      test_size: the test's Bazel size.
    """
    srcs = sorted([name + ".py", "generated_file.py"])
    tinypte_py_binary(
        name = "update_" + name,
        srcs = srcs,
        args = ["--write=models/{}.bzl".format(name)] + args,
        data = data,
        main = name + ".py",
        deps = deps,
    )
    tinypte_py_test(
        name = name + "_test",
        size = test_size,
        srcs = srcs,
        args = ["--check=$(rootpath {}.bzl)".format(name)] + args,
        data = data + [name + ".bzl"],
        main = name + ".py",
        deps = deps,
    )
