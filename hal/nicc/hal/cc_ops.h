// nicc/hal/cc_ops.h — the per-flow CC state a sender slot can hold and what
// each can do (CcOps<State>: Serves, Init, OnTx, OnAck, OnNack, ...), one
// specialisation per engine, plus AnyCcState for a CC chosen at run time
// (the config's) and FlowCcState for a CC chosen per flow (at open).
// driver.h composes slots from these.
#ifndef NICC_HAL_CC_OPS_H_
#define NICC_HAL_CC_OPS_H_

#include "nicc/common.h"
#include "nicc/dcqcn.h"
#include "nicc/hal/driver_config.h"
#include "nicc/hal/event.h"
#include "nicc/hpcc.h"
#include "nicc/hpcc_spray.h"
#include "nicc/int_codec.h"
#include "nicc/nscc.h"
#include "nicc/rccc.h"

namespace nicc {
namespace hal {

// ---------------------------------------------------------------------------
// Per-flow state: a sender slot composed from the algorithms a user
// configures, and a receiver slot. Each is a plain struct with its size
// asserted; a driver keeps one table of each.
// ---------------------------------------------------------------------------

// The CC state of a sender that runs no congestion control (cc = none):
// never read or written (the C ABI gives it no bytes at all).
struct NoCcState {
  uint8_t unused;
};

// Any CC's state, for a slot whose CC is chosen at run time (DriverConfig::cc).
union AnyCcState {
  NoCcState none;
  dcqcn::RpState dcqcn;
  hpcc::State hpcc;
  nscc::State nscc;
  hpcc_spray::State hpcc_spray;
  rccc::SenderState nscc_rccc;
};

// What a sender slot's CC state can do: one specialisation per state type.
// Serves(cc): whether the state can run that CC. kReactsToMarks: the CC
// reacts to congestion marks (CNPs), so the slot keeps the ECN path rule's
// state (ecn_path.h) to decide between a path change and the CC's cut.
template <class C>
struct CcOps;

template <>
struct CcOps<NoCcState> {
  static constexpr bool kReactsToMarks = false;
  static constexpr bool Serves(CcKind k) { return k == CcKind::kNone; }
  static void Init(const DriverConfig&, NoCcState*, uint32_t) {}  // no state to touch
  static Action OnTx(const DriverConfig&, NoCcState*, uint32_t, TimeNs) { return Action::None(); }
  static Status OnAck(const DriverConfig&, NoCcState*, const Event&, TimeNs, Action*) {
    return Status::Ok();
  }
  static Action OnNack(const DriverConfig&, NoCcState*, const Event&, TimeNs) { return Action::None(); }
  static bool TakesCnp(const DriverConfig&) { return false; }
  static Action OnCnp(const DriverConfig&, NoCcState*, TimeNs) { return Action::None(); }
  static Action OnTimer(const DriverConfig&, NoCcState*, TimeNs) { return Action::None(); }
  static uint32_t RateKbps(const DriverConfig& cfg, const NoCcState&) { return cfg.line_rate_kbps; }
  static uint32_t WindowBytes(const DriverConfig&, const NoCcState&) { return 0; }
};

template <>
struct CcOps<dcqcn::RpState> {
  static constexpr bool kReactsToMarks = true;
  static constexpr bool Serves(CcKind k) { return k == CcKind::kDcqcn; }
  static void Init(const DriverConfig& cfg, dcqcn::RpState* s, uint32_t) { dcqcn::RpInit(cfg.dcqcn, s); }
  static Action OnTx(const DriverConfig& cfg, dcqcn::RpState* s, uint32_t bytes, TimeNs now_ns) {
    return dcqcn::RpOnTxBytes(cfg.dcqcn, s, bytes, now_ns);
  }
  static Status OnAck(const DriverConfig&, dcqcn::RpState*, const Event&, TimeNs, Action*) {
    return Status::Ok();
  }
  static Action OnNack(const DriverConfig&, dcqcn::RpState*, const Event&, TimeNs) { return Action::None(); }
  static bool TakesCnp(const DriverConfig&) { return true; }
  static Action OnCnp(const DriverConfig& cfg, dcqcn::RpState* s, TimeNs now_ns) {
    return dcqcn::RpOnCnp(cfg.dcqcn, s, now_ns);
  }
  static Action OnTimer(const DriverConfig& cfg, dcqcn::RpState* s, TimeNs now_ns) {
    return dcqcn::RpOnTimer(cfg.dcqcn, s, now_ns);
  }
  static uint32_t RateKbps(const DriverConfig& cfg, const dcqcn::RpState& s) {
    return dcqcn::RpRateKbps(cfg.dcqcn, s);
  }
  static uint32_t WindowBytes(const DriverConfig&, const dcqcn::RpState&) { return 0; }
};

template <>
struct CcOps<hpcc::State> {
  static constexpr bool kReactsToMarks = false;
  static constexpr bool Serves(CcKind k) { return k == CcKind::kHpcc || k == CcKind::kHpccPint; }
  static void Init(const DriverConfig& cfg, hpcc::State* s, uint32_t start_seq) {
    hpcc::Init(cfg.hpcc, s, start_seq);
  }
  static Action OnTx(const DriverConfig&, hpcc::State*, uint32_t, TimeNs) { return Action::None(); }
  // The INT stack arrives decoded (event.h): no decode here. `k`: the
  // flow's kind (HPCC reads the INT stack, HPCC-PINT the PINT code).
  static Status OnAckAs(CcKind k, const DriverConfig& cfg, hpcc::State* s, const Event& e, TimeNs now_ns,
                        Action* a) {
    if (k == CcKind::kHpcc && e.int_stack != nullptr) {
      *a = hpcc::OnAck(cfg.hpcc, s, e.seq, e.snd_nxt, *e.int_stack, now_ns);
    } else if (k == CcKind::kHpccPint && e.has_pint) {
      *a = hpcc::OnPintAck(cfg.hpcc, s, e.seq, e.snd_nxt, e.pint_code, now_ns);
    }
    return Status::Ok();
  }
  static Status OnAck(const DriverConfig& cfg, hpcc::State* s, const Event& e, TimeNs now_ns, Action* a) {
    return OnAckAs(cfg.cc, cfg, s, e, now_ns, a);
  }
  static Action OnNack(const DriverConfig&, hpcc::State*, const Event&, TimeNs) { return Action::None(); }
  static bool TakesCnp(const DriverConfig&) { return false; }
  static Action OnCnp(const DriverConfig&, hpcc::State*, TimeNs) { return Action::None(); }
  static Action OnTimer(const DriverConfig&, hpcc::State*, TimeNs) { return Action::None(); }
  static uint32_t RateKbps(const DriverConfig& cfg, const hpcc::State& s) {
    return hpcc::RateKbps(cfg.hpcc, s);
  }
  static uint32_t WindowBytes(const DriverConfig&, const hpcc::State& s) { return hpcc::WindowBytes(s); }
};

// NSCC reads the ECN echo and RTT of every ACK itself (no CNPs, so no ECN
// path rule state): a mark at low delay comes back as kActChangeEv, and the
// dispatch's spray feedback (kEcn for a marked ACK) moves the path.
template <>
struct CcOps<nscc::State> {
  static constexpr bool kReactsToMarks = false;
  static constexpr bool Serves(CcKind k) { return k == CcKind::kNscc; }
  static void Init(const DriverConfig& cfg, nscc::State* s, uint32_t) { nscc::Init(cfg.nscc, s); }
  static Action OnTx(const DriverConfig&, nscc::State*, uint32_t, TimeNs) { return Action::None(); }
  static Status OnAck(const DriverConfig& cfg, nscc::State* s, const Event& e, TimeNs now_ns, Action* a) {
    *a = nscc::OnAck(cfg.nscc, s, e.seq, e.snd_nxt, e.bytes, e.ecn != 0, e.ev, e.rtt_ns, now_ns);
    return Status::Ok();
  }
  static Action OnNack(const DriverConfig& cfg, nscc::State* s, const Event& e, TimeNs now_ns) {
    return nscc::OnNack(cfg.nscc, s, e.bytes, e.snd_nxt, now_ns);
  }
  static bool TakesCnp(const DriverConfig&) { return false; }
  static Action OnCnp(const DriverConfig&, nscc::State*, TimeNs) { return Action::None(); }
  static Action OnTimer(const DriverConfig&, nscc::State*, TimeNs) { return Action::None(); }
  static uint32_t RateKbps(const DriverConfig& cfg, const nscc::State& s) { return nscc::RateKbps(cfg.nscc, s); }
  static uint32_t WindowBytes(const DriverConfig&, const nscc::State& s) { return nscc::WindowBytes(s); }
};

// Sprayed HPCC: every ACK's INT stack with the entropy value it came back
// on (Event::ev) feeds that path's history (hpcc_spray.h); HPCC's
// parameters and compiled config. No CNPs, no NACK reaction (as HPCC).
template <>
struct CcOps<hpcc_spray::State> {
  static constexpr bool kReactsToMarks = false;
  static constexpr bool Serves(CcKind k) { return k == CcKind::kHpccSpray; }
  static void Init(const DriverConfig& cfg, hpcc_spray::State* s, uint32_t start_seq) {
    hpcc_spray::Init(cfg.hpcc, s, start_seq);
  }
  static Action OnTx(const DriverConfig&, hpcc_spray::State*, uint32_t, TimeNs) { return Action::None(); }
  // The INT stack arrives decoded (event.h): no decode here.
  static Status OnAck(const DriverConfig& cfg, hpcc_spray::State* s, const Event& e, TimeNs now_ns, Action* a) {
    if (e.int_stack != nullptr) *a = hpcc_spray::OnAck(cfg.hpcc, s, e.seq, e.snd_nxt, e.ev, *e.int_stack, now_ns);
    return Status::Ok();
  }
  static Action OnNack(const DriverConfig&, hpcc_spray::State*, const Event&, TimeNs) { return Action::None(); }
  static bool TakesCnp(const DriverConfig&) { return false; }
  static Action OnCnp(const DriverConfig&, hpcc_spray::State*, TimeNs) { return Action::None(); }
  static Action OnTimer(const DriverConfig&, hpcc_spray::State*, TimeNs) { return Action::None(); }
  static uint32_t RateKbps(const DriverConfig& cfg, const hpcc_spray::State& s) {
    return hpcc_spray::RateKbps(cfg.hpcc, s);
  }
  static uint32_t WindowBytes(const DriverConfig&, const hpcc_spray::State& s) {
    return hpcc_spray::WindowBytes(s);
  }
};

// NSCC + RCCC (cc = nscc+rccc): NSCC's update, then the window bounded by
// the credit the ACK carries (Event::credit); set_window on every ACK.
template <>
struct CcOps<rccc::SenderState> {
  static constexpr bool kReactsToMarks = false;
  static constexpr bool Serves(CcKind k) { return k == CcKind::kNsccRccc; }
  static void Init(const DriverConfig& cfg, rccc::SenderState* s, uint32_t start_seq) {
    rccc::SenderInit(cfg.nscc, cfg.rccc, s, start_seq);
  }
  static Action OnTx(const DriverConfig&, rccc::SenderState*, uint32_t, TimeNs) { return Action::None(); }
  static Status OnAck(const DriverConfig& cfg, rccc::SenderState* s, const Event& e, TimeNs now_ns, Action* a) {
    *a = rccc::SenderOnAck(cfg.nscc, s, e.seq, e.snd_nxt, e.bytes, e.ecn != 0, e.ev, e.rtt_ns, e.credit, now_ns);
    return Status::Ok();
  }
  static Action OnNack(const DriverConfig& cfg, rccc::SenderState* s, const Event& e, TimeNs now_ns) {
    return rccc::SenderOnNack(cfg.nscc, s, e.bytes, e.snd_nxt, now_ns);
  }
  static bool TakesCnp(const DriverConfig&) { return false; }
  static Action OnCnp(const DriverConfig&, rccc::SenderState*, TimeNs) { return Action::None(); }
  static Action OnTimer(const DriverConfig&, rccc::SenderState*, TimeNs) { return Action::None(); }
  static uint32_t RateKbps(const DriverConfig& cfg, const rccc::SenderState& s) {
    return nscc::RateKbps(cfg.nscc, s.nscc);
  }
  static uint32_t WindowBytes(const DriverConfig&, const rccc::SenderState& s) { return rccc::SenderWindowBytes(s); }
};

// Whether a CC kind reacts to CNPs (DCQCN's notification point serves its
// flows only): the one place the sender's and the receiver's side ask.
constexpr bool KindTakesCnp(CcKind k) { return k == CcKind::kDcqcn; }

// Whether a CC kind bounds bytes in flight (set_window): for these a window
// of 0 is a closed window (RCCC without credit), not "no window", which is
// what WindowBytes() returns for the rate-based kinds.
constexpr bool KindHasWindow(CcKind k) {
  return k == CcKind::kHpcc || k == CcKind::kHpccPint || k == CcKind::kNscc || k == CcKind::kHpccSpray ||
         k == CcKind::kNsccRccc;
}

// Run-time choice: each operation has an `...As(kind, ...)` form that
// switches on the kind it is given; the plain form uses cfg.cc (the C ABI's
// view of a CC area sized for the configured CC only, ports/firmware: a
// member is touched only when cfg.cc selects it). FlowCcState (below)
// passes its own kind instead.
template <>
struct CcOps<AnyCcState> {
  static constexpr bool kReactsToMarks = true;
  static constexpr bool Serves(CcKind) { return true; }
  static void InitAs(CcKind k, const DriverConfig& cfg, AnyCcState* s, uint32_t start_seq) {
    switch (k) {
      case CcKind::kDcqcn: CcOps<dcqcn::RpState>::Init(cfg, &s->dcqcn, start_seq); return;
      case CcKind::kHpcc:
      case CcKind::kHpccPint: CcOps<hpcc::State>::Init(cfg, &s->hpcc, start_seq); return;
      case CcKind::kNscc: CcOps<nscc::State>::Init(cfg, &s->nscc, start_seq); return;
      case CcKind::kHpccSpray: CcOps<hpcc_spray::State>::Init(cfg, &s->hpcc_spray, start_seq); return;
      case CcKind::kNsccRccc: CcOps<rccc::SenderState>::Init(cfg, &s->nscc_rccc, start_seq); return;
      case CcKind::kNone: CcOps<NoCcState>::Init(cfg, &s->none, start_seq); return;
    }
  }
  static Action OnTxAs(CcKind k, const DriverConfig& cfg, AnyCcState* s, uint32_t bytes, TimeNs now_ns) {
    if (k == CcKind::kDcqcn) return CcOps<dcqcn::RpState>::OnTx(cfg, &s->dcqcn, bytes, now_ns);
    return Action::None();
  }
  static Status OnAckAs(CcKind k, const DriverConfig& cfg, AnyCcState* s, const Event& e, TimeNs now_ns,
                        Action* a) {
    if (k == CcKind::kHpcc || k == CcKind::kHpccPint)
      return CcOps<hpcc::State>::OnAckAs(k, cfg, &s->hpcc, e, now_ns, a);
    if (k == CcKind::kNscc) return CcOps<nscc::State>::OnAck(cfg, &s->nscc, e, now_ns, a);
    if (k == CcKind::kHpccSpray) return CcOps<hpcc_spray::State>::OnAck(cfg, &s->hpcc_spray, e, now_ns, a);
    if (k == CcKind::kNsccRccc) return CcOps<rccc::SenderState>::OnAck(cfg, &s->nscc_rccc, e, now_ns, a);
    return Status::Ok();
  }
  static Action OnNackAs(CcKind k, const DriverConfig& cfg, AnyCcState* s, const Event& e, TimeNs now_ns) {
    if (k == CcKind::kNscc) return CcOps<nscc::State>::OnNack(cfg, &s->nscc, e, now_ns);
    if (k == CcKind::kNsccRccc) return CcOps<rccc::SenderState>::OnNack(cfg, &s->nscc_rccc, e, now_ns);
    return Action::None();
  }
  static Action OnCnpAs(CcKind k, const DriverConfig& cfg, AnyCcState* s, TimeNs now_ns) {
    return k == CcKind::kDcqcn ? CcOps<dcqcn::RpState>::OnCnp(cfg, &s->dcqcn, now_ns) : Action::None();
  }
  static Action OnTimerAs(CcKind k, const DriverConfig& cfg, AnyCcState* s, TimeNs now_ns) {
    return k == CcKind::kDcqcn ? CcOps<dcqcn::RpState>::OnTimer(cfg, &s->dcqcn, now_ns) : Action::None();
  }
  static uint32_t RateKbpsAs(CcKind k, const DriverConfig& cfg, const AnyCcState& s) {
    switch (k) {
      case CcKind::kDcqcn: return CcOps<dcqcn::RpState>::RateKbps(cfg, s.dcqcn);
      case CcKind::kHpcc:
      case CcKind::kHpccPint: return CcOps<hpcc::State>::RateKbps(cfg, s.hpcc);
      case CcKind::kNscc: return CcOps<nscc::State>::RateKbps(cfg, s.nscc);
      case CcKind::kHpccSpray: return CcOps<hpcc_spray::State>::RateKbps(cfg, s.hpcc_spray);
      case CcKind::kNsccRccc: return CcOps<rccc::SenderState>::RateKbps(cfg, s.nscc_rccc);
      case CcKind::kNone: break;
    }
    return CcOps<NoCcState>::RateKbps(cfg, s.none);
  }
  static uint32_t WindowBytesAs(CcKind k, const AnyCcState& s) {
    if (k == CcKind::kHpcc || k == CcKind::kHpccPint) return hpcc::WindowBytes(s.hpcc);
    if (k == CcKind::kNscc) return nscc::WindowBytes(s.nscc);
    if (k == CcKind::kHpccSpray) return hpcc_spray::WindowBytes(s.hpcc_spray);
    if (k == CcKind::kNsccRccc) return rccc::SenderWindowBytes(s.nscc_rccc);
    return 0;
  }

