"""Builds tests/cmake_consumer with Debian's CMake against a model library's archive, runs it on
QEMU (mps2-an505, mps3-an547 or RISC-V virt: --machine) and compares every printed output with
the golden data (float within the golden tolerance, integers exactly); with
--expect-configure-error, configures it with other CPU flags and expects CMake to stop with a
message naming both CPUs/ABIs.

    consumer_test.py --library DIR --golden G.golden.bin --model sine --source DIR --min-outputs 68
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from tinypte.golden.format import Golden

# Machine -> (the GCC triple cross-gcc.cmake takes, QEMU command before -kernel, binutils prefix).
MACHINES = {
    "mps2_an505": (
        "arm-none-eabi",
        ["qemu-system-arm", "-M", "mps2-an505", "-cpu", "cortex-m33"],
        "arm-none-eabi-",
    ),
    "mps3_an547": (
        "arm-none-eabi",
        ["qemu-system-arm", "-M", "mps3-an547", "-cpu", "cortex-m55"],
        "arm-none-eabi-",
    ),
    "riscv_virt": (
        "riscv64-unknown-elf",
        ["qemu-system-riscv32", "-M", "virt", "-cpu", "rv32", "-bios", "none"],
        "riscv64-unknown-elf-",
    ),
}
QEMU_IO = ["-nographic", "-monitor", "none", "-serial", "none", "-semihosting-config", "enable=on,target=native"]

C_TYPES = {"float32": ("float", "f"), "int8": ("int8_t", ""), "uint8": ("uint8_t", ""), "int32": ("int32_t", "")}


def cases_header(golden: Golden) -> str:
    """cases.h: every golden case's input, as main.c reads them."""
    in_type, suffix = C_TYPES[np.dtype(golden.inputs[0][0].dtype).name]
    out_type, _ = C_TYPES[np.dtype(golden.outputs[0][0].dtype).name]
    rows = []
    for case in golden.inputs:
        values = case[0].reshape(-1)
        rows.append("{" + ", ".join(f"{float(v)!r}{suffix}" if suffix else str(int(v)) for v in values) + "}")
    return (
        "/* The golden inputs, written by consumer_test.py. */\n"
        f"#define CASES {len(golden.inputs)}u\n"
        f"#define CASE_INPUTS {golden.inputs[0][0].size}u\n"
        f"#define CASE_OUTPUTS {golden.outputs[0][0].size}u\n"
        f"#define CASE_OUTPUT_TYPE {out_type}\n"
        f"static const {in_type} cases_in[CASES][CASE_INPUTS] = {{\n    " + ",\n    ".join(rows) + "};\n"
    )


def run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def configure(args: argparse.Namespace, work: Path, cpu_flags: str | None) -> subprocess.CompletedProcess[str]:
    """CMake's configure step (--use find_package or add_subdirectory), or with --use make the
    whole build by the Makefile and the library's Make fragment (its checks run as it is read)."""
    source = work / "src"
    shutil.copytree(args.source, source)
    if args.use == "make":
        (work / "build").mkdir()
        make = ["/usr/bin/make", "-f", str(source / "Makefile"), f"TINYPTE_DIR={args.library.resolve()}"]
        make += [f"TINYPTE_MODEL={args.model}", f"CASES_DIR={work / 'cases'}", f"OUT={work / 'build'}"]
        return run(make + ([f"CPU_FLAGS={cpu_flags}"] if cpu_flags is not None else []))
    command = [
        "/usr/bin/cmake",
        "-S",
        str(source),
        "-B",
        str(work / "build"),
        f"-DCMAKE_TOOLCHAIN_FILE={source / 'cross-gcc.cmake'}",
        f"-DCONSUMER_TRIPLE={MACHINES[args.machine][0]}",
        f"-DCONSUMER_MACHINE={args.machine}",
        f"-DTINYPTE_MODEL={args.model}",
        f"-DTINYPTE_PACKAGE={args.library.resolve() / 'cmake'}",
        f"-DCASES_DIR={work / 'cases'}",
        f"-DTINYPTE_USE={args.use}",
        f"-DTINYPTE_SECOND_PACKAGE={args.second_library.resolve() / 'cmake' if args.second_library else ''}",
        "-DCMAKE_MAKE_PROGRAM=/usr/bin/make",
    ]
    if cpu_flags is not None:
        command.append(f"-DCONSUMER_CPU_FLAGS={cpu_flags}")
    return run(command)


