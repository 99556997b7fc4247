// nicc/hal/driver.h — the generic driver every backend runs: a fixed-capacity
// flow table, and the dispatch of events to the configured congestion
// control (none, DCQCN, HPCC, HPCC-PINT) and spray policy.
//
// The backend is a compile-time parameter (a facade, as in Pigweed): the
// driver calls `backend->Apply(flow, action)` directly, with no virtual call,
// so firmware pays nothing for the abstraction. What a backend must provide
// is listed in backend.h.
//
//   struct MyNic { void Apply(nicc::hal::FlowId f, const nicc::Action& a); };
//   static nicc::hal::DriverConfig cfg;           // Init() once, shared
//   static nicc::hal::Driver<MyNic, 1024> drv;    // ~170 B per flow, no heap
//   drv.Init(&cfg, &nic);
//   nicc::hal::FlowId f;
//   if (drv.Open(qpn, /*seed=*/qpn, &f).ok()) {
//     uint16_t port = drv.SelectEv(f, now);       // UDP source port per packet
//     drv.Deliver(f, nicc::hal::Event::Cnp(), now);  // -> nic.Apply(f, ...)
//   }
//
// Capacity is a template parameter; a full table is reported (kFull), never
// grown. Every handler does work bounded by compile-time constants (the INT
// hop maximum, the EV count); only Find() scans the table.
#ifndef NICC_HAL_DRIVER_H_
#define NICC_HAL_DRIVER_H_

#include "nicc/common.h"
#include "nicc/dcqcn.h"
#include "nicc/ecn_path.h"
#include "nicc/hal/event.h"
#include "nicc/hpcc.h"
#include "nicc/int_codec.h"
#include "nicc/spray.h"

