/* nicc/fw.h — C99 API of the nicc engine for NIC firmware.
 *
 * The whole engine behind a few calls: fill parameters, configure once, give
 * each sending flow a context of nicc_fw_flow_bytes(&cfg) bytes (at most
 * NICC_FW_FLOW_BYTES) and each receiving flow one of NICC_FW_RX_FLOW_BYTES
 * that you own, then one call per event, returning the action to apply. No heap, no globals, no clock: the
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
 *   nicc_fw_rx_flow rx;                            // per QP that receives
 *   nicc_fw_rx_flow_init(&cfg, &rx, qpn);
 *   ev.kind = NICC_FW_EV_RX_DATA; ev.ecn = ce;
 *   nicc_fw_on_rx_event(&cfg, &rx, &ev, now_ns, &act);   // NICC_FW_ACT_SEND_CNP?
 *
 * cc = NICC_FW_CC_NSCC_RCCC: the receiving port keeps one nicc_fw_port
 * (the RCCC credit pool its flows share) and receiver events name it:
 *   static nicc_fw_port port;  nicc_fw_port_init(&cfg, &port);
 *   ev.kind = NICC_FW_EV_RX_DATA; ev.seq = seq_end; ev.bytes = payload;
 *   ev.snd_nxt = backlog_end;                       // from the data packet
 *   nicc_fw_on_rx_port_event(&cfg, &port, &rx, &ev, now_ns, &act);
 *   ack.credit = act.window_bytes;                  // NICC_FW_ACT_GRANT_CREDIT
 *   nicc_fw_rx_flow_close(&cfg, &port, &rx);        // the flow ends
 *
 * Units: rates kb/s (Mb/s in the DCQCN parameters, as mlx5), time ns,
 * windows bytes. Parameter fields carry the engine's names; docs/dcqcn.md,
 * docs/hpcc.md and docs/spray.md define them.
 */
#ifndef NICC_FW_H_
#define NICC_FW_H_

#include <stddef.h>
#include <stdint.h>

#include "nicc/param_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque storage sizes; the implementation checks them at compile time.
 * NICC_FW_FLOW_BYTES is the largest sender context of any configuration
 * (sprayed HPCC + DLB; it was 128, HPCC + DLB, before NICC_FW_CC_HPCC_SPRAY);
 * a sender context of a given configuration needs only
 * nicc_fw_flow_bytes(cfg) bytes (<= 112 without DLB for every CC but
 * sprayed HPCC, whose four INT histories take 192 with REPS; 48 for
 * DCQCN + ECMP), 8-byte aligned. A receiver context is
 * NICC_FW_RX_FLOW_BYTES. */
#define NICC_FW_CONFIG_BYTES 448
#define NICC_FW_FLOW_BYTES 224
#define NICC_FW_RX_FLOW_BYTES 24
/* A receiving port's RCCC credit pool (cc = NICC_FW_CC_NSCC_RCCC); the
 * receiver context was 16 bytes before RCCC's per-flow credit state. */
#define NICC_FW_PORT_BYTES 32

typedef struct nicc_fw_config { uint64_t opaque[NICC_FW_CONFIG_BYTES / 8]; } nicc_fw_config;
/* A sender context (per QP that sends). Storage of nicc_fw_flow_bytes(cfg)
 * bytes, 8-byte aligned, may be cast to nicc_fw_flow*. */
typedef struct nicc_fw_flow { uint64_t opaque[NICC_FW_FLOW_BYTES / 8]; } nicc_fw_flow;
/* A receiver context (per QP that receives: CNP pacing). */
typedef struct nicc_fw_rx_flow { uint64_t opaque[NICC_FW_RX_FLOW_BYTES / 8]; } nicc_fw_rx_flow;
/* One per receiving port (RCCC: the credit pool and its active senders). */
typedef struct nicc_fw_port { uint64_t opaque[NICC_FW_PORT_BYTES / 8]; } nicc_fw_port;

