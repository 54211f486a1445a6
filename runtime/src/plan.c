/* Checking and decoding an execution plan: values (tensors, scalars, lists), constants,
 * planned tensor placement, and instructions. See plan.h. */
#include "plan.h"

#include <string.h>

#include "schema.h"

/* --- Opening a plan --- */

static tp_status open_constants(const tp_program *program, const tp_fb *fb, tp_plan_view *view) {
  tp_fb_table root;
  tp_fb_table subsegment;
  bool present;
  TP_TRY(tp_fb_table_at(fb, program->program_table, &root));
  TP_TRY(tp_fb_vector_field(fb, &root, TP_PROGRAM_CONSTANT_BUFFER, 4, &view->constant_buffers));
  TP_TRY(tp_fb_table_field(fb, &root, TP_PROGRAM_CONSTANT_SEGMENT, &subsegment, &present));
  if (!present) {
    return TP_OK;
  }
  TP_TRY(tp_fb_vector_field(fb, &subsegment, TP_SUBSEGMENT_OFFSETS, 8, &view->segment_offsets));
  if (view->segment_offsets.len == 0) {
    return TP_OK; /* constants are inline, in constant_buffer */
  }
  uint32_t segment_index;
  tp_fb_vector segments;
  tp_fb_table segment;
  uint64_t offset;
  TP_TRY(tp_fb_u32(fb, &subsegment, TP_SUBSEGMENT_INDEX, 0, &segment_index));
  TP_TRY(tp_fb_vector_field(fb, &root, TP_PROGRAM_SEGMENTS, 4, &segments));
  TP_TRY(tp_fb_vector_table(fb, &segments, segment_index, &segment));
  TP_TRY(tp_fb_i64(fb, &segment, TP_SEGMENT_OFFSET, 0, (int64_t *)&offset));
  TP_TRY(tp_fb_i64(fb, &segment, TP_SEGMENT_SIZE, 0, (int64_t *)&view->segment_size));
  size_t base = program->segment_base;
  /* Programs without constants may carry an empty segment and no extended header. */
  bool empty = offset == 0 && view->segment_size == 0;
  if ((base == 0 && !empty) || offset > program->size - base || view->segment_size > program->size - base - offset) {
    return TP_ERR_CORRUPT;
  }
  view->segment_start = base + (size_t)offset;
  return TP_OK;
}

tp_status tp_plan_open(const tp_program *program, const char *name, const tp_kernel_registry *kernels,
                       tp_plan_view *view) {
  memset(view, 0, sizeof *view);
  view->program = program;
  view->kernels = kernels;
  view->fb = tp_program_fb(program);
  const tp_fb *fb = &view->fb;
  TP_TRY(tp_program_find_plan(program, name, &view->plan));
  const tp_fb_table *plan = &view->plan;
  tp_fb_vector chains;
  tp_fb_vector sizes;
  tp_fb_table chain;
  TP_TRY(tp_fb_vector_field(fb, plan, TP_PLAN_VALUES, 4, &view->values));
  TP_TRY(tp_fb_vector_field(fb, plan, TP_PLAN_INPUTS, 4, &view->inputs));
  TP_TRY(tp_fb_vector_field(fb, plan, TP_PLAN_OUTPUTS, 4, &view->outputs));
  TP_TRY(tp_fb_vector_field(fb, plan, TP_PLAN_OPERATORS, 4, &view->operators));
  TP_TRY(tp_fb_vector_field(fb, plan, TP_PLAN_DELEGATES, 4, &view->delegates));
  TP_TRY(tp_fb_vector_field(fb, plan, TP_PLAN_CHAINS, 4, &chains));
  TP_TRY(tp_fb_vector_field(fb, plan, TP_PLAN_NON_CONST_BUFFER_SIZES, 8, &sizes));
  if (chains.len != 1) {
    return TP_ERR_UNSUPPORTED; /* multi-chain plans */
  }
  TP_TRY(tp_fb_vector_table(fb, &chains, 0, &chain));
  TP_TRY(tp_fb_vector_field(fb, &chain, TP_CHAIN_INSTRUCTIONS, 4, &view->instructions));
  if (sizes.len > TP_MAX_BUFFERS) {
    return TP_ERR_UNSUPPORTED;
  }
  view->num_buffers = sizes.len;
  for (uint32_t i = 0; i < sizes.len; i++) {
    int64_t size = (int64_t)tp_fb_load_u64(fb->data, sizes.pos + 8 * i);
    if (size < 0 || (uint64_t)size > SIZE_MAX) {
      return TP_ERR_CORRUPT;
    }
    view->buffer_sizes[i] = (uint64_t)size;
  }
  return open_constants(program, fb, view);
}

