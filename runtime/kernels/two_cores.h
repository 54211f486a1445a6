/* The kernels' two-core part (two_cores.c): what a firmware references to split kernel calls over
 * two cores. */
#ifndef TINYPTE_KERNELS_TWO_CORES_H
#define TINYPTE_KERNELS_TWO_CORES_H

/* Two-core firmware (runtime/two_cores/app_two_cores.c) and the tests of the split paths
 * reference it: that links the hand-over (runtime/two_cores) and each engine's split routine. */
extern const void *const tp_kernels_two_cores[3];

#endif /* TINYPTE_KERNELS_TWO_CORES_H */
