// nicc/hpcc_spray.h — sprayed HPCC (cc kind "hpcc-spray"): HPCC for a flow
// whose packets take several paths, one INT history per entropy value (EV,
// the UDP source port) in use, the per-path utilisations combined by their
// maximum. Caller-owned per-flow state of 160 bytes; the parameters, the
// Config and the window law are HPCC's (hpcc.h).
//
//   nicc::hpcc::Config cfg;                          // hpcc::Compile(...)
//   nicc::hpcc_spray::State flow;                    // 160 bytes, yours
//   nicc::hpcc_spray::Init(cfg, &flow, first_psn);
//   nicc::Action a = nicc::hpcc_spray::OnAck(cfg, &flow, ack_seq, snd_nxt,
//                                            ack_ev_port, int_stack, now_ns);
//
// Per ACK on EV e with n hops (docs/hpcc.md, "Sprayed HPCC"):
//   - n or the multiplier differs from the flow's: every path is dropped
//     (the fabric changed under the flow); the flow takes the new n.
//   - e has no path slot: it gets one (a free one, else the least recently
//     seen path's: largest NIC-time age, ties the lowest slot), starting from
//     this ACK's records with U_e = the flow's U (as HPCC keeps U over a path
//     change). No measurement.
//   - e's history is older than history_timeout, or the stack says another
//     path (HPCC's rules): e's records are reset, U_e kept. No measurement.
//   - otherwise U_e is updated exactly as HPCC updates U (hpcc.h), and
//         U = max(U_e, U_p over the flow's other paths heard within T)
//     drives HPCC's window law unchanged; when U_e > eta and another path
//     heard within T has U_p <= eta, the action also carries kActChangeEv
//     with ev = e (the path signal: the driver gives the spray policy kEcn
//     for e, so REPS stops recycling it).
// Slots: at most kMaxPaths, and at most kHopRecords / n (records are a pool
// cut into n-record histories): 4 paths up to 3 hops, 3 at 4 hops, 2 at 5.
// Work per ACK: the EV lookup, the max and min over kMaxPaths, the hops once.
//
// Units as hpcc.h: windows in 1/16 B, U in Q20, NIC time in ns (wrapping).
#ifndef NICC_HPCC_SPRAY_H_
#define NICC_HPCC_SPRAY_H_

#include "nicc/common.h"
#include "nicc/hpcc.h"
#include "nicc/int_codec.h"

