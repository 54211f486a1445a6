"""Run an ExecuTorch program (.pte) in PyTorch: the reference for programs no host runtime runs.

ExecuTorch's host runtime has no `cortex_m::*` kernels, so a program from ExecuTorch's Cortex-M
flow cannot run there. This walks the program's execution plan itself: every value becomes a
Python value (tensors: the program's constants, or a fresh tensor of the planned shape, dtype
and dim order), and every KernelCall calls the operator of that name in PyTorch — ATen's for
`aten::*`, ExecuTorch's registrations for `dim_order_ops::*` and `quantized_decomposed::*`, and
the Cortex-M backend's reference implementations (its ops/operators.py) for `cortex_m::*`,
whose `.out` overloads are run as their functional overload and copied into the out tensor.

The memory plan is honoured: planned tensors are views of the planned buffers at their
offsets, as in ExecuTorch's runtime, so values the exporter placed on the same bytes (a view it
elided) share them here too. A DelegateCall runs the delegate's reference given at construction
(ethos_u55.aot.tosa_golden: its TOSA graph in tosa_reference_model). Control flow is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tinypte.errors import TinypteError

# executorch_prim operators that only look at shapes or view data.
_VIEW_OPS = frozenset({"executorch_prim::et_view"})


def register_operators() -> None:
    """Import what registers the operators a program may call."""
    # The backend's pass manager imports its operators in the order they need (importing
    # ops.operators first runs into an import cycle of the backend).
    import executorch.backends.cortex_m.passes.cortex_m_pass_manager  # registers cortex_m::*
    import executorch.exir.passes.dim_order_ops_registry  # noqa: F401 - registers dim_order_ops::*
    import torch.ao.quantization.fx._decomposed  # noqa: F401 - registers quantized_decomposed::*


class Interpreter:
    """One method of a program, ready to run on inputs."""

    def __init__(self, pte: bytes, what: str, method: str = "forward", delegates: Any = None) -> None:
        from executorch.exir._serialize._program import deserialize_pte_binary

        register_operators()
        self.what = what
        self.program = deserialize_pte_binary(pte).program
        plans = [p for p in self.program.execution_plan if p.name == method]
        if not plans:
            raise TinypteError(f"{what}: the program has no method {method!r}")
        self.plan = plans[0]
        self.delegates = delegates  # runs a DelegateCall (ethos_u55.aot.tosa_golden.TosaDelegates)
        if self.plan.delegates and delegates is None:
            ids = ", ".join(d.id for d in self.plan.delegates)
            raise TinypteError(
                f"{what}: the program calls backend delegates ({ids}) and no reference of them was given"
            )

    def input_specs(self) -> list[tuple[list[int], Any, list[int]]]:
        """(sizes, torch dtype, dim order) of each input; a non-tensor input gives ([], None, [])."""
        specs: list[tuple[list[int], Any, list[int]]] = []
        for index in self.plan.inputs:
            value = self.plan.values[index].val
            if type(value).__name__ != "Tensor":
                specs.append(([], None, []))
                continue
            specs.append((list(value.sizes), _torch_dtype(value.scalar_type, self.what), list(value.dim_order)))
        return specs

    def output_dim_orders(self) -> list[list[int]]:
        orders = []
        for index in self.plan.outputs:
            value = self.plan.values[index].val
            orders.append(list(value.dim_order) if type(value).__name__ == "Tensor" else [])
        return orders

    def run(self, inputs: Sequence[Any]) -> list[Any]:
        """The method's outputs for `inputs` (tensors, in logical NCHW terms whatever their dim order)."""
        import torch

        self.buffers = [torch.zeros(int(size), dtype=torch.uint8) for size in self.plan.non_const_buffer_sizes]
        values = [self._value(i) for i in range(len(self.plan.values))]
        if len(inputs) != len(self.plan.inputs):
            raise TinypteError(f"{self.what}: the program takes {len(self.plan.inputs)} inputs, {len(inputs)} given")
        for index, given in zip(self.plan.inputs, inputs, strict=True):
            if isinstance(values[index], torch.Tensor):
                values[index].copy_(given)
        for chain in self.plan.chains:
            for pc, instruction in enumerate(chain.instructions):
                self._execute(pc, instruction.instr_args, values)
        return [values[i] for i in self.plan.outputs]

    # --- values -----------------------------------------------------------------------------

    def _value(self, index: int) -> Any:
        import torch

        value = self.plan.values[index].val
        kind = type(value).__name__
        if kind == "Null":
            return None
        if kind in ("Int", "Bool", "Double", "String"):
            return value.int_val if kind == "Int" else value.bool_val if kind == "Bool" else (
                value.double_val if kind == "Double" else value.string_val)  # fmt: skip
        if kind in ("IntList", "DoubleList", "BoolList"):
            return _BoxedList(kind, value.items)
        if kind in ("TensorList", "OptionalTensorList"):
            return _BoxedList(kind, value.items)
        if kind != "Tensor":
            raise TinypteError(f"{self.what}: value {index} is a {kind}, which the interpreter does not know")
        dtype = _torch_dtype(value.scalar_type, self.what)
        sizes = [int(s) for s in value.sizes]
        order = list(value.dim_order) or list(range(len(sizes)))
        physical = [sizes[d] for d in order]
        count = 1
        for s in sizes:
            count *= s
        nbytes = count * torch.empty(0, dtype=dtype).element_size()
        info = value.allocation_info
        if info is not None:
            offset = int(info.memory_offset_low) + (int(info.memory_offset_high) << 32)
            buffer = self.buffers[int(info.memory_id)]
            if offset + nbytes > buffer.numel():
                raise TinypteError(f"{self.what}: value {index} lies outside planned buffer {info.memory_id}")
            tensor = buffer[offset : offset + nbytes].view(dtype).reshape(physical)
        elif value.data_buffer_idx > 0:
            storage = self.program.constant_buffer[value.data_buffer_idx].storage
            flat = torch.frombuffer(bytearray(storage), dtype=dtype) if storage else torch.zeros(0, dtype=dtype)
            tensor = flat[:count].reshape(physical)
        else:
            tensor = torch.zeros(physical, dtype=dtype)
        # Logical view of the physical layout: permute back by the inverse of the dim order.
        inverse = [order.index(d) for d in range(len(order))]
        return tensor.permute(inverse) if order != list(range(len(order))) else tensor

    def _resolve(self, values: list[Any], item: Any) -> Any:
        if isinstance(item, _BoxedList):
            if item.kind == "IntList":
                return [int(values[i]) for i in item.items]
            if item.kind == "OptionalTensorList":
                return [values[i] if i >= 0 else None for i in item.items]
            if item.kind == "TensorList":
                return [values[i] for i in item.items]
            return list(item.items)
        return item

    # --- instructions -----------------------------------------------------------------------

    def _execute(self, pc: int, args: Any, values: list[Any]) -> None:
        kind = type(args).__name__
        if kind == "MoveCall":
            values[args.move_to] = values[args.move_from]
            return
        if kind == "FreeCall":
            return
        if kind == "DelegateCall":
            self.delegates.run(int(args.delegate_index), [values[i] for i in args.args])
            return
        if kind != "KernelCall":
            raise TinypteError(
                f"{self.what}: instruction {pc} is a {kind}; the interpreter runs straight-line programs"
            )
        operator = self.plan.operators[args.op_index]
        name = f"{operator.name}.{operator.overload}"
        try:
            self._call(operator.name, operator.overload, [self._resolve(values, values[i]) for i in args.args],
                       args.args, values)  # fmt: skip
        except TinypteError:
            raise
        except Exception as error:
            raise TinypteError(f"{self.what}: instruction {pc} ({name}): {type(error).__name__}: {error}") from error

    def _call(self, op_name: str, overload: str, args: list[Any], slots: list[int], values: list[Any]) -> None:
        import torch

        if op_name in _VIEW_OPS:  # et_view(self, size) -> out: a view with the out's sizes
            values[slots[-1]] = args[0].reshape(args[1])
            return
        namespace, name = op_name.split("::")
        packet = getattr(getattr(torch.ops, namespace), name)
        overload_name = overload or "default"
        schema = getattr(packet, overload_name)._schema
        count = len(schema.arguments)
        positional = [a for a in schema.arguments if not a.kwarg_only]
        keyword = [a for a in schema.arguments if a.kwarg_only]
        call_args = args[: len(positional)]
        call_kwargs = {a.name: args[len(positional) + i] for i, a in enumerate(keyword)}
        outs = [a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]
        try:
            getattr(packet, overload_name)(*call_args, **call_kwargs)
        except NotImplementedError:
            if not outs or not hasattr(packet, "default"):
                raise
            # A functional implementation only (the backend's reference implementations).
            functional = {k: v for k, v in call_kwargs.items() if k not in outs}
            result = packet.default(*call_args, **functional)
            results = result if isinstance(result, (tuple, list)) else (result,)
            for out_name, value in zip(outs, results, strict=True):
                target = call_kwargs[out_name]
                if target.shape != value.shape:
                    raise TinypteError(f"{op_name}: the reference gives {list(value.shape)}, "
                                       f"the program plans {list(target.shape)}") from None  # fmt: skip
                target.copy_(value)
        # The returned values are the outs again (out variants); nothing to bind.
        del count, slots


class _BoxedList:
    """A list value: the indices (or items) it holds, resolved when an operator reads it."""

    def __init__(self, kind: str, items: Sequence[Any]) -> None:
        self.kind = kind
        self.items = list(items)


def _torch_dtype(scalar_type: Any, what: str) -> Any:
    from tinypte.headers import dtypes

    try:
        return dtypes.by_scalar_type(int(scalar_type)).torch
    except TinypteError as error:
        raise TinypteError(f"{what}: {error}") from error
