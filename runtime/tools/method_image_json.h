/* The decoded bookkeeping of an initialized method as JSON, for the firmware build to write as
 * const C data (tinypte/image.h; python/tinypte/firmware/method_image.py renders it). Host only. */
#ifndef TINYPTE_METHOD_IMAGE_JSON_H
#define TINYPTE_METHOD_IMAGE_JSON_H

#include <stdio.h>

#include "host.h"
#include "tinypte/runtime.h"

/**
 * Print `"image": {...}` (values, tensors, call arguments, instructions, the pool it needs) for
 * `method`, initialized by tp_method_init in `host`'s memory from `program`; pointers become
 * offsets into the program or a planned buffer. A method whose values change while it runs
 * (MoveCall, JumpFalseCall, dynamic shapes) has no image: `"image": null` and
 * `"image_unavailable": "<why>"`.
 */
void tp_print_image_json(FILE *out, const tp_program *program, const tp_method *method, const tp_host_memory *host);

#endif /* TINYPTE_METHOD_IMAGE_JSON_H */
