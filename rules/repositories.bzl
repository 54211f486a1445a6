"""Public set-up of tinypte's offline dependencies, for its own WORKSPACE and for yours.

    local_repository(name = "tinypte", path = "...")

    load("@tinypte//rules:repositories.bzl", "tinypte_dependencies", "tinypte_register_toolchains")

    tinypte_dependencies()

    tinypte_register_toolchains()

Every label below is a `Label(...)`: it names tinypte's own file or target whichever
workspace is the main one (tinypte's, or yours with tinypte as `@tinypte`).
"""

load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")
load("//rules/private:repositories.bzl", "debian_rules_cc", "gcc_include_directories", "tinypte_python_venv")

def tinypte_dependencies():
    """Declares the repositories tinypte's rules need; nothing here downloads anything.

    * `@platforms`, `@bazel_skylib`, `@rules_java`: Debian's copies under /usr/share/bazel
      (Bazel's built-in @platforms lacks Cortex-M and RISC-V values; Bazel's own Java and C++
      tools load @rules_java and @rules_cc, and would download them otherwise).
    * `@rules_cc`: Debian's rules_cc, copied and patched at fetch time to load on Bazel 4.2.3.
    * `@tinypte_python`: the venv every py_binary, py_test and toolkit action runs on (torch,
      executorch, ...), built from python/requirements.lock; registered as the Python toolchain
      by `tinypte_register_toolchains`.
    * `@tinypte_emulator_python`: the machine models' venv (unicorn, pyelftools, numpy, Vela),
      a venv of its own so that the toolkit's venv, whose path is in every Python action, does
      not change for it.
    * `@tinypte_gcc`: the system include directories of the cross compilers and the host's
      32-bit GCC, as they report them, for the C toolchains (no compiler version is written down).

    A repository of one of these names that the calling WORKSPACE declared first is kept.
    """

    # Bazel's built-in copy of @platforms (0.0.2) lacks Cortex-M and RISC-V values; tinypte uses
    # Debian's copy for the generic os/cpu values and declares its own in //platforms.
    maybe(
        native.local_repository,
        name = "platforms",
        path = "/usr/share/bazel/tools/platforms",
    )
    maybe(
        native.local_repository,
        name = "bazel_skylib",
        path = "/usr/share/bazel/tools/skylib",
    )

    # @bazel_tools//tools/jdk loads @rules_java; without a local one Bazel downloads it.
    maybe(
        native.local_repository,
        name = "rules_java",
        path = "/usr/share/bazel/rules/java",
    )

    # Bazel's own C++ tools load @rules_cc. Debian's 0.0.4 needs a two-line patch to load on
    # Bazel 4.2.3; the repository rule copies it and applies rules/patches/*.patch.
    maybe(
        debian_rules_cc,
        name = "rules_cc",
        patch = Label("//rules/patches:rules_cc_bazel4.patch"),
    )
    maybe(
        tinypte_python_venv,
        name = "tinypte_python",
        lock = Label("//python:requirements.lock"),
    )
    maybe(
        tinypte_python_venv,
        name = "tinypte_emulator_python",
        lock = Label("//python/machines:requirements.lock"),
        toolkit = False,
    )
    maybe(
        gcc_include_directories,
        name = "tinypte_gcc",
        compilers = {
            "ARM_INCLUDES": [
                "arm-none-eabi-gcc --specs=picolibc.specs",
                "arm-none-eabi-gcc",
            ],
            "RISCV_INCLUDES": ["riscv64-unknown-elf-gcc --specs=picolibc.specs"],
            "HOST_ILP32_INCLUDES": ["gcc -m32"],
        },
    )

def tinypte_register_toolchains():
    """Registers the Python toolchain (the `@tinypte_python` venv) and tinypte's C toolchains
    (//toolchains: the cross compilers of every board's CPU, and the host's 32-bit data layout)."""
    native.register_toolchains(
        "@tinypte_python//:toolchain",
        str(Label("//toolchains:all")),
    )
