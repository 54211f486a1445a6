/* The board's Ethos-U55 (tinypte/board.h, tp_board_ethos_u55_base): its register block at the
 * NPU's Secure address on Corstone-300 (SSE-300 memory map: 0x58102000 Secure, 0x48102000
 * Non-secure), since the firmware runs in the Secure state. The board's one statement of it:
 * //platforms/corstone300_npu/tests:npu_base_test checks the machine model's against it. */
#include "tinypte/board.h"

const uintptr_t tp_board_ethos_u55_base = 0x58102000u;
