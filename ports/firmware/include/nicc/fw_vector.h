/* nicc/fw_vector.h — a conformance vector as C data, for firmware test
 * harnesses. `nicc-vectors --emit-c FILE` writes one; nicc_fw_vector_run()
 * replays it through the C API (nicc/fw.h) and counts mismatches.
 *
 *   #include "dcqcn_first_cnp.h"          // generated: defines nicc_vec
 *   unsigned bad = nicc_fw_vector_run(&nicc_vec, report_fn, ctx);
 */
#ifndef NICC_FW_VECTOR_H_
#define NICC_FW_VECTOR_H_

#include "nicc/fw.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  NICC_FW_VEC_OP_EVENT = 0,    /* nicc_fw_on_event with .event (RX_DATA: nicc_fw_on_rx_port_event
                                  on receiver context .flow) */
  NICC_FW_VEC_OP_SELECT = 1,   /* nicc_fw_select_ev */
  NICC_FW_VEC_OP_RX_CLOSE = 2, /* nicc_fw_rx_flow_close of receiver context .flow */
  NICC_FW_VEC_OP_OPEN = 3      /* nicc_fw_flow_init again, start sequence .event.seq */
};

/* Receiver contexts a vector may name (.flow), all on one port. */
#define NICC_FW_VEC_RX_FLOWS 64

/* Bits of nicc_fw_vec_step.check: which expectations the step carries. */
enum {
  NICC_FW_CHECK_FLAGS = 1 << 0,
  NICC_FW_CHECK_RATE = 1 << 1,
  NICC_FW_CHECK_WINDOW = 1 << 2,
  NICC_FW_CHECK_EV = 1 << 3,
  NICC_FW_CHECK_TIMER = 1 << 4,
  NICC_FW_CHECK_STATUS = 1 << 5,
  NICC_FW_CHECK_CREDIT = 1 << 6 /* the action's window_bytes (a receiver's grant) */
};

typedef struct nicc_fw_vec_step {
  uint32_t t_ns; /* NIC time of the step */
  uint32_t op;   /* NICC_FW_VEC_OP_* */
  nicc_fw_event event;
  uint32_t check;
  uint32_t flags;
  int32_t status;
  uint32_t rate_kbps, rate_tol_kbps;
  uint32_t window_bytes, window_tol_bytes;
  uint32_t ev;
  uint32_t timer_ns;
  uint32_t flow;   /* receiver context of RX_DATA / RX_CLOSE (< NICC_FW_VEC_RX_FLOWS) */
  uint32_t credit; /* NICC_FW_CHECK_CREDIT: the grant expected */
} nicc_fw_vec_step;

typedef struct nicc_fw_vector {
  const char* name;
  void (*params)(nicc_fw_params* p); /* fills the vector's parameters */
  uint32_t seed, start_seq;
  const nicc_fw_vec_step* steps;
  uint32_t n_steps;
} nicc_fw_vector;

/* Called for each mismatch: step index (0-based), field, expected, got. */
typedef void (*nicc_fw_vec_report)(void* ctx, uint32_t step, const char* field, uint32_t want,
                                   uint32_t got);

/* Replays `v` on a fresh configuration and flow; returns the number of
 * mismatches (0 = conformant). Configuration errors count as one mismatch
 * reported with field "configure". */
static inline uint32_t nicc_fw_vector_run(const nicc_fw_vector* v, nicc_fw_vec_report report,
                                          void* ctx) {
  nicc_fw_params p;
  nicc_fw_config cfg;
  nicc_fw_flow flow;
  nicc_fw_port port;                         /* the receivers' port (RCCC) */
  nicc_fw_rx_flow rx[NICC_FW_VEC_RX_FLOWS]; /* the vector's receiver events (RX_DATA) */
  uint32_t bad = 0, i;
  const char* field = 0;
  v->params(&p);
  if (nicc_fw_configure(&cfg, &p, &field) != NICC_FW_OK) {
    report(ctx, 0, "configure", 0, 1);
    return 1;
  }
  nicc_fw_flow_init(&cfg, &flow, 1, v->seed, v->start_seq);
  nicc_fw_port_init(&cfg, &port);
  for (i = 0; i < NICC_FW_VEC_RX_FLOWS; ++i) nicc_fw_rx_flow_init(&cfg, &rx[i], i + 1);
  for (i = 0; i < v->n_steps; ++i) {
    const nicc_fw_vec_step* s = &v->steps[i];
    nicc_fw_action a = {0, 0, 0, 0, 0, 0};
    int32_t st = NICC_FW_OK;
    uint32_t got_ev = 0;
    const uint32_t rxi = s->flow < NICC_FW_VEC_RX_FLOWS ? s->flow : 0;
    if (s->op == NICC_FW_VEC_OP_SELECT) {
      got_ev = nicc_fw_select_ev(&cfg, &flow, s->t_ns);
      a.flags = NICC_FW_ACT_USE_EV;
    } else if (s->op == NICC_FW_VEC_OP_RX_CLOSE) {
      nicc_fw_rx_flow_close(&cfg, &port, &rx[rxi]);
    } else if (s->op == NICC_FW_VEC_OP_OPEN) {
      nicc_fw_flow_init(&cfg, &flow, 1, v->seed, s->event.seq);
    } else if (s->event.kind == NICC_FW_EV_RX_DATA) {
      st = nicc_fw_on_rx_port_event(&cfg, &port, &rx[rxi], &s->event, s->t_ns, &a);
    } else {
      st = nicc_fw_on_event(&cfg, &flow, &s->event, s->t_ns, &a);
      got_ev = a.ev;
    }
    if ((s->check & NICC_FW_CHECK_CREDIT) && a.window_bytes != s->credit) {
      report(ctx, i, "credit", s->credit, a.window_bytes);
      ++bad;
    }
    if ((s->check & NICC_FW_CHECK_FLAGS) && a.flags != s->flags) {
      report(ctx, i, "flags", s->flags, a.flags);
      ++bad;
    }
    if (s->check & NICC_FW_CHECK_RATE) {
      const uint32_t r = nicc_fw_rate_kbps(&cfg, &flow);
      const uint32_t d = r > s->rate_kbps ? r - s->rate_kbps : s->rate_kbps - r;
      if (d > s->rate_tol_kbps) {
        report(ctx, i, "rate_kbps", s->rate_kbps, r);
        ++bad;
      }
    }
    if (s->check & NICC_FW_CHECK_WINDOW) {
      const uint32_t w = nicc_fw_window_bytes(&cfg, &flow);
      const uint32_t d = w > s->window_bytes ? w - s->window_bytes : s->window_bytes - w;
      if (d > s->window_tol_bytes) {
        report(ctx, i, "window_bytes", s->window_bytes, w);
        ++bad;
      }
    }
    if ((s->check & NICC_FW_CHECK_EV) && got_ev != s->ev) {
      report(ctx, i, "ev", s->ev, got_ev);
      ++bad;
    }
    if ((s->check & NICC_FW_CHECK_TIMER) && a.timer_ns != s->timer_ns) {
      report(ctx, i, "timer_ns", s->timer_ns, a.timer_ns);
      ++bad;
    }
    if ((s->check & NICC_FW_CHECK_STATUS) && st != s->status) {
      report(ctx, i, "status", (uint32_t)s->status, (uint32_t)st);
      ++bad;
    }
  }
  return bad;
}

#ifdef __cplusplus
}
#endif

#endif /* NICC_FW_VECTOR_H_ */
