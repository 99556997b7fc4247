// nicc_fw.cc — the C API of nicc/fw.h over the HAL's per-flow dispatch.
// Freestanding: builds with -ffreestanding -fno-exceptions -fno-rtti for the
// firmware targets; no heap, no globals.
#include "nicc/fw.h"

#include "nicc/hal/driver.h"
#include "layout.h"

namespace {

namespace hal = nicc::hal;
using nicc::fw::Layout;
using nicc::fw::MakeLayout;
using nicc::fw::RoundUp;

// The configuration: the driver's, plus where each part of a sender context
// lives for this configuration (layout.h).
struct FwConfig {
  hal::DriverConfig drv;
  Layout layout;
};
using AnyRef = hal::SenderRef<hal::AnyCcState, nicc::spray::SprayState>;

static_assert(sizeof(FwConfig) <= NICC_FW_CONFIG_BYTES, "grow NICC_FW_CONFIG_BYTES");
static_assert(alignof(FwConfig) <= alignof(nicc_fw_config), "config alignment");
static_assert(alignof(hal::AnyCcState) <= alignof(nicc_fw_flow), "flow alignment");
static_assert(sizeof(hal::ReceiverSlot) <= NICC_FW_RX_FLOW_BYTES, "grow NICC_FW_RX_FLOW_BYTES");
static_assert(alignof(hal::ReceiverSlot) <= alignof(nicc_fw_rx_flow), "rx flow alignment");
static_assert(sizeof(nicc::rccc::PortState) <= NICC_FW_PORT_BYTES, "grow NICC_FW_PORT_BYTES");
static_assert(alignof(nicc::rccc::PortState) <= alignof(nicc_fw_port), "port alignment");
static_assert(sizeof(nicc_fw_action) == sizeof(nicc::Action), "action layout");
#define NICC_FW_X_(tok, ctok, bit, name, doc) \
  static_assert(NICC_FW_ACT_##ctok == static_cast<int>(nicc::kAct##tok), "action " name);
NICC_ACTION_FLAGS(NICC_FW_X_)
#undef NICC_FW_X_
#define NICC_FW_X_(tok, ctok, code, key, doc) \
  static_assert(NICC_FW_##ctok == static_cast<int>(nicc::StatusCode::k##tok), "status " key);
NICC_STATUS_CODES(NICC_FW_X_)
#undef NICC_FW_X_
#define NICC_FW_X_(tok, ctok, code, name, doc) \
  static_assert(NICC_FW_CC_##ctok == static_cast<int>(hal::CcKind::k##tok), "cc " name);
NICC_CC_KINDS(NICC_FW_X_)
#undef NICC_FW_X_
static_assert(NICC_FW_EV_TIMEOUT == static_cast<int>(hal::EventKind::kTimeout) &&
                  NICC_FW_EV_RX_DATA == static_cast<int>(hal::EventKind::kRxData),
              "event kinds");

FwConfig* Fw(nicc_fw_config* c) { return reinterpret_cast<FwConfig*>(c->opaque); }
const FwConfig& Fw(const nicc_fw_config* c) { return *reinterpret_cast<const FwConfig*>(c->opaque); }
const hal::DriverConfig& Cfg(const nicc_fw_config* c) { return Fw(c).drv; }

// The parts of a sender context at this configuration's offsets. The CC and
// spray areas are sized for the configured CC and policy only; the union
// views touch only the member cfg selects.
AnyRef Ref(const nicc_fw_config* c, nicc_fw_flow* f) {
  const Layout& l = Fw(c).layout;
  unsigned char* base = reinterpret_cast<unsigned char*>(f->opaque);
  return AnyRef{reinterpret_cast<hal::AnyCcState*>(base),
                reinterpret_cast<nicc::spray::SprayState*>(base + l.spray_off),
                l.path_off != 0 ? reinterpret_cast<nicc::ecn_path::State*>(base + l.path_off) : nullptr};
}
AnyRef Ref(const nicc_fw_config* c, const nicc_fw_flow* f) { return Ref(c, const_cast<nicc_fw_flow*>(f)); }
uint32_t* Key(const nicc_fw_config* c, nicc_fw_flow* f) {
  return reinterpret_cast<uint32_t*>(reinterpret_cast<unsigned char*>(f->opaque) + Fw(c).layout.key_off);
}
hal::ReceiverSlot* Rx(nicc_fw_rx_flow* f) { return reinterpret_cast<hal::ReceiverSlot*>(f->opaque); }
nicc::rccc::PortState* Port(nicc_fw_port* p) { return reinterpret_cast<nicc::rccc::PortState*>(p->opaque); }

hal::Event ToEvent(const nicc_fw_event* ev) {
  hal::Event e = hal::Event::Of(static_cast<hal::EventKind>(ev->kind));
  e.bytes = ev->bytes;
  e.seq = ev->seq;
  e.snd_nxt = ev->snd_nxt;
  e.rtt_ns = ev->rtt_ns;
  e.ev = ev->ev;
  e.ecn = ev->ecn;
  e.pint_code = ev->pint_code;
  e.has_pint = ev->has_pint;
  e.credit = ev->credit;
  return e;
}

nicc_fw_action ToC(const nicc::Action& a) {
  return nicc_fw_action{a.rate_kbps, a.window_bytes, a.timer_ns, a.ev, a.flags, 0};
}

// C struct <-> engine Params: both are expanded from the same lists in
// nicc/param_tables.h, so one macro per direction copies every field; a field
// added to a list is carried here without an edit.
#define NICC_FW_TO_CXX_(name, unit, min, max, values, flags, doc) out.name = in.name;

// The CC is range-checked by the caller before this cast.
hal::DriverParams ToCxx(uint32_t cc, const nicc_fw_driver_params& in) {
  hal::DriverParams out{};
  out.cc = static_cast<hal::CcKind>(cc);
  NICC_DRIVER_PARAMS(NICC_FW_TO_CXX_)
  return out;
}

void FromCxx(const hal::DriverParams& in, nicc_fw_driver_params* o) {
  nicc_fw_driver_params& out = *o;
  NICC_DRIVER_PARAMS(NICC_FW_TO_CXX_)
}

nicc::dcqcn::Params ToCxx(const nicc_fw_dcqcn_params& in) {
  nicc::dcqcn::Params out{};
  NICC_DCQCN_PARAMS(NICC_FW_TO_CXX_)
  return out;
}

nicc::hpcc::Params ToCxx(const nicc_fw_hpcc_params& in) {
  nicc::hpcc::Params out{};
  NICC_HPCC_PARAMS(NICC_FW_TO_CXX_)
  return out;
}

nicc::nscc::Params ToCxx(const nicc_fw_nscc_params& in) {
  nicc::nscc::Params out{};
  NICC_NSCC_PARAMS(NICC_FW_TO_CXX_)
  return out;
}

// The policy is range-checked by the caller before this cast.
nicc::spray::Params ToCxx(const nicc_fw_spray_params& in) {
  nicc::spray::Params out{};
  out.policy = static_cast<nicc::spray::Policy>(in.policy);
  NICC_SPRAY_PARAMS(NICC_FW_TO_CXX_)
  return out;
}

nicc::ecn_path::Rule ToCxx(const nicc_fw_ecn_rule_params& in) {
  nicc::ecn_path::Rule out{};
  NICC_ECN_RULE_PARAMS(NICC_FW_TO_CXX_)
  return out;
}

void FromCxx(const nicc::dcqcn::Params& in, nicc_fw_dcqcn_params* o) {
  nicc_fw_dcqcn_params& out = *o;
  NICC_DCQCN_PARAMS(NICC_FW_TO_CXX_)
}

void FromCxx(const nicc::hpcc::Params& in, nicc_fw_hpcc_params* o) {
  nicc_fw_hpcc_params& out = *o;
  NICC_HPCC_PARAMS(NICC_FW_TO_CXX_)
}

void FromCxx(const nicc::nscc::Params& in, nicc_fw_nscc_params* o) {
  nicc_fw_nscc_params& out = *o;
  NICC_NSCC_PARAMS(NICC_FW_TO_CXX_)
}

nicc::rccc::Params ToCxx(const nicc_fw_rccc_params& in) {
  nicc::rccc::Params out{};
  NICC_RCCC_PARAMS(NICC_FW_TO_CXX_)
  return out;
}

void FromCxx(const nicc::rccc::Params& in, nicc_fw_rccc_params* o) {
  nicc_fw_rccc_params& out = *o;
  NICC_RCCC_PARAMS(NICC_FW_TO_CXX_)
}

void FromCxx(const nicc::spray::Params& in, nicc_fw_spray_params* o) {
  nicc_fw_spray_params& out = *o;
  out.policy = static_cast<uint32_t>(in.policy);
  NICC_SPRAY_PARAMS(NICC_FW_TO_CXX_)
}

void FromCxx(const nicc::ecn_path::Rule& in, nicc_fw_ecn_rule_params* o) {
  nicc_fw_ecn_rule_params& out = *o;
  NICC_ECN_RULE_PARAMS(NICC_FW_TO_CXX_)
}

#undef NICC_FW_TO_CXX_

// Every C field is a uint32_t, as every engine field: the structs hold the
// list's rows and nothing else.
#define NICC_FW_COUNT_(...) +1u
static_assert(sizeof(nicc_fw_driver_params) == 4u * (0u NICC_DRIVER_PARAMS(NICC_FW_COUNT_)), "driver");
static_assert(sizeof(nicc_fw_dcqcn_params) == 4u * (0u NICC_DCQCN_PARAMS(NICC_FW_COUNT_)), "dcqcn");
static_assert(sizeof(nicc_fw_hpcc_params) == 4u * (0u NICC_HPCC_PARAMS(NICC_FW_COUNT_)), "hpcc");
static_assert(sizeof(nicc_fw_nscc_params) == 4u * (0u NICC_NSCC_PARAMS(NICC_FW_COUNT_)), "nscc");
static_assert(sizeof(nicc_fw_rccc_params) == 4u * (0u NICC_RCCC_PARAMS(NICC_FW_COUNT_)), "rccc");
static_assert(sizeof(nicc_fw_spray_params) == 4u * (1u NICC_SPRAY_PARAMS(NICC_FW_COUNT_)), "spray");
#undef NICC_FW_COUNT_

}  // namespace

extern "C" {

int nicc_fw_params_default(nicc_fw_params* p, uint32_t line_rate_mbps) {
  p->cc = NICC_FW_CC_DCQCN;
  FromCxx(hal::DriverParams::Of(hal::CcKind::kDcqcn, line_rate_mbps), &p->driver);
  FromCxx(nicc::dcqcn::Params::Mlx5(line_rate_mbps), &p->dcqcn);
  nicc::hpcc::Params h = nicc::hpcc::Params::HpccPaper();
  h.line_rate_mbps = line_rate_mbps;
  FromCxx(h, &p->hpcc);
  nicc::nscc::Params n = nicc::nscc::Params::UecDefault();
  n.line_rate_mbps = line_rate_mbps;
  FromCxx(n, &p->nscc);
  nicc::rccc::Params r = nicc::rccc::Params::UecDefault();
  r.line_rate_mbps = line_rate_mbps;
  FromCxx(r, &p->rccc);
  FromCxx(nicc::spray::Params::Defaults(nicc::spray::Policy::kEcmp, 0, 0), &p->spray);
  FromCxx(nicc::ecn_path::Rule::Of(nicc::ecn_path::kOff), &p->ecn_rule);
  return NICC_FW_OK;
}

int nicc_fw_configure(nicc_fw_config* cfg, const nicc_fw_params* p, const char** bad_field) {
  // Enumerated fields are checked at their full width before any narrowing
  // cast: cc = 256 must not read as CC 0.
  const char* bad = nullptr;
  if (p->cc >= NICC_FW_CC_COUNT) bad = "cc";
  else if (p->spray.policy >= NICC_FW_SPRAY_COUNT) bad = "policy";
  if (bad != nullptr) {
    if (bad_field) *bad_field = bad;
    return NICC_FW_ERR_OUT_OF_RANGE;
  }
  FwConfig* fw = Fw(cfg);
  const nicc::Status st =
      hal::InitDriverConfig(ToCxx(p->cc, p->driver), ToCxx(p->dcqcn), ToCxx(p->hpcc),
                            ToCxx(p->nscc), ToCxx(p->rccc), ToCxx(p->spray), ToCxx(p->ecn_rule), &fw->drv);
  if (!st.ok()) {
    if (bad_field) *bad_field = st.field;
    return static_cast<int>(st.code);
  }
  fw->layout = MakeLayout(fw->drv.cc, fw->drv.spray.policy);
  return NICC_FW_OK;
}

size_t nicc_fw_flow_bytes(const nicc_fw_config* cfg) { return Fw(cfg).layout.bytes; }

size_t nicc_fw_rx_flow_bytes(const nicc_fw_config* cfg) {
  (void)cfg;
  return RoundUp(sizeof(hal::ReceiverSlot), 8u);
}

void nicc_fw_flow_init(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t key, uint32_t seed,
                       uint32_t start_seq) {
  hal::SenderInit(Cfg(cfg), Ref(cfg, flow), seed, start_seq);
  *Key(cfg, flow) = key;
}

int nicc_fw_on_event(const nicc_fw_config* cfg, nicc_fw_flow* flow, const nicc_fw_event* ev,
                     uint32_t now_ns, nicc_fw_action* out) {
  if (ev->kind >= hal::kEventKindCount) {
    *out = nicc_fw_action{0, 0, 0, 0, 0, 0};
    return NICC_FW_ERR_OUT_OF_RANGE;
  }
  const hal::DriverConfig& c = Cfg(cfg);
  hal::Event e = ToEvent(ev);
  // Firmware receives INT as wire bytes: decoded here, once, for HPCC and
  // sprayed HPCC; a malformed stack is refused with the codec's status and
  // changes nothing.
  nicc::IntStack stack;
  if (ev->kind == NICC_FW_EV_ACK && ev->int_stack != nullptr &&
      (c.cc == hal::CcKind::kHpcc || c.cc == hal::CcKind::kHpccSpray)) {
    const nicc::Status ds = nicc::DecodeIntStack(ev->int_stack, ev->int_len, &stack);
    if (!ds.ok()) {
      *out = nicc_fw_action{0, 0, 0, 0, 0, 0};
      return static_cast<int>(ds.code);
    }
    e.int_stack = &stack;
  }
  nicc::Action a;
  const nicc::Status st = hal::SenderDispatch(c, Ref(cfg, flow), e, now_ns, &a);
  *out = ToC(a);
  return static_cast<int>(st.code);
}

uint16_t nicc_fw_select_ev(const nicc_fw_config* cfg, nicc_fw_flow* flow, uint32_t now_ns) {
  return hal::SenderSelectEv(Cfg(cfg), Ref(cfg, flow), now_ns);
}

uint32_t nicc_fw_rate_kbps(const nicc_fw_config* cfg, const nicc_fw_flow* flow) {
  return hal::SenderRateKbps(Cfg(cfg), Ref(cfg, flow));
}

uint32_t nicc_fw_window_bytes(const nicc_fw_config* cfg, const nicc_fw_flow* flow) {
  return hal::SenderWindowBytes(Cfg(cfg), Ref(cfg, flow));
}

void nicc_fw_rx_flow_init(const nicc_fw_config* cfg, nicc_fw_rx_flow* flow, uint32_t key) {
  hal::ReceiverInit(Cfg(cfg), Rx(flow), key);
}

int nicc_fw_rx_flow_init_cc(const nicc_fw_config* cfg, nicc_fw_rx_flow* flow, uint32_t key, uint32_t sender_cc) {
  if (sender_cc >= hal::kCcKindCount) return NICC_FW_ERR_OUT_OF_RANGE;
  hal::ReceiverInit(Cfg(cfg), Rx(flow), key, static_cast<hal::CcKind>(sender_cc));
  return NICC_FW_OK;
}

int nicc_fw_on_rx_event(const nicc_fw_config* cfg, nicc_fw_rx_flow* flow, const nicc_fw_event* ev,
                        uint32_t now_ns, nicc_fw_action* out) {
  if (ev->kind >= hal::kEventKindCount) {
    *out = nicc_fw_action{0, 0, 0, 0, 0, 0};
    return NICC_FW_ERR_OUT_OF_RANGE;
  }
  nicc::Action a;
  const nicc::Status st = hal::ReceiverDispatch(Cfg(cfg), Rx(flow), ToEvent(ev), now_ns, &a);
  *out = ToC(a);
  return static_cast<int>(st.code);
}

void nicc_fw_port_init(const nicc_fw_config* cfg, nicc_fw_port* port) {
  nicc::rccc::PortInit(Cfg(cfg).rccc, Port(port));
}

int nicc_fw_on_rx_port_event(const nicc_fw_config* cfg, nicc_fw_port* port, nicc_fw_rx_flow* flow,
                             const nicc_fw_event* ev, uint32_t now_ns, nicc_fw_action* out) {
  if (ev->kind >= hal::kEventKindCount) {
    *out = nicc_fw_action{0, 0, 0, 0, 0, 0};
    return NICC_FW_ERR_OUT_OF_RANGE;
  }
  nicc::Action a;
  const nicc::Status st = hal::ReceiverDispatch(Cfg(cfg), Port(port), Rx(flow), ToEvent(ev), now_ns, &a);
  *out = ToC(a);
  return static_cast<int>(st.code);
}

void nicc_fw_rx_flow_close(const nicc_fw_config* cfg, nicc_fw_port* port, nicc_fw_rx_flow* flow) {
  hal::ReceiverClose(Cfg(cfg), Port(port), Rx(flow));
}

}  // extern "C"
