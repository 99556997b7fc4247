// nicc/rccc.h — UEC RCCC (receiver credit congestion control): the receiver
// grants each active sender a share of one credit pool (the port's line rate
// x the fabric's base RTT, i.e. one BDP), so that the senders' bytes in
// flight toward the port add up to about one BDP; the sender's window is
// bounded by the credit it was granted. The combined mode (cc = nscc+rccc)
// runs NSCC on the sender and bounds its window by the credit.
//
// Source: the UEC 1.0 overview's receiver-credit CC working with NSCC, and
// htsim's receiver-driven model (uet-htsim, eqds.cpp / uec.cpp: the sender
// starts with speculative credit of one window, _speculative_credit =
// _maxwnd; the receiver's pull pacer hands out credit at its line rate).
// docs/rccc.md states each rule with its source and what differs.
//
//   nicc::rccc::Config cfg;
//   if (!nicc::rccc::Compile(nicc::rccc::Params::UecDefault(), &cfg).ok()) ...;
//   nicc::rccc::PortState port;                   // one per receiving port, <= 64 B
//   nicc::rccc::PortInit(cfg, &port);
//   nicc::rccc::RxFlowState rx;                   // one per receiving flow, <= 32 B
//   nicc::rccc::RxInit(&rx);
//   nicc::Action a = nicc::rccc::RxOnData(cfg, &port, &rx, seq_end, backlog_end);
//   ack.credit = a.window_bytes;                   // kActGrantCredit: echo in the ACK
//   nicc::rccc::RxClose(&port, &rx);               // the flow ends: leaves if active
//
// Receiver, per data packet (seq_end = the sequence after its payload,
// backlog_end = the absolute sequence up to which the sender has data):
//   backlog = backlog_end after seq_end (wrap-safe)
//   backlog and not active:  join:  N += 1, share = max(pool / N, mss)
//   no backlog and active:   leave: N -= 1, share = N ? max(pool / N, mss) : pool
//   limit = max(limit, min(seq_end + share, backlog_end))     (never decreases)
// So each active sender may have about pool / N bytes outstanding beyond
// what the receiver has seen, and the sum over the port is about one pool.
// One division per join or leave, none per packet; no loop over flows.
//
// Sender (nscc+rccc), per ACK: NSCC's own update, then
//   credit = max(credit, ack.credit); snd_una = max(snd_una, ack.seq)
//   window = min(W_nscc, credit - snd_una)   (0 when credit is behind snd_una)
// emitted as kActSetWindow on every ACK (kActSetRate as NSCC asks). Before
// the first grant: credit = start_seq + initial_credit_bytes.
//
// Units: bytes, Mb/s, ns; sequence numbers are 32-bit wrapping bytes: every
// distance compared (share, backlog, credit - snd_una) must stay below 2^31
// (the pool is <= 2^30 by its ranges; a sender reports at most 2^30 bytes of
// backlog beyond the packet: docs/rccc.md).
#ifndef NICC_RCCC_H_
#define NICC_RCCC_H_

#include "nicc/common.h"
#include "nicc/nscc.h"
#include "nicc/params.h"

namespace nicc {
namespace rccc {

// ---------------------------------------------------------------------------
// Parameters.
// ---------------------------------------------------------------------------

constexpr uint32_t kMinBaseRttNs = 1000u;
constexpr uint32_t kMaxBaseRttNs = 1000000u;
constexpr uint32_t kMaxPoolPct = 400u;
// Largest credit distance: initial credit and reported backlog (2^30).
constexpr uint32_t kMaxCreditBytes = 1u << 30;

enum Profile : uint8_t { NICC_RCCC_PROFILES(NICC_PROFILE_ENUM_) kProfileCount };

// One uint32_t per row of NICC_RCCC_PARAMS (param_tables.h), in its order.
struct Params {
  NICC_PARAM_MEMBERS(NICC_RCCC_PARAMS)

