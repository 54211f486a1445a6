"""The include directories of //runtime/backends:srcs, for targets that compile those sources."""

BACKEND_INCLUDES = [
    "-Ibackends/ethos_u55/driver",
    "-Ibackends/ethos_u55/driver/include",
    "-Ibackends/ethos_u55/include",
    "-Ibackends/ethos_u55/runtime",
    "-Iplatforms/common/include",
]
