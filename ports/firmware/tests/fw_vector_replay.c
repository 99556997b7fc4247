/* fw_vector_replay.c — replays one conformance vector (nicc_vec.h, from
 * `nicc-vectors --emit-c`) through the C ABI and fails on any mismatch: the
 * build registers it for vectors whose algorithm only the C ABI's dispatch
 * and INT decoding reach this way (sprayed HPCC: the EV of each ACK;
 * nscc+rccc: the port, several receivers and the ACK's credit).
 *
 *   nicc-vectors --emit-c VECTOR.vec > gen/nicc_vec.h && cc -std=c99 -Igen ...
 */
#include <stdio.h>

#include "nicc/fw.h"
#include "nicc/fw_vector.h"
#include "nicc_vec.h"

static void report(void* ctx, uint32_t step, const char* field, uint32_t want, uint32_t got) {
  (void)ctx;
  printf("step %u: %s expected %u got %u\n", (unsigned)step, field, (unsigned)want, (unsigned)got);
}

int main(void) {
  const uint32_t mismatches = nicc_fw_vector_run(&nicc_vec, report, 0);
  printf("vector %s: %u steps, %u mismatches\n", nicc_vec.name, (unsigned)nicc_vec.n_steps,
         (unsigned)mismatches);
  return mismatches == 0 && nicc_vec.n_steps > 0 ? 0 : 1;
}
