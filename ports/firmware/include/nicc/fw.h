/* nicc/fw.h — C99 API of the nicc engine for NIC firmware.
 *
 * The whole engine behind five calls: fill parameters, configure once, give
 * each flow a context of NICC_FW_FLOW_BYTES that you own, then one call per
 * event, returning the action to apply. No heap, no globals, no clock: the
 * caller passes the NIC time (32-bit ns, wrapping) with every call.
 *
 *   nicc_fw_params p;
 *   nicc_fw_params_default(&p, 100000);            // 100 Gb/s: mlx5 DCQCN, ECMP
 *   static nicc_fw_config cfg;                     // shared by all flows
 *   const char* bad = 0;
 *   if (nicc_fw_configure(&cfg, &p, &bad) != NICC_FW_OK) report(bad);
 *   nicc_fw_flow flow;                             // per QP, yours to place
 *   nicc_fw_flow_init(&cfg, &flow, qpn, qpn, 0);
 *   nicc_fw_event ev = {0}; ev.kind = NICC_FW_EV_CNP;
 *   nicc_fw_action act;
 *   nicc_fw_on_event(&cfg, &flow, &ev, now_ns, &act);
 *   if (act.flags & NICC_FW_ACT_SET_RATE) set_qp_rate(qpn, act.rate_kbps);
 *
 * Units: rates kb/s (Mb/s in the DCQCN parameters, as mlx5), time ns,
 * windows bytes. Parameter fields carry the engine's names; docs/dcqcn.md,
 * docs/hpcc.md and docs/spray.md define them.
 */
#ifndef NICC_FW_H_
#define NICC_FW_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque storage sizes; the implementation checks them at compile time. */
#define NICC_FW_CONFIG_BYTES 384
#define NICC_FW_FLOW_BYTES 144

typedef struct nicc_fw_config { uint64_t opaque[NICC_FW_CONFIG_BYTES / 8]; } nicc_fw_config;
typedef struct nicc_fw_flow { uint64_t opaque[NICC_FW_FLOW_BYTES / 8]; } nicc_fw_flow;

/* Status codes (the engine's StatusCode values). */
enum {
  NICC_FW_OK = 0,
  NICC_FW_ERR_ZERO = 1,
  NICC_FW_ERR_OUT_OF_RANGE = 2,
  NICC_FW_ERR_INCONSISTENT = 3,
  NICC_FW_ERR_TRUNCATED = 4,
  NICC_FW_ERR_TOO_MANY_HOPS = 5,
  NICC_FW_ERR_BAD_RATE_CODE = 6
};

enum { NICC_FW_CC_NONE = 0, NICC_FW_CC_DCQCN = 1, NICC_FW_CC_HPCC = 2, NICC_FW_CC_HPCC_PINT = 3 };
enum {
  NICC_FW_SPRAY_ECMP = 0,
  NICC_FW_SPRAY_OPS = 1,
  NICC_FW_SPRAY_BITMAP = 2,
  NICC_FW_SPRAY_REPS = 3,
  NICC_FW_SPRAY_PLB = 4,
  NICC_FW_SPRAY_DLB = 5
};

typedef struct nicc_fw_dcqcn_params {
  uint32_t line_rate_mbps, rp_time_reset, rp_byte_reset, rp_threshold, rp_ai_rate, rp_hai_rate,
      rp_gd, rp_min_dec_fac, rp_min_rate, rp_max_rate, rp_dce_tcp_g, rp_dce_tcp_rtt,
      rp_rate_reduce_monitor_period, rp_initial_alpha_value, rp_rate_to_set_on_first_cnp,
      rp_clamp_tgt_rate, rp_clamp_tgt_rate_ati, np_min_time_between_cnps;
} nicc_fw_dcqcn_params;

typedef struct nicc_fw_hpcc_params {
  uint32_t line_rate_mbps, base_rtt_ns, eta_ppm, max_stage, w_ai_bytes, min_window_bytes,
      history_timeout_us;
} nicc_fw_hpcc_params;