/* Every enum and parameter struct below is expanded from the engine's one
 * list of each (nicc/param_tables.h); docs/params.md lists every field with
 * its unit, range and per-profile values. */

/* Status codes: NICC_FW_OK, NICC_FW_ERR_ZERO, ... NICC_FW_ERR_UNSUPPORTED. */
enum {
#define NICC_FW_X_(tok, ctok, code, key, doc) NICC_FW_##ctok = code,
  NICC_STATUS_CODES(NICC_FW_X_)
#undef NICC_FW_X_
  NICC_FW_STATUS_COUNT
};

/* Congestion control: NICC_FW_CC_NONE, _DCQCN, _HPCC, _HPCC_PINT, _NSCC,
 * _HPCC_SPRAY, _NSCC_RCCC. */
enum {
#define NICC_FW_X_(tok, ctok, code, name, doc) NICC_FW_CC_##ctok = code,
  NICC_CC_KINDS(NICC_FW_X_)
#undef NICC_FW_X_
  NICC_FW_CC_COUNT
};

/* Spray policies: NICC_FW_SPRAY_ECMP, _OPS, _BITMAP, _REPS, _PLB, _DLB. */
enum {
#define NICC_FW_X_(tok, ctok, code, name, doc) NICC_FW_SPRAY_##ctok = code,
  NICC_SPRAY_POLICIES(NICC_FW_X_)
#undef NICC_FW_X_
  NICC_FW_SPRAY_COUNT
};

/* DCQCN variants (nicc_fw_dcqcn_params.variant): NICC_FW_DCQCN_VARIANT_MLX5,
 * _SIGCOMM15. */
enum {
#define NICC_FW_X_(tok, ctok, code, name, doc) NICC_FW_DCQCN_VARIANT_##ctok = code,
  NICC_DCQCN_VARIANTS(NICC_FW_X_)
#undef NICC_FW_X_
  NICC_FW_DCQCN_VARIANT_COUNT
};

/* One uint32_t per parameter, named and ordered as in the engine's table. */
#define NICC_FW_FIELD_(name, unit, min, max, values, flags, doc) uint32_t name;

/* The driver itself: the port's line rate (the rate of a flow with
 * cc = NONE). The CC choice is nicc_fw_params.cc. */
typedef struct nicc_fw_driver_params {
  NICC_DRIVER_PARAMS(NICC_FW_FIELD_)
} nicc_fw_driver_params;

typedef struct nicc_fw_dcqcn_params {
  NICC_DCQCN_PARAMS(NICC_FW_FIELD_)
} nicc_fw_dcqcn_params;

typedef struct nicc_fw_hpcc_params {
  NICC_HPCC_PARAMS(NICC_FW_FIELD_)
} nicc_fw_hpcc_params;

/* UEC NSCC (docs/nscc.md). */
typedef struct nicc_fw_nscc_params {
  NICC_NSCC_PARAMS(NICC_FW_FIELD_)
} nicc_fw_nscc_params;

/* UEC RCCC receiver credit (docs/rccc.md); used with cc = NSCC_RCCC. */
typedef struct nicc_fw_rccc_params {
  NICC_RCCC_PARAMS(NICC_FW_FIELD_)
} nicc_fw_rccc_params;

typedef struct nicc_fw_spray_params {
  uint32_t policy; /* NICC_FW_SPRAY_* */
  NICC_SPRAY_PARAMS(NICC_FW_FIELD_)
} nicc_fw_spray_params;

/* The ECN path rule (UEC NSCC): a mark with low queueing delay moves the
 * path instead of cutting the rate. */
typedef struct nicc_fw_ecn_rule_params {
  NICC_ECN_RULE_PARAMS(NICC_FW_FIELD_)
} nicc_fw_ecn_rule_params;

#undef NICC_FW_FIELD_

