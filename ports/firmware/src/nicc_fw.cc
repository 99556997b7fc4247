// nicc_fw.cc — the C API of nicc/fw.h over the HAL's per-flow dispatch.
// Freestanding: builds with -ffreestanding -fno-exceptions -fno-rtti for the
// firmware targets; no heap, no globals.
#include "nicc/fw.h"

#include "nicc/hal/driver.h"

namespace {

namespace hal = nicc::hal;

static_assert(sizeof(hal::DriverConfig) <= NICC_FW_CONFIG_BYTES, "grow NICC_FW_CONFIG_BYTES");
static_assert(alignof(hal::DriverConfig) <= alignof(nicc_fw_config), "config alignment");
static_assert(sizeof(hal::FlowSlot) <= NICC_FW_FLOW_BYTES, "grow NICC_FW_FLOW_BYTES");
static_assert(alignof(hal::FlowSlot) <= alignof(nicc_fw_flow), "flow alignment");
static_assert(sizeof(nicc_fw_action) == sizeof(nicc::Action), "action layout");
static_assert(static_cast<int>(NICC_FW_ACT_SET_RATE) == nicc::kActSetRate &&
                  static_cast<int>(NICC_FW_ACT_SET_WINDOW) == nicc::kActSetWindow &&
                  static_cast<int>(NICC_FW_ACT_USE_EV) == nicc::kActUseEv &&
                  static_cast<int>(NICC_FW_ACT_SEND_CNP) == nicc::kActSendCnp &&
                  static_cast<int>(NICC_FW_ACT_ARM_TIMER) == nicc::kActArmTimer &&
                  static_cast<int>(NICC_FW_ACT_CANCEL_TIMER) == nicc::kActCancelTimer,
              "action flags");
static_assert(NICC_FW_EV_TIMEOUT == static_cast<int>(hal::EventKind::kTimeout) &&
                  NICC_FW_EV_RX_DATA == static_cast<int>(hal::EventKind::kRxData),
              "event kinds");

hal::DriverConfig* Cfg(nicc_fw_config* c) { return reinterpret_cast<hal::DriverConfig*>(c->opaque); }
const hal::DriverConfig& Cfg(const nicc_fw_config* c) {
  return *reinterpret_cast<const hal::DriverConfig*>(c->opaque);
}
hal::FlowSlot* Slot(nicc_fw_flow* f) { return reinterpret_cast<hal::FlowSlot*>(f->opaque); }
const hal::FlowSlot& Slot(const nicc_fw_flow* f) { return *reinterpret_cast<const hal::FlowSlot*>(f->opaque); }

nicc::dcqcn::Params ToCxx(const nicc_fw_dcqcn_params& c) {
  return nicc::dcqcn::Params{c.line_rate_mbps, c.rp_time_reset, c.rp_byte_reset, c.rp_threshold,
                             c.rp_ai_rate, c.rp_hai_rate, c.rp_gd, c.rp_min_dec_fac, c.rp_min_rate,
                             c.rp_max_rate, c.rp_dce_tcp_g, c.rp_dce_tcp_rtt,
                             c.rp_rate_reduce_monitor_period, c.rp_initial_alpha_value,
                             c.rp_rate_to_set_on_first_cnp, c.rp_clamp_tgt_rate, c.rp_clamp_tgt_rate_ati,
                             c.np_min_time_between_cnps};
}

nicc::hpcc::Params ToCxx(const nicc_fw_hpcc_params& c) {
  return nicc::hpcc::Params{c.line_rate_mbps, c.base_rtt_ns, c.eta_ppm, c.max_stage, c.w_ai_bytes,
                            c.min_window_bytes, c.history_timeout_us};
}

nicc::spray::Params ToCxx(const nicc_fw_spray_params& c) {
  return nicc::spray::Params{static_cast<nicc::spray::Policy>(c.policy),
                             c.ev_bits,
                             c.flow_label,
                             c.base_port,
                             c.bitmap_ecn_penalty,
                             c.bitmap_nack_penalty,
                             c.reps_max_reuse,
                             c.reps_freeze_us,
                             c.plb_rehash_rounds,
                             c.plb_idle_rehash_rounds,
                             c.plb_cong_thresh_pct,
                             c.plb_suspend_us,
                             c.dlb_gain_shift,
                             c.dlb_rtt_shift,
                             c.dlb_hysteresis,
                             c.dlb_probe_shift,
                             c.dlb_min_dwell};
}

void FromCxx(const nicc::spray::Params& s, nicc_fw_spray_params* c) {
  *c = nicc_fw_spray_params{static_cast<uint32_t>(s.policy),
                            s.ev_bits,
                            s.flow_label,
                            s.base_port,
                            s.bitmap_ecn_penalty,
                            s.bitmap_nack_penalty,
                            s.reps_max_reuse,
                            s.reps_freeze_us,
                            s.plb_rehash_rounds,
                            s.plb_idle_rehash_rounds,
                            s.plb_cong_thresh_pct,
                            s.plb_suspend_us,
                            s.dlb_gain_shift,
                            s.dlb_rtt_shift,
                            s.dlb_hysteresis,
                            s.dlb_probe_shift,
                            s.dlb_min_dwell};
}

}  // namespace