typedef struct nicc_fw_spray_params {
  uint32_t policy; /* NICC_FW_SPRAY_* */
  uint32_t ev_bits, flow_label, base_port, bitmap_ecn_penalty, bitmap_nack_penalty,
      reps_max_reuse, reps_freeze_us, plb_rehash_rounds, plb_idle_rehash_rounds,
      plb_cong_thresh_pct, plb_suspend_us, dlb_gain_shift, dlb_rtt_shift, dlb_hysteresis,
      dlb_probe_shift, dlb_min_dwell;
} nicc_fw_spray_params;

typedef struct nicc_fw_params {
  uint32_t cc; /* NICC_FW_CC_* */
  nicc_fw_dcqcn_params dcqcn;
  nicc_fw_hpcc_params hpcc;
  nicc_fw_spray_params spray;
  uint32_t ecn_change_path_on_low_delay; /* NSCC rule: 1 on, 0 off */
  uint32_t ecn_low_delay_ns;
  uint32_t base_rtt_ns;
} nicc_fw_params;

enum {
  NICC_FW_EV_TX_DONE = 0,
  NICC_FW_EV_ACK = 1,
  NICC_FW_EV_NACK = 2,
  NICC_FW_EV_CNP = 3,
  NICC_FW_EV_TIMER = 4,
  NICC_FW_EV_RX_DATA = 5,
  NICC_FW_EV_TIMEOUT = 6
};

/* One event; fields a kind does not use are ignored (zero them). */
typedef struct nicc_fw_event {
  const uint8_t* int_stack; /* ACK (HPCC): INT stack as on the wire, or NULL */
  uint32_t bytes;           /* TX_DONE: bytes sent */
  uint32_t seq;             /* ACK: acknowledged sequence */
  uint32_t snd_nxt;         /* ACK: next sequence the sender will send */
  uint32_t rtt_ns;          /* ACK: RTT sample, 0 = none */
  uint16_t int_len;         /* ACK: bytes at int_stack */
  uint16_t ev;              /* ACK/NACK/TIMEOUT: UDP source port used, 0 = unknown */
  uint8_t kind;             /* NICC_FW_EV_* */
  uint8_t ecn;              /* ACK: ECN-echo; RX_DATA: CE */
  uint8_t pint_code;        /* ACK (HPCC-PINT): utilisation code */
  uint8_t has_pint;         /* ACK: 1 when pint_code is present */
} nicc_fw_event;

enum {
  NICC_FW_ACT_SET_RATE = 1 << 0,
  NICC_FW_ACT_SET_WINDOW = 1 << 1,
  NICC_FW_ACT_USE_EV = 1 << 2,
  NICC_FW_ACT_SEND_CNP = 1 << 3,
  NICC_FW_ACT_ARM_TIMER = 1 << 4,
  NICC_FW_ACT_CANCEL_TIMER = 1 << 5
};

typedef struct nicc_fw_action {
  uint32_t rate_kbps;
  uint32_t window_bytes;
  uint32_t timer_ns; /* absolute deadline, NIC clock */
  uint16_t ev;
  uint8_t flags; /* NICC_FW_ACT_* */
  uint8_t reserved;
} nicc_fw_action;

/* Defaults: mlx5 DCQCN at the given port speed, the HPCC paper's settings,
 * ECMP (one path), NSCC rule off. Returns NICC_FW_OK. */
int nicc_fw_params_default(nicc_fw_params* p, uint32_t line_rate_mbps);

/* Validates and compiles `p`. On error returns the code and, when
 * bad_field is not NULL, points it at the offending field's name. */
int nicc_fw_configure(nicc_fw_config* cfg, const nicc_fw_params* p, const char** bad_field);

void nicc_fw_flow_init(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t key, uint32_t seed,
                       uint32_t start_seq);

/* One event. *out gets the action (flags 0 = nothing to do). Returns
 * NICC_FW_OK, or an INT decoding error (the flow is then unchanged). */
int nicc_fw_on_event(const nicc_fw_config* cfg, nicc_fw_flow* flow, const nicc_fw_event* ev,
                     uint32_t now_ns, nicc_fw_action* out);

/* The UDP source port of the flow's next packet. */
uint16_t nicc_fw_select_ev(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t now_ns);

uint32_t nicc_fw_rate_kbps(const nicc_fw_config* cfg, const nicc_fw_flow* flow);
uint32_t nicc_fw_window_bytes(const nicc_fw_config* cfg, const nicc_fw_flow* flow);

#ifdef __cplusplus
}
#endif

#endif /* NICC_FW_H_ */
