/* tp_print_image_json: see method_image_json.h. */
#include "method_image_json.h"

#include <inttypes.h>
#include <string.h>

#include "tinypte/image.h"

/* TP_INSTR_* of the program schema (runtime/src/schema.h). */
enum { KERNEL_CALL = 1, MOVE = 3, JUMP_FALSE = 4, FREE = 5 };

/* Where a pointer of the decoded method points: the program, a planned buffer, or nowhere known. */
typedef struct place {
  int buffer; /* -1: the program; 1..: planned buffer (memory id); 0: not found */
  uint64_t offset;
} place;

static place locate(const tp_program *program, const tp_host_memory *host, const void *pointer) {
  const uint8_t *p = pointer;
  place found = {0, 0};
  if (p >= program->data && p < program->data + program->size) {
    found.buffer = -1;
    found.offset = (uint64_t)(p - program->data);
  }
  for (int id = 1; id < TP_MAX_BUFFERS; id++) {
    const uint8_t *base = host->buffers[id];
    /* An empty tensor may sit at the end of its buffer: one past its last byte. */
    if (base != NULL && p >= base && p <= base + host->buffer_sizes[id]) {
      found.buffer = id;
      found.offset = (uint64_t)(p - base);
    }
  }
  return found;
}

/* Index of `tensor` among the method's tensor values (value order), or -1. */
static long tensor_index(const tp_method *method, const tp_tensor *tensor) {
  long index = 0;
  for (uint32_t i = 0; i < method->num_values; i++) {
    if (method->values[i].tag == TP_TAG_TENSOR) {
      if (method->values[i].as.tensor == tensor) {
        return index;
      }
      index++;
    }
  }
  return -1;
}

/* Why the method can have no image, or NULL (`why` holds the message). */
static const char *unavailable(const tp_program *program, const tp_method *method, const tp_host_memory *host,
                               char *why, size_t size) {
  for (uint32_t pc = 0; pc < method->num_instructions; pc++) {
    uint8_t kind = method->instructions[pc].kind;
    if (kind == MOVE || kind == JUMP_FALSE) {
      return "the program moves values or jumps (control flow)";
    }
  }
  for (uint32_t i = 0; i < method->num_values; i++) {
    const tp_value *v = &method->values[i];
    if (v->tag != TP_TAG_TENSOR) {
      continue;
    }
    const tp_tensor *t = v->as.tensor;
    if (t->dynamic) {
      return "a tensor has a dynamic shape";
    }
    if ((t->data != NULL && locate(program, host, t->data).buffer == 0) ||
        locate(program, host, t->sizes).buffer != -1) {
      snprintf(why, size, "the tensor of value %u has its %s outside the program and its planned buffers", i,
               locate(program, host, t->sizes).buffer != -1 ? "sizes" : "data");
      return why;
    }
  }
  return NULL;
}

static void print_place(FILE *out, const char *key, place where) {
  if (where.buffer < 0) {
    fprintf(out, "\"%s\": {\"program\": %" PRIu64 "}", key, where.offset);
  } else {
    fprintf(out, "\"%s\": {\"buffer\": %d, \"offset\": %" PRIu64 "}", key, where.buffer, where.offset);
  }
}

/* `, "<key>": <place>, "len": <len>`: an array of the program's, where it is and its length. */
static void print_array(FILE *out, const char *key, place where, uint32_t len) {
  fprintf(out, ", ");
  print_place(out, key, where);
  fprintf(out, ", \"len\": %u", len);
}

