// nicc/hal/driver.h — the generic driver every backend runs: a sender and a
// receiver flow table of fixed capacity, and the dispatch of events to the
// configured congestion control (none, DCQCN, HPCC, HPCC-PINT, NSCC,
// sprayed HPCC, NSCC + RCCC), spray policy
// and ECN path rule.
//
// The backend is a compile-time parameter (a facade, as in Pigweed): the
// driver calls `backend->Apply(flow, action)` (senders) and
// `backend->ApplyRx(flow, action)` (receivers) directly, with no virtual
// call, so firmware pays nothing for the abstraction. What a backend must
// provide is listed in backend.h.
//
// A sender slot is composed from the algorithms a user configures: its CC's
// state and its spray policy's state (SenderSlot<Cc, Spray>), so a DCQCN +
// ECMP flow costs 48 B, an HPCC + REPS flow 96 B and a sprayed-HPCC + REPS
// flow 192 B; AnySenderSlot holds any
// CC and policy chosen at run time, the CC per flow (OpenTx's `cc`, default
// the config's). A receiver slot (DCQCN's notification point or RCCC's flow
// state, the sender's CC kind and the key) costs 24 B; the driver keeps one
// RCCC port state (the port it serves). The tables are separate, each with
// its own capacity.
//
//   struct MyNic {
//     void Apply(nicc::hal::FlowId f, const nicc::Action& a);    // sender
//     void ApplyRx(nicc::hal::FlowId f, const nicc::Action& a);  // receiver (CNP)
//   };
//   using Tx = nicc::hal::SenderSlot<nicc::dcqcn::RpState, nicc::spray::EcmpState>;
//   static nicc::hal::DriverConfig cfg;                 // Init() once, shared
//   static nicc::hal::Driver<MyNic, Tx, 1024, 1024> drv;  // 48 B + 12 B per flow
//   if (!drv.Init(&cfg, &nic).ok()) ...;                // kUnsupported: Tx cannot run cfg
//   nicc::hal::FlowId f, r;
//   if (drv.OpenTx(qpn, /*seed=*/qpn, &f).ok()) {
//     uint16_t port = drv.SelectEv(f, now);             // UDP source port per packet
//     drv.Deliver(f, nicc::hal::Event::Cnp(), now);     // -> nic.Apply(f, ...)
//   }
//   drv.OpenTx(qpn2, qpn2, &g, 0, nicc::hal::CcKind::kHpcc);  // AnySenderSlot: any CC per flow
//   if (drv.OpenRx(peer_qpn, &r).ok())                  // (a kind per receiver flow too)
//     drv.DeliverRx(r, nicc::hal::Event::RxData(ce), now);  // -> nic.ApplyRx(r, ...)
//
// Driver's capacities are template parameters; a full table is reported
// (kFull) and counted (tx_full(), rx_full()), never grown. BorrowedDriver
// runs on tables whose arrays the caller provides and may grow (a host
// backend sized by use); it reports a full table the same way. Every handler does work
// bounded by compile-time constants (the INT hop maximum, the EV count); only
// FindTx()/FindRx() scan a table.
#ifndef NICC_HAL_DRIVER_H_
#define NICC_HAL_DRIVER_H_

#include "nicc/common.h"
#include "nicc/ecn_path.h"
#include "nicc/hal/cc_ops.h"
#include "nicc/hal/driver_config.h"
#include "nicc/hal/event.h"
#include "nicc/rccc.h"
#include "nicc/spray.h"