typedef struct nicc_fw_params {
  uint32_t cc; /* NICC_FW_CC_* (the driver's CC choice) */
  nicc_fw_dcqcn_params dcqcn;
  nicc_fw_hpcc_params hpcc;
  nicc_fw_spray_params spray;
  nicc_fw_ecn_rule_params ecn_rule;
  nicc_fw_driver_params driver;
  nicc_fw_nscc_params nscc;
  nicc_fw_rccc_params rccc;
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
  const uint8_t* int_stack; /* ACK (HPCC, HPCC_SPRAY): INT stack as on the wire, or NULL;
                               decoded once inside nicc_fw_on_event */
  uint32_t bytes;           /* TX_DONE: bytes sent; ACK (NSCC): newly acknowledged;
                               NACK (NSCC): bytes lost or trimmed */
  uint32_t seq;             /* ACK: acknowledged sequence; RX_DATA (NSCC_RCCC): the
                               sequence after the packet's payload */
  uint32_t snd_nxt;         /* ACK, NACK (NSCC): next sequence the sender will send;
                               RX_DATA (NSCC_RCCC): the sender's backlog end (absolute
                               sequence up to which it has data queued) */
  uint32_t rtt_ns;          /* ACK: RTT sample, 0 = none */
  uint16_t int_len;         /* ACK: bytes at int_stack */
  uint16_t ev;              /* ACK/NACK/TIMEOUT: UDP source port used, 0 = unknown;
                               ACK (HPCC_SPRAY): the path whose INT history the stack feeds */
  uint8_t kind;             /* NICC_FW_EV_* */
  uint8_t ecn;              /* ACK: ECN-echo; RX_DATA: CE */
  uint8_t pint_code;        /* ACK (HPCC-PINT): utilisation code */
  uint8_t has_pint;         /* ACK: 1 when pint_code is present */
  uint32_t credit;          /* ACK (NSCC_RCCC): the credit limit the receiver granted,
                               an absolute byte sequence */
} nicc_fw_event;

/* Action flags: NICC_FW_ACT_SET_RATE, _SET_WINDOW, _USE_EV, _SEND_CNP,
 * _ARM_TIMER, _CANCEL_TIMER, _CHANGE_EV, _GRANT_CREDIT (receiver, NSCC_RCCC:
 * put window_bytes in this packet's ACK as the credit limit). */
enum {
#define NICC_FW_X_(tok, ctok, bit, name, doc) NICC_FW_ACT_##ctok = 1 << bit,
  NICC_ACTION_FLAGS(NICC_FW_X_)
#undef NICC_FW_X_
};

typedef struct nicc_fw_action {
  uint32_t rate_kbps;
  uint32_t window_bytes;
  uint32_t timer_ns; /* absolute deadline, NIC clock */
  uint16_t ev;
  uint8_t flags; /* NICC_FW_ACT_* */
  uint8_t reserved;
} nicc_fw_action;

/* Defaults: the driver, mlx5 DCQCN, the HPCC paper's settings, NSCC's and
 * RCCC's uec-default at the given port speed, ECMP (one path), NSCC rule off. Returns NICC_FW_OK. */
int nicc_fw_params_default(nicc_fw_params* p, uint32_t line_rate_mbps);

/* Validates and compiles `p`: every field, the enumerated ones (cc,
 * spray.policy) against their full 32-bit value. On error returns the code
 * (any NICC_FW_ERR_*, e.g. NICC_FW_ERR_UNSUPPORTED for bitmap with
 * ev_bits 7) and, when bad_field is not NULL, points it at the offending
 * field's name; *cfg is then left as it was (a configuration in use stays
 * whole). */
int nicc_fw_configure(nicc_fw_config* cfg, const nicc_fw_params* p, const char** bad_field);

/* Bytes a sender context of this configuration needs (a multiple of 8, at
 * most NICC_FW_FLOW_BYTES; depends on the CC and the spray policy), and a
 * receiver context's (NICC_FW_RX_FLOW_BYTES at most). */
