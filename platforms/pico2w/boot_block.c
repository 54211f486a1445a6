/* RP2350 IMAGE_DEF block: tells the boot ROM this flash image is a Secure Arm
 * executable. The boot ROM searches the first 4 KiB of flash for a valid block
 * (RP2350 datasheet, "Bootrom" chapter, "Image definitions" and "Blocks and block
 * loops"); this one sits right after the vector table (.tp_boot_block in
 * firmware.ld.tpl). With no ENTRY_POINT item, the boot ROM enters through the vector
 * table at the start of the image: initial SP = word 0, reset handler = word 1.
 */
#include <stdint.h>

__attribute__((section(".tp_boot_block"), used, aligned(4))) const uint32_t tp_rp2350_image_def[5] = {
    0xffffded3u, /* PICOBIN_BLOCK_MARKER_START */
    0x10210142u, /* IMAGE_TYPE item, size 1: EXE | security S | CPU Arm | chip RP2350 */
    0x000001ffu, /* LAST item, total size of the items: 1 word */
    0x00000000u, /* link to the next block, relative: 0 = this block loops to itself */
    0xab123579u, /* PICOBIN_BLOCK_MARKER_END */
};
