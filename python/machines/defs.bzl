"""Python programs and tests on the machine models' own venv.

The models run on @tinypte_emulator_python (unicorn, pyelftools, and for the Ethos-U55's functional
model numpy and Vela's weight decoder; built from requirements.lock here), not on the toolkit's venv,
which every py_binary and py_test uses (the Python toolchain WORKSPACE registers). These rules run a
main file on that venv with the import roots of their `deps` (their py_library `imports`, as a
py_binary would have them) as PYTHONPATH, so a model is imported by package name
(`from machines.rp2350.machine import Machine`) and nobody writes a PYTHONPATH by hand.

The executable is a bash script that runs from the runfiles directory of the workspace (Bazel's
working directory for tests and `bazel run`), also when another target runs it from its own
runfiles (instruction_model_test, the perf bench): it has the launcher's runfiles then.
"""

load("//rules/private:runner_script.bzl", "runner_info")

_INTERPRETER = "@tinypte_emulator_python//:python"

def _import_roots(ctx):
    """The deps' import roots (PyInfo.imports), relative to the workspace's runfiles directory."""
    roots = {}
    for dep in ctx.attr.deps:
        for path in dep[PyInfo].imports.to_list():
            # PyInfo's paths start with the repository's name, a directory of the runfiles root.
            prefix = ctx.workspace_name + "/"
            roots[path[len(prefix):] if path.startswith(prefix) else "../" + path] = None
    return sorted(roots)

def _machines_py_impl(ctx):
    interpreter = ctx.file._interpreter

    # -P: the main file's directory is not put first on sys.path (its modules are the
    # package's, imported by their full names).
    args = ["-P", ctx.file.main.short_path]
    return [runner_info(
        ctx,
        ctx.attr._kind,
        interpreter.short_path,
        args,
        files = [interpreter, ctx.file.main] + ctx.files.data,
        runfiles = [target[DefaultInfo].default_runfiles for target in ctx.attr.deps + ctx.attr.data],
        env = {"PYTHONPATH": ":".join(_import_roots(ctx))},
    )]

def _attrs(kind):
    return {
        "main": attr.label(
            mandatory = True,
            allow_single_file = [".py"],
            doc = "The Python file to run (a module of `deps`, or a test beside them).",
        ),
        "deps": attr.label_list(
            providers = [PyInfo],
            doc = "The py_library targets it imports (under //python/machines, and the NPU model); their import roots make PYTHONPATH.",
        ),
        "data": attr.label_list(
            allow_files = True,
            doc = "Files or executables it reads at run time (their runfiles come along).",
        ),
        "_interpreter": attr.label(
            default = _INTERPRETER,
            allow_single_file = True,
        ),
        "_kind": attr.string(default = kind),
    }

machines_py_binary = rule(
    implementation = _machines_py_impl,
    executable = True,
    attrs = _attrs("machines_py_binary"),
    doc = """A Python program on the machine models' venv: a model's entry point, such as
//python/machines/rp2350:run (what a board's `instruction_model` names).

Example:

    machines_py_binary(
        name = "run",
        main = "run.py",
        deps = [":rp2350"],
    )
""",
)

machines_py_test = rule(
    implementation = _machines_py_impl,
    test = True,
    attrs = _attrs("machines_py_test"),
    doc = """A Python test on the machine models' venv (for tests that need unicorn; tests of pure
Python parts run as tinypte_py_test on the toolkit's venv). `main` exits non-zero on failure.""",
)