/* --- Values --- */

/* The union tag of value `index` (KernelTypes numbering: 0 none, 1 Null, 2 Int, ...). */
static tp_status value_table(const tp_plan_view *view, uint32_t index, uint8_t *kind, tp_fb_table *table,
                             bool *present) {
  tp_fb_table evalue;
  TP_TRY(tp_fb_vector_table(&view->fb, &view->values, index, &evalue));
  TP_TRY(tp_fb_u8(&view->fb, &evalue, TP_UNION_TYPE, 0, kind));
  return tp_fb_table_field(&view->fb, &evalue, TP_UNION_VALUE, table, present);
}

/* tp_tag of a KernelTypes union tag; TP_TAG_NONE for NONE and Null. */
static tp_status tag_of(uint8_t kind, uint8_t *tag) {
  if (kind > TP_TAG_OPTIONAL_TENSOR_LIST + 1) {
    return TP_ERR_CORRUPT;
  }
  *tag = kind == 0 ? TP_TAG_NONE : (uint8_t)(kind - 1);
  return TP_OK;
}

static tp_status value_tag(const tp_plan_view *view, int64_t index, uint8_t *tag) {
  uint8_t kind;
  tp_fb_table table;
  bool present;
  if (index < 0 || index >= view->values.len) {
    return TP_ERR_CORRUPT;
  }
  TP_TRY(value_table(view, (uint32_t)index, &kind, &table, &present));
  return tag_of(kind, tag);
}

/* The bytes of constant `index` (Tensor.data_buffer_idx), at least `nbytes` long. */
static tp_status constant_data(const tp_plan_view *view, uint32_t index, uint32_t nbytes, const uint8_t **data) {
  const tp_fb *fb = &view->fb;
  if (view->segment_offsets.len != 0) {
    if (index >= view->segment_offsets.len) {
      return TP_ERR_CORRUPT;
    }
    uint64_t offset = tp_fb_load_u64(fb->data, view->segment_offsets.pos + 8 * index);
    if (offset > view->segment_size || nbytes > view->segment_size - offset) {
      return TP_ERR_CORRUPT;
    }
    *data = view->program->data + view->segment_start + (size_t)offset;
    return TP_OK;
  }
  tp_fb_table buffer;
  tp_fb_vector storage;
  TP_TRY(tp_fb_vector_table(fb, &view->constant_buffers, index, &buffer));
  TP_TRY(tp_fb_vector_field(fb, &buffer, TP_BUFFER_STORAGE, 1, &storage));
  if (nbytes > storage.len) {
    return TP_ERR_CORRUPT;
  }
  *data = fb->data + storage.pos;
  return TP_OK;
}

