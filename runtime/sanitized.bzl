"""What the host tests that compile the whole runtime themselves share, so that their
sanitizers instrument all of it: the sanitizer flags, and the runtime's sources (the runtime,
the two-core part, every kernel and every backend, and the all-kernels registry that lists
them)."""

# AddressSanitizer and UndefinedBehaviorSanitizer, for copts and linkopts alike.
SANITIZE = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
]

RUNTIME_SOURCES = [
    "//runtime:srcs",
    "//runtime/backends:srcs",
    "//runtime/kernels:all_registry",
    "//runtime/kernels:srcs",
    "//runtime/two_cores:hdrs",
    "//runtime/two_cores:srcs",
]
