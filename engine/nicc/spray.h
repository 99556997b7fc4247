// nicc/spray.h — spray path selection: which entropy value (EV) each packet
// of a flow carries, learned from per-EV feedback. Caller-owned state per
// flow, integers only.
//
// An EV is the RoCEv2 UDP source port; switches hash it with ECMP, so a new
// EV is (likely) a new path. A flow sprays over 2^k EVs (k = ev_bits <= 8),
// indices 0..2^k-1, whose ports are `port_base ^ index` (see EvPort()).
// Policies, chosen per flow by its Config:
//   ecmp    one fixed EV (index 0, the flow's own port)
//   ops     oblivious spraying: every EV once per round, new order per round
//   bitmap  ops, skipping EVs that carry a penalty (ECN +1, NACK +4,
//           timeout = 15): a penalised candidate's turn goes to the next
//           clean EV in index order, its penalty decays by one
//   reps    recycled entropy: reuse EVs whose ACK came back clean, explore at
//           random when none is cached, freeze on a timeout
//   plb     one EV; repath after N consecutive congested rounds (PLB)
//   dlb     least-congested EV by per-EV EWMA of marks and RTT, hysteresis
// docs/spray.md states every rule, the state layouts and the PRNG exactly.
//
// Layout: nicc/spray/common.h (constants, Params, Config, EV helpers) at the
// bottom, one header per policy above it (nicc/spray/ecmp.h ... dlb.h), and
// this header, the dispatch over all of them, on top.
//
//   nicc::spray::Config cfg;
//   auto p = nicc::spray::Params::Defaults(nicc::spray::Policy::kReps,
//                                          /*ev_bits=*/4, flow_label);
//   if (!nicc::spray::Compile(p, &cfg).ok()) ...;
//   nicc::spray::SprayState st;                 // caller-owned, per flow
//   nicc::spray::Init(cfg, &st, /*seed=*/qpn);
//   nicc::Action a = nicc::spray::Select(cfg, &st, now_ns);
//   send_with_udp_sport(a.ev);                  // a.Has(kActUseEv)
//   ... ACK for a packet sent on port ev comes back ECN-marked:
//   nicc::spray::OnFeedback(cfg, &st, ev, nicc::spray::Feedback::kEcn,
//                           rtt_ns, now_ns);
//
// Units: *_us in Params, *_ns in Config and state (wrapping 32-bit clock,
// see common.h); rtt_ns 0 means "no RTT sample".
#ifndef NICC_SPRAY_H_
#define NICC_SPRAY_H_

#include "nicc/spray/bitmap.h"
#include "nicc/spray/common.h"
#include "nicc/spray/dlb.h"
#include "nicc/spray/ecmp.h"
#include "nicc/spray/ops.h"
#include "nicc/spray/plb.h"
#include "nicc/spray/reps.h"

