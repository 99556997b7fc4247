/* replay.c — example firmware test harness in C99: replays a conformance
 * vector (turned into C data by `nicc-vectors --emit-c`) through the C API
 * and reports mismatches. The build generates nicc_vec.h from
 * testvectors/vectors/dcqcn/clock-rollover.vec; a NIC firmware harness does
 * the same with its own printf/UART.
 *
 *   nicc-vectors --emit-c VECTOR.vec > nicc_vec.h && cc -std=c99 replay.c ...
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
  /* The API on its own: a first CNP at line rate halves the rate. */
  nicc_fw_params p;
  nicc_fw_config cfg;
  nicc_fw_flow flow;
  nicc_fw_rx_flow rx;
  nicc_fw_event ev = {0};
  nicc_fw_action act;
  const char* bad = 0;
  uint32_t mismatches;
  nicc_fw_params_default(&p, 100000);
  if (nicc_fw_configure(&cfg, &p, &bad) != NICC_FW_OK) {
    printf("configure failed at %s\n", bad ? bad : "?");
    return 1;
  }
  /* Contexts are sized by the configuration: DCQCN + ECMP needs 48 B of the
   * NICC_FW_FLOW_BYTES a nicc_fw_flow reserves for any configuration. */
  printf("sender context %u B (at most %u), receiver context %u B\n", (unsigned)nicc_fw_flow_bytes(&cfg),
         (unsigned)NICC_FW_FLOW_BYTES, (unsigned)nicc_fw_rx_flow_bytes(&cfg));
  if (nicc_fw_flow_bytes(&cfg) > 48 || nicc_fw_rx_flow_bytes(&cfg) > NICC_FW_RX_FLOW_BYTES) return 1;
  nicc_fw_flow_init(&cfg, &flow, 7, 7, 0);
  ev.kind = NICC_FW_EV_CNP;
  nicc_fw_on_event(&cfg, &flow, &ev, 1000, &act);
  printf("first CNP: flags 0x%x rate %u kb/s, timer at %u ns\n", act.flags, (unsigned)act.rate_kbps,
         (unsigned)act.timer_ns);
  if (!(act.flags & NICC_FW_ACT_SET_RATE) || act.rate_kbps >= 100000000u) return 1;

  /* The receiver side: a CE-marked packet asks for a CNP; a receiver's
   * event on a sender context is refused. */
  nicc_fw_rx_flow_init(&cfg, &rx, 7);
  ev.kind = NICC_FW_EV_RX_DATA;
  ev.ecn = 1;
  if (nicc_fw_on_rx_event(&cfg, &rx, &ev, 2000, &act) != NICC_FW_OK || !(act.flags & NICC_FW_ACT_SEND_CNP))
    return 1;
  if (nicc_fw_on_event(&cfg, &flow, &ev, 2000, &act) != NICC_FW_ERR_UNSUPPORTED) return 1;
  printf("CE-marked packet: send a CNP\n");

  /* A bad parameter is named. */
  p.dcqcn.rp_gd = 3;
  if (nicc_fw_configure(&cfg, &p, &bad) != NICC_FW_ERR_OUT_OF_RANGE || !bad) return 1;
  printf("rp_gd = 3 refused: field %s\n", bad);

  /* The vector. */
  mismatches = nicc_fw_vector_run(&nicc_vec, report, 0);
  printf("vector %s: %u steps, %u mismatches\n", nicc_vec.name, (unsigned)nicc_vec.n_steps,
         (unsigned)mismatches);
  return mismatches == 0 ? 0 : 1;
}