namespace nicc {
namespace hal {

// Index of a flow in a driver's table. Stable from Open() to Close().
using FlowId = uint16_t;
constexpr FlowId kNoFlow = 0xFFFF;

// Congestion control of a driver's flows; names and codes are one list in
// param_tables.h (NICC_CC_KINDS), shared with the C ABI.
enum class CcKind : uint8_t {
#define NICC_X(tok, ctok, code, name, doc) k##tok = code,
  NICC_CC_KINDS(NICC_X)
#undef NICC_X
};
constexpr ChoiceDesc kCcKinds[] = {
#define NICC_X(tok, ctok, code, name, doc) {name, code, NICC_PARAM_DOC(doc)},
    NICC_CC_KINDS(NICC_X)
#undef NICC_X
};
constexpr uint32_t kCcKindCount = sizeof(kCcKinds) / sizeof(kCcKinds[0]);

constexpr const char* CcKindName(CcKind k) {
  return static_cast<uint32_t>(k) < kCcKindCount ? kCcKinds[static_cast<uint32_t>(k)].name : "?";
}

// Everything a driver needs to know, compiled once and shared by all flows.
struct DriverConfig {
  CcKind cc;
  uint32_t line_rate_kbps;  // the rate of a flow without CC
  dcqcn::Config dcqcn;      // used when cc == kDcqcn (the NP part always)
  hpcc::Config hpcc;        // used when cc == kHpcc / kHpccPint
  spray::Config spray;      // path selection for every flow
  ecn_path::Rule ecn_rule;  // NSCC rule: ECN with low delay changes path
};

// Compiles the parts of a DriverConfig from their Params. Fields that the
// chosen CC does not use are still validated, so a config is complete. The
// first bad field is named in the status.
inline Status InitDriverConfig(CcKind cc, const dcqcn::Params& dcqcn_params,
                               const hpcc::Params& hpcc_params,
                               const spray::Params& spray_params, const ecn_path::Rule& rule,
                               DriverConfig* out) {
  if (static_cast<uint32_t>(cc) >= kCcKindCount)
    return Status::Error(StatusCode::kOutOfRange, "cc");
  Status st = dcqcn::Compile(dcqcn_params, &out->dcqcn);
  if (!st.ok()) return st;
  st = hpcc::Compile(hpcc_params, &out->hpcc);
  if (!st.ok()) return st;
  st = spray::Compile(spray_params, &out->spray);
  if (!st.ok()) return st;
  st = rule.Validate();
  if (!st.ok()) return st;
  out->cc = cc;
  out->line_rate_kbps = dcqcn_params.line_rate_mbps * kKbpsPerMbps;
  out->ecn_rule = rule;
  return Status::Ok();
}

// One flow's slot: sender CC state, spray state, receiver NP state.
struct FlowSlot {
  union Cc {
    dcqcn::RpState dcqcn;
    hpcc::State hpcc;
  } cc;
  spray::SprayState spray;
  dcqcn::NpState np;
  ecn_path::State path;  // newest RTT and last port (ECN path rule)
  uint32_t key;          // the backend's own flow key (QP number, flow id)
  uint8_t in_use;
  uint8_t reserved[3];
};

// ---------------------------------------------------------------------------
// One flow, without a table: what Driver does per slot. The firmware C API
// (ports/firmware) calls these on flow contexts its caller owns.
// ---------------------------------------------------------------------------

// Puts a slot in the state of a new flow.
inline void SlotInit(const DriverConfig& cfg, FlowSlot* s, uint32_t key, uint32_t seed,
                     uint32_t start_seq) {
  *s = FlowSlot{};
  s->key = key;
  s->in_use = 1;
  switch (cfg.cc) {
    case CcKind::kDcqcn: dcqcn::RpInit(cfg.dcqcn, &s->cc.dcqcn); break;
    case CcKind::kHpcc:
    case CcKind::kHpccPint: hpcc::Init(cfg.hpcc, &s->cc.hpcc, start_seq); break;
    case CcKind::kNone: break;
  }
  spray::Init(cfg.spray, &s->spray, seed);
  ecn_path::Init(&s->path);
  dcqcn::NpInit(&s->np);
}

// The UDP source port for the flow's next packet.
inline uint16_t SlotSelectEv(const DriverConfig& cfg, FlowSlot* s, TimeNs now_ns) {
  const uint16_t ev = spray::Select(cfg.spray, &s->spray, now_ns).ev;
  ecn_path::OnSend(&s->path, ev);
  return ev;
}

inline uint32_t SlotRateKbps(const DriverConfig& cfg, const FlowSlot& s) {
  switch (cfg.cc) {
    case CcKind::kDcqcn: return dcqcn::RpRateKbps(cfg.dcqcn, s.cc.dcqcn);
    case CcKind::kHpcc:
    case CcKind::kHpccPint: return hpcc::RateKbps(cfg.hpcc, s.cc.hpcc);
    case CcKind::kNone: break;
  }
  return cfg.line_rate_kbps;
}

// 0 = no window (rate-based CC or none).
inline uint32_t SlotWindowBytes(const DriverConfig& cfg, const FlowSlot& s) {
  if (cfg.cc == CcKind::kHpcc || cfg.cc == CcKind::kHpccPint) return hpcc::WindowBytes(s.cc.hpcc);
  return 0;
}

namespace detail {

inline Status OnAck(const DriverConfig& cfg, FlowSlot* s, const Event& e, TimeNs now_ns, Action* a) {
  if (cfg.cc == CcKind::kHpcc && e.int_stack != nullptr) {
    IntStack stack;
    const Status st = DecodeIntStack(e.int_stack, e.int_len, &stack);
    if (!st.ok()) return st;  // malformed INT: nothing changes
    *a = hpcc::OnAck(cfg.hpcc, &s->cc.hpcc, e.seq, e.snd_nxt, stack, now_ns);
  } else if (cfg.cc == CcKind::kHpccPint && e.has_pint) {
    *a = hpcc::OnPintAck(cfg.hpcc, &s->cc.hpcc, e.seq, e.snd_nxt, e.pint_code, now_ns);
  }
  ecn_path::OnRtt(&s->path, e.rtt_ns);
  if (e.ev != 0) {
    const spray::Feedback kind = e.ecn ? spray::Feedback::kEcn : spray::Feedback::kGood;
    spray::OnFeedback(cfg.spray, &s->spray, e.ev, kind, e.rtt_ns, now_ns);
  }
  return Status::Ok();
}

// DCQCN's CNP. The ECN path rule (ecn_path.h) decides; the driver applies
// its decision: spray feedback kEcn on the blamed port, or the CC's cut.
inline Action OnCnp(const DriverConfig& cfg, FlowSlot* s, TimeNs now_ns) {
  if (cfg.cc != CcKind::kDcqcn) return Action::None();
  const ecn_path::Decision d = ecn_path::OnMark(cfg.ecn_rule, s->path);
  if (d.verdict == ecn_path::Verdict::kChangePath) {
    spray::OnFeedback(cfg.spray, &s->spray, d.ev, spray::Feedback::kEcn, 0, now_ns);
    return Action::None();
  }
  return dcqcn::RpOnCnp(cfg.dcqcn, &s->cc.dcqcn, now_ns);
}

}  // namespace detail

// Dispatches one event of one flow; *out receives the action (flags 0 when
// nothing is asked). Returns the INT decoder's status for a malformed INT
// stack, the flow's state then unchanged.
inline Status SlotDispatch(const DriverConfig& cfg, FlowSlot* s, const Event& e, TimeNs now_ns,
                           Action* out) {
  Action a = Action::None();
  Status st = Status::Ok();
  switch (e.kind) {
    case EventKind::kTxDone:
      if (cfg.cc == CcKind::kDcqcn) a = dcqcn::RpOnTxBytes(cfg.dcqcn, &s->cc.dcqcn, e.bytes, now_ns);
      break;
    case EventKind::kAck:
      st = detail::OnAck(cfg, s, e, now_ns, &a);
      break;
    case EventKind::kNack:
      if (e.ev != 0) spray::OnFeedback(cfg.spray, &s->spray, e.ev, spray::Feedback::kNack, 0, now_ns);
      break;
    case EventKind::kTimeout:
      if (e.ev != 0) spray::OnFeedback(cfg.spray, &s->spray, e.ev, spray::Feedback::kTimeout, 0, now_ns);
      break;
    case EventKind::kCnp:
      a = detail::OnCnp(cfg, s, now_ns);
      break;
    case EventKind::kTimer:
      if (cfg.cc == CcKind::kDcqcn) a = dcqcn::RpOnTimer(cfg.dcqcn, &s->cc.dcqcn, now_ns);
      break;
    case EventKind::kRxData:
      a = dcqcn::NpOnPacket(cfg.dcqcn, &s->np, e.ecn != 0, now_ns);
      break;
  }
  *out = a;
  return st;
}

template <class Backend, uint32_t kCapacity>
class Driver {
  static_assert(kCapacity >= 1 && kCapacity < kNoFlow, "capacity must fit a FlowId");