  static void Init(const DriverConfig& cfg, AnyCcState* s, uint32_t start_seq) {
    InitAs(cfg.cc, cfg, s, start_seq);
  }
  static Action OnTx(const DriverConfig& cfg, AnyCcState* s, uint32_t bytes, TimeNs now_ns) {
    return OnTxAs(cfg.cc, cfg, s, bytes, now_ns);
  }
  static Status OnAck(const DriverConfig& cfg, AnyCcState* s, const Event& e, TimeNs now_ns, Action* a) {
    return OnAckAs(cfg.cc, cfg, s, e, now_ns, a);
  }
  static Action OnNack(const DriverConfig& cfg, AnyCcState* s, const Event& e, TimeNs now_ns) {
    return OnNackAs(cfg.cc, cfg, s, e, now_ns);
  }
  static bool TakesCnp(const DriverConfig& cfg) { return KindTakesCnp(cfg.cc); }
  static Action OnCnp(const DriverConfig& cfg, AnyCcState* s, TimeNs now_ns) {
    return OnCnpAs(cfg.cc, cfg, s, now_ns);
  }
  static Action OnTimer(const DriverConfig& cfg, AnyCcState* s, TimeNs now_ns) {
    return OnTimerAs(cfg.cc, cfg, s, now_ns);
  }
  static uint32_t RateKbps(const DriverConfig& cfg, const AnyCcState& s) { return RateKbpsAs(cfg.cc, cfg, s); }
  static uint32_t WindowBytes(const DriverConfig& cfg, const AnyCcState& s) { return WindowBytesAs(cfg.cc, s); }
};

// Any CC's state and the kind this flow runs, chosen when the flow opens
// (Driver::OpenTx(..., cc)): one driver, one DriverConfig with every
// algorithm compiled, and a CC per flow. cfg.cc is only the default kind.
// The kind must be set before Init (Driver::OpenTx does).
struct FlowCcState {
  AnyCcState any;
  CcKind kind;
};

template <>
struct CcOps<FlowCcState> {
  using Any = CcOps<AnyCcState>;
  static constexpr bool kReactsToMarks = true;
  static constexpr bool kPerFlowKind = true;
  static constexpr bool Serves(CcKind) { return true; }
  static void Init(const DriverConfig& cfg, FlowCcState* s, uint32_t start_seq) {
    Any::InitAs(s->kind, cfg, &s->any, start_seq);
  }
  static Action OnTx(const DriverConfig& cfg, FlowCcState* s, uint32_t bytes, TimeNs now_ns) {
    return Any::OnTxAs(s->kind, cfg, &s->any, bytes, now_ns);
  }
  static Status OnAck(const DriverConfig& cfg, FlowCcState* s, const Event& e, TimeNs now_ns, Action* a) {
    return Any::OnAckAs(s->kind, cfg, &s->any, e, now_ns, a);
  }
  static Action OnNack(const DriverConfig& cfg, FlowCcState* s, const Event& e, TimeNs now_ns) {
    return Any::OnNackAs(s->kind, cfg, &s->any, e, now_ns);
  }
  // The per-flow answer is TakesCnpOf (below): this one is the config's.
  static bool TakesCnp(const DriverConfig& cfg) { return KindTakesCnp(cfg.cc); }
  static Action OnCnp(const DriverConfig& cfg, FlowCcState* s, TimeNs now_ns) {
    return Any::OnCnpAs(s->kind, cfg, &s->any, now_ns);
  }
  static Action OnTimer(const DriverConfig& cfg, FlowCcState* s, TimeNs now_ns) {
    return Any::OnTimerAs(s->kind, cfg, &s->any, now_ns);
  }
  static uint32_t RateKbps(const DriverConfig& cfg, const FlowCcState& s) {
    return Any::RateKbpsAs(s.kind, cfg, s.any);
  }
  static uint32_t WindowBytes(const DriverConfig&, const FlowCcState& s) { return Any::WindowBytesAs(s.kind, s.any); }
};

// Per flow: the kind a sender's state runs (its own for FlowCcState, the
// config's for every other state type), whether it takes CNPs, whether a
// state type can run a kind (a typed state dispatches on cfg.cc, so only
// that one) and setting the kind at open.
template <class C>
constexpr CcKind FlowKindOf(const DriverConfig& cfg, const C&) {
  return cfg.cc;
}
constexpr CcKind FlowKindOf(const DriverConfig&, const FlowCcState& s) { return s.kind; }
template <class C>
constexpr bool TakesCnpOf(const DriverConfig& cfg, const C& s) {
  return KindTakesCnp(FlowKindOf(cfg, s));
}
template <class C>
constexpr bool RunsKind(const DriverConfig& cfg, CcKind k) {
  return k == cfg.cc && CcOps<C>::Serves(k);
}
template <>
constexpr bool RunsKind<FlowCcState>(const DriverConfig&, CcKind k) {
  return static_cast<uint32_t>(k) < kCcKindCount;
}
template <class C>
inline void SetFlowKind(C*, CcKind) {}  // typed state: the config's kind
inline void SetFlowKind(FlowCcState* s, CcKind k) { s->kind = k; }

}  // namespace hal
}  // namespace nicc

#endif  // NICC_HAL_CC_OPS_H_
