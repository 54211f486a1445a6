# CMake toolchain file for the consumer: Debian's arm-none-eabi GCC with picolibc, for a
# Cortex-M33 with its single-precision FPU (the mps2-an505 machine) unless CONSUMER_CPU_FLAGS
# replaces the CPU flags (the Cortex-M55's, or a mismatched CPU/float ABI for the negative tests);
# CMAKE_SYSTEM_PROCESSOR follows their -mcpu.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_C_COMPILER /usr/bin/arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
if(NOT DEFINED CONSUMER_CPU_FLAGS)
  set(CONSUMER_CPU_FLAGS "-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16")
endif()
string(REGEX REPLACE ".*-mcpu=([^ ]+).*" "\\1" CMAKE_SYSTEM_PROCESSOR "${CONSUMER_CPU_FLAGS}")
set(CMAKE_C_FLAGS_INIT "${CONSUMER_CPU_FLAGS} --specs=picolibc.specs -Os -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--build-id=none")  # the C flags (specs included) reach the link too