 public:
  static constexpr uint32_t kFlowCapacity = kCapacity;

  // Binds the driver to a compiled config and a backend; empties the table.
  // Both must outlive the driver.
  void Init(const DriverConfig* cfg, Backend* backend) {
    cfg_ = cfg;
    backend_ = backend;
    for (uint32_t i = 0; i < kCapacity; ++i) {
      slots_[i].in_use = 0;
      free_[i] = static_cast<FlowId>(kCapacity - 1 - i);
    }
    free_top_ = kCapacity;
  }

  // Takes a slot for a new flow. `seed` seeds its spray PRNG; `start_seq`
  // is the flow's first sequence number (HPCC's first update point).
  Status Open(uint32_t key, uint32_t seed, FlowId* out, uint32_t start_seq = 0) {
    if (free_top_ == 0) return Status::Error(StatusCode::kFull, "flow table");
    const FlowId id = free_[--free_top_];
    SlotInit(*cfg_, &slots_[id], key, seed, start_seq);
    *out = id;
    return Status::Ok();
  }

  Status Close(FlowId id) {
    if (!Valid(id)) return Status::Error(StatusCode::kNotFound, "flow");
    slots_[id].in_use = 0;
    free_[free_top_++] = id;
    return Status::Ok();
  }

  // Slow path: finds an open flow by the backend's key (scans the table).
  Status Find(uint32_t key, FlowId* out) const {
    for (uint32_t i = 0; i < kCapacity; ++i) {
      if (slots_[i].in_use && slots_[i].key == key) {
        *out = static_cast<FlowId>(i);
        return Status::Ok();
      }
    }
    return Status::Error(StatusCode::kNotFound, "flow key");
  }

  // The UDP source port for the flow's next packet (the spray policy's
  // choice). Returns 0 for an unknown flow.
  uint16_t SelectEv(FlowId id, TimeNs now_ns) {
    return Valid(id) ? SlotSelectEv(*cfg_, &slots_[id], now_ns) : 0;
  }

  // Dispatches one event. The resulting action, if it asks for anything, is
  // handed to the backend before this returns. Returns kNotFound for an
  // unknown flow and the INT decoder's status for a malformed INT stack (the
  // flow's state is then unchanged).
  Status Deliver(FlowId id, const Event& e, TimeNs now_ns) {
    if (!Valid(id)) return Status::Error(StatusCode::kNotFound, "flow");
    Action a;
    const Status st = SlotDispatch(*cfg_, &slots_[id], e, now_ns, &a);
    if (a.flags != 0) backend_->Apply(id, a);
    return st;
  }

  // The rate the flow should be paced at now (kb/s); 0 for an unknown flow.
  uint32_t RateKbps(FlowId id) const { return Valid(id) ? SlotRateKbps(*cfg_, slots_[id]) : 0; }

  // The flow's window in bytes; 0 = no window (rate-based CC or none).
  uint32_t WindowBytes(FlowId id) const { return Valid(id) ? SlotWindowBytes(*cfg_, slots_[id]) : 0; }

  // Open flows.
  uint32_t size() const { return kCapacity - free_top_; }
  bool Valid(FlowId id) const { return id < kCapacity && slots_[id].in_use; }
  const FlowSlot& slot(FlowId id) const { return slots_[id]; }
  const DriverConfig& config() const { return *cfg_; }

 private:
  const DriverConfig* cfg_ = nullptr;
  Backend* backend_ = nullptr;
  uint32_t free_top_ = 0;  // free_[0 .. free_top_) are the free slots
  FlowId free_[kCapacity];
  FlowSlot slots_[kCapacity];
};

}  // namespace hal
}  // namespace nicc

#endif  // NICC_HAL_DRIVER_H_
