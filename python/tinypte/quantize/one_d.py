"""1-D convolutions and pools as 2-D ones of height 1, so the Cortex-M backend quantizes them.

ExecuTorch's Cortex-M quantizer and passes lower 2-D convolutions and pools to CMSIS-NN-style
NHWC kernels; their 1-D forms (Conv1d, MaxPool1d, AvgPool1d, AdaptiveAvgPool1d: the usual
shape of sensor models) either stop the explicit-layout pipeline or stay float. This rewrites
the captured graph before quantization:

    conv1d(x, w[O, I, K])      ->  squeeze(conv2d(unsqueeze(x, -2), w[O, I, 1, K]), -2)
    max_pool1d(x, k, s, p, d)  ->  squeeze(max_pool2d(unsqueeze(x, -2), (1, k), ...), -2)

(the same for avg_pool1d and adaptive_avg_pool1d), then moves each `squeeze` past the
elementwise operators after it, so that consecutive 1-D layers meet as 4-D tensors with no
reshape between them (a reshape between two layers would cost the explicit-layout pipeline a
transpose each side). Exact in float: the same sums in the same order. Nodes keep the source
location and module path of the layer they came from, for error messages.
"""

from __future__ import annotations

from typing import Any

from tinypte.quantize.layers import aten_name

# Operators of one tensor input whose result has that input's shape: a squeeze moves past them.
_UNARY = frozenset({
    "relu", "relu_", "leaky_relu", "leaky_relu_", "hardtanh", "hardtanh_", "clamp", "clamp_", "sigmoid", "tanh",
    "hardswish", "hardswish_", "hardsigmoid", "gelu", "silu", "elu", "relu6", "dropout", "clone",
})  # fmt: skip
# Elementwise operators of two same-shape tensors: a squeeze moves past them when both inputs
# are squeezes of 4-D tensors of one shape.
_BINARY = frozenset({"add", "add_", "mul", "mul_", "sub", "sub_"})
# Operators on channels (dim 1) with per-channel tensor arguments: a squeeze of the axis before
# the length moves past them too (batch norm after a Conv1d, which the quantizer folds).
_CHANNELWISE = frozenset({"batch_norm"})
_KEPT_META = ("stack_trace", "nn_module_stack", "source_fn_stack", "from_node", "torch_fn")


def _aten() -> Any:
    import torch

    return torch.ops.aten


def _arg(node: Any, index: int, name: str, default: Any) -> Any:
    if len(node.args) > index:
        return node.args[index]
    return node.kwargs.get(name, default)


