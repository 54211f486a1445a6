"""The command-stream parameter registers as an operation reads them: the IFM/IFM2/OFM feature
maps, kernel, padding, activation and scaling fields, with Vela's field layouts
(register_command_stream_generator.py: generate_ifm_precision, generate_ofm_precision,
generate_kernel; ethos_u55_regs' npu_set_*_t structures).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ethos_u55.npu_model.feature_map import FeatureMap

_IFM_BYTES = {0: 1, 1: 2, 2: 4}
_OFM_BYTES = {0: 1, 1: 2, 2: 4}
# ACTIVATION bits 15:12 (ethos_u55_regs clip_range): OFM precision, or a forced range.
_CLIP_RANGES: dict[int, tuple[int, int] | None] = {0: None, 2: (0, 255), 3: (-128, 127), 5: (-32768, 32767)}


class OperationError(Exception):
    """Registers an operation cannot run with; the message names the register."""


def _signed16(value: int) -> int:
    return value - 0x10000 if value & 0x8000 else value


@dataclass
class ParameterRegisters:
    """The values the command stream set (cmd0 parameters, cmd1 payloads and their 16-bit
    parameter fields), by command name; unset registers read as zero."""

    values: dict[str, int] = field(default_factory=dict)
    params: dict[str, int] = field(default_factory=dict)

    def get(self, name: str) -> int:
        return self.values.get("NPU_SET_" + name, 0)

    def param(self, name: str) -> int:
        return self.params.get("NPU_SET_" + name, 0)

    def ifm_map(self, prefix: str = "IFM") -> FeatureMap:
        precision = self.get(prefix + "_PRECISION")
        code = (precision >> 2) & 3
        if code not in _IFM_BYTES:
            raise OperationError(f"NPU_SET_{prefix}_PRECISION: reserved precision {code}")
        tiles = prefix if prefix == "IFM2" else "IFM"
        return FeatureMap(
            name=prefix,
            region=self.get(prefix + "_REGION") & 0x7,
            bases=tuple(self.get(f"{prefix}_BASE{i}") for i in range(4)),  # type: ignore[arg-type]
            height0=self.get(tiles + "_HEIGHT0_M1") + 1,
            height1=self.get(tiles + "_HEIGHT1_M1") + 1,
            width0=self.get(tiles + "_WIDTH0_M1") + 1,
            stride_y=self.get(prefix + "_STRIDE_Y"),
            stride_x=self.get(prefix + "_STRIDE_X"),
            stride_c=self.get(prefix + "_STRIDE_C"),
            element_size=_IFM_BYTES[code],
            signed=bool(precision & 1),
            layout=(precision >> 6) & 3,
            zero_point=self.zero_point(prefix, precision & 1 == 1),
        )

    def zero_point(self, prefix: str, signed: bool) -> int:
        value = self.get(prefix + "_ZERO_POINT")
        return _signed16(value) if signed else value

    def ofm_map(self) -> FeatureMap:
        precision = self.get("OFM_PRECISION")
        code = (precision >> 1) & 3
        if code not in _OFM_BYTES:
            raise OperationError(f"NPU_SET_OFM_PRECISION: reserved precision {code}")
        return FeatureMap(
            name="OFM",
            region=self.get("OFM_REGION") & 0x7,
            bases=tuple(self.get(f"OFM_BASE{i}") for i in range(4)),  # type: ignore[arg-type]
            height0=self.get("OFM_HEIGHT0_M1") + 1,
            height1=self.get("OFM_HEIGHT1_M1") + 1,
            width0=self.get("OFM_WIDTH0_M1") + 1,
            stride_y=self.get("OFM_STRIDE_Y"),
            stride_x=self.get("OFM_STRIDE_X"),
            stride_c=self.get("OFM_STRIDE_C"),
            element_size=_OFM_BYTES[code],
            signed=bool(precision & 1),
            layout=(precision >> 6) & 3,
            zero_point=self.zero_point("OFM", precision & 1 == 1),
        )

    @property
    def ofm_shape(self) -> tuple[int, int, int]:
        return (self.get("OFM_HEIGHT_M1") + 1, self.get("OFM_WIDTH_M1") + 1, self.get("OFM_DEPTH_M1") + 1)

    @property
    def ifm_depth(self) -> int:
        return self.get("IFM_DEPTH_M1") + 1

    @property
    def ofm_global_scale(self) -> bool:
        return bool(self.get("OFM_PRECISION") >> 8 & 1)

    @property
    def ofm_rounding(self) -> int:
        return self.get("OFM_PRECISION") >> 14 & 3

    @property
    def ifm_rounding(self) -> int:
        return self.get("IFM_PRECISION") >> 14 & 3

    @property
    def ifm_scale_mode(self) -> int:
        return self.get("IFM_PRECISION") >> 8 & 3

    @property
    def ofm_scale(self) -> tuple[int, int]:
        return self.get("OFM_SCALE"), self.param("OFM_SCALE") & 0x3F

    @property
    def opa_scale(self) -> tuple[int, int]:
        return self.get("OPA_SCALE"), self.param("OPA_SCALE") & 0x3F

    @property
    def opb_scale(self) -> int:
        return self.get("OPB_SCALE")

    @property
    def kernel(self) -> Kernel:
        stride = self.get("KERNEL_STRIDE")
        dilation_x, dilation_y = (stride >> 3 & 1) + 1, (stride >> 4 & 1) + 1
        extent_h, extent_w = self.get("KERNEL_HEIGHT_M1") + 1, self.get("KERNEL_WIDTH_M1") + 1
        if (extent_h - 1) % dilation_y or (extent_w - 1) % dilation_x:
            raise OperationError("NPU_SET_KERNEL_*_M1: kernel extent does not fit its dilation")
        return Kernel(
            height=(extent_h - 1) // dilation_y + 1,
            width=(extent_w - 1) // dilation_x + 1,
            stride_y=((stride >> 1 & 1) | (stride >> 9 & 1) << 1) + 1,
            stride_x=((stride & 1) | (stride >> 6 & 1) << 1) + 1,
            dilation_y=dilation_y,
            dilation_x=dilation_x,
            part_kernel=bool(stride >> 2 & 1),
        )

    @property
    def padding(self) -> tuple[int, int, int, int]:
        """top, left, bottom, right"""
        return (
            self.get("IFM_PAD_TOP"),
            self.get("IFM_PAD_LEFT"),
            self.get("IFM_PAD_BOTTOM"),
            self.get("IFM_PAD_RIGHT"),
        )

    @property
    def activation(self) -> tuple[int, int, int, tuple[int, int] | None]:
        """activation function, min, max, forced clip range"""
        value = self.get("ACTIVATION")
        function, clip = value & 0xFFF, value >> 12 & 0xF
        if clip not in _CLIP_RANGES:
            raise OperationError(f"NPU_SET_ACTIVATION: reserved clip range {clip}")
        return (
            function,
            _signed16(self.get("ACTIVATION_MIN")),
            _signed16(self.get("ACTIVATION_MAX")),
            _CLIP_RANGES[clip],
        )


@dataclass(frozen=True)
class Kernel:
    height: int
    width: int
    stride_y: int
    stride_x: int
    dilation_y: int
    dilation_x: int
    part_kernel: bool

    def input_extent(self, ofm_height: int, ofm_width: int, padding: tuple[int, int, int, int]) -> tuple[int, int]:
        """The IFM height and width the kernel window covers, padding excluded."""
        top, left, bottom, right = padding
        height = (ofm_height - 1) * self.stride_y + (self.height - 1) * self.dilation_y + 1 - top - bottom
        width = (ofm_width - 1) * self.stride_x + (self.width - 1) * self.dilation_x + 1 - left - right
        return height, width
