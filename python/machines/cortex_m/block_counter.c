/* block_counter: the RP2350 model's per-block instruction count, in C (a host shared library).
 *
 * core.py loads it with ctypes and registers tp_block_counter_hook as a unicorn UC_HOOK_BLOCK
 * callback through the Python binding's own library (uc_hook_add), with a TpBlockCounter (one per
 * core, owned by Python: core.py's ctypes Structure mirrors the layout below) as its user data.
 * For every translated block it does what core.py's Python hook did: add the previous block's
 * instructions to `executed`, find the new block's Thumb instructions (16- or 32-bit lengths
 * decoded from its code, read with uc_mem_read; cached per (address, size)) and make it the
 * current block. Python runs only when it has something to do there:
 *   - `deliver`, when the listener's blocks are due. While `listening`, the block that just
 *     ended is recorded for the listener (address, size, instructions run, `executed` and
 *     `block_waited` at its start) if it ran any instruction and the listener wants it: every
 *     block while `listen_all`, else only the blocks that hold `watch` or run right before one
 *     that does. Python takes the records when `records` is full, or at once when not
 *     `listen_all` (it then decides whether it wants every block from now on), or when
 *     emulation stops. Then `block_waited` takes `waited`.
 *   - `slow`, once the new block is current, when the core's count passed its `deadline` (or
 *     the block's code could not be read: Python then reads it, and fails as unicorn tells).
 * unicorn's functions come as pointers from Python (the library links against nothing).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct uc_struct uc_engine;
typedef int (*tp_mem_read)(uc_engine *uc, uint64_t address, void *bytes, uint64_t size);
typedef void (*tp_python_hook)(uc_engine *uc, uint64_t address, uint32_t size, void *data);

typedef struct {
    uint64_t key;    /* address << 32 | size; 0: empty */
    uint64_t count;  /* Thumb instructions in the block */
} TpBlock;

typedef struct {
    /* Shared with Python (core.py's _Counter: same fields, same order). */
    uint64_t executed;      /* instructions of the blocks before the current one */
    uint64_t count;         /* instructions of the current block */
    uint64_t address;       /* the current block */
    uint64_t size;
    uint64_t deadline;      /* `slow` runs once executed > deadline */
    uint64_t waited;        /* cycles spent waiting (Python adds to it) */
    uint64_t block_waited;  /* `waited` when the current block started (while listening) */
    uint64_t watch;         /* see `deliver` above */
    int32_t listening;
    int32_t listen_all;
    int32_t unread;         /* the current block's code could not be read (count 0) */
    int32_t reserved;
    tp_python_hook deliver;
    tp_python_hook slow;
    tp_mem_read mem_read;
    uint64_t *records;         /* the listener's blocks, RECORD words each (Python's buffer) */
    uint64_t recorded;         /* words of `records` in use (Python empties it) */
    uint64_t record_capacity;  /* words */
    /* Private: the cache of blocks, open addressing, a power of two of slots. */
    TpBlock *blocks;
    uint64_t capacity;
    uint64_t used;
} TpBlockCounter;

enum { MAX_BLOCK = 4096, RECORD = 5 }; /* bytes of code read at once (unicorn's blocks are far smaller) */

static int holds(uint64_t address, uint64_t size, uint64_t target) {
    return address <= target && target < address + size;
}

static uint64_t slot_of(uint64_t key, uint64_t capacity) {
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 32;
    return key & (capacity - 1);
}

/* Grow the table to `capacity` slots; 0 when out of memory (the caller then does not cache). */
static int grow(TpBlockCounter *c, uint64_t capacity) {
    TpBlock *blocks = calloc(capacity, sizeof *blocks);
    if (blocks == NULL) {
        return 0;
    }
    for (uint64_t i = 0; i < c->capacity; i++) {
        if (c->blocks[i].key != 0) {
            uint64_t slot = slot_of(c->blocks[i].key, capacity);
            while (blocks[slot].key != 0) {
                slot = (slot + 1) & (capacity - 1);
            }
            blocks[slot] = c->blocks[i];
        }
    }
    free(c->blocks);
    c->blocks = blocks;
    c->capacity = capacity;
    return 1;
}