namespace nicc {
namespace hpcc_spray {

// Paths a flow keeps a history for: REPS' working set at ev_bits = 2, the
// spraying width the sprayed-HPCC budget (192 B with REPS) was sized for.
constexpr uint32_t kMaxPaths = 4;
// The pool of hop records: 12 x 8 B, 4 paths of a 2-tier Clos (3 switch
// hops). Exact records (HPCC's arithmetic needs all 61 bits of each), so the
// path count, not the precision, gives at 4 and 5 hops.
constexpr uint32_t kHopRecords = 12;
static_assert(kHopRecords >= kIntMaxHops, "one path of the longest stack fits");

struct State {
  uint64_t hop_word[kHopRecords];       // path p: hop_word[p n .. p n + n), each hop's last record
  uint32_t path_u_q20[kMaxPaths];       // U of each path, Q20, <= kUCapQ20
  TimeNs path_last_ns[kMaxPaths];       // NIC time of each path's last ACK
  uint16_t path_ev[kMaxPaths];          // each path's EV (UDP source port)
  uint32_t wc_q4;                       // reference window Wc, 1/16 B
  uint32_t w_q4;                        // window of the last action, 1/16 B
  uint32_t u_q20;                       // U of the last measurement: max over live paths
  uint32_t last_update_seq;             // snd_nxt at the last commit (full update)
  uint8_t stage;                        // incStage, 0..max_stage
  uint8_t hop_count;                    // n of every path; hpcc::kNoHistory if none
  uint8_t mult_log2;                    // INT multiplier of every path
  uint8_t path_count;                   // slots in use, 0..PathCap(hop_count)
};
static_assert(sizeof(State) <= 160, "sprayed-HPCC per-flow budget: 160 B (+ REPS 24 + key 4 <= 192)");

// No other path in use (the path signal's "least loaded other path").
constexpr uint32_t kNoOtherPath = 0xFFFFFFFFu;

// Path slots a flow with n-hop stacks can keep.
constexpr uint32_t PathCap(uint32_t n) {
  return n == 0 || kHopRecords / n >= kMaxPaths ? kMaxPaths : kHopRecords / n;
}
static_assert(PathCap(3) == 4 && PathCap(4) == 3 && PathCap(kIntMaxHops) == 2, "pool split");

// A new flow: window and rate at the line-rate BDP, U = 0, no paths.
inline void Init(const hpcc::Config& cfg, State* s, uint32_t start_seq) {
  *s = State{};
  s->wc_q4 = cfg.w_max_q4;
  s->w_q4 = cfg.w_max_q4;
  s->last_update_seq = start_seq;
  s->hop_count = hpcc::kNoHistory;
}

inline uint32_t WindowBytes(const State& s) {
  return (s.w_q4 >> hpcc::kWinFracBits) + ((s.w_q4 >> (hpcc::kWinFracBits - 1)) & 1u);
}

inline uint32_t RateKbps(const hpcc::Config& cfg, const State& s) {
  // As hpcc::RateKbps: W_q4 * rate_k <= B_kbps * 2^32.
  return static_cast<uint32_t>((s.w_q4 * cfg.rate_k_q32 + (uint64_t{1} << 31)) >> 32);
}

namespace detail {

inline void CopyRecords(uint64_t* dst, const IntStack& st, uint32_t n) {
  for (uint32_t i = 0; i < kIntMaxHops && i < n; ++i) dst[i] = st.hops[i].word;
}

// The slot of `ev`, or a new one (free, else the least recently seen).
// *fresh: the slot was (re)assigned to ev.
inline uint32_t FindPath(State* s, uint16_t ev, TimeNs now_ns, bool* fresh) {
  const uint32_t count = s->path_count;
  for (uint32_t p = 0; p < kMaxPaths && p < count; ++p) {
    if (s->path_ev[p] == ev) {
      *fresh = false;
      return p;
    }
  }
  *fresh = true;
  if (count < PathCap(s->hop_count)) {
    s->path_count = static_cast<uint8_t>(count + 1u);
    return count;
  }
  uint32_t lru = 0;
  uint32_t lru_age = 0;
  for (uint32_t p = 0; p < kMaxPaths && p < count; ++p) {
    const uint32_t age = ElapsedNs(now_ns, s->path_last_ns[p]);
    if (p == 0 || age > lru_age) {  // ties: the lowest slot
      lru = p;
      lru_age = age;
    }
  }
  return lru;
}

}  // namespace detail

// An ACK that came back on EV `ev` with an INT stack. Returns
// kActSetWindow|kActSetRate when it gave a measurement, nothing otherwise
// (see the banner), plus kActChangeEv with `ev` for the path signal.
inline Action OnAck(const hpcc::Config& cfg, State* s, uint32_t ack_seq, uint32_t snd_nxt, uint16_t ev,
                    const IntStack& int_stack, TimeNs now_ns) {
  const uint32_t n = int_stack.hop_count;
  NICC_ASSERT(n <= kIntMaxHops);
  if (n > kIntMaxHops) return Action::None();  // not from DecodeIntStack()
  if (n != s->hop_count || int_stack.mult_log2 != s->mult_log2) {
    s->hop_count = static_cast<uint8_t>(n);  // every path is dropped
    s->mult_log2 = int_stack.mult_log2;
    s->path_count = 0;
  }
  bool fresh = false;
  const uint32_t p = detail::FindPath(s, ev, now_ns, &fresh);  // < PathCap(n), so p n + n <= 12
  uint64_t* hist = s->hop_word + p * n;
  const TimeNs last_ns = s->path_last_ns[p];
  s->path_last_ns[p] = now_ns;
  if (fresh) {
    s->path_ev[p] = ev;
    s->path_u_q20[p] = s->u_q20;
    detail::CopyRecords(hist, int_stack, n);
    return Action::None();
  }
  if (TimeDiffNs(now_ns, last_ns) > static_cast<int32_t>(cfg.history_ns)) {  // < 2^23: as ElapsedNs()
    detail::CopyRecords(hist, int_stack, n);  // expired: U_e kept
    return Action::None();
  }
  const hpcc::detail::Sample r = hpcc::detail::UpdateHistory(cfg, hist, &s->path_u_q20[p], int_stack);
  if (r == hpcc::detail::Sample::kPathChange) {
    detail::CopyRecords(hist, int_stack, n);
    return Action::None();
  }
  if (r == hpcc::detail::Sample::kNone) return Action::None();
  // Max over the paths in use (heard within T, this one included): the most
  // loaded path the flow sends on sets the window. The least loaded other
  // path in use decides the path signal.
  const uint32_t up = s->path_u_q20[p];
  uint32_t u = up;
  uint32_t u_other = kNoOtherPath;
  for (uint32_t q = 0; q < kMaxPaths && q < s->path_count; ++q) {
    // As ElapsedNs(now, last) > T (T <= 1 ms), without the clamp at zero.
    if (q == p || TimeDiffNs(now_ns, s->path_last_ns[q]) > static_cast<int32_t>(cfg.t_ns)) continue;
    const uint32_t uq = s->path_u_q20[q];
    u = MaxU32(u, uq);
    u_other = MinU32(u_other, uq);
  }
  s->u_q20 = u;
  Action a = hpcc::detail::ApplyWindowLaw(cfg, s, ack_seq, snd_nxt);
  // The path signal: this path is above HPCC's target and another in use is
  // not, so the spray policy moves traffic off it (kActChangeEv on this EV:
  // the driver gives the policy kEcn for it, as for an ECN mark).
  if (up > cfg.eta_q20 && u_other <= cfg.eta_q20) {
    a.flags = static_cast<uint8_t>(a.flags | kActChangeEv);
    a.ev = ev;
  }
  return a;
}

}  // namespace hpcc_spray
}  // namespace nicc

#endif  // NICC_HPCC_SPRAY_H_