static uint64_t bits_of(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

static void print_value(FILE *out, const tp_program *program, const tp_method *method, const tp_host_memory *host,
                        const tp_value *v) {
  fprintf(out, "{\"tag\": %u", v->tag);
  switch (v->tag) {
    case TP_TAG_INT:
      fprintf(out, ", \"int\": %" PRId64, v->as.i);
      break;
    case TP_TAG_BOOL:
      fprintf(out, ", \"bool\": %d", v->as.b ? 1 : 0);
      break;
    case TP_TAG_DOUBLE:
      fprintf(out, ", \"double_bits\": %" PRIu64, bits_of(v->as.d));
      break;
    case TP_TAG_TENSOR:
      fprintf(out, ", \"tensor\": %ld", tensor_index(method, v->as.tensor));
      break;
    case TP_TAG_STRING:
      print_array(out, "chars", locate(program, host, v->as.string.chars), v->as.string.len);
      break;
    case TP_TAG_INT_LIST:
      fprintf(out, ", \"ints\": [");
      for (uint32_t k = 0; k < v->as.int_list.len; k++) {
        fprintf(out, "%s%" PRId64, k ? ", " : "", v->as.int_list.items[k]);
      }
      fprintf(out, "]");
      break;
    case TP_TAG_DOUBLE_LIST:
      fprintf(out, ", \"double_bits\": [");
      for (uint32_t k = 0; k < v->as.double_list.len; k++) {
        fprintf(out, "%s%" PRIu64, k ? ", " : "", bits_of(v->as.double_list.items[k]));
      }
      fprintf(out, "]");
      break;
    case TP_TAG_BOOL_LIST:
      print_array(out, "bools", locate(program, host, v->as.bool_list.items), v->as.bool_list.len);
      break;
    case TP_TAG_TENSOR_LIST:
    case TP_TAG_OPTIONAL_TENSOR_LIST:
      fprintf(out, ", \"tensors\": [");
      for (uint32_t k = 0; k < v->as.tensor_list.len; k++) {
        const tp_tensor *t = v->as.tensor_list.items[k];
        fprintf(out, "%s%ld", k ? ", " : "", t == NULL ? -1L : tensor_index(method, t));
      }
      fprintf(out, "]");
      break;
    default: /* TP_TAG_NONE */
      break;
  }
  fprintf(out, "}");
}

static void print_tensor(FILE *out, const tp_program *program, const tp_host_memory *host, const tp_tensor *t) {
  fprintf(out, "{");
  if (t->data != NULL) {
    print_place(out, "data", locate(program, host, t->data));
    fprintf(out, ", ");
  }
  print_place(out, "sizes", locate(program, host, t->sizes));
  fprintf(out, ", \"numel\": %u, \"nbytes\": %u, \"dim\": %u, \"dtype\": %u, \"constant\": %u, \"channels_last\": %u}",
          t->numel, t->nbytes, t->dim, t->dtype, (unsigned)t->constant, (unsigned)t->channels_last);
}

void tp_print_image_json(FILE *out, const tp_program *program, const tp_method *method, const tp_host_memory *host) {
  char message[160];
  const char *why = method == NULL ? "the program calls backend delegates, which initialize on the board"
                                   : unavailable(program, method, host, message, sizeof message);
  if (why != NULL) {
    fprintf(out, "  \"image\": null,\n  \"image_unavailable\": \"%s\",\n", why);
    return;
  }
  fprintf(out, "  \"image\": {\n    \"pool_bytes\": %zu,\n    \"values\": [", tp_method_image_pool_bytes(method));
  for (uint32_t i = 0; i < method->num_values; i++) {
    fprintf(out, "%s\n      ", i ? "," : "");
    print_value(out, program, method, host, &method->values[i]);
  }
  fprintf(out, "\n    ],\n    \"tensors\": [");
  long count = 0;
  for (uint32_t i = 0; i < method->num_values; i++) {
    if (method->values[i].tag == TP_TAG_TENSOR) {
      fprintf(out, "%s\n      ", count++ ? "," : "");
      print_tensor(out, program, host, method->values[i].as.tensor);
    }
  }
  fprintf(out, "\n    ],\n    \"instructions\": [");
  for (uint32_t pc = 0; pc < method->num_instructions; pc++) {
    const tp_instruction *in = &method->instructions[pc];
    /* A fused activation is still a kernel call of the program: the image keeps it as one. */
    unsigned kind = in->kind == KERNEL_CALL || in->kernel != NULL ? KERNEL_CALL : FREE;
    fprintf(out, "%s\n      {\"kind\": %u", pc ? "," : "", kind);
    if (kind == KERNEL_CALL) {
      fprintf(out, ", \"op\": %u, \"args\": [", in->a);
      for (uint32_t k = 0; k < in->call.nargs; k++) {
        fprintf(out, "%s%ld", k ? ", " : "", (long)(in->call.args[k] - method->values));
      }
      fprintf(out, "]");
    }
    fprintf(out, "}");
  }
  fprintf(out, "\n    ]\n  },\n");
}
