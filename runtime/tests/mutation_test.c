/* Deterministic mutation test of the loader and executor: thousands of corrupted variants
 * of real .pte files (bit flips, byte overwrites, truncations, 32-bit offset overwrites,
 * swapped blocks) go through load -> init -> execute. Built with ASan and UBSan, so any
 * out-of-bounds read, overflow or crash fails the test; every variant must end in a status.
 *
 *   mutation_test [--iterations N] [--min-programs M] (MODEL.pte | DIR) ...
 *
 * A directory stands for every .pte in it (the conformance cases: one program per
 * operator), each mutated N / 20 times; a directory without one is an error. Prints, per
 * program or directory, how many variants ran and how many ended in each status, and
 * fails when fewer than M programs were mutated in all.
 */
#define _POSIX_C_SOURCE 200809L /* scandir, alphasort */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "run_program.h"

/* One count per status, and a last one for values outside the list (none expected). */
enum { NUM_OUTCOMES = TP_STATUS_COUNT + 1 };

/* xorshift64*: a fixed sequence, so every run checks the same variants. */
static uint64_t next_random(uint64_t *state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1DULL;
}

/* Apply one of several corruptions to `work` (a copy of the original); returns the size. */
static size_t mutate(uint8_t *work, size_t size, uint64_t *rng) {
  uint64_t r = next_random(rng);
  size_t at = (size_t)(next_random(rng) % size);
  switch (r % 7) {
    case 0: /* flip one bit */
      work[at] ^= (uint8_t)(1u << (r >> 8) % 8);
      return size;
    case 1: /* overwrite a byte with an extreme value */
      work[at] = (r >> 8) & 1 ? 0xff : 0x00;
      return size;
    case 2: /* truncate */
      return at;
    case 3: { /* overwrite an aligned 32-bit word (offsets, lengths, indices) */
      static const uint32_t extremes[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffcu, 0x10000u};
      size_t word = at & ~(size_t)3;
      uint32_t value = extremes[(r >> 8) % (sizeof extremes / sizeof extremes[0])];
      if (word + 4 <= size) {
        memcpy(work + word, &value, 4);
      }
      return size;
    }
    case 4: { /* add a small delta to an aligned word */
      size_t word = at & ~(size_t)3;
      if (word + 4 <= size) {
        uint32_t value;
        memcpy(&value, work + word, 4);
        value += (uint32_t)((r >> 8) % 9) - 4u;
        memcpy(work + word, &value, 4);
      }
      return size;
    }
    case 5: { /* copy a block over another */
      size_t from = (size_t)(next_random(rng) % size);
      size_t len = (size_t)((r >> 8) % 64);
      if (from + len <= size && at + len <= size) {
        memmove(work + at, work + from, len);
      }
      return size;
    }
    default: /* several random bytes */
      for (int i = 0; i < 4; i++) {
        work[(size_t)(next_random(rng) % size)] = (uint8_t)next_random(rng);
      }
      return size;
  }
}

/* Whether an unmodified program ran as a valid program can on the all-zero inputs the runs
 * feed it: TP_OK, a data-dependent status (a zero integer divisor, an index out of range)
 * that only its inputs cause, or TP_ERR_DELEGATE from a backend whose accelerator this host
 * lacks (an Ethos-U delegate: its init stops at the NPU, after the loader, the plan's delegates
 * and the backend's blob checks, which is what the variants then exercise). */
static bool runs_unmodified(tp_status status) {
  return status == TP_OK || status == TP_ERR_DIVISION_BY_ZERO || status == TP_ERR_INDEX_RANGE ||
         status == TP_ERR_DELEGATE;
}

