/* The board's Ethos-U55 (tinypte/ethos_u55.h, tp_board_ethos_u55_base): its register block at
 * the NPU's Secure address on Corstone-300 (SSE-300 memory map: 0x58102000 Secure, 0x48102000
 * Non-secure), since the firmware runs in the Secure state. */
#include <stdint.h>

const uintptr_t tp_board_ethos_u55_base = 0x58102000u;