namespace nicc {
namespace spray {

// Any policy's state. The policy lives in the Config: a state must be
// initialised by Init() with, and then used with, the same Config.
union SprayState {
  EcmpState ecmp;
  OpsState ops;
  BitmapState bitmap;
  RepsState reps;
  PlbState plb;
  DlbState dlb;
};
static_assert(sizeof(SprayState) <= 64, "spray state: the largest policy (dlb)");

// ---------------------------------------------------------------------------
// Entry points. Select() returns an Action with kActUseEv and ev = the UDP
// source port for the next packet; OnFeedback() takes that port back with
// what happened to the packet.
// ---------------------------------------------------------------------------

inline void Init(const Config& cfg, SprayState* s, uint32_t seed);
inline Action Select(const Config& cfg, SprayState* s, TimeNs now_ns);
inline void OnFeedback(const Config& cfg, SprayState* s, uint16_t ev_port, Feedback kind,
                       uint32_t rtt_ns, TimeNs now_ns);

// --- dispatch ---------------------------------------------------------------


// The Action of a selection: kActUseEv with ev = port.
inline Action UseEv(uint16_t port) {
  Action a = Action::None();
  a.flags = kActUseEv;
  a.ev = port;
  return a;
}


inline void Init(const Config& cfg, SprayState* s, uint32_t seed) {
  switch (cfg.policy) {
    case Policy::kEcmp:
      EcmpInit(cfg, &s->ecmp);
      return;
    case Policy::kOps:
      OpsInit(cfg, &s->ops, seed);
      return;
    case Policy::kBitmap:
      BitmapInit(cfg, &s->bitmap, seed);
      return;
    case Policy::kReps:
      RepsInit(cfg, &s->reps, seed);
      return;
    case Policy::kPlb:
      PlbInit(cfg, &s->plb, seed);
      return;
    case Policy::kDlb:
      DlbInit(cfg, &s->dlb, seed);
      return;
  }
}

namespace detail {

// Bitmap's selection as an Action, out of line: Select() reaches it by a
// tail call, so none of Select()'s paths needs a stack frame for the call
// bitmap's skip makes.
NICC_SPRAY_OUT_OF_LINE inline Action BitmapSelectAction(const Config& cfg, BitmapState* s) {
  return UseEv(BitmapSelect(cfg, s));
}

}  // namespace detail

// Each case returns on its own: no register has to carry the Config across
// a policy's out-of-line call to a shared exit.
inline Action Select(const Config& cfg, SprayState* s, TimeNs now_ns) {
  switch (cfg.policy) {
    case Policy::kEcmp:
      return UseEv(EcmpSelect(cfg, &s->ecmp));
    case Policy::kOps:
      return UseEv(OpsSelect(cfg, &s->ops));
    case Policy::kBitmap:
      return detail::BitmapSelectAction(cfg, &s->bitmap);  // a tail call
    case Policy::kReps:
      return UseEv(RepsSelect(cfg, &s->reps, now_ns));
    case Policy::kPlb:
      return UseEv(PlbSelect(cfg, &s->plb));
    case Policy::kDlb:
      return UseEv(DlbSelect(cfg, &s->dlb));
  }
  return UseEv(cfg.port_base);  // not a policy (a Config not made by Compile)
}

inline void OnFeedback(const Config& cfg, SprayState* s, uint16_t ev_port, Feedback kind,
                       uint32_t rtt_ns, TimeNs now_ns) {
  switch (cfg.policy) {
    case Policy::kEcmp:
    case Policy::kOps:
      return;  // oblivious
    case Policy::kBitmap:
      BitmapOnFeedback(cfg, &s->bitmap, ev_port, kind);
      return;
    case Policy::kReps:
      RepsOnFeedback(cfg, &s->reps, ev_port, kind, now_ns);
      return;
    case Policy::kPlb:
      // PLB keys its rounds on feedback, not on the port; a port outside the
      // flow's EVs is not the flow's feedback and is dropped, as for the
      // other policies.
      if (EvIndex(cfg, ev_port) < 0) return;
      PlbOnFeedback(cfg, &s->plb, kind, now_ns);
      return;
    case Policy::kDlb:
      DlbOnFeedback(cfg, &s->dlb, ev_port, kind, rtt_ns);
      return;
  }
}

// --- typed entry points -----------------------------------------------------
// The same three calls on one policy's own state, for a flow slot that holds
// only that struct (hal::SenderSlot<Cc, EcmpState> ...). The Config's policy
// must be the one the struct serves (Serves() below; the HAL checks it when a
// driver is bound to a config).

template <class S>
struct PolicyOf;  // Serves(policy): whether state S can run that policy
template <>
struct PolicyOf<EcmpState> {
  static constexpr bool Serves(Policy p) { return p == Policy::kEcmp; }
};
template <>
struct PolicyOf<OpsState> {
  static constexpr bool Serves(Policy p) { return p == Policy::kOps; }
};
template <>
struct PolicyOf<BitmapState> {
  static constexpr bool Serves(Policy p) { return p == Policy::kBitmap; }
};
template <>
struct PolicyOf<RepsState> {
  static constexpr bool Serves(Policy p) { return p == Policy::kReps; }
};
template <>
struct PolicyOf<PlbState> {
  static constexpr bool Serves(Policy p) { return p == Policy::kPlb; }
};
template <>
struct PolicyOf<DlbState> {
  static constexpr bool Serves(Policy p) { return p == Policy::kDlb; }
};
template <>
struct PolicyOf<SprayState> {
  static constexpr bool Serves(Policy) { return true; }
};

inline void Init(const Config& cfg, EcmpState* s, uint32_t) { EcmpInit(cfg, s); }
inline void Init(const Config& cfg, OpsState* s, uint32_t seed) { OpsInit(cfg, s, seed); }
inline void Init(const Config& cfg, BitmapState* s, uint32_t seed) { BitmapInit(cfg, s, seed); }
inline void Init(const Config& cfg, RepsState* s, uint32_t seed) { RepsInit(cfg, s, seed); }
inline void Init(const Config& cfg, PlbState* s, uint32_t seed) { PlbInit(cfg, s, seed); }
inline void Init(const Config& cfg, DlbState* s, uint32_t seed) { DlbInit(cfg, s, seed); }

inline Action Select(const Config& cfg, EcmpState* s, TimeNs) { return UseEv(EcmpSelect(cfg, s)); }
inline Action Select(const Config& cfg, OpsState* s, TimeNs) { return UseEv(OpsSelect(cfg, s)); }
inline Action Select(const Config& cfg, BitmapState* s, TimeNs) { return UseEv(BitmapSelect(cfg, s)); }
inline Action Select(const Config& cfg, RepsState* s, TimeNs now_ns) {
  return UseEv(RepsSelect(cfg, s, now_ns));
}
inline Action Select(const Config& cfg, PlbState* s, TimeNs) { return UseEv(PlbSelect(cfg, s)); }
inline Action Select(const Config& cfg, DlbState* s, TimeNs) { return UseEv(DlbSelect(cfg, s)); }

inline void OnFeedback(const Config&, EcmpState*, uint16_t, Feedback, uint32_t, TimeNs) {}
inline void OnFeedback(const Config&, OpsState*, uint16_t, Feedback, uint32_t, TimeNs) {}
inline void OnFeedback(const Config& cfg, BitmapState* s, uint16_t ev_port, Feedback kind, uint32_t,
                       TimeNs) {
  BitmapOnFeedback(cfg, s, ev_port, kind);
}
inline void OnFeedback(const Config& cfg, RepsState* s, uint16_t ev_port, Feedback kind, uint32_t,
                       TimeNs now_ns) {
  RepsOnFeedback(cfg, s, ev_port, kind, now_ns);
}
inline void OnFeedback(const Config& cfg, PlbState* s, uint16_t ev_port, Feedback kind, uint32_t,
                       TimeNs now_ns) {
  if (EvIndex(cfg, ev_port) < 0) return;  // as the dispatcher: not this flow's feedback
  PlbOnFeedback(cfg, s, kind, now_ns);
}
inline void OnFeedback(const Config& cfg, DlbState* s, uint16_t ev_port, Feedback kind,
                       uint32_t rtt_ns, TimeNs) {
  DlbOnFeedback(cfg, s, ev_port, kind, rtt_ns);
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_H_