namespace nicc {
namespace hal {

// Pointers to the parts of one sender's state, wherever they live: a
// SenderSlot's members, or the C ABI's areas inside an opaque context.
// `path` is null when the slot keeps no ECN path state (its CC takes no
// marks).
template <class Cc, class Spray>
struct SenderRef {
  Cc* cc;
  Spray* spray;
  ecn_path::State* path;
};

// A sender slot: the backend's key, the spray policy's state, the ECN path
// rule's state when the CC takes marks, and the CC's state. In that order:
// a packet touches the policy's and the path rule's few bytes and the CC's
// per-packet fields, which each CC keeps first, so the per-packet path is
// one compact span at the front (bench/many_flow_bench.cc measures it;
// docs/porting.md, "Many flows"). The key first fills what would otherwise be
// padding ahead of an 8-byte-aligned CC state (HPCC's INT records).
//   SenderSlot<dcqcn::RpState, spray::EcmpState>   48 B
//   SenderSlot<hpcc::State, spray::RepsState>      96 B
//   SenderSlot<nscc::State, spray::RepsState>      80 B
//   SenderSlot<hpcc_spray::State, spray::RepsState> 192 B
//   SenderSlot<rccc::SenderState, spray::RepsState> 88 B
//   SenderSlot<FlowCcState, spray::SprayState>     any CC per flow, any policy
template <class Cc, class Spray, bool kWithPath = CcOps<Cc>::kReactsToMarks>
struct SenderSlot {
  using CcState = Cc;
  using SprayStateT = Spray;
  uint32_t key;  // the backend's own flow key (QP number, flow id)
  Spray spray;
  ecn_path::State path;
  Cc cc;
  SenderRef<Cc, Spray> Ref() { return SenderRef<Cc, Spray>{&cc, &spray, &path}; }
};

template <class Cc, class Spray>
struct SenderSlot<Cc, Spray, false> {
  using CcState = Cc;
  using SprayStateT = Spray;
  uint32_t key;
  Spray spray;
  Cc cc;
  SenderRef<Cc, Spray> Ref() { return SenderRef<Cc, Spray>{&cc, &spray, nullptr}; }
};

// Any CC (per flow, chosen at OpenTx), any policy: what a backend that picks
// both at run time keeps.
using AnySenderSlot = SenderSlot<FlowCcState, spray::SprayState>;

// Budgets (static_asserts; bench/footprint prints every composition).
static_assert(sizeof(SenderSlot<dcqcn::RpState, spray::EcmpState>) <= 48,
              "DCQCN + ECMP sender: <= 48 B (the vendor kit's per-flow area)");
static_assert(sizeof(SenderSlot<hpcc::State, spray::RepsState>) <= 112, "HPCC + REPS sender: <= 112 B");
// Every composition without DLB fits 112 B (the largest is HPCC + bitmap);
// with DLB's 16 EWMAs, 128 B.
template <class Cc>
constexpr bool SenderFitsBudget() {
  return sizeof(SenderSlot<Cc, spray::EcmpState>) <= 112 && sizeof(SenderSlot<Cc, spray::OpsState>) <= 112 &&
         sizeof(SenderSlot<Cc, spray::BitmapState>) <= 112 &&
         sizeof(SenderSlot<Cc, spray::RepsState>) <= 112 && sizeof(SenderSlot<Cc, spray::PlbState>) <= 112 &&
         sizeof(SenderSlot<Cc, spray::DlbState>) <= 128;
}
static_assert(sizeof(SenderSlot<nscc::State, spray::RepsState>) <= 80, "NSCC + REPS sender: <= 80 B (UEC)");
static_assert(sizeof(SenderSlot<nscc::State, spray::EcmpState>) <= 64, "NSCC + ECMP sender: <= 64 B");
static_assert(SenderFitsBudget<NoCcState>() && SenderFitsBudget<dcqcn::RpState>() &&
                  SenderFitsBudget<hpcc::State>() && SenderFitsBudget<nscc::State>(),
              "senders: <= 112 B without DLB, <= 128 B with");
// Sprayed HPCC carries four paths' INT histories (160 B), so its own
// budget: 192 B with REPS (the policy it is meant for: 160 + 24 + key), and
// with ECMP, OPS, PLB; the bitmap's 40 B make 208, DLB's 54 B 224.
static_assert(sizeof(SenderSlot<hpcc_spray::State, spray::RepsState>) <= 192,
              "sprayed-HPCC + REPS sender: <= 192 B");
static_assert(sizeof(SenderSlot<hpcc_spray::State, spray::EcmpState>) <= 192 &&
                  sizeof(SenderSlot<hpcc_spray::State, spray::OpsState>) <= 192 &&
                  sizeof(SenderSlot<hpcc_spray::State, spray::PlbState>) <= 192 &&
                  sizeof(SenderSlot<hpcc_spray::State, spray::BitmapState>) <= 208 &&
                  sizeof(SenderSlot<hpcc_spray::State, spray::DlbState>) <= 224,
              "sprayed-HPCC senders: <= 192 B, bitmap 208 B, DLB 224 B");
static_assert(sizeof(SenderSlot<NoCcState, spray::EcmpState>) <= 16, "bare sender: <= 16 B");
// The largest CC state (sprayed HPCC, 160 B) + the flow's CC kind (1 B,
// 8 with alignment) + the largest policy state (DLB, 56 B in the union) +
// ECN path state + key.
static_assert(sizeof(AnySenderSlot) <= 240, "any-CC, any-policy sender: <= 240 B");

// A receiver slot: DCQCN's notification point (CNP pacing) or, for a
// sender running nscc+rccc, RCCC's receiving-flow state (credit grants: no
// CNPs, NSCC reads the ECN echo), the key, and the CC the flow's sender
// runs (CNPs only for a sender that takes them). 24 B (12 B before RCCC and
// the per-flow kind).
struct ReceiverSlot {
  union {
    dcqcn::NpState np;       // cc != nscc+rccc
    rccc::RxFlowState rccc;  // cc == nscc+rccc
  };
  uint32_t key;  // the backend's own flow key
  CcKind cc;     // the sender's CC (ReceiverInit: the config's)
};
static_assert(sizeof(ReceiverSlot) <= 24, "receiver slot: <= 24 B (RCCC's 16 B flow state + key + sender kind)");
static_assert(sizeof(SenderSlot<rccc::SenderState, spray::RepsState>) <= 88,
              "NSCC + RCCC + REPS sender: <= 88 B (NSCC + REPS 80 B + credit and snd_una)");
static_assert(sizeof(SenderSlot<rccc::SenderState, spray::EcmpState>) <= 72, "NSCC + RCCC + ECMP sender: <= 72 B");

// Whether a slot's state types can run a config (its CC and its policy);
// kUnsupported names "cc" or "policy" otherwise.
template <class Cc, class Spray>
constexpr Status SenderFits(const DriverConfig& cfg) {
  if (!CcOps<Cc>::Serves(cfg.cc)) return Status::Error(StatusCode::kUnsupported, "cc");
  if (!spray::PolicyOf<Spray>::Serves(cfg.spray.policy))
    return Status::Error(StatusCode::kUnsupported, "policy");
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// One flow, without a table: what Driver does per slot. The firmware C API
// (ports/firmware) calls these on flow contexts its caller owns.
// ---------------------------------------------------------------------------

// Puts a sender in the state of a new flow. `seed` seeds its spray PRNG;
// `start_seq` is its first sequence number (HPCC's first update point).
template <class Cc, class Spray>
inline void SenderInit(const DriverConfig& cfg, SenderRef<Cc, Spray> s, uint32_t seed, uint32_t start_seq) {
  CcOps<Cc>::Init(cfg, s.cc, start_seq);
  spray::Init(cfg.spray, s.spray, seed);
  if (s.path != nullptr) ecn_path::Init(s.path);
}

// The UDP source port for the flow's next packet.
template <class Cc, class Spray>
inline uint16_t SenderSelectEv(const DriverConfig& cfg, SenderRef<Cc, Spray> s, TimeNs now_ns) {
  const uint16_t ev = spray::Select(cfg.spray, s.spray, now_ns).ev;
  if (s.path != nullptr) ecn_path::OnSend(s.path, ev);
  return ev;
}

template <class Cc, class Spray>
inline uint32_t SenderRateKbps(const DriverConfig& cfg, SenderRef<Cc, Spray> s) {
  return CcOps<Cc>::RateKbps(cfg, *s.cc);
}

// 0 = no window (rate-based CC or none).
template <class Cc, class Spray>
inline uint32_t SenderWindowBytes(const DriverConfig& cfg, SenderRef<Cc, Spray> s) {
  return CcOps<Cc>::WindowBytes(cfg, *s.cc);
}

// Dispatches one sender event; *out receives the action (flags 0 when
// nothing is asked). Returns kUnsupported for kRxData (a receiver's event:
// ReceiverDispatch). A CC's OnAck may return an error status, the flow's
// state then unchanged (none does today: INT arrives decoded).
template <class Cc, class Spray>
inline Status SenderDispatch(const DriverConfig& cfg, SenderRef<Cc, Spray> s, const Event& e, TimeNs now_ns,
                             Action* out) {
  Action a = Action::None();
  Status st = Status::Ok();
  switch (e.kind) {
    case EventKind::kTxDone:
      a = CcOps<Cc>::OnTx(cfg, s.cc, e.bytes, now_ns);
      break;
    case EventKind::kAck:
      st = CcOps<Cc>::OnAck(cfg, s.cc, e, now_ns, &a);
      if (!st.ok()) break;
      if (s.path != nullptr) ecn_path::OnRtt(s.path, e.rtt_ns);
      if (e.ev != 0) {
        // A CC's change_ev on this ACK's EV (NSCC: marked at low delay;
        // sprayed HPCC: the path's U above eta) is the policy's kEcn too.
        const bool marked = e.ecn != 0 || (a.Has(kActChangeEv) && a.ev == e.ev);
        const spray::Feedback kind = marked ? spray::Feedback::kEcn : spray::Feedback::kGood;
        spray::OnFeedback(cfg.spray, s.spray, e.ev, kind, e.rtt_ns, now_ns);
      }
      break;
    case EventKind::kNack:
      // A gap NACK and a trim NACK (e.trimmed) both penalise the port and
      // reach the CC (NSCC: quick adapt).
      a = CcOps<Cc>::OnNack(cfg, s.cc, e, now_ns);
      if (e.ev != 0) spray::OnFeedback(cfg.spray, s.spray, e.ev, spray::Feedback::kNack, 0, now_ns);
      break;
    case EventKind::kTimeout:
      if (e.ev != 0) spray::OnFeedback(cfg.spray, s.spray, e.ev, spray::Feedback::kTimeout, 0, now_ns);
      break;
    case EventKind::kCnp:
      // The ECN path rule (ecn_path.h) decides; the driver applies it: spray
      // feedback kEcn on the blamed port, or the CC's reaction.
      if (!TakesCnpOf(cfg, *s.cc)) break;
      if (s.path != nullptr) {
        const ecn_path::Decision d = ecn_path::OnMark(cfg.ecn_rule, *s.path);
        if (d.verdict == ecn_path::Verdict::kChangePath) {
          spray::OnFeedback(cfg.spray, s.spray, d.ev, spray::Feedback::kEcn, 0, now_ns);
          break;
        }
      }
      a = CcOps<Cc>::OnCnp(cfg, s.cc, now_ns);
      break;
    case EventKind::kTimer:
      a = CcOps<Cc>::OnTimer(cfg, s.cc, now_ns);
      break;
    case EventKind::kRxData:
      st = Status::Error(StatusCode::kUnsupported, "event");
      break;
  }
  *out = a;
  return st;
}

// `sender_cc`: the CC the flow's sender runs (default the config's).
inline void ReceiverInit(const DriverConfig& cfg, ReceiverSlot* r, uint32_t key, CcKind sender_cc) {
  *r = ReceiverSlot{};
  r->key = key;
  r->cc = static_cast<uint32_t>(sender_cc) < kCcKindCount ? sender_cc : cfg.cc;
  if (r->cc == CcKind::kNsccRccc) {
    rccc::RxInit(&r->rccc);
  } else {
    dcqcn::NpInit(&r->np);
  }
}
inline void ReceiverInit(const DriverConfig& cfg, ReceiverSlot* r, uint32_t key) {
  ReceiverInit(cfg, r, key, cfg.cc);
}

// Dispatches one receiver event (kRxData), by the sender's CC: DCQCN's CNP
// pacing when it takes CNPs (KindTakesCnp), RCCC's grant on the receiving
// port `port` for nscc+rccc (kActGrantCredit on every packet; kUnsupported
// "port" without one), nothing for the others. kUnsupported for a
// sender's event.
inline Status ReceiverDispatch(const DriverConfig& cfg, rccc::PortState* port, ReceiverSlot* r, const Event& e,
                               TimeNs now_ns, Action* out) {
  *out = Action::None();
  if (e.kind != EventKind::kRxData) return Status::Error(StatusCode::kUnsupported, "event");
  if (r->cc == CcKind::kNsccRccc) {
    if (port == nullptr) return Status::Error(StatusCode::kUnsupported, "port");
    *out = rccc::RxOnData(cfg.rccc, port, &r->rccc, e.seq, e.snd_nxt);
    return Status::Ok();
  }
  *out = KindTakesCnp(r->cc) ? dcqcn::NpOnPacket(cfg.dcqcn, &r->np, e.ecn != 0, now_ns) : Action::None();
  return Status::Ok();
}

inline Status ReceiverDispatch(const DriverConfig& cfg, ReceiverSlot* r, const Event& e, TimeNs now_ns,
                               Action* out) {
  return ReceiverDispatch(cfg, nullptr, r, e, now_ns, out);
}

// A receiving flow ends: under nscc+rccc an active flow leaves `port`.
inline void ReceiverClose(const DriverConfig& cfg, rccc::PortState* port, ReceiverSlot* r) {
  (void)cfg;
  if (r->cc == CcKind::kNsccRccc && port != nullptr) rccc::RxClose(port, &r->rccc);
}

// ---------------------------------------------------------------------------
// Tables.
// ---------------------------------------------------------------------------

// Where a table's slots live. A table is its slots, a stack of free ids and
// an in-use bit per slot; the storage policy says whose memory that is:
//   FixedSlots<Slot, kCapacity>  arrays inside the table (firmware, tests)
//   BorrowedSlots<Slot>          the caller's arrays (SlotStorage), which it
//                                may replace by larger ones (a host backend
//                                growing a std::vector; BasicSlotTable::Grow)
// The caller-provided storage of a BorrowedSlots table: `capacity` slots and
// free ids, (capacity + 31) / 32 in-use words.
template <class Slot>
struct SlotStorage {
  Slot* slots;
  FlowId* free_ids;
  uint32_t* used;
  uint32_t capacity;
};

namespace detail {

template <class Slot, uint32_t kCapacity>
class FixedSlots {
  static_assert(kCapacity < kNoFlow, "capacity must fit a FlowId");
  static constexpr uint32_t kStore = kCapacity == 0 ? 1u : kCapacity;
  static constexpr uint32_t kWords = (kStore + 31u) / 32u;

 protected:
  static constexpr uint32_t capacity() { return kCapacity; }
  uint32_t* used_words() { return used_; }
  const uint32_t* used_words() const { return used_; }
  FlowId* free_ids() { return free_; }
  Slot* slots() { return slots_; }
  const Slot* slots() const { return slots_; }

 private:
  uint32_t used_[kWords];
  FlowId free_[kStore];
  Slot slots_[kStore];
};

template <class Slot>
class BorrowedSlots {
 protected:
  uint32_t capacity() const { return cap_; }
  uint32_t* used_words() { return used_; }
  const uint32_t* used_words() const { return used_; }
  FlowId* free_ids() { return free_; }
  Slot* slots() { return slots_; }
  const Slot* slots() const { return slots_; }
  void Point(const SlotStorage<Slot>& s) {
    slots_ = s.slots;
    free_ = s.free_ids;
    used_ = s.used;
    cap_ = s.capacity;
  }

 private:
  Slot* slots_ = nullptr;
  FlowId* free_ = nullptr;
  uint32_t* used_ = nullptr;
  uint32_t cap_ = 0;
};

}  // namespace detail

// A table of slots with a free list and an in-use bit per slot. Capacity 0
// is allowed (a driver without receivers): every Take() is then refused.
// Refusals are counted, never silent. Ids are handed out lowest never-used
// first, then most recently freed first, whatever the storage.
template <class Slot, class Store>
class BasicSlotTable : public Store {
 public:
  void Clear() {
    const uint32_t cap = this->capacity();
    uint32_t* used = this->used_words();
    FlowId* free_ids = this->free_ids();
    for (uint32_t i = 0; i < (cap + 31u) / 32u; ++i) used[i] = 0;
    for (uint32_t i = 0; i < cap; ++i) free_ids[i] = static_cast<FlowId>(cap - 1 - i);
    free_top_ = cap;
    refused_ = 0;
  }
  Status Take(uint32_t key, FlowId* out) {
    if (free_top_ == 0) {
      if (refused_ != 0xFFFFFFFFu) ++refused_;
      return Status::Error(StatusCode::kFull, "flow table");
    }
    const FlowId id = this->free_ids()[--free_top_];
    this->used_words()[id >> 5] |= 1u << (id & 31u);
    this->slots()[id].key = key;
    *out = id;
    return Status::Ok();
  }
  Status Give(FlowId id) {
    if (!Valid(id)) return Status::Error(StatusCode::kNotFound, "flow");
    this->used_words()[id >> 5] &= ~(1u << (id & 31u));
    this->free_ids()[free_top_++] = id;
    return Status::Ok();
  }
  // Slow path: scans the table. Loop bound: the capacity.
  Status Find(uint32_t key, FlowId* out) const {
    for (uint32_t i = 0; i < this->capacity(); ++i) {
      if (Valid(static_cast<FlowId>(i)) && this->slots()[i].key == key) {
        *out = static_cast<FlowId>(i);
        return Status::Ok();
      }
    }
    return Status::Error(StatusCode::kNotFound, "flow key");
  }
  bool Valid(FlowId id) const {
    return id < this->capacity() && ((this->used_words()[id >> 5] >> (id & 31u)) & 1u) != 0;
  }
  uint32_t capacity() const { return this->Store::capacity(); }
  uint32_t size() const { return this->capacity() - free_top_; }
  uint32_t refused() const { return refused_; }
  Slot& operator[](FlowId id) { return this->slots()[id]; }
  const Slot& operator[](FlowId id) const { return this->slots()[id]; }

  // BorrowedSlots only. Points an empty table at `s` (refusal count
  // cleared); capacity 0 (null arrays) is a table that refuses everything.
  Status Bind(const SlotStorage<Slot>& s) {
    if (s.capacity >= kNoFlow) return Status::Error(StatusCode::kOutOfRange, "capacity");
    if (s.capacity != 0 && (s.slots == nullptr || s.free_ids == nullptr || s.used == nullptr))
      return Status::Error(StatusCode::kOutOfRange, "storage");
    this->Point(s);
    Clear();
    return Status::Ok();
  }
  // BorrowedSlots only. Moves the table to larger storage `s` whose first
  // capacity() slots, free ids and in-use words hold this table's contents
  // (the caller copied or reallocated them). The new ids go below the free
  // ones, so ids are handed out as by a table that had `s.capacity` from
  // the start. Loop bound: s.capacity. kOutOfRange for a smaller or
  // too-large capacity or missing arrays; the table is then unchanged.
  Status Grow(const SlotStorage<Slot>& s) {
    const uint32_t old = this->capacity();
    if (s.capacity < old || s.capacity >= kNoFlow) return Status::Error(StatusCode::kOutOfRange, "capacity");
    if (s.slots == nullptr || s.free_ids == nullptr || s.used == nullptr)
      return Status::Error(StatusCode::kOutOfRange, "storage");
    const uint32_t add = s.capacity - old;
    for (uint32_t i = free_top_; i > 0; --i) s.free_ids[i - 1 + add] = s.free_ids[i - 1];
    for (uint32_t i = 0; i < add; ++i) s.free_ids[i] = static_cast<FlowId>(s.capacity - 1 - i);
    for (uint32_t w = (old + 31u) / 32u; w < (s.capacity + 31u) / 32u; ++w) s.used[w] = 0;
    free_top_ += add;
    this->Point(s);
    return Status::Ok();
  }

 private:
  uint32_t free_top_ = 0;  // free_ids()[0 .. free_top_) are the free slots
  uint32_t refused_ = 0;   // Take() calls refused for a full table (saturates)
};

// A table with its own arrays, of compile-time capacity.
template <class Slot, uint32_t kCapacity>
using SlotTable = BasicSlotTable<Slot, detail::FixedSlots<Slot, kCapacity>>;
// A table over caller-provided arrays (SlotStorage), re-pointed as they grow.
template <class Slot>
using BorrowedSlotTable = BasicSlotTable<Slot, detail::BorrowedSlots<Slot>>;

// The driver: a sender table of TxSlot (a SenderSlot<Cc, Spray>) with
// kTxCapacity entries, a receiver table of ReceiverSlot with kRxCapacity.
// Sender and receiver flows have their own FlowId spaces; the backend gets
// Apply(flow, action) for a sender's actions and ApplyRx(flow, action) for a
// receiver's (backend.h).
//
// BasicDriver holds the logic over any two tables; Driver<Backend, TxSlot,
// kTx, kRx> keeps its own arrays (compile-time capacities: firmware, the C
// ABI, tests), BorrowedDriver<Backend, TxSlot> runs on arrays its caller
// provides and may grow (a host backend sized by use).
template <class Backend, class TxSlot, class TxTable, class RxTable>
class BasicDriver {
  using Cc = typename TxSlot::CcState;
  using Spray = typename TxSlot::SprayStateT;

 public:
  // Binds the driver to a compiled config and a backend; empties both
  // tables. Both must outlive the driver. kUnsupported ("cc" / "policy")
  // when TxSlot's state types cannot run the config; the driver then stays
  // unbound and opens nothing.
  Status Init(const DriverConfig* cfg, Backend* backend) {
    tx_.Clear();
    rx_.Clear();
    cfg_ = nullptr;
    const Status st = SenderFits<Cc, Spray>(*cfg);
    if (!st.ok()) return st;
    rccc::PortInit(cfg->rccc, &port_);
    cfg_ = cfg;
    backend_ = backend;
    return Status::Ok();
  }

  // Takes a sender slot running CC `cc`. `seed` seeds its spray PRNG;
  // `start_seq` is the flow's first sequence number (HPCC's first update
  // point). kUnsupported ("cc") when the slot's state cannot run `cc` (a
  // FlowCcState slot runs any kind; a typed one only the config's), kFull
  // (and counted in tx_full()) when the table is full.
  Status OpenTx(uint32_t key, uint32_t seed, FlowId* out, uint32_t start_seq, CcKind cc) {
    if (cfg_ == nullptr) return Status::Error(StatusCode::kUnsupported, "driver");
    if (!RunsKind<Cc>(*cfg_, cc)) return Status::Error(StatusCode::kUnsupported, "cc");
    FlowId id;
    const Status st = tx_.Take(key, &id);
    if (!st.ok()) return st;
    SetFlowKind(&tx_[id].cc, cc);
    SenderInit(*cfg_, tx_[id].Ref(), seed, start_seq);
    *out = id;
    return Status::Ok();
  }
  // The same with the config's CC.
  Status OpenTx(uint32_t key, uint32_t seed, FlowId* out, uint32_t start_seq = 0) {
    if (cfg_ == nullptr) return Status::Error(StatusCode::kUnsupported, "driver");
    return OpenTx(key, seed, out, start_seq, cfg_->cc);
  }

  // Takes a receiver slot for a flow whose sender runs `sender_cc` (CNPs
  // only if it takes them); kOutOfRange ("cc") for an unknown kind, kFull
  // (counted in rx_full()) when full.
  Status OpenRx(uint32_t key, FlowId* out, CcKind sender_cc) {
    if (cfg_ == nullptr) return Status::Error(StatusCode::kUnsupported, "driver");
    if (static_cast<uint32_t>(sender_cc) >= kCcKindCount) return Status::Error(StatusCode::kOutOfRange, "cc");
    FlowId id;
    const Status st = rx_.Take(key, &id);
    if (!st.ok()) return st;
    ReceiverInit(*cfg_, &rx_[id], key, sender_cc);
    *out = id;
    return Status::Ok();
  }
  Status OpenRx(uint32_t key, FlowId* out) {
    if (cfg_ == nullptr) return Status::Error(StatusCode::kUnsupported, "driver");
    return OpenRx(key, out, cfg_->cc);
  }

  Status CloseTx(FlowId id) { return tx_.Give(id); }
  // Closing a receiving flow of nscc+rccc leaves the port's credit pool.
  Status CloseRx(FlowId id) {
    if (RxValid(id)) ReceiverClose(*cfg_, &port_, &rx_[id]);
    return rx_.Give(id);
  }

  // Slow path: finds an open flow by the backend's key (scans the table).
  Status FindTx(uint32_t key, FlowId* out) const { return tx_.Find(key, out); }
  Status FindRx(uint32_t key, FlowId* out) const { return rx_.Find(key, out); }

  // The UDP source port for the sender's next packet (the spray policy's
  // choice). Returns 0 for an unknown flow.
  uint16_t SelectEv(FlowId id, TimeNs now_ns) {
    return TxValid(id) ? SenderSelectEv(*cfg_, tx_[id].Ref(), now_ns) : 0;
  }

  // Dispatches one sender event. The resulting action, if it asks for
  // anything, goes to backend->Apply() before this returns. kNotFound for an
  // unknown flow, kUnsupported for kRxData (DeliverRx). INT arrives decoded
  // (event.h): the backend drops a malformed stack before it gets here.
  Status Deliver(FlowId id, const Event& e, TimeNs now_ns) {
    if (!TxValid(id)) return Status::Error(StatusCode::kNotFound, "flow");
    Action a;
    const Status st = SenderDispatch(*cfg_, tx_[id].Ref(), e, now_ns, &a);
    if (a.flags != 0) backend_->Apply(id, a);
    return st;
  }

  // Dispatches one receiver event (kRxData); the action (a CNP to send) goes
  // to backend->ApplyRx().
  Status DeliverRx(FlowId id, const Event& e, TimeNs now_ns) {
    if (!RxValid(id)) return Status::Error(StatusCode::kNotFound, "flow");
    Action a;
    const Status st = ReceiverDispatch(*cfg_, &port_, &rx_[id], e, now_ns, &a);
    if (a.flags != 0) backend_->ApplyRx(id, a);
    return st;
  }

  // The rate the sender should be paced at now (kb/s); 0 for an unknown flow.
  uint32_t RateKbps(FlowId id) const {
    return TxValid(id) ? CcOps<Cc>::RateKbps(*cfg_, tx_[id].cc) : 0;
  }

  // The sender's window in bytes; 0 = no window (rate-based CC or none).
  uint32_t WindowBytes(FlowId id) const {
    return TxValid(id) ? CcOps<Cc>::WindowBytes(*cfg_, tx_[id].cc) : 0;
  }

  // The CC a sender flow runs (the config's for a typed slot); the config's
  // default for an unknown flow, kNone for an unbound driver.
  CcKind TxKind(FlowId id) const {
    if (cfg_ == nullptr) return CcKind::kNone;
    return TxValid(id) ? FlowKindOf(*cfg_, tx_[id].cc) : cfg_->cc;
  }

  // Open flows, and Open*() calls refused for a full table since Init().
  uint32_t tx_size() const { return tx_.size(); }
  uint32_t rx_size() const { return rx_.size(); }
  uint32_t tx_full() const { return tx_.refused(); }
  uint32_t rx_full() const { return rx_.refused(); }
  bool TxValid(FlowId id) const { return cfg_ != nullptr && tx_.Valid(id); }
  bool RxValid(FlowId id) const { return cfg_ != nullptr && rx_.Valid(id); }
  const TxSlot& tx_slot(FlowId id) const { return tx_[id]; }
  const ReceiverSlot& rx_slot(FlowId id) const { return rx_[id]; }
  const DriverConfig& config() const { return *cfg_; }
  // The receiving port's RCCC credit pool (nscc+rccc).
  const rccc::PortState& rx_port() const { return port_; }
  // Slots each table has now (its limit for Driver).
  uint32_t tx_capacity() const { return tx_.capacity(); }
  uint32_t rx_capacity() const { return rx_.capacity(); }

 protected:
  TxTable tx_;
  RxTable rx_;

 private:
  const DriverConfig* cfg_ = nullptr;
  Backend* backend_ = nullptr;
  rccc::PortState port_{};  // the one receiving port this driver serves (RCCC)
};

// The driver with its own tables of kTxCapacity senders and kRxCapacity
// receivers; a full table is reported (kFull) and counted, never grown.
template <class Backend, class TxSlot, uint32_t kTxCapacity, uint32_t kRxCapacity>
class Driver
    : public BasicDriver<Backend, TxSlot, SlotTable<TxSlot, kTxCapacity>, SlotTable<ReceiverSlot, kRxCapacity>> {
 public:
  static constexpr uint32_t kTxFlowCapacity = kTxCapacity;
  static constexpr uint32_t kRxFlowCapacity = kRxCapacity;
};

// The driver over caller-provided tables (SlotStorage): the caller decides
// how many slots each table has and may move a table to larger storage while
// flows are open (GrowTx/GrowRx; FlowIds and slot contents are kept, ids
// are handed out as by a table that had the larger capacity from the
// start). The driver itself never allocates: when a table is full, Open*
// returns kFull (counted) as for Driver, and the caller may grow it and
// open again. Bind the storage, then Init (Init empties both tables).
//
//   std::vector<AnySenderSlot> slots(8); std::vector<FlowId> ids(8);
//   std::vector<uint32_t> used(1);
//   drv.BindTx({slots.data(), ids.data(), used.data(), 8});
//   drv.BindRx({nullptr, nullptr, nullptr, 0});   // no receivers yet
//   drv.Init(&cfg, &nic);
//   ... OpenTx -> kFull: slots.resize(16); ids.resize(16); used.resize(1);
//       drv.GrowTx({slots.data(), ids.data(), used.data(), 16}); OpenTx again
template <class Backend, class TxSlot>
class BorrowedDriver
    : public BasicDriver<Backend, TxSlot, BorrowedSlotTable<TxSlot>, BorrowedSlotTable<ReceiverSlot>> {
 public:
  // Before Init (which empties the tables): kOutOfRange for a capacity
  // that does not fit a FlowId or missing arrays.
  Status BindTx(const SlotStorage<TxSlot>& s) { return this->tx_.Bind(s); }
  Status BindRx(const SlotStorage<ReceiverSlot>& s) { return this->rx_.Bind(s); }
  // Storage whose first tx_capacity() / rx_capacity() entries (slots, free
  // ids, in-use words) hold the table's contents, with at least as many
  // slots; kOutOfRange otherwise (the table unchanged).
  Status GrowTx(const SlotStorage<TxSlot>& s) { return this->tx_.Grow(s); }
  Status GrowRx(const SlotStorage<ReceiverSlot>& s) { return this->rx_.Grow(s); }
};

}  // namespace hal
}  // namespace nicc

#endif  // NICC_HAL_DRIVER_H_
