/* Fuzz target for the loader and executor: any byte string goes through
 * load -> init -> execute and must end in a status, never a crash.
 *
 * With clang (libFuzzer), from the repository root, after `bazel build //runtime/kernels:all`:
 *     clang -fsanitize=fuzzer,address,undefined -DTP_LIBFUZZER -Iruntime/include -Iruntime/kernels
 *       runtime/src/[a-z]*.c runtime/kernels/[a-z_]*.c bazel-bin/runtime/kernels/all_registry.c
 *       runtime/tools/host.c runtime/tests/run_program.c runtime/tests/fuzz_loader.c -Iruntime/tools -lm
 *       -o fuzz_loader
 *              ./fuzz_loader corpus/       (seed the corpus with .pte files)
 * Built by Bazel (gcc, no libFuzzer) it is a replayer: `fuzz_loader FILE...` runs each
 * file once, so crashes found by a fuzzer can be checked in as regression inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "run_program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *aligned = aligned_alloc(16, (size + 16) & ~(size_t)15);
  if (aligned == NULL) {
    return 0;
  }
  if (size != 0) {
    memcpy(aligned, data, size);
  }
  (void)tp_run_program(aligned, size);
  free(aligned);
  return 0;
}

#ifndef TP_LIBFUZZER
/* Replay: fuzz_loader --min-files N FILE... (fails when fewer than N files were replayed). */
int main(int argc, char **argv) {
  long min_files = 1;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "--min-files") == 0) {
    min_files = strtol(argv[2], NULL, 10);
    first = 3;
  }
  for (int i = first; i < argc; i++) {
    size_t size;
    uint8_t *data = tp_host_read_file(argv[i], &size);
    if (data == NULL) {
      fprintf(stderr, "fuzz_loader: cannot read %s\n", argv[i]);
      return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    printf("%s: %zu bytes, no crash\n", argv[i], size);
  }
  if (argc - first < min_files) {
    fprintf(stderr, "fuzz_loader: replayed %d files, fewer than the %ld required\n", argc - first, min_files);
    return 1;
  }
  printf("fuzz_loader: replayed %d files, no crash\n", argc - first);
  return 0;
}
#endif
