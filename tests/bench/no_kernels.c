/* An empty kernel registry: links the runtime core without any kernel (size probe). */
#include "tinypte/kernel.h"

const tp_kernel_registry tp_selected_kernels = {0, 0, 0, 0};