class _Rewriter:
    """Edits one captured GraphModule in place, keeping each new node's metadata."""

    def __init__(self, module: Any) -> None:
        from torch._guards import detect_fake_mode

        self.module = module
        self.graph = module.graph
        self.fake_mode = detect_fake_mode([n.meta.get("val") for n in self.graph.nodes])
        self.weights = 0

    def _fake(self, value: Any) -> Any:
        return value.meta["val"] if hasattr(value, "meta") else value

    def call(self, origin: Any, target: Any, args: tuple[Any, ...]) -> Any:
        """A call of `target` inserted before `origin`, with `origin`'s source metadata and its
        value's shape (computed on fake tensors)."""
        import torch

        with self.graph.inserting_before(origin):
            node = self.graph.call_function(target, args)
        for key in _KEPT_META:
            if key in origin.meta:
                node.meta[key] = origin.meta[key]
        fake_args = tuple(self._fake(a) for a in args)
        with self.fake_mode if self.fake_mode is not None else torch.no_grad():
            node.meta["val"] = target(*fake_args)
        return node

    def weight_2d(self, origin: Any, weight: Any) -> Any:
        """A [O, I, K] convolution weight as [O, I, 1, K]: a new constant when it is one (the
        quantizer wants constants), else an unsqueeze."""
        import torch

        if weight.op != "get_attr":
            return self.call(origin, _aten().unsqueeze.default, (weight, 2))
        value = self.module
        for part in str(weight.target).split("."):
            value = getattr(value, part)
        name = f"_tinypte_as_2d_{self.weights}"
        self.weights += 1
        self.module.register_parameter(name, torch.nn.Parameter(value.detach().unsqueeze(2), requires_grad=False))
        with self.graph.inserting_before(origin):
            node = self.graph.get_attr(name)
        node.meta.update({k: v for k, v in weight.meta.items() if k != "val"})
        with self.fake_mode if self.fake_mode is not None else torch.no_grad():
            node.meta["val"] = self._fake(weight).unsqueeze(2)
        return node

    def replace(self, origin: Any, target: Any, args: tuple[Any, ...], pad: int = 0) -> None:
        """Replace `origin` (a 1-D call on input args[0]) by unsqueeze -> target -> squeeze, with
        `pad` zeros each side of the length axis before `target` when nonzero."""
        aten = _aten()
        lifted = self.call(origin, aten.unsqueeze.default, (origin.args[0], -2))
        if pad:
            lifted = self.call(origin, aten.constant_pad_nd.default, (lifted, [pad, pad], 0.0))
        result = self.call(origin, target, (lifted, *args))
        squeezed = self.call(origin, aten.squeeze.dim, (result, -2))
        origin.replace_all_uses_with(squeezed)
        self.graph.erase_node(origin)

    def lift(self, node: Any) -> bool:
        """Rewrite one 1-D convolution or pool as its 2-D form; False when `node` is not one."""
        aten = _aten()
        target = node.target
        if target in (aten.conv1d.default, aten.conv1d.padding):
            stride, padding, dilation = (_arg(node, i, n, d) for i, n, d in ((3, "stride", [1]), (4, "padding", [0]), (5, "dilation", [1])))  # fmt: skip
            if isinstance(padding, str):  # "valid" or "same" (stride 1): as numbers when symmetric
                total = 0 if padding == "valid" else dilation[0] * (self._fake(node.args[1]).shape[-1] - 1)
                if total % 2:
                    return False
                padding = [total // 2]
            weight = self.weight_2d(node, node.args[1])
            bias = _arg(node, 2, "bias", None)
            groups = _arg(node, 6, "groups", 1)
            self.replace(
                node, aten.conv2d.default, (weight, bias, [1, stride[0]], [0, padding[0]], [1, dilation[0]], groups)
            )
        elif target is aten.max_pool1d.default:
            kernel = _arg(node, 1, "kernel_size", None)
            stride = _arg(node, 2, "stride", []) or kernel
            padding, dilation = _arg(node, 3, "padding", [0]), _arg(node, 4, "dilation", [1])
            ceil = _arg(node, 5, "ceil_mode", False)
            self.replace(
                node, aten.max_pool2d.default, ([1, kernel[0]], [1, stride[0]], [0, padding[0]], [1, dilation[0]], ceil)
            )
        elif target is aten.avg_pool1d.default:
            kernel = _arg(node, 1, "kernel_size", None)
            stride = _arg(node, 2, "stride", []) or kernel
            padding = _arg(node, 3, "padding", [0])
            ceil, include_pad = _arg(node, 4, "ceil_mode", False), _arg(node, 5, "count_include_pad", True)
            if padding[0] and include_pad and not ceil:
                # Zeros counted in the mean are zeros in the input: pad explicitly (the backend's
                # explicit-layout pipeline mis-shapes a pool padded along one axis only).
                self.replace(node, aten.avg_pool2d.default, ([1, kernel[0]], [1, stride[0]]), pad=padding[0])
            else:
                self.replace(
                    node, aten.avg_pool2d.default, ([1, kernel[0]], [1, stride[0]], [0, padding[0]], ceil, include_pad)
                )
        elif target is aten.adaptive_avg_pool1d.default:
            self.replace(node, aten.adaptive_avg_pool2d.default, ([1, node.args[1][0]],))
        else:
            return False
        return True

    def _is_squeeze(self, node: Any) -> bool:
        return (
            hasattr(node, "op") and node.target is _aten().squeeze.dim and node.args[1] == -2
            and self._fake(node.args[0]).dim() == 4
        )  # fmt: skip

    def sink(self, squeeze: Any) -> bool:
        """Move `squeeze` after the elementwise call that is its only user, or cancel it against
        the unsqueezes that are its users or a flatten; False when nothing applies."""
        aten = _aten()
        source = squeeze.args[0]
        users = list(squeeze.users)
        if users and all(u.target is aten.unsqueeze.default and u.args[1] in (-2, 2) for u in users):
            for user in users:  # a layer whose output feeds several lifted layers
                user.replace_all_uses_with(source)
                self.graph.erase_node(user)
            self.graph.erase_node(squeeze)
            return True
        if len(users) != 1:
            return False
        user = users[0]
        name = aten_name(user)
        if user.target is aten.flatten.using_ints and user.args[1:] in ((1,), (1, -1)):
            flat = self.call(user, aten.flatten.using_ints, (source, 1))
            user.replace_all_uses_with(flat)
        elif (name in _UNARY or name in _CHANNELWISE) and user.args[0] is squeeze and squeeze not in user.args[1:]:
            moved = self.call(user, user.target, (source, *user.args[1:]))
            user.replace_all_uses_with(self.call(user, aten.squeeze.dim, (moved, -2)))
        elif name in _BINARY and len(user.args) >= 2 and all(self._is_squeeze(a) for a in user.args[:2]):
            left, right = (a.args[0] for a in user.args[:2])
            if self._fake(left).shape != self._fake(right).shape or any(len(a.users) != 1 for a in user.args[:2]):
                return False
            moved = self.call(user, user.target, (left, right, *user.args[2:]))
            user.replace_all_uses_with(self.call(user, aten.squeeze.dim, (moved, -2)))
        else:
            return False
        self.graph.erase_node(user)
        for arg in {squeeze, *(a for a in user.args if hasattr(a, "op") and self._is_squeeze(a))}:
            if not arg.users:
                self.graph.erase_node(arg)
        return True


def lift_1d(module: Any) -> int:
    """Rewrite the 1-D convolutions and pools of a captured GraphModule as 2-D (module
    docstring); the number rewritten. The module's forward computes the same values."""
    rewriter = _Rewriter(module)
    lifted = sum(rewriter.lift(node) for node in list(module.graph.nodes))
    if lifted == 0:
        return 0
    changed = True
    while changed:
        squeezes = [n for n in module.graph.nodes if rewriter._is_squeeze(n)]
        changed = any(rewriter.sink(node) for node in squeezes)
    module.graph.eliminate_dead_code()
    module.graph.lint()
    module.recompile()
    return lifted
