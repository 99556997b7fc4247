/* fw_vector_suite.c — replays every vector of a generated suite
 * (nicc_vecs.h, from `nicc-vectors --emit-c FOLDER-or-FILES`) through the C
 * ABI: vectors of events step by step, parameter-error vectors as the
 * status and field nicc_fw_configure returns. Fails on any mismatch, on an
 * empty suite, or when the suite holds no step at all.
 *
 *   nicc-vectors --emit-c testvectors/vectors/nscc > gen/nicc_vecs.h && cc -std=c99 -Igen ...
 */
#include <stdio.h>

#include "nicc/fw.h"
#include "nicc/fw_vector.h"
#include "nicc_vecs.h"

static void report(void* ctx, uint32_t step, const char* field, uint32_t want, uint32_t got) {
  printf("%s: step %u: %s expected %u got %u\n", (const char*)ctx, (unsigned)step, field, (unsigned)want,
         (unsigned)got);
}

int main(void) {
  uint32_t i, steps = 0, refused = 0, mismatches = 0;
  for (i = 0; i < NICC_VEC_COUNT; ++i) {
    const nicc_fw_vector* v = nicc_vecs[i];
    const uint32_t bad = nicc_fw_vector_run(v, report, (void*)v->name);
    if (v->configure_status != NICC_FW_OK) {
      ++refused;
      if (v->n_steps != 0) {
        printf("%s: a parameter-error vector with steps\n", v->name);
        ++mismatches;
      }
    }
    steps += v->n_steps;
    mismatches += bad;
  }
  printf("%u vectors (%u parameter errors), %u steps, %u mismatches\n", (unsigned)NICC_VEC_COUNT,
         (unsigned)refused, (unsigned)steps, (unsigned)mismatches);
  return mismatches == 0 && NICC_VEC_COUNT > 0 ? 0 : 1;
}