/* Thumb instructions in `size` bytes of `code`: a first halfword whose top five bits are
 * 0b11101, 0b11110 or 0b11111 starts a 32-bit instruction, any other a 16-bit one (what
 * machines/execute_count.py's thumb_instruction_length says). */
static uint64_t thumb_instructions(const uint8_t *code, uint64_t size) {
    uint64_t count = 0;
    for (uint64_t offset = 0; offset < size; count++) {
        unsigned top = (offset + 1 < size ? code[offset + 1] : 0u) >> 3;
        offset += top == 0x1d || top == 0x1e || top == 0x1f ? 4 : 2;
    }
    return count;
}

/* The block's instruction count, cached; 0 with `unread` set when its code cannot be read. */
static uint64_t block_count(TpBlockCounter *c, uc_engine *uc, uint64_t address, uint32_t size) {
    if (size == 0) {
        return 0;
    }
    uint64_t key = address << 32 | size; /* never 0, the empty slot's key */
    if (c->capacity != 0) {
        for (uint64_t slot = slot_of(key, c->capacity);; slot = (slot + 1) & (c->capacity - 1)) {
            if (c->blocks[slot].key == key) {
                return c->blocks[slot].count;
            }
            if (c->blocks[slot].key == 0) {
                break;
            }
        }
    }
    uint8_t code[MAX_BLOCK];
    if (size > MAX_BLOCK || c->mem_read(uc, address, code, size) != 0) {
        c->unread = 1;
        return 0;
    }
    uint64_t count = thumb_instructions(code, size);
    if (2 * (c->used + 1) <= c->capacity || grow(c, c->capacity ? 2 * c->capacity : 4096)) {
        uint64_t slot = slot_of(key, c->capacity);
        while (c->blocks[slot].key != 0) {
            slot = (slot + 1) & (c->capacity - 1);
        }
        c->blocks[slot].key = key;
        c->blocks[slot].count = count;
        c->used++;
    }
    return count;
}

void tp_block_counter_hook(uc_engine *uc, uint64_t address, uint32_t size, void *data) {
    TpBlockCounter *c = data;
    if (c->listening) {
        if (c->count != 0 &&
            (c->listen_all || holds(c->address, c->size, c->watch) || holds(address, size, c->watch))) {
            if (c->recorded + RECORD > c->record_capacity) {
                c->recorded = 0; /* never: Python empties the records whenever they fill */
            }
            uint64_t *record = c->records + c->recorded;
            record[0] = c->address;
            record[1] = c->size;
            record[2] = c->count;
            record[3] = c->executed;
            record[4] = c->block_waited;
            c->recorded += RECORD;
            if (!c->listen_all || c->recorded + RECORD > c->record_capacity) {
                c->deliver(uc, address, size, NULL);
            }
        }
        c->block_waited = c->waited;
    }
    c->executed += c->count;
    c->unread = 0;
    c->count = block_count(c, uc, address, size);
    c->address = address;
    c->size = size;
    if (c->executed > c->deadline || c->unread) {
        c->slow(uc, address, size, NULL);
    }
}

/* The structure's size, which core.py checks against its ctypes mirror's. */
size_t tp_block_counter_size(void) { return sizeof(TpBlockCounter); }

/* Blocks counted so far (distinct (address, size) pairs): for tests. */
uint64_t tp_block_counter_cached(const TpBlockCounter *c) { return c->used; }

/* Free the cache (Python calls it when the core goes away). */
void tp_block_counter_release(TpBlockCounter *c) {
    free(c->blocks);
    c->blocks = NULL;
    c->capacity = c->used = 0;
}