/* Shape and dtype of a Tensor table; rejects what tinypte does not run. */
static tp_status tensor_shape(const tp_fb *fb, const tp_fb_table *table, tp_tensor *t) {
  uint8_t scalar_type;
  uint8_t dynamism;
  int32_t storage_offset;
  tp_fb_vector sizes;
  tp_fb_vector dim_order;
  TP_TRY(tp_fb_u8(fb, table, TP_TENSOR_SCALAR_TYPE, 0, &scalar_type));
  TP_TRY(tp_fb_u8(fb, table, TP_TENSOR_SHAPE_DYNAMISM, TP_SHAPE_STATIC, &dynamism));
  TP_TRY(tp_fb_i32(fb, table, TP_TENSOR_STORAGE_OFFSET, 0, &storage_offset));
  TP_TRY(tp_fb_vector_field(fb, table, TP_TENSOR_SIZES, 4, &sizes));
  TP_TRY(tp_fb_vector_field(fb, table, TP_TENSOR_DIM_ORDER, 1, &dim_order));
  size_t element = tp_dtype_size(scalar_type);
  /* DYNAMIC_UNBOUND tensors would need memory at run time: tinypte plans all memory. */
  if (element == 0 || dynamism > TP_SHAPE_DYNAMIC_BOUND || storage_offset != 0 || sizes.len > TP_MAX_DIM) {
    return TP_ERR_UNSUPPORTED;
  }
  uint64_t numel = 1;
  const int32_t *dims = (const int32_t *)(const void *)(fb->data + sizes.pos);
  for (uint32_t d = 0; d < sizes.len; d++) {
    if (dims[d] < 0) {
      return TP_ERR_CORRUPT;
    }
    numel *= (uint64_t)dims[d];
    if (numel > 0x7fffffffu / element) {
      return TP_ERR_CORRUPT;
    }
  }
  bool channels_last = false;
  if (dim_order.len != 0) {
    if (dim_order.len != sizes.len) {
      return TP_ERR_CORRUPT;
    }
    const uint8_t *order = fb->data + dim_order.pos;
    bool identity = true;
    for (uint32_t d = 0; d < dim_order.len; d++) {
      identity = identity && order[d] == d;
    }
    if (!identity) {
      /* Another order: dim_order.c reads it, when linked (programs that have one list its
       * kernel extension); without it only contiguous tensors load. */
      if (tp_dim_order_read == NULL) {
        return TP_ERR_UNSUPPORTED;
      }
      TP_TRY(tp_dim_order_read(order, dims, dim_order.len, dynamism != TP_SHAPE_STATIC, &channels_last));
    }
  }
  t->data = NULL;
  t->sizes = dims;
  t->dim = (uint8_t)sizes.len;
  t->dtype = scalar_type;
  t->numel = (uint32_t)numel;
  t->nbytes = (uint32_t)(numel * element);
  t->constant = 0;
  t->dynamic = dynamism; /* 0 static, 1 DYNAMIC_BOUND */
  t->channels_last = channels_last;
  return TP_OK;
}

/* Where a tensor's data lives: a planned buffer, a constant in the program, or nowhere. */
static tp_status tensor_data(const tp_plan_view *view, const tp_fb_table *table, const tp_method_memory *memory,
                             tp_tensor *t, bool *is_planned) {
  const tp_fb *fb = &view->fb;
  tp_fb_table alloc;
  bool planned;
  uint32_t buffer_index;
  size_t element = tp_dtype_size(t->dtype);
  TP_TRY(tp_fb_table_field(fb, table, TP_TENSOR_ALLOCATION_INFO, &alloc, &planned));
  TP_TRY(tp_fb_u32(fb, table, TP_TENSOR_DATA_BUFFER_IDX, 0, &buffer_index));
  if (planned) {
    uint32_t memory_id;
    uint32_t low;
    uint32_t high;
    TP_TRY(tp_fb_u32(fb, &alloc, TP_ALLOC_MEMORY_ID, 0, &memory_id));
    TP_TRY(tp_fb_u32(fb, &alloc, TP_ALLOC_OFFSET_LOW, 0, &low));
    TP_TRY(tp_fb_u32(fb, &alloc, TP_ALLOC_OFFSET_HIGH, 0, &high));
    if (memory_id == 0 || memory_id >= view->num_buffers || high != 0 || low > view->buffer_sizes[memory_id] ||
        t->nbytes > view->buffer_sizes[memory_id] - low) {
      return TP_ERR_CORRUPT;
    }
    if (low % element != 0) {
      return TP_ERR_MISALIGNED;
    }
    if (memory != NULL) {
      t->data = (uint8_t *)memory->buffers[memory_id] + low;
    }
    *is_planned = true;
    return TP_OK;
  }
  if (buffer_index != 0) {
    const uint8_t *data;
    TP_TRY(constant_data(view, buffer_index, t->nbytes, &data));
    if ((uintptr_t)data % element != 0) {
      return TP_ERR_MISALIGNED;
    }
    t->data = (void *)(uintptr_t)data; /* constants are read-only; kernels only read inputs */
    t->constant = 1;
    return TP_OK;
  }
  /* Neither planned nor constant: only an empty tensor can do without memory. */
  return t->nbytes == 0 ? TP_OK : TP_ERR_UNSUPPORTED;
}

/* Without dynamic.c (linked only with the kernels that make dynamic shapes), a dynamic tensor
 * is not supported: dynamic.c's definition replaces this one. */
__attribute__((weak)) tp_status tp_dynamic_tensor(tp_tensor *t, const tp_plan_sink *sink, tp_pool_counts *counts) {
  (void)t;
  (void)sink;
  (void)counts;
  return TP_ERR_UNSUPPORTED;
}