def compare(golden: Golden, log: str) -> tuple[int, list[str]]:
    """(outputs checked, problems) of the `out case= index= bits=` lines against the golden outputs."""
    expected = [case[0].reshape(-1) for case in golden.outputs]
    dtype = np.dtype(golden.outputs[0][0].dtype)
    checked, problems = 0, []
    for line in log.splitlines():
        if not line.startswith("out "):
            continue
        fields = dict(part.split("=") for part in line.split()[1:])
        case, index, bits = int(fields["case"]), int(fields["index"]), int(fields["bits"], 16)
        raw = np.array([bits], dtype=np.uint32).view(np.float32)[0] if dtype == np.float32 else None
        want = expected[case][index]
        if raw is not None:
            ok = abs(float(raw) - float(want)) <= golden.tolerance
            got: object = float(raw)
        else:
            value = int(np.array([bits & ((1 << (8 * dtype.itemsize)) - 1)], dtype=np.uint32).astype(dtype)[0])
            ok, got = value == int(want), value
        if not ok:
            problems.append(f"case {case} output {index}: {got} against golden {want}")
        checked += 1
    return checked, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--library", type=Path, nargs="+", required=True, help="the model_library's files; its directory is used"
    )
    parser.add_argument(
        "--golden", type=Path, nargs="+", required=True, help="the model's files; the .golden.bin is used"
    )
    parser.add_argument("--model", required=True)
    parser.add_argument("--source", type=Path, required=True, help="tests/cmake_consumer")
    parser.add_argument("--machine", choices=sorted(MACHINES), default="mps2_an505")
    parser.add_argument("--use", choices=["find_package", "add_subdirectory", "make"], default="find_package")
    parser.add_argument("--min-outputs", type=int, default=1)
    parser.add_argument(
        "--second-library", type=Path, nargs="+", default=[], help="sine_int8's files: also run two_models.elf"
    )
    parser.add_argument("--cpu-flags", help="configure with these CPU flags instead")
    parser.add_argument("--expect-configure-error", action="append", help="a text CMake's error must contain")
    args = parser.parse_args()
    args.library = next(p for p in args.library if p.is_dir())
    args.second_library = next((p for p in args.second_library if p.is_dir()), None)
    golden_file = next(p for p in args.golden if p.name.endswith(".golden.bin"))
    golden = Golden.from_bytes(golden_file.read_bytes())
    with tempfile.TemporaryDirectory(dir=os.environ.get("TEST_TMPDIR")) as scratch:
        work = Path(scratch)
        (work / "cases").mkdir()
        (work / "cases" / "cases.h").write_text(cases_header(golden))
        configured = configure(args, work, args.cpu_flags)
        if args.expect_configure_error is not None:
            text = configured.stdout + configured.stderr
            missing = [t for t in args.expect_configure_error if t not in text]
            print(text)
            if configured.returncode == 0 or missing:
                print(f"FAIL: configuring with {args.cpu_flags!r} should fail naming {missing}")
                return 1
            print(f"PASS: configuring with {args.cpu_flags!r} failed as expected")
            return 0
        if configured.returncode != 0:
            print(configured.stdout + configured.stderr)
            return 1
        built = run(["/usr/bin/make", "-C", str(work / "build")]) if args.use != "make" else configured
        if built.returncode != 0:
            print(built.stdout + built.stderr)
            return 1
        _, qemu_command, binutils = MACHINES[args.machine]
        qemu = run([*qemu_command, *QEMU_IO, "-kernel", str(work / "build" / "app.elf")])
        print(qemu.stdout + qemu.stderr)
        size = run([f"/usr/bin/{binutils}size", str(work / "build" / "app.elf")])
        print(size.stdout)
        if args.second_library is not None:
            two = run([*qemu_command, *QEMU_IO, "-kernel", str(work / "build" / "two_models.elf")])
            print(two.stdout + two.stderr)
            if two.returncode != 0 or "two models: ok" not in two.stdout + two.stderr:
                print(f"FAIL: two_models.elf (qemu exit {two.returncode})")
                return 1
    checked, problems = compare(golden, qemu.stdout + qemu.stderr)  # semihosting writes to either
    for problem in problems:
        print("FAIL:", problem)
    print(f"consumer_test: {checked} outputs checked against the golden data (at least {args.min_outputs} required)")
    if qemu.returncode != 0 or problems or checked < args.min_outputs:
        print(f"FAIL (qemu exit {qemu.returncode})")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
