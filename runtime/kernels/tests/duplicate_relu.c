/* Test data for //runtime/kernels/tests:duplicate_kernel_fails_test, never compiled: a user kernel
 * for aten::relu.out, which the portable kernels already define. */
TP_KERNEL(aten, relu, out, relu_state) { return TP_OK; }
