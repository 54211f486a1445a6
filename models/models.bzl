"""Every example model: the one list the benches read, and what is computed from it.

A model is a folder `models/<name>/` holding its model file (`model.py`), its facts
(`model.bzl`: `MODEL = model(...)`, see facts.bzl) and a BUILD file calling
`zoo_model(MODEL)` (zoo.bzl). Adding one is that folder plus one `load` line and one list
entry here; `zoo_model` fails a folder that is missing from this list, so the two cannot
drift apart.
"""

load("//models:fits.bzl", "DOES_NOT_FIT")
load("//models:stacks.bzl", "STACK_BYTES")
load("//models/anomaly:model.bzl", anomaly = "MODEL")
load("//models/custom_op:model.bzl", custom_op = "MODEL")
load("//models/digits:model.bzl", digits = "MODEL")
load("//models/imu:model.bzl", imu = "MODEL")
load("//models/kws:model.bzl", kws = "MODEL")
load("//models/resnet8:model.bzl", resnet8 = "MODEL")
load("//models/sine:model.bzl", sine = "MODEL")
load("//models/tiny_transformer:model.bzl", tiny_transformer = "MODEL")
load("//models/vww:model.bzl", vww = "MODEL")

MODELS = [
    sine,
    digits,
    kws,
    resnet8,
    anomaly,
    vww,
    imu,
    tiny_transformer,
    custom_op,
]

# Every program built from the models (float, and int8 where the model has it).
VARIANTS = [v for m in MODELS for v in m.variants]

# The programs of the perf bench, its guard and the size table (the seed's small models: their
# float programs, then their int8 ones) ...
GUARDED_VARIANTS = [v for q in ["none", "int8"] for m in MODELS if m.guarded for v in m.variants if v.quantize == q]

# ... and the zoo's, which `bazel run //tests/bench:zoo_perf` traces.
ZOO_VARIANTS = [v for m in MODELS if not m.guarded for v in m.variants]

# The programs lowered to an Ethos-U55 (models with `npu = True`): the zoo bench's NPU rows.
NPU_VARIANTS = [v for m in MODELS for v in m.npu_variants]

# The programs ExecuTorch's own host runtime can run (it has no cortex_m::* kernels): the
# host timing rows of the perf bench: the seed's float programs, the MLPerf Tiny ones, imu and tiny_transformer.
_HOST_ZOO = ["kws", "resnet8", "vww", "anomaly", "imu", "tiny_transformer"]
EXECUTORCH_RUNNABLE_VARIANTS = [v for v in GUARDED_VARIANTS if v.quantize == "none"] + [
    v
    for m in MODELS
    if m.name in _HOST_ZOO
    for v in m.variants
    if v.quantize == "none"
]

def fitting_boards(variant, boards):
    """The boards of `boards` program `variant` fits (computed: models/fits.bzl)."""
    return [b for b in boards if b.name not in DOES_NOT_FIT.get(variant.name, {})]

def zoo_perf_boards(variant, boards):
    """The boards the zoo's perf bench traces `variant` on: every board it fits, except, for a
    float program, boards without an FPU (tracing soft-float emulation of a zoo model
    instruction by instruction takes many minutes; their QEMU tests still run it)."""
    return [
        b
        for b in fitting_boards(variant, boards)
        if variant.quantize != "none" or b.fpu != str(Label("//platforms/fpu:none"))
    ]

def stack_size(model):
    """The main stack `model`'s firmware reserves: its facts' `stack_size`, else its measured
    high-water mark plus 1 KiB (models/stacks.bzl), else (not measured yet) each board's default."""
    return model.stack_size or STACK_BYTES.get(model.name, 0)
