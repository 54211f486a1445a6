/* Field ids and union tags of ExecuTorch's program.fbs (schema file identifier ET12).
 *
 * FlatBuffers numbers fields in declaration order; a union field takes two ids (its type
 * tag, then the value). Only the fields tinypte reads are listed.
 */
#ifndef TINYPTE_SCHEMA_H
#define TINYPTE_SCHEMA_H

enum {
  /* table Program */
  TP_PROGRAM_VERSION = 0,
  TP_PROGRAM_EXECUTION_PLAN = 1,
  TP_PROGRAM_CONSTANT_BUFFER = 2,
  TP_PROGRAM_BACKEND_DELEGATE_DATA = 3,
  TP_PROGRAM_SEGMENTS = 4,
  TP_PROGRAM_CONSTANT_SEGMENT = 5,
  /* table ExecutionPlan */
  TP_PLAN_NAME = 0,
  TP_PLAN_VALUES = 2,
  TP_PLAN_INPUTS = 3,
  TP_PLAN_OUTPUTS = 4,
  TP_PLAN_CHAINS = 5,
  TP_PLAN_OPERATORS = 6,
  TP_PLAN_DELEGATES = 7,
  TP_PLAN_NON_CONST_BUFFER_SIZES = 8,
  /* table Chain */
  TP_CHAIN_INSTRUCTIONS = 2,
  /* table Operator */
  TP_OPERATOR_NAME = 0,
  TP_OPERATOR_OVERLOAD = 1,
  /* table EValue / Instruction: a union (type id 0, value id 1) */
  TP_UNION_TYPE = 0,
  TP_UNION_VALUE = 1,
  /* table Tensor */
  TP_TENSOR_SCALAR_TYPE = 0,
  TP_TENSOR_STORAGE_OFFSET = 1,
  TP_TENSOR_SIZES = 2,
  TP_TENSOR_DIM_ORDER = 3,
  TP_TENSOR_DATA_BUFFER_IDX = 5,
  TP_TENSOR_ALLOCATION_INFO = 6,
  TP_TENSOR_SHAPE_DYNAMISM = 8,
  TP_TENSOR_EXTRA_INFO = 9,
  /* table AllocationDetails */
  TP_ALLOC_MEMORY_ID = 0,
  TP_ALLOC_OFFSET_LOW = 1,
  TP_ALLOC_OFFSET_HIGH = 2,
  /* tables Int, Bool, Double, String, *List: one field */
  TP_SCALAR_VALUE = 0,
  TP_LIST_ITEMS = 0,
  /* table KernelCall / DelegateCall */
  TP_CALL_OP_INDEX = 0,
  TP_CALL_ARGS = 1,
  /* table BackendDelegate */
  TP_DELEGATE_ID = 0,
  TP_DELEGATE_PROCESSED = 1,
  TP_DELEGATE_COMPILE_SPECS = 2,
  /* table BackendDelegateDataReference */
  TP_DATA_REF_LOCATION = 0,
  TP_DATA_REF_INDEX = 1,
  /* table CompileSpec */
  TP_COMPILE_SPEC_KEY = 0,
  TP_COMPILE_SPEC_VALUE = 1,
  /* table BackendDelegateInlineData */
  TP_INLINE_DATA = 0,
  /* table MoveCall */
  TP_MOVE_FROM = 0,
  TP_MOVE_TO = 1,
  /* table JumpFalseCall */
  TP_JUMP_COND = 0,
  TP_JUMP_DESTINATION = 1,
  /* table FreeCall */
  TP_FREE_VALUE = 0,
  /* table Buffer */
  TP_BUFFER_STORAGE = 0,
  /* table DataSegment */
  TP_SEGMENT_OFFSET = 0,
  TP_SEGMENT_SIZE = 1,
  /* table SubsegmentOffsets */
  TP_SUBSEGMENT_INDEX = 0,
  TP_SUBSEGMENT_OFFSETS = 1
};

/* union InstructionArguments */
enum { TP_INSTR_KERNEL_CALL = 1, TP_INSTR_DELEGATE_CALL = 2, TP_INSTR_MOVE = 3, TP_INSTR_JUMP_FALSE = 4, TP_INSTR_FREE = 5 };

/* enum DataLocation */
enum { TP_DATA_INLINE = 0, TP_DATA_SEGMENT = 1 };

/* enum TensorShapeDynamism */
enum { TP_SHAPE_STATIC = 0, TP_SHAPE_DYNAMIC_BOUND = 1 };

#endif /* TINYPTE_SCHEMA_H */