extern "C" {

int nicc_fw_params_default(nicc_fw_params* p, uint32_t line_rate_mbps) {
  const nicc::dcqcn::Params d = nicc::dcqcn::Params::Mlx5(line_rate_mbps);
  p->cc = NICC_FW_CC_DCQCN;
  p->dcqcn = nicc_fw_dcqcn_params{d.line_rate_mbps, d.rp_time_reset, d.rp_byte_reset, d.rp_threshold,
                                  d.rp_ai_rate, d.rp_hai_rate, d.rp_gd, d.rp_min_dec_fac,
                                  d.rp_min_rate, d.rp_max_rate, d.rp_dce_tcp_g, d.rp_dce_tcp_rtt,
                                  d.rp_rate_reduce_monitor_period, d.rp_initial_alpha_value,
                                  d.rp_rate_to_set_on_first_cnp, d.rp_clamp_tgt_rate,
                                  d.rp_clamp_tgt_rate_ati, d.np_min_time_between_cnps};
  nicc::hpcc::Params h = nicc::hpcc::Params::HpccPaper();
  h.line_rate_mbps = line_rate_mbps;
  p->hpcc = nicc_fw_hpcc_params{h.line_rate_mbps, h.base_rtt_ns, h.eta_ppm, h.max_stage,
                                h.w_ai_bytes, h.min_window_bytes, h.history_timeout_us};
  FromCxx(nicc::spray::Params::Defaults(nicc::spray::Policy::kEcmp, 0, 0), &p->spray);
  p->ecn_change_path_on_low_delay = 0;
  p->ecn_low_delay_ns = nicc::spray::EcnRule::Defaults().low_delay_ns;
  p->base_rtt_ns = h.base_rtt_ns;
  return NICC_FW_OK;
}

int nicc_fw_configure(nicc_fw_config* cfg, const nicc_fw_params* p, const char** bad_field) {
  if (p->spray.policy >= nicc::spray::kPolicyCount) {
    if (bad_field) *bad_field = "policy";
    return NICC_FW_ERR_OUT_OF_RANGE;
  }
  const nicc::spray::EcnRule rule{p->ecn_change_path_on_low_delay, p->ecn_low_delay_ns};
  const nicc::Status st =
      hal::InitDriverConfig(static_cast<hal::CcKind>(p->cc), ToCxx(p->dcqcn), ToCxx(p->hpcc),
                            ToCxx(p->spray), rule, p->base_rtt_ns, Cfg(cfg));
  if (!st.ok() && bad_field) *bad_field = st.field;
  return static_cast<int>(st.code);
}

void nicc_fw_flow_init(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t key, uint32_t seed,
                       uint32_t start_seq) {
  hal::SlotInit(Cfg(cfg), Slot(flow), key, seed, start_seq);
}

int nicc_fw_on_event(const nicc_fw_config* cfg, nicc_fw_flow* flow, const nicc_fw_event* ev,
                     uint32_t now_ns, nicc_fw_action* out) {
  hal::Event e = hal::Event::Of(static_cast<hal::EventKind>(ev->kind));
  if (ev->kind >= hal::kEventKindCount) {
    *out = nicc_fw_action{0, 0, 0, 0, 0, 0};
    return NICC_FW_ERR_OUT_OF_RANGE;
  }
  e.int_stack = ev->int_stack;
  e.bytes = ev->bytes;
  e.seq = ev->seq;
  e.snd_nxt = ev->snd_nxt;
  e.rtt_ns = ev->rtt_ns;
  e.int_len = ev->int_len;
  e.ev = ev->ev;
  e.ecn = ev->ecn;
  e.pint_code = ev->pint_code;
  e.has_pint = ev->has_pint;
  nicc::Action a;
  const nicc::Status st = hal::SlotDispatch(Cfg(cfg), Slot(flow), e, now_ns, &a);
  *out = nicc_fw_action{a.rate_kbps, a.window_bytes, a.timer_ns, a.ev, a.flags, 0};
  return static_cast<int>(st.code);
}

uint16_t nicc_fw_select_ev(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t now_ns) {
  return hal::SlotSelectEv(Cfg(cfg), Slot(flow), now_ns);
}

uint32_t nicc_fw_rate_kbps(const nicc_fw_config* cfg, const nicc_fw_flow* flow) {
  return hal::SlotRateKbps(Cfg(cfg), Slot(flow));
}

uint32_t nicc_fw_window_bytes(const nicc_fw_config* cfg, const nicc_fw_flow* flow) {
  return hal::SlotWindowBytes(Cfg(cfg), Slot(flow));
}

}  // extern "C"
