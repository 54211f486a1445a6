"""The quantized edge program as a file: what the quantize stage hands the golden stage.

The golden outputs of an int8 model are its quantized program's outputs, computed by the
Cortex-M backend's reference implementations (the `cortex_m::*` operators registered in
Python). The quantize stage writes the edge program it lowered to the .pte into this file,
so the golden stage runs exactly that program instead of quantizing the model again.

Layout (little-endian, described once by `EdgeProgramFile`):
    magic b"TPEP", u32 version (1), then four blobs, each u64 length + bytes: the program
    (JSON), state dict, constants and example inputs of ExecuTorch's serializer
    (executorch.exir.serde). Node provenance (source stack traces with sandbox paths, object
    ids) is left out of the file: same program, same bytes.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from tinypte.errors import TinypteError

# Node metadata that records where a node came from (ids, stack traces with absolute paths):
# not part of the program, and different from run to run.
PROVENANCE = ("from_node", "stack_trace")


@dataclass(frozen=True)
class EdgeProgramFile:
    """The four blobs of a serialized ExportedProgram."""

    MAGIC: ClassVar[bytes] = b"TPEP"
    VERSION: ClassVar[int] = 1
    exported_program: bytes
    state_dict: bytes
    constants: bytes
    example_inputs: bytes

    def to_bytes(self) -> bytes:
        out = bytearray(self.MAGIC + struct.pack("<I", self.VERSION))
        for blob in (getattr(self, f.name) for f in fields(self)):
            out += struct.pack("<Q", len(blob)) + blob
        return bytes(out)

    @classmethod
    def from_bytes(cls, data: bytes, what: str) -> EdgeProgramFile:
        if data[:4] != cls.MAGIC:
            raise TinypteError(f"{what}: not a quantized edge program (magic {data[:4]!r}, expected {cls.MAGIC!r})")
        (version,) = struct.unpack_from("<I", data, 4)
        if version != cls.VERSION:
            raise TinypteError(f"{what}: edge program file version {version}, this tool reads {cls.VERSION}")
        offset, blobs = 8, []
        for _ in fields(cls):
            if offset + 8 > len(data):
                raise TinypteError(f"{what}: truncated edge program file")
            (size,) = struct.unpack_from("<Q", data, offset)
            blobs.append(data[offset + 8 : offset + 8 + size])
            offset += 8 + size
        if offset != len(data):
            raise TinypteError(f"{what}: edge program file is truncated or has trailing bytes")
        return cls(*blobs)


def to_bytes(program: Any) -> bytes:
    """The file bytes of an edge `ExportedProgram`, without its nodes' provenance metadata
    (dropped from the serialized copy: the program itself is left as it is)."""
    from executorch.exir.serde.serialize import serialize

    artifact = serialize(program)
    document = json.loads(artifact.exported_program)
    for node in document["graph_module"]["graph"]["nodes"]:
        for key in PROVENANCE:
            node["metadata"].pop(key, None)
    graph = json.dumps(document, sort_keys=True).encode()
    return EdgeProgramFile(graph, artifact.state_dict, artifact.constants, artifact.example_inputs).to_bytes()


def from_bytes(data: bytes, what: str) -> Any:
    """The edge `ExportedProgram` of file bytes, with the Cortex-M backend's operators loaded."""
    # Registers the cortex_m::* operators in torch (through the passes package: importing
    # the operators module first is a circular import in executorch 1.5.1).
    import executorch.backends.cortex_m.passes  # noqa: F401
    from executorch.exir.serde.export_serialize import SerializedArtifact
    from executorch.exir.serde.serialize import deserialize

    blobs = EdgeProgramFile.from_bytes(data, what)
    artifact = SerializedArtifact(blobs.exported_program, blobs.state_dict, blobs.constants, blobs.example_inputs)
    return deserialize(artifact)