size_t nicc_fw_flow_bytes(const nicc_fw_config* cfg);
size_t nicc_fw_rx_flow_bytes(const nicc_fw_config* cfg);

void nicc_fw_flow_init(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t key, uint32_t seed,
                       uint32_t start_seq);

/* One sender event (TX_DONE, ACK, NACK, CNP, TIMER, TIMEOUT). *out gets the
 * action (flags 0 = nothing to do). Returns NICC_FW_OK, an INT decoding
 * error (NICC_FW_ERR_TRUNCATED, _TOO_MANY_HOPS, _BAD_RATE_CODE: the wire
 * bytes of an HPCC or HPCC_SPRAY ACK are decoded here, once; the flow is then unchanged),
 * or NICC_FW_ERR_UNSUPPORTED for
 * RX_DATA (a receiver's event: nicc_fw_on_rx_event). */
int nicc_fw_on_event(const nicc_fw_config* cfg, nicc_fw_flow* flow, const nicc_fw_event* ev,
                     uint32_t now_ns, nicc_fw_action* out);

/* A receiver context for a flow whose sender runs the configuration's CC:
 * DCQCN's CNP pacing when that CC takes CNPs (NICC_FW_CC_DCQCN), nothing
 * for the others. */
void nicc_fw_rx_flow_init(const nicc_fw_config* cfg, nicc_fw_rx_flow* flow, uint32_t key);
/* The same for a sender that runs `sender_cc` (NICC_FW_CC_*), e.g. as the
 * connection's setup negotiated: CNPs only for a DCQCN sender, whatever the
 * configuration's CC. NICC_FW_ERR_OUT_OF_RANGE (context untouched) for an
 * unknown CC. Sender contexts have one CC per configuration (their size
 * depends on it: nicc_fw_flow_bytes). */
int nicc_fw_rx_flow_init_cc(const nicc_fw_config* cfg, nicc_fw_rx_flow* flow, uint32_t key, uint32_t sender_cc);

/* One receiver event (RX_DATA, ecn = CE): *out may ask NICC_FW_ACT_SEND_CNP.
 * NICC_FW_ERR_UNSUPPORTED for a sender's event, and for cc = NSCC_RCCC
 * (its receivers need their port: nicc_fw_on_rx_port_event). */
int nicc_fw_on_rx_event(const nicc_fw_config* cfg, nicc_fw_rx_flow* flow, const nicc_fw_event* ev,
                        uint32_t now_ns, nicc_fw_action* out);

/* A receiving port: an empty RCCC credit pool (any cc; only NSCC_RCCC
 * reads it). */
void nicc_fw_port_init(const nicc_fw_config* cfg, nicc_fw_port* port);

/* One receiver event of a flow on `port`: as nicc_fw_on_rx_event, and for
 * cc = NSCC_RCCC the RCCC grant (RX_DATA: seq = payload end, snd_nxt =
 * backlog end): *out has NICC_FW_ACT_GRANT_CREDIT with the credit limit in
 * window_bytes, on every packet. */
int nicc_fw_on_rx_port_event(const nicc_fw_config* cfg, nicc_fw_port* port, nicc_fw_rx_flow* flow,
                             const nicc_fw_event* ev, uint32_t now_ns, nicc_fw_action* out);

/* A receiving flow ends: under NSCC_RCCC an active sender leaves `port`'s
 * pool (the others' share grows). Other cc: nothing to do. */
void nicc_fw_rx_flow_close(const nicc_fw_config* cfg, nicc_fw_port* port, nicc_fw_rx_flow* flow);

/* The UDP source port of the flow's next packet. */
uint16_t nicc_fw_select_ev(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t now_ns);

uint32_t nicc_fw_rate_kbps(const nicc_fw_config* cfg, const nicc_fw_flow* flow);
uint32_t nicc_fw_window_bytes(const nicc_fw_config* cfg, const nicc_fw_flow* flow);

#ifdef __cplusplus
}
#endif

#endif /* NICC_FW_H_ */