/* Count or decode a list value's items (needs every non-list value decoded already). */
static tp_status decode_list(const tp_plan_view *view, const tp_fb_table *table, uint8_t tag, const tp_plan_sink *sink,
                             tp_pool_counts *counts, tp_value *out) {
  const tp_fb *fb = &view->fb;
  tp_fb_vector items;
  uint32_t width = (tag == TP_TAG_INT_LIST || tag == TP_TAG_DOUBLE_LIST) ? 8 : (tag == TP_TAG_BOOL_LIST ? 1 : 4);
  TP_TRY(tp_fb_vector_field(fb, table, TP_LIST_ITEMS, width, &items));
  switch (tag) {
    case TP_TAG_INT_LIST: {
      /* Items are indices of Int values. */
      for (uint32_t i = 0; i < items.len; i++) {
        int64_t index = (int64_t)tp_fb_load_u64(fb->data, items.pos + 8 * i);
        uint8_t item_tag;
        TP_TRY(value_tag(view, index, &item_tag));
        if (item_tag != TP_TAG_INT) {
          return TP_ERR_CORRUPT;
        }
        if (sink != NULL) {
          sink->int_items[counts->int_items + i] = sink->values[index].as.i;
        }
      }
      if (out != NULL) {
        out->as.int_list.items = sink->int_items + counts->int_items;
        out->as.int_list.len = items.len;
      }
      counts->int_items += items.len;
      return TP_OK;
    }
    case TP_TAG_DOUBLE_LIST:
      if (out != NULL) {
        memcpy(sink->double_items + counts->double_items, fb->data + items.pos, 8u * items.len);
        out->as.double_list.items = sink->double_items + counts->double_items;
        out->as.double_list.len = items.len;
      }
      counts->double_items += items.len;
      return TP_OK;
    case TP_TAG_BOOL_LIST:
      if (out != NULL) {
        out->as.bool_list.items = fb->data + items.pos;
        out->as.bool_list.len = items.len;
      }
      return TP_OK;
    default: { /* TP_TAG_TENSOR_LIST, TP_TAG_OPTIONAL_TENSOR_LIST: indices of Tensor values (-1: None) */
      for (uint32_t i = 0; i < items.len; i++) {
        int32_t index = (int32_t)tp_fb_load_u32(fb->data, items.pos + 4 * i);
        uint8_t item_tag = TP_TAG_NONE;
        if (index != -1 || tag != TP_TAG_OPTIONAL_TENSOR_LIST) {
          TP_TRY(value_tag(view, index, &item_tag));
        }
        bool none_ok = tag == TP_TAG_OPTIONAL_TENSOR_LIST && item_tag == TP_TAG_NONE;
        if (item_tag != TP_TAG_TENSOR && !none_ok) {
          return TP_ERR_CORRUPT;
        }
        if (sink != NULL) {
          sink->tensor_items[counts->tensor_items + i] = none_ok ? NULL : sink->values[index].as.tensor;
        }
      }
      if (out != NULL) {
        out->as.tensor_list.items = sink->tensor_items + counts->tensor_items;
        out->as.tensor_list.len = items.len;
      }
      counts->tensor_items += items.len;
      return TP_OK;
    }
  }
}

static bool is_list(uint8_t tag) { return tag >= TP_TAG_INT_LIST; }

