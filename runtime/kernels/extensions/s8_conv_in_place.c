/* Extension of the int8 NHWC convolutions (cortex_m/engines/s8_conv.h): running a call whose out
 * is stored over its own input. The kernels call tp_s8_conv_fast_in_place through a weak
 * reference; this file is linked when a kernel registry lists tinypte::s8_conv_in_place.ext,
 * which it does for programs with such a call (python/tinypte/inspect_pte/extensions.py).
 *
 * tinypte's planner stores a convolution's out in its input's bytes when the input dies at the
 * call (python/tinypte/quantize/in_place.py): the arena then holds one of the two maps.
 * The fast routine computes the out in bands of rows into a ring of rows (the part of the
 * scratch tensor after the routine's own need) and copies each row over the input once no
 * later row reads what it covers.
 *
 * Why that is exact, for stride 1 along the height, one batch and out rows no longer than input
 * rows (rb_out <= rb_in bytes): out row o reads input rows o - pad_h + ky * dil_h, so input row
 * j is last read by out row j + pad_h. Out row p is stored over bytes [p rb_out, (p + 1) rb_out),
 * inside input rows 0..p; so it may be stored once out row p + pad_h has been computed: at most
 * pad_h rows wait in the ring (the lag), and a band of rows needs the ring to hold lag + band
 * rows. Every out row is computed by the routine the call takes out of place, from the same
 * input bytes, so the out is bit-identical (runtime/kernels/tests/s8_conv_paths.c checks it against
 * the portable routine out of place on every board). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extensions/s8_conv_in_place.h"

#include "cortex_m/engines/s8_conv_band.h"

/* The copies below must stay loops: GCC would otherwise call the library's byte-wise memcpy. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

/* Copies n bytes forward (dst below src when they overlap), a word at a time when all three are
 * multiples of 4 (rows usually are; the library's memcpy at -Os goes a byte at a time). */
static void copy_forward(int8_t *dst, const int8_t *src, size_t n) {
  if ((((uintptr_t)dst | (uintptr_t)src | n) & 3u) == 0) {
    uint32_t *d = (uint32_t *)(void *)dst;
    const uint32_t *s = (const uint32_t *)(const void *)src;
    size_t i = 0, words = n / 4;
    for (; i + 4 <= words; i += 4) { /* four words a step: loads before stores (dst below src) */
      const uint32_t a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];
      d[i] = a;
      d[i + 1] = b;
      d[i + 2] = c;
      d[i + 3] = e;
    }
    for (; i < words; i++) {
      d[i] = s[i];
    }
    return;
  }
  for (size_t i = 0; i < n; i++) {
    dst[i] = src[i];
  }
}

tp_status tp_s8_conv_fast_in_place(const tp_s8_conv *st, const tp_s8_conv_data *d, int8_t *ring, int32_t ring_rows) {
  const int32_t lag = st->pad_h, rb_out = st->out_sy;
  const int32_t band_max = ring_rows - lag;
  int8_t *const io = d->out;
  int32_t stored = 0; /* out rows [0, stored) are in place; [stored, o0) wait in the ring's first rows */
  bool worker_has_records = false;
  for (int32_t o0 = 0; o0 < st->out_h;) {
    const int32_t band = st->out_h - o0 < band_max ? st->out_h - o0 : band_max;
    const int32_t waiting = o0 - stored;
    /* The band as a convolution of its own (tp_s8_conv_rows), its out in the ring; its rows
     * split over two cores when a worker is installed. */
    tp_s8_conv sub;
    tp_s8_conv_data sd;
    tp_s8_conv_rows(st, d, o0, o0 + band, &sub, &sd);
    sub.prepared = o0 > 0; /* the first band's routine made the call's records */
    sub.worker_prepared = worker_has_records; /* and a split band's, in the worker's scratch */
    sd.out = ring + waiting * rb_out;
    bool split;
    TP_TRY(tp_s8_conv_fast_split_band(&sub, &sd, &split));
    worker_has_records = worker_has_records || split;
    o0 += band;
    /* Rows whose bytes no later row reads: those up to o0 - 1 - lag. */
    const int32_t storable = o0 - lag - stored;
    if (storable > 0) {
      copy_forward(io + stored * rb_out, ring, (size_t)storable * (size_t)rb_out);
      stored += storable;
      copy_forward(ring, ring + storable * rb_out, (size_t)(o0 - stored) * (size_t)rb_out);
    }
  }
  copy_forward(io + stored * rb_out, ring, (size_t)(st->out_h - stored) * (size_t)rb_out);
  return TP_OK;
}

/* The extension's registry entry: what makes firmware link this file. Never a program's operator. */
TP_KERNEL(tinypte, s8_conv_in_place, ext, tp_s8_conv_call) {
  (void)call;
  (void)state;
  (void)run;
  return TP_ERR_UNSUPPORTED;
}