  static constexpr Params Of(Profile profile);
  // A 100 Gb/s port on a 12 us fabric (the NSCC reference network).
  static constexpr Params UecDefault() { return Of(kUecDefault); }
  // Each field's range (the first bad one is named), then mss_bytes against
  // the pool (kInconsistent).
  constexpr Status Validate() const;
};

using NiccRowParams_ = Params;
constexpr ParamDesc<Params> kParamRows[] = {NICC_PARAM_ROWS(NICC_RCCC_PARAMS)};
constexpr ProfileDesc kProfiles[] = {NICC_RCCC_PROFILES(NICC_PROFILE_ROW_)};
constexpr ParamTable<Params> kParamTable = {"rccc", "", kParamRows, sizeof(kParamRows) / sizeof(kParamRows[0]),
                                            kProfiles, kProfileCount};

static_assert(kParamRows[FindParam(kParamTable, "base_rtt_ns")].min == kMinBaseRttNs &&
                  kParamRows[FindParam(kParamTable, "base_rtt_ns")].max == kMaxBaseRttNs &&
                  kParamRows[FindParam(kParamTable, "pool_pct")].max == kMaxPoolPct &&
                  kParamRows[FindParam(kParamTable, "initial_credit_bytes")].max == kMaxCreditBytes,
              "the table's ranges are the constants the arithmetic relies on");

constexpr Params Params::Of(Profile profile) {
  Params p{};
  LoadProfile(kParamTable, profile, &p);
  return p;
}

// ---------------------------------------------------------------------------
// Config: Params compiled once.
// ---------------------------------------------------------------------------

struct Config {
  uint32_t pool_bytes;            // line rate x base RTT x pool_pct / 100 (<= 2^30)
  uint32_t min_share_bytes;       // mss_bytes: the least credit an active sender is granted
  uint32_t initial_credit_bytes;  // a sender's credit before its first grant
};

// Validates `p` and fills `*out`. On error `*out` is left untouched.
inline Status Compile(const Params& p, Config* out);

// ---------------------------------------------------------------------------
// Receiver state.
// ---------------------------------------------------------------------------

// One per receiving port.
struct PortState {
  uint32_t pool_bytes;       // Config::pool_bytes at PortInit
  uint32_t min_share_bytes;  // Config::min_share_bytes at PortInit
  uint32_t share_bytes;      // credit per active sender: max(pool / N, mss); pool when N = 0
  uint32_t active;           // N: senders with backlog
  uint32_t joins;            // joins since PortInit (saturating; diagnostics)
  uint32_t leaves;           // leaves since PortInit (saturating; diagnostics)
};
static_assert(sizeof(PortState) <= 64, "RCCC per-port budget: 64 bytes");

// Bits of RxFlowState::flags.
enum RxFlag : uint8_t {
  kRxSeen = 1u << 0,    // a data packet arrived: limit, high_seq, backlog_end hold values
  kRxActive = 1u << 1,  // counted in the port's N
};

// One per receiving flow.
struct RxFlowState {
  uint32_t limit;        // credit limit granted (absolute sequence)
  uint32_t high_seq;     // highest sequence received (end of a packet's payload)
  uint32_t backlog_end;  // the backlog end the last packet reported
  uint8_t flags;         // RxFlag bits
  uint8_t reserved[3];
};
static_assert(sizeof(RxFlowState) <= 32, "RCCC per-flow receiver budget: 32 bytes");

inline void PortInit(const Config& cfg, PortState* port);
inline void RxInit(RxFlowState* rx);

// A data packet whose payload ends at seq_end arrived, its sender reporting
// data queued up to backlog_end. Returns kActGrantCredit with the flow's
// credit limit in window_bytes (every packet: the ACK carries it).
inline Action RxOnData(const Config& cfg, PortState* port, RxFlowState* rx, uint32_t seq_end,
                       uint32_t backlog_end);

// The receiving flow is closed: an active flow leaves the port.
inline void RxClose(PortState* port, RxFlowState* rx);

// ---------------------------------------------------------------------------
// Sender (nscc+rccc): NSCC's state and the credit.
// ---------------------------------------------------------------------------

struct SenderState {
  nscc::State nscc;
  uint32_t credit;   // credit limit (absolute sequence): the largest granted
  uint32_t snd_una;  // highest cumulative ACK seen
};
static_assert(sizeof(SenderState) <= 56, "NSCC + RCCC sender state: 56 bytes");

inline void SenderInit(const nscc::Config& ncfg, const Config& cfg, SenderState* s, uint32_t start_seq);

// NSCC's OnAck, then the credit the ACK carries; kActSetWindow with
// min(W, credit - snd_una) on every ACK.
inline Action SenderOnAck(const nscc::Config& ncfg, SenderState* s, uint32_t ack_seq, uint32_t snd_nxt,
                          uint32_t acked_bytes, bool ecn, uint16_t ev, uint32_t rtt_ns, uint32_t credit,
                          TimeNs now_ns);

// NSCC's OnNack; a window it sets is bounded by the credit.
inline Action SenderOnNack(const nscc::Config& ncfg, SenderState* s, uint32_t nacked_bytes, uint32_t snd_nxt,
                           TimeNs now_ns);

// min(W, credit - snd_una).
inline uint32_t SenderWindowBytes(const SenderState& s);

// ===========================================================================
// Implementation.
// ===========================================================================

namespace detail {
// Line-rate BDP in bytes: <= 1.6e6 Mb/s * 1e6 ns / 8000 = 2e8 < 2^28.
constexpr uint64_t BdpBytes(uint32_t line_rate_mbps, uint32_t base_rtt_ns) {
  return static_cast<uint64_t>(line_rate_mbps) * base_rtt_ns / 8000u;
}
constexpr uint64_t PoolBytes(const Params& p) { return BdpBytes(p.line_rate_mbps, p.base_rtt_ns) * p.pool_pct / 100u; }
// a before b on the 32-bit sequence circle.
constexpr bool SeqBefore(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }
inline uint32_t Share(const PortState& port) {
  if (port.active == 0) return port.pool_bytes;
  return MaxU32(port.pool_bytes / port.active, port.min_share_bytes);
}
inline uint32_t Inc(uint32_t v) { return v == 0xFFFFFFFFu ? v : v + 1u; }
}  // namespace detail

constexpr Status Params::Validate() const {
  const Status st = CheckRanges(kParamTable, *this);
  if (!st.ok()) return st;
  const uint64_t pool = detail::PoolBytes(*this);
  if (pool < mss_bytes) return Status::Error(StatusCode::kInconsistent, "mss_bytes");
  return Status::Ok();
}

inline Status Compile(const Params& p, Config* out) {
  const Status st = p.Validate();
  if (!st.ok()) return st;
  Config c{};
  c.pool_bytes = static_cast<uint32_t>(detail::PoolBytes(p));  // <= 2e8 x 4 < 2^30
  c.min_share_bytes = p.mss_bytes;                             // <= pool (validated)
  c.initial_credit_bytes = p.initial_credit_bytes;             // <= 2^30
  *out = c;
  return Status::Ok();
}

inline void PortInit(const Config& cfg, PortState* port) {
  *port = PortState{};
  port->pool_bytes = cfg.pool_bytes;
  port->min_share_bytes = cfg.min_share_bytes;
  port->share_bytes = cfg.pool_bytes;
}

inline void RxInit(RxFlowState* rx) { *rx = RxFlowState{}; }

inline Action RxOnData(const Config& cfg, PortState* port, RxFlowState* rx, uint32_t seq_end,
                       uint32_t backlog_end) {
  (void)cfg;  // the port carries the compiled pool
  if ((rx->flags & kRxSeen) == 0) {
    rx->limit = seq_end;
    rx->high_seq = seq_end;
    rx->flags = static_cast<uint8_t>(rx->flags | kRxSeen);
  } else if (detail::SeqBefore(rx->high_seq, seq_end)) {
    rx->high_seq = seq_end;
  }
  rx->backlog_end = backlog_end;
  const int32_t backlog = static_cast<int32_t>(backlog_end - seq_end);
  const bool active = (rx->flags & kRxActive) != 0;
  if (backlog > 0 && !active) {
    port->active = port->active + 1u;  // <= the receiver table's capacity
    port->joins = detail::Inc(port->joins);
    port->share_bytes = detail::Share(*port);
    rx->flags = static_cast<uint8_t>(rx->flags | kRxActive);
  } else if (backlog <= 0 && active) {
    port->active = port->active - 1u;  // >= 1 while this flow is counted
    port->leaves = detail::Inc(port->leaves);
    port->share_bytes = detail::Share(*port);
    rx->flags = static_cast<uint8_t>(rx->flags & ~kRxActive);
  }
  // min(seq_end + share, backlog_end): share <= 2^30, backlog < 2^31.
  const uint32_t room = backlog > 0 ? MinU32(port->share_bytes, static_cast<uint32_t>(backlog)) : 0u;
  const uint32_t cand = backlog > 0 ? seq_end + room : backlog_end;
  if (detail::SeqBefore(rx->limit, cand)) rx->limit = cand;
  Action a = Action::None();
  a.flags = kActGrantCredit;
  a.window_bytes = rx->limit;
  return a;
}

inline void RxClose(PortState* port, RxFlowState* rx) {
  if ((rx->flags & kRxActive) != 0) {
    port->active = port->active - 1u;
    port->leaves = detail::Inc(port->leaves);
    port->share_bytes = detail::Share(*port);
  }
  rx->flags = 0;
}

inline void SenderInit(const nscc::Config& ncfg, const Config& cfg, SenderState* s, uint32_t start_seq) {
  nscc::Init(ncfg, &s->nscc);
  s->credit = start_seq + cfg.initial_credit_bytes;  // wraps with the sequence space
  s->snd_una = start_seq;
}

inline uint32_t SenderWindowBytes(const SenderState& s) {
  const int32_t room = static_cast<int32_t>(s.credit - s.snd_una);
  const uint32_t credit_room = room > 0 ? static_cast<uint32_t>(room) : 0u;
  return MinU32(nscc::WindowBytes(s.nscc), credit_room);
}

inline Action SenderOnAck(const nscc::Config& ncfg, SenderState* s, uint32_t ack_seq, uint32_t snd_nxt,
                          uint32_t acked_bytes, bool ecn, uint16_t ev, uint32_t rtt_ns, uint32_t credit,
                          TimeNs now_ns) {
  Action a = nscc::OnAck(ncfg, &s->nscc, ack_seq, snd_nxt, acked_bytes, ecn, ev, rtt_ns, now_ns);
  if (detail::SeqBefore(s->credit, credit)) s->credit = credit;
  if (detail::SeqBefore(s->snd_una, ack_seq)) s->snd_una = ack_seq;
  a.flags = static_cast<uint8_t>(a.flags | kActSetWindow);
  a.window_bytes = SenderWindowBytes(*s);
  return a;
}

inline Action SenderOnNack(const nscc::Config& ncfg, SenderState* s, uint32_t nacked_bytes, uint32_t snd_nxt,
                           TimeNs now_ns) {
  Action a = nscc::OnNack(ncfg, &s->nscc, nacked_bytes, snd_nxt, now_ns);
  if (a.Has(kActSetWindow)) a.window_bytes = SenderWindowBytes(*s);
  return a;
}

}  // namespace rccc
}  // namespace nicc

#endif  // NICC_RCCC_H_
