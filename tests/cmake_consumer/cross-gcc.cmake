# CMake toolchain file for the consumer: Debian's cross GCC CONSUMER_TRIPLE (arm-none-eabi, the
# default, or riscv64-unknown-elf) with picolibc, for the CPU that CONSUMER_CPU_FLAGS names
# (default: mps2-an505's Cortex-M33 with its single-precision FPU, or RV32IMAC without an FPU for
# QEMU's RISC-V virt machine; other flags: the Cortex-M55's, or a mismatched CPU or float ABI for
# the negative tests). CMAKE_SYSTEM_PROCESSOR follows their -mcpu or -march.
set(CMAKE_SYSTEM_NAME Generic)
if(NOT DEFINED CONSUMER_TRIPLE)
  set(CONSUMER_TRIPLE arm-none-eabi)
endif()
if(NOT DEFINED CONSUMER_CPU_FLAGS)
  if(CONSUMER_TRIPLE STREQUAL "riscv64-unknown-elf")
    set(CONSUMER_CPU_FLAGS "-march=rv32imac -mabi=ilp32 -mcmodel=medany")
  else()
    set(CONSUMER_CPU_FLAGS "-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16")
  endif()
endif()
# CMake's compiler checks read this file again: they must see the same compiler and flags.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CONSUMER_TRIPLE CONSUMER_CPU_FLAGS)
set(CMAKE_C_COMPILER /usr/bin/${CONSUMER_TRIPLE}-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
string(REGEX REPLACE ".*-m(cpu|arch)=([^ ]+).*" "\\2" CMAKE_SYSTEM_PROCESSOR "${CONSUMER_CPU_FLAGS}")
set(CMAKE_C_FLAGS_INIT "${CONSUMER_CPU_FLAGS} --specs=picolibc.specs -Os -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--build-id=none")  # the C flags (specs included) reach the link too