/* Run `iterations` mutations of one program; adds the outcome counts to `counts`. */
static int mutate_program(const char *path, long iterations, uint64_t seed, long *counts) {
  size_t size;
  uint8_t *original = tp_host_read_file(path, &size);
  if (original == NULL) {
    fprintf(stderr, "mutation_test: cannot read %s\n", path);
    return 1;
  }
  uint8_t *work = aligned_alloc(16, (size + 16) & ~(size_t)15);
  memcpy(work, original, size);
  tp_status baseline = tp_run_program(work, size);
  if (!runs_unmodified(baseline)) {
    fprintf(stderr, "mutation_test: %s does not run unmodified: %s\n", path, tp_status_name(baseline));
    free(work);
    free(original);
    return 1;
  }
  uint64_t rng = 0x9E3779B97F4A7C15ULL ^ seed;
  for (long i = 0; i < iterations; i++) {
    memcpy(work, original, size);
    int rounds = 1 + (int)(next_random(&rng) % 3);
    size_t mutated = size;
    for (int k = 0; k < rounds && mutated > 0; k++) {
      mutated = mutate(work, mutated, &rng);
    }
    /* A truncated program is copied so ASan sees the real end of the buffer. */
    uint8_t *exact = aligned_alloc(16, (mutated + 16) & ~(size_t)15);
    memcpy(exact, work, mutated);
    tp_status status = tp_run_program(exact, mutated);
    free(exact);
    counts[(unsigned)status < TP_STATUS_COUNT ? (unsigned)status : NUM_OUTCOMES - 1]++;
  }
  free(work);
  free(original);
  return 0;
}

static void print_counts(const char *what, long variants, const long *counts) {
  printf("%s: %ld variants:", what, variants);
  for (int s = 0; s < NUM_OUTCOMES; s++) {
    if (counts[s] != 0) {
      printf(" %s=%ld", s < TP_STATUS_COUNT ? tp_status_name((tp_status)s) : "unknown status", counts[s]);
    }
  }
  printf("\n");
}

/* Every .pte in `dir`, in name order (so the run is the same everywhere). Returns -1 when
 * `dir` is not a directory, 1 on failure (no .pte in it included), 0 otherwise. */
static int mutate_directory(const char *dir, long iterations, long *total, int *programs_done) {
  struct dirent **entries;
  int n = scandir(dir, &entries, NULL, alphasort);
  if (n < 0) {
    return -1; /* not a directory */
  }
  long counts[NUM_OUTCOMES] = {0};
  long variants = 0;
  int programs = 0;
  int failed = 0;
  for (int i = 0; i < n; i++) {
    const char *name = entries[i]->d_name;
    size_t len = strlen(name);
    if (len > 4 && strcmp(name + len - 4, ".pte") == 0 && !failed) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", dir, name);
      failed = mutate_program(path, iterations, (uint64_t)i, counts);
      variants += iterations;
      programs++;
    }
    free(entries[i]);
  }
  free(entries);
  if (programs == 0) {
    fprintf(stderr, "mutation_test: %s holds no .pte file\n", dir);
    return 1;
  }
  char what[4200];
  snprintf(what, sizeof what, "%s (%d programs)", dir, programs);
  print_counts(what, variants, counts);
  *total += variants;
  *programs_done += programs;
  return failed;
}

int main(int argc, char **argv) {
  long iterations = 4000;
  long min_programs = 1;
  int first = 1;
  for (; first + 1 < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
    if (strcmp(argv[first], "--iterations") == 0) {
      iterations = strtol(argv[first + 1], NULL, 10);
    } else if (strcmp(argv[first], "--min-programs") == 0) {
      min_programs = strtol(argv[first + 1], NULL, 10);
    } else {
      break;
    }
  }
  if (first >= argc || iterations < 20) {
    fprintf(stderr, "usage: mutation_test [--iterations N>=20] [--min-programs M] (MODEL.pte | DIR) ...\n");
    return 2;
  }
  long total = 0;
  int programs = 0;
  for (int p = first; p < argc; p++) {
    int result = mutate_directory(argv[p], iterations / 20, &total, &programs);
    if (result < 0) {
      long counts[NUM_OUTCOMES] = {0};
      result = mutate_program(argv[p], iterations, (uint64_t)p, counts);
      print_counts(argv[p], iterations, counts);
      total += iterations;
      programs++;
    }
    if (result != 0) {
      return 1;
    }
  }
  if (programs < min_programs) {
    fprintf(stderr, "mutation_test: mutated %d programs, fewer than the %ld required\n", programs, min_programs);
    return 1;
  }
  printf("mutation_test: %ld corrupted variants of %d programs, no crash\n", total, programs);
  return 0;
}
