/* The EthosUBackend delegate: runs an ExecuTorch Ethos-U delegate's command stream on the
 * board's Ethos-U55 (tinypte/backend.h for the interface, vela_blob.h for the blob).
 *
 * init (once): parses the blob, reads the configuration it was compiled for (compile spec
 * `target`, "ethos-u55-<MACs>") and checks the NPU is that one (its ID and CONFIG registers,
 * through the driver), and checks the call's tensors against the blob's inputs and outputs.
 * The scratch the command stream works in (its tensor arena, region 1, where inputs and
 * outputs lie too) is part of the call's state in the runtime's pool, so the memory plan places
 * it (build time: pte_requirements reports it).
 * run (every inference): copies the inputs to their scratch offsets, runs the stream (region 0:
 * the blob's weights, read in place from the program; region 1 and 2: the scratch), copies the
 * outputs out.
 */
#include <string.h>

#include "tinypte/backend.h"
#include "tinypte/board.h"
#include "tinypte/ethos_u55.h"
#include "vela_blob.h"

typedef struct ethos_u_call {
  tp_ethos_u55 npu;
  tp_vela_blob blob;
  uint8_t *scratch; /* 16-byte aligned, after this struct in the call's state */
  const char *why;  /* the backend's own reason, when the driver has none */
} ethos_u_call;

static size_t call_bytes(const tp_vela_blob *blob) {
  return sizeof(ethos_u_call) + 15u + blob->scratch_bytes;
}

static tp_status ethos_u_state_size(const tp_delegate *delegate, size_t *bytes) {
  tp_vela_blob blob;
  const char *why = NULL;
  TP_TRY(tp_vela_blob_parse(delegate->processed, delegate->processed_size, &blob, &why));
  *bytes = call_bytes(&blob);
  return TP_OK;
}

/* The MACs per cycle of compile spec `target` ("ethos-u55-128" -> 128); 0 if it is not a U55's. */
static uint32_t target_macs(const tp_delegate *delegate) {
  static const char prefix[] = "ethos-u55-";
  const uint8_t *value;
  uint32_t len;
  if (!tp_delegate_compile_spec(delegate, "target", &value, &len) || len <= sizeof prefix - 1 ||
      memcmp(value, prefix, sizeof prefix - 1) != 0) {
    return 0;
  }
  uint32_t macs = 0;
  for (uint32_t i = sizeof prefix - 1; i < len; i++) {
    if (value[i] < '0' || value[i] > '9' || macs > 1000) {
      return 0;
    }
    macs = macs * 10u + (uint32_t)(value[i] - '0');
  }
  return macs;
}

/* The call's tensors are the blob's inputs then outputs, with their byte sizes. */
static tp_status check_tensors(const ethos_u_call *state, const tp_kernel_call *call) {
  const tp_vela_blob *blob = &state->blob;
  if (call->nargs != blob->num_inputs + blob->num_outputs) {
    return TP_ERR_KERNEL_ARGS;
  }
  for (uint32_t i = 0; i < call->nargs; i++) {
    bool input = i < blob->num_inputs;
    tp_vela_io io = tp_vela_blob_io(input ? blob->inputs : blob->outputs, input ? i : i - blob->num_inputs);
    const tp_value *value = call->args[i];
    if (value->tag != TP_TAG_TENSOR || value->as.tensor->nbytes != tp_vela_io_bytes(&io)) {
      return TP_ERR_KERNEL_ARGS;
    }
  }
  return TP_OK;
}

static tp_status ethos_u_run(const tp_kernel_call *call) {
  ethos_u_call *state = call->state;
  const tp_vela_blob *blob = &state->blob;
  for (uint32_t i = 0; i < blob->num_inputs; i++) {
    tp_vela_io io = tp_vela_blob_io(blob->inputs, i);
    memcpy(state->scratch + io.offset, call->args[i]->as.tensor->data, tp_vela_io_bytes(&io));
  }
  const uint64_t regions[3] = {
      [TP_VELA_REGION_WEIGHTS] = (uint64_t)(uintptr_t)blob->weights,
      [TP_VELA_REGION_SCRATCH] = (uint64_t)(uintptr_t)state->scratch,
      [TP_VELA_REGION_FAST_SCRATCH] = (uint64_t)(uintptr_t)state->scratch,
  };
  TP_TRY(tp_ethos_u55_run(&state->npu, blob->cmd_data, blob->cmd_bytes, regions, 3));
  for (uint32_t i = 0; i < blob->num_outputs; i++) {
    tp_vela_io io = tp_vela_blob_io(blob->outputs, i);
    memcpy(call->args[blob->num_inputs + i]->as.tensor->data, state->scratch + io.offset, tp_vela_io_bytes(&io));
  }
  return TP_OK;
}

static tp_status ethos_u_init(const tp_delegate *delegate, const tp_kernel_call *call, tp_kernel_run_fn *run) {
  ethos_u_call *state = call->state;
  TP_TRY(tp_vela_blob_parse(delegate->processed, delegate->processed_size, &state->blob, &state->why));
  state->scratch = (uint8_t *)(((uintptr_t)(state + 1) + 15u) & ~(uintptr_t)15u);
  uint32_t macs = target_macs(delegate);
  if (macs == 0) {
    state->why = "the delegate's compile spec `target` is not an Ethos-U55 configuration (ethos-u55-<MACs>)";
    return TP_ERR_DELEGATE;
  }
  if (check_tensors(state, call) != TP_OK) {
    state->why = "the call's tensors are not the blob's inputs and outputs (count or byte size)";
    return TP_ERR_KERNEL_ARGS;
  }
  if (&tp_board_ethos_u55_base == NULL) {
    state->why = "this firmware's board has no Ethos-U55 (it defines no tp_board_ethos_u55_base)";
    return TP_ERR_DELEGATE;
  }
  TP_TRY(tp_ethos_u55_init(&state->npu, tp_board_ethos_u55_base, macs));
  *run = ethos_u_run;
  return TP_OK;
}

static const char *ethos_u_reason(const void *state) {
  const ethos_u_call *call = state;
  const char *npu = tp_ethos_u55_reason(&call->npu);
  return npu != NULL && npu[0] != '\0' ? npu : call->why;
}

TP_BACKEND(EthosUBackend, ethos_u_state_size, ethos_u_init, ethos_u_reason);
