// The C library functions the WebAssembly engine (Embedded Swift, `make wasm`, Reference §15)
// links against, as there is no libc for wasm32-unknown-none-wasm: the heap Swift allocates
// from (posix_memalign, free), the memory functions the compiler calls (memcpy, memmove,
// memset, memcmp), C's round (Double.rounded(), which wasm has no instruction for) and the
// seed Swift's hashing asks for (arc4random_buf: zeros, so a Dictionary's order is the same
// on every run; nothing the page hashes comes from an adversary that could flood it). Compiled by the toolchain's clang with bulk memory, so the copies are one
// wasm instruction each. Not part of the native build (excluded in Package.swift).
//
// The heap: blocks of 2^k bytes (k = 4…30) after a 16-byte header holding k, carved from the
// module's memory above __heap_base and grown with memory.grow; a freed block goes on the free
// list of its size and is reused by the next allocation of that size. Every block starts on a
// 16-byte boundary, which is all Swift's types ask for here.
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base;

enum { header = 16, min_class = 4, max_class = 30, page = 65536 };
static uintptr_t top;                   // the first byte not yet carved
static void *free_lists[max_class + 1]; // a freed block's first word links the next one

// Grows the memory so that [0, end) is inside it; 0 when the page's memory cannot grow.
static int reserve(uintptr_t end) {
    uintptr_t have = __builtin_wasm_memory_size(0) * (uintptr_t)page;
    if (end <= have) return 1;
    uintptr_t pages = (end - have + page - 1) / page;
    return __builtin_wasm_memory_grow(0, pages) != (uintptr_t)-1;
}

int posix_memalign(void **out, size_t align, size_t size) {
    if (align > header) return 22; // EINVAL: no type here asks for more than 16
    int k = min_class;
    while (k <= max_class && ((size_t)1 << k) < size) k++;
    if (k > max_class) return 12; // ENOMEM
    unsigned char *block = free_lists[k];
    if (block) {
        free_lists[k] = *(void **)block;
    } else {
        if (!top) top = ((uintptr_t)&__heap_base + header - 1) & ~(uintptr_t)(header - 1);
        uintptr_t end = top + header + ((uintptr_t)1 << k);
        if (end < top || !reserve(end)) return 12; // past the 4 GiB address space, or no memory
        *(uint32_t *)top = (uint32_t)k;
        block = (unsigned char *)top + header;
        top = end;
    }
    *out = block;
    return 0;
}

void free(void *p) {
    if (!p) return;
    int k = (int)*(uint32_t *)((unsigned char *)p - header);
    *(void **)p = free_lists[k];
    free_lists[k] = p;
}

void *memcpy(void *dst, const void *src, size_t n) { __builtin_memcpy(dst, src, n); return dst; }
void *memmove(void *dst, const void *src, size_t n) { __builtin_memmove(dst, src, n); return dst; }
void *memset(void *dst, int c, size_t n) { __builtin_memset(dst, c, n); return dst; }
int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++) if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

// C's round: the nearest whole number, halfway cases away from zero (x − trunc(x) is exact).
double round(double x) {
    double r = __builtin_trunc(x);
    return __builtin_fabs(x - r) >= 0.5 ? r + __builtin_copysign(1.0, x) : r;
}

// The random bytes Swift seeds its hashing with: zeros (deterministic hashing, see the top).
void arc4random_buf(void *buf, size_t n) { __builtin_memset(buf, 0, n); }
