"""Give nonzero's out the layout its kernel writes, before the program is serialized.

torch's meta function for `aten::nonzero` describes its [count, ndim] result column-major
(strides (1, count)), so ExecuTorch's emitter writes dim order [1, 0] for that out. Both
ExecuTorch's portable kernel and tinypte's write the rows one after another (row-major)
whatever the dim order says. A program carrying [1, 0] therefore misdescribes the bytes:
ExecuTorch's host runtime returns the indices transposed, and rejects a select on them
("different dim orders"); tinypte runs no non-contiguous dim order at all. Setting the dim
order to the row-major one makes the program say what the kernel does, and every consumer of
the indices sees PyTorch's values.
"""

from __future__ import annotations

from typing import Any

NONZERO = "aten::nonzero"


def row_major_nonzero_outs(program: Any) -> int:
    """Set the dim order of every nonzero out in an emitted `executorch.exir.schema.Program` to
    row-major. Returns how many outs it changed."""
    from executorch.exir.schema import KernelCall

    changed = 0
    for plan in program.execution_plan:
        for chain in plan.chains:
            for instruction in chain.instructions:
                call = instruction.instr_args
                if not isinstance(call, KernelCall) or plan.operators[call.op_index].name != NONZERO:
                    continue
                out = plan.values[call.args[-1]].val
                row_major = list(range(len(out.sizes)))
                if list(out.dim_order) != row_major:
                    out.dim_order = row_major
                    changed += 1
    return changed


def serialize(manager: Any, config: Any) -> bytes:
    """The .pte bytes of an `ExecutorchProgramManager` made with backend `config`, with nonzero's
    outs row-major (serialized again by ExecuTorch's own serializer if anything changed)."""
    if row_major_nonzero_outs(manager.executorch_program) == 0:
        return bytes(manager.buffer)
    from executorch.exir._serialize._serialize import serialize_for_executorch

    # The manager serialized the program when it was made; these are the inputs it used
    # (executorch 1.5.1, pinned in the lock file).
    pte, _ = serialize_for_executorch(manager._emitter_output, config, manager._data_serializer, manager._named_data)
    return bytes(pte)
