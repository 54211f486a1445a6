# CMake toolchain file for the consumer: Debian's arm-none-eabi GCC with picolibc, for a
# Cortex-M33 with its single-precision FPU (the mps2-an505 machine). CONSUMER_CPU_FLAGS replaces
# the CPU flags (the negative test configures a mismatched CPU/float ABI with it).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR cortex-m33)
set(CMAKE_C_COMPILER /usr/bin/arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
if(NOT DEFINED CONSUMER_CPU_FLAGS)
  set(CONSUMER_CPU_FLAGS "-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16")
endif()
set(CMAKE_C_FLAGS_INIT "${CONSUMER_CPU_FLAGS} --specs=picolibc.specs -Os -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--build-id=none")  # the C flags (specs included) reach the link too
