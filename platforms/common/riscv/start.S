/* RISC-V (RV32) reset entry and trap vector for machine mode.
 *
 * QEMU `virt` with -bios none jumps to the ELF entry (tp_reset_handler) in M-mode. We set
 * gp and sp, point mtvec at a trap stub that reports mcause/mepc/mtval, turn the FPU on
 * when the ABI has one (mstatus.FS = Initial, privileged spec 3.1.6.6), then enter C.
 */
    /* CSR instructions need Zicsr; say so here rather than in -march, which must stay a
     * plain rv32imac/rv32imafc for picolibc's multilib selection. */
    .option arch, +zicsr

    .section .tp_vectors, "ax"
    .globl tp_reset_handler
    .type tp_reset_handler, @function
tp_reset_handler:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __tp_stack_top
    la t0, tp_trap_entry
    csrw mtvec, t0
#ifdef __riscv_flen
    li t0, (1 << 13)
    csrs mstatus, t0
    csrw fcsr, zero
#endif
    call tp_start
1:  j 1b
    .size tp_reset_handler, . - tp_reset_handler

    .text
    .balign 4
    .globl tp_trap_entry
tp_trap_entry:
    la sp, __tp_stack_top
    csrr a0, mcause
    csrr a1, mepc
    csrr a2, mtval
    call tp_trap_handler
2:  j 2b
