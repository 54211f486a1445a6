"""model_weights: a model file trained, once, into its weights and metrics.

    model_weights(
        name = "sine_weights",
        src = "model.py",      # the model file (python/tinypte/model/loading.py)
        seed = 0,
    )

runs one cached action, `PteTrain` (`tinypte train`, python/tinypte/train/): the model file's
`build()` and `train()`, seeded, single-threaded and deterministic, then `evaluate()` against
its `ACCEPTANCE`. Outputs `<name>.pt` (the state_dict) and `<name>.metrics.json`. Every
program built from the model file (float and int8, every board) starts from these weights,
so the model trains once; only an edit of the model file, its `data`, the seed or the train
stage itself trains it again. With `state_dict` (weights trained in a notebook) the action
loads those weights instead of calling train(), checking they fit build()'s module.
"""

load("//rules:providers.bzl", "TinypteWeightsInfo")
load("//rules/private:common_attrs.bzl", "toolkit_action", "with_common_attrs")
load("//rules/private:host_transition.bzl", "aot_transition")

def _model_weights_impl(ctx):
    src = ctx.file.src
    toolkit_action(
        ctx,
        "train",
        mnemonic = "PteTrain",
        arguments = [
            "--model",
            src.path,
            "--seed",
            str(ctx.attr.seed),
            "--weights",
            ctx.outputs.weights.path,
            "--metrics",
            ctx.outputs.metrics.path,
        ] + (["--state-dict", ctx.file.state_dict.path] if ctx.file.state_dict else []),
        inputs = [src] + ctx.files.data + ([ctx.file.state_dict] if ctx.file.state_dict else []),
        outputs = [ctx.outputs.weights, ctx.outputs.metrics],
        progress_message = ("Loading the given weights of %s" % ctx.label) if ctx.file.state_dict else ("Training %s (seed %d)" % (ctx.label, ctx.attr.seed)),
    )
    return [
        DefaultInfo(files = depset([ctx.outputs.weights, ctx.outputs.metrics])),
        TinypteWeightsInfo(
            src = src,
            data = depset(ctx.files.data),
            seed = ctx.attr.seed,
            weights = ctx.outputs.weights,
            metrics = ctx.outputs.metrics,
        ),
    ]

model_weights = rule(
    implementation = _model_weights_impl,
    doc = """A model file trained into its weights (`<name>.pt`) and metrics (`<name>.metrics.json`).

Seeded and deterministic: the same model file, data and seed give the same bytes. A model
whose metrics miss its `ACCEPTANCE` fails here, naming the metric and the threshold.""",
    provides = [TinypteWeightsInfo],
    # Trained in one configuration, whoever asks (a board's firmware or the top level).
    cfg = aot_transition,
    outputs = {
        "weights": "%{name}.pt",
        "metrics": "%{name}.metrics.json",
    },
    attrs = with_common_attrs({
        "src": attr.label(
            mandatory = True,
            allow_single_file = [".py"],
            doc = "The model file (the contract is in python/tinypte/model/loading.py).",
        ),
        "data": attr.label_list(
            allow_files = True,
            doc = "Files the model file reads (data sets shipped in the repo, helper modules).",
        ),
        "seed": attr.int(
            default = 0,
            doc = "Seed of training (initial weights, minibatch order). Change it to train differently; same seed, same weights.",
        ),
        "state_dict": attr.label(
            allow_single_file = [".pt", ".pth"],
            doc = "Weights trained elsewhere (torch.save of a state_dict): loaded into build()'s module instead of training; the model file then needs only build(), example_inputs() and golden_inputs().",
        ),
    }, stages = ["train"], transitions = True),
)
