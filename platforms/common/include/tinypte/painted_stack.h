/* A stack's high-water mark by painting: fill the stack with a pattern before it is used, then
 * find the deepest word that no longer holds it. The boards' core-1 stacks use it (core 0's is
 * painted by start.c). */
#ifndef TINYPTE_PAINTED_STACK_H
#define TINYPTE_PAINTED_STACK_H

#include <stdint.h>

#define TP_STACK_PAINT 0x3145524fu /* "ORE1" */

/** Fill the `words` words of `stack` (its lowest address first) with TP_STACK_PAINT. */
static inline void tp_stack_paint(volatile uint32_t *stack, uint32_t words) {
  for (uint32_t i = 0; i < words; i++) {
    stack[i] = TP_STACK_PAINT;
  }
}

/** Bytes of a painted, descending stack of `words` words that were ever written. */
static inline uint32_t tp_stack_used(const volatile uint32_t *stack, uint32_t words) {
  uint32_t i = 0;
  while (i < words && stack[i] == TP_STACK_PAINT) {
    i++;
  }
  return (words - i) * 4u;
}

#endif /* TINYPTE_PAINTED_STACK_H */
