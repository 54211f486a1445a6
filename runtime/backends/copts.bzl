"""The include directories of //runtime/backends:srcs, for targets that compile those sources."""

BACKEND_INCLUDES = [
    "-Iruntime/app",
    "-Iruntime/backends/ethos_u",
    "-Iruntime/drivers/ethos_u55",
    "-Iruntime/drivers/ethos_u55/include",
]
