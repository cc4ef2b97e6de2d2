/* The C host API's side of bench/python/package_overhead.py: calls a
 * program's C entry `count` times with the same descriptors and stream, as a
 * C caller does, and returns the host seconds the calls took. Built on the
 * GPU machine by the benchmark (cc -O2 -shared). */
#include <stdint.h>
#include <time.h>

typedef int32_t (*Entry)(void *, void *, void *, void *, float, void *);

double sdfgstream_bench_call_loop(void *entry, void *x, void *y, void *out,
                                  void *sum, float alpha, void *stream,
                                  int32_t count, int32_t *status) {
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  int32_t result = 0;
  for (int32_t i = 0; i < count && result == 0; ++i)
    result = ((Entry)entry)(x, y, out, sum, alpha, stream);
  clock_gettime(CLOCK_MONOTONIC, &end);
  *status = result;
  return (double)(end.tv_sec - start.tv_sec) +
         1e-9 * (double)(end.tv_nsec - start.tv_nsec);
}
