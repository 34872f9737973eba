// Run-time cost counter for programs lowered with
// --finalize-memref-to-llvm=use-generic-functions (tests/runtime_cost.py).
//
// The heap half counts like the shared counting allocator: every allocation is recorded
// and never really freed (a freed block is poisoned with 0xFF and quarantined), so leaks,
// double frees and frees of foreign pointers are counted instead of crashing. On top it
// sums the bytes of every allocation (alloc_bytes: what a program asked the heap for over
// its whole run, not only at its peak).
//
// The other half are three functions the instrumentation calls (tests/runtime_cost.py
// inserts the calls before the ops they count):
//   costcount_copy(n)        a memref.copy, linalg.copy or bufferization.clone of n bytes
//   costcount_check()        a run-time deallocation check: a guarded free's condition or
//                            a pointer comparison of the alias checks
//   costcount_bookkeeping(n) an n-byte heap array the lowering of bufferization.dealloc
//                            allocates for its helper (a part of alloc_bytes)
// At exit one line reports everything on stderr.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP (1 << 20)
static void *ptr[CAP];
static size_t sz[CAP];
static char dead[CAP];
static long n, n_free, bad_free, double_free, overflow;
static long live_bytes, peak_bytes, alloc_bytes;
static long copies, copy_bytes, checks, bookkeeping_bytes;

static void *rec(void *p, size_t s) {
  if (!p) return p;
  alloc_bytes += (long)s;
  live_bytes += (long)s;
  if (live_bytes > peak_bytes) peak_bytes = live_bytes;
  if (n < CAP) { ptr[n] = p; sz[n++] = s; } else overflow++;
  return p;
}

void *_mlir_memref_to_llvm_alloc(size_t s) { return rec(malloc(s ? s : 1), s); }

void *_mlir_memref_to_llvm_aligned_alloc(size_t a, size_t s) {
  void *p = NULL;
  if (posix_memalign(&p, a < sizeof(void *) ? sizeof(void *) : a, s ? s : 1)) p = NULL;
  return rec(p, s);
}

void _mlir_memref_to_llvm_free(void *p) {
  if (!p) return;
  for (long i = n - 1; i >= 0; i--)
    if (ptr[i] == p) {
      if (dead[i]) { double_free++; return; }
      dead[i] = 1;
      n_free++;
      live_bytes -= (long)sz[i];
      memset(p, 0xFF, sz[i]);
      return;
    }
  bad_free++;
}

void costcount_copy(int64_t bytes) { copies++; copy_bytes += bytes; }
void costcount_check(void) { checks++; }
void costcount_bookkeeping(int64_t bytes) { bookkeeping_bytes += bytes; }

__attribute__((destructor)) static void report(void) {
  fflush(stdout);
  fprintf(stderr,
          "COSTCOUNT allocs=%ld alloc_bytes=%ld frees=%ld live=%ld double_frees=%ld "
          "bad_frees=%ld peak_bytes=%ld copies=%ld copy_bytes=%ld checks=%ld "
          "bookkeeping_bytes=%ld overflow=%ld\n",
          n + overflow, alloc_bytes, n_free, n + overflow - n_free, double_free, bad_free,
          peak_bytes, copies, copy_bytes, checks, bookkeeping_bytes, overflow);
}