/* Count or decode value `index`. Lists are handled in a second pass (`lists` true). */
static tp_status decode_value(const tp_plan_view *view, uint32_t index, bool lists, const tp_plan_sink *sink,
                              tp_pool_counts *counts) {
  const tp_fb *fb = &view->fb;
  uint8_t kind;
  uint8_t tag;
  tp_fb_table table;
  bool present;
  TP_TRY(value_table(view, index, &kind, &table, &present));
  TP_TRY(tag_of(kind, &tag));
  if (is_list(tag) != lists) {
    return TP_OK;
  }
  if (!present && tag != TP_TAG_NONE) {
    return TP_ERR_CORRUPT;
  }
  tp_value scratch;
  tp_value *out = sink != NULL ? &sink->values[index] : &scratch;
  memset(out, 0, sizeof *out);
  out->tag = tag;
  switch (tag) {
    case TP_TAG_NONE:
      return TP_OK;
    case TP_TAG_INT:
      return tp_fb_i64(fb, &table, TP_SCALAR_VALUE, 0, &out->as.i);
    case TP_TAG_BOOL: {
      uint8_t b;
      TP_TRY(tp_fb_u8(fb, &table, TP_SCALAR_VALUE, 0, &b));
      out->as.b = b != 0;
      return TP_OK;
    }
    case TP_TAG_DOUBLE:
      return tp_fb_f64(fb, &table, TP_SCALAR_VALUE, 0.0, &out->as.d);
    case TP_TAG_STRING:
      return tp_fb_string_field(fb, &table, TP_SCALAR_VALUE, &out->as.string.chars, &out->as.string.len);
    case TP_TAG_TENSOR: {
      tp_tensor scratch_tensor;
      tp_tensor *t = sink != NULL ? &sink->tensors[counts->tensors] : &scratch_tensor;
      TP_TRY(tensor_shape(fb, &table, t));
      bool planned = false;
      TP_TRY(tensor_data(view, &table, sink != NULL ? sink->memory : NULL, t, &planned));
      out->as.tensor = sink != NULL ? t : NULL;
      counts->tensors++;
      counts->planned_tensors += planned ? 1u : 0u;
      if (t->dynamic) {
        TP_TRY(tp_dynamic_tensor(t, sink, counts));
      }
      return TP_OK;
    }
    default:
      return decode_list(view, &table, tag, sink, counts, sink != NULL ? out : NULL);
  }
}

/* --- Instructions --- */

tp_status tp_plan_find_kernel(const tp_plan_view *view, uint32_t op_index, const tp_kernel **kernel,
                              tp_pool_counts *counts) {
  tp_fb_table op;
  const char *name;
  const char *overload;
  uint32_t len;
  TP_TRY(tp_fb_vector_table(&view->fb, &view->operators, op_index, &op));
  TP_TRY(tp_fb_string_field(&view->fb, &op, TP_OPERATOR_NAME, &name, &len));
  TP_TRY(tp_fb_string_field(&view->fb, &op, TP_OPERATOR_OVERLOAD, &overload, &len));
  *kernel = view->kernels != NULL ? tp_kernel_find(view->kernels, name, overload) : NULL;
  if (*kernel == NULL) {
    counts->missing_operator = name;
    counts->missing_overload = overload;
    return TP_ERR_OPERATOR_MISSING;
  }
  return TP_OK;
}

tp_status tp_plan_call_fields(const tp_plan_view *view, const tp_fb_table *args_table, uint32_t limit,
                             uint32_t *index, tp_fb_vector *args) {
  const tp_fb *fb = &view->fb;
  int32_t value = 0;
  TP_TRY(tp_fb_i32(fb, args_table, TP_CALL_OP_INDEX, 0, &value));
  TP_TRY(tp_plan_check_index(value, limit));
  TP_TRY(tp_fb_vector_field(fb, args_table, TP_CALL_ARGS, 4, args));
  if (args->len > TP_MAX_KERNEL_ARGS) {
    return TP_ERR_UNSUPPORTED;
  }
  const int32_t *indices = (const int32_t *)(const void *)(fb->data + args->pos);
  for (uint32_t i = 0; i < args->len; i++) {
    TP_TRY(tp_plan_check_index(indices[i], view->values.len));
  }
  *index = (uint32_t)value;
  return TP_OK;
}

void tp_plan_place_call(const tp_plan_view *view, const tp_fb_vector *args, size_t state_size, tp_instruction *out,
                       const tp_plan_sink *sink, tp_pool_counts *counts) {
  if (sink != NULL) {
    const int32_t *indices = (const int32_t *)(const void *)(view->fb.data + args->pos);
    tp_value **slots = sink->call_args + counts->call_args;
    for (uint32_t i = 0; i < args->len; i++) {
      slots[i] = &sink->values[indices[i]];
    }
    out->call.args = slots;
    out->call.nargs = args->len;
    out->call.state = sink->states + counts->state_bytes;
  }
  counts->call_args += args->len;
  counts->kernel_calls++;
  counts->state_bytes += TP_POOL_ALIGN(state_size);
}

tp_status tp_plan_walk_values(const tp_plan_view *view, const tp_plan_sink *sink, tp_pool_counts *counts) {
  memset(counts, 0, sizeof *counts);
  /* Non-list values first, so that lists can refer to them. */
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < view->values.len; i++) {
      TP_TRY(decode_value(view, i, pass == 1, sink, counts));
    }
  }
  return TP_OK;
}
