# CMake toolchain file for the consumer on RISC-V: Debian's riscv64-unknown-elf GCC with picolibc,
# for RV32IMAC (ilp32, no FPU: QEMU's virt machine). CONSUMER_CPU_FLAGS replaces the CPU flags;
# CMAKE_SYSTEM_PROCESSOR follows their -march.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_C_COMPILER /usr/bin/riscv64-unknown-elf-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
if(NOT DEFINED CONSUMER_CPU_FLAGS)
  set(CONSUMER_CPU_FLAGS "-march=rv32imac -mabi=ilp32 -mcmodel=medany")
endif()
string(REGEX REPLACE ".*-march=([^ ]+).*" "\\1" CMAKE_SYSTEM_PROCESSOR "${CONSUMER_CPU_FLAGS}")
set(CMAKE_C_FLAGS_INIT "${CONSUMER_CPU_FLAGS} --specs=picolibc.specs -Os -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--build-id=none")  # the C flags (specs included) reach the link too
