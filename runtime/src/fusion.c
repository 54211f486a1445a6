/* Activation fusion at tp_method_init: a relu/hardtanh/clamp (a TP_KERNEL_CLAMP kernel with
 * float32 bounds) that works in place on the out of the kernel call just before it, when that
 * call's kernel can apply a clamp itself (TP_KERNEL_TAKES_CLAMP), is folded into it: the
 * producer is prepared again with call->clamp set, and the activation instruction is skipped.
 *
 * Why that is exact: the activation's out occupies exactly the bytes of its input A (tinypte's
 * exporter plans it so, python/tinypte/export/fusion_planning.py), and nothing runs between the two
 * instructions. Unfused, A's bytes hold the producer's values after it and the activated
 * values after the activation; fused, they hold the activated values after the producer. From
 * the activation on, memory is the same either way, whatever reads it later (views of A
 * included). Programs with jumps (a jump could land between the two) and activations that are
 * not in place (other exporters' plans) run unfused.
 */
#include "internal.h"
#include "schema.h"

/* Fuses the activation at pc + 1 into the producer at pc if the file comment's rule allows
 * (the caller checked that the program has no jumps). */
static tp_status fuse_pair(tp_instruction *producer, tp_instruction *activation) {
  if ((producer->kernel->flags & TP_KERNEL_TAKES_CLAMP) == 0 || (activation->kernel->flags & TP_KERNEL_CLAMP) == 0) {
    return TP_OK;
  }
  const tp_clamp *clamp = activation->call.state;
  const tp_value *in = activation->call.args[0];
  const tp_value *out = activation->call.args[activation->call.nargs - 1];
  /* Both calls were prepared: a fusable clamp (not NaN) means float32 tensors of one shape. */
  if (clamp->lo != clamp->lo || in != producer->call.args[producer->call.nargs - 1] ||
      in->as.tensor->data != out->as.tensor->data) {
    return TP_OK;
  }
  /* Prepared once already, so a kernel that takes clamps accepts this call with one too. */
  producer->call.clamp = clamp;
  activation->kind = TP_INSTR_FUSED;
  return tp_kernel_prepare(producer->kernel, &producer->call, &producer->run);
}

tp_status tp_fuse_activations(tp_method *m) {
  for (uint32_t pc = 0; pc + 1 < m->num_instructions; pc++) {
    tp_instruction *producer = &m->instructions[pc], *activation = producer + 1;
    if (producer->kind == TP_INSTR_KERNEL_CALL && activation->kind == TP_INSTR_KERNEL_CALL) {
      TP_TRY(fuse_pair(producer, activation));
    }
  }
  return TP_OK;
}
