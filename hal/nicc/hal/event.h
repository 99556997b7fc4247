// nicc/hal/event.h — the events a backend delivers to the engine.
//
// A backend (firmware, ns-3, verbs host shim, vector runner) turns what it
// sees into Event records and hands them to a Driver (driver.h) with the
// current NIC time. One record type for every kind keeps the dispatch a
// single switch; fields a kind does not use are ignored (leave them 0).
//
//   nicc::IntStack stack;                         // HPCC: decoded once, where
//   if (!nicc::DecodeIntStack(buf, len, &stack).ok()) drop;  // the packet arrives
//   nicc::hal::Event e = nicc::hal::Event::Ack(/*seq=*/4096, snd_nxt, /*ecn=*/false, ev);
//   e.int_stack = &stack;
//   driver.Deliver(flow, e, now_ns);
//
// INT arrives decoded: the backend runs the engine's codec (int_codec.h) on
// the wire bytes where the packet arrives, drops (and counts) a malformed
// stack, and hands the engine the decoded IntStack; no layer decodes again.
//
// Units: bytes, ns (32-bit NIC clock, see common.h), UDP source ports.
#ifndef NICC_HAL_EVENT_H_
#define NICC_HAL_EVENT_H_

#include "nicc/common.h"
#include "nicc/int_codec.h"

namespace nicc {
namespace hal {

enum class EventKind : uint8_t {
  kTxDone = 0,   // sender: `bytes` of this flow left the NIC
  kAck = 1,      // sender: an ACK; seq, ecn, ev, rtt_ns, INT stack or PINT value
  kNack = 2,     // sender: a NACK or trimmed-packet notice for a packet sent on ev
  kCnp = 3,      // sender: a CNP for this flow
  kTimer = 4,    // sender: the flow's timer (armed by an action) fired
  kRxData = 5,   // receiver: a data packet of this flow arrived; ecn = CE mark (RCCC: seq, bytes, snd_nxt)
  kTimeout = 6,  // sender: a retransmission timeout for a packet sent on ev
};
constexpr uint32_t kEventKindCount = 7;

struct Event {
  const IntStack* int_stack;  // kAck (HPCC): the decoded INT stack, or nullptr (none)
  // kTxDone: bytes sent; kAck: bytes newly acknowledged; kNack: bytes
  // lost/trimmed; kRxData (RCCC): the packet's payload bytes.
  uint32_t bytes;
  // kAck: cumulative acknowledged sequence (bytes); kRxData (RCCC): the
  // sequence after this packet's payload (its end).
  uint32_t seq;
  // kAck, kNack: the next sequence the sender will send; kRxData (RCCC): the
  // sender's backlog end, the absolute sequence up to which it has data
  // queued (the data packet carries it; at most 2^30 beyond `seq`).
  uint32_t snd_nxt;
  uint32_t rtt_ns;           // kAck: RTT sample; 0 = none
  // kAck (RCCC, cc = nscc+rccc): the credit limit the receiver granted, an
  // absolute byte sequence (what its kActGrantCredit put in the ACK).
  uint32_t credit;
  uint16_t ev;               // kAck/kNack/kTimeout: UDP source port the packet used; 0 = unknown
  EventKind kind;
  uint8_t ecn;               // kAck: ECN-echo; kRxData: CE mark
  uint8_t pint_code;         // kAck (HPCC-PINT): utilisation code (int_codec.h)
  uint8_t has_pint;          // kAck: 1 when pint_code is present
  // kNack: 1 = the NACK answers a packet a switch trimmed (UEC trim
  // feedback), 0 = a gap seen by the receiver. Spray policies treat both as
  // Feedback::kNack; it is the hook NSCC's quick adapt reads.
  uint8_t trimmed;
  uint8_t reserved;

  static constexpr Event Of(EventKind k) { return Event{nullptr, 0, 0, 0, 0, 0, 0, k, 0, 0, 0, 0, 0}; }
  static constexpr Event TxDone(uint32_t bytes) {
    return Event{nullptr, bytes, 0, 0, 0, 0, 0, EventKind::kTxDone, 0, 0, 0, 0, 0};
  }
  // An ACK up to `seq`, sent on port `ev`, with the sender's next sequence.
  static constexpr Event Ack(uint32_t seq, uint32_t snd_nxt, bool ecn, uint16_t ev) {
    return Event{nullptr, 0, seq, snd_nxt, 0, 0, ev, EventKind::kAck, static_cast<uint8_t>(ecn), 0, 0, 0, 0};
  }
  // A NACK for a packet sent on port `ev`; `trimmed`: it answers a trim.
  static constexpr Event Nack(uint16_t ev, bool trimmed = false) {
    return Event{nullptr, 0, 0, 0, 0, 0, ev, EventKind::kNack, 0, 0, 0, static_cast<uint8_t>(trimmed), 0};
  }
  static constexpr Event Cnp() { return Of(EventKind::kCnp); }
  static constexpr Event Timer() { return Of(EventKind::kTimer); }
  static constexpr Event RxData(bool ce) {
    return Event{nullptr, 0, 0, 0, 0, 0, 0, EventKind::kRxData, static_cast<uint8_t>(ce), 0, 0, 0, 0};
  }
  // RCCC: a data packet whose payload (`bytes`) ends at `seq_end`, its
  // sender reporting data queued up to `backlog_end`.
  static constexpr Event RxData(bool ce, uint32_t seq_end, uint32_t bytes, uint32_t backlog_end) {
    return Event{nullptr, bytes, seq_end, backlog_end, 0, 0, 0, EventKind::kRxData, static_cast<uint8_t>(ce),
                 0, 0, 0, 0};
  }
  // This event with the credit limit an ACK carries (RCCC).
  constexpr Event WithCredit(uint32_t c) const {
    return Event{int_stack, bytes, seq, snd_nxt, rtt_ns, c, ev, kind, ecn, pint_code, has_pint, trimmed, reserved};
  }
  static constexpr Event Timeout(uint16_t ev) {
    return Event{nullptr, 0, 0, 0, 0, 0, ev, EventKind::kTimeout, 0, 0, 0, 0, 0};
  }
};

// Human-readable name of an event kind (tools, traces, vector files).
constexpr const char* EventKindName(EventKind k) {
  switch (k) {
    case EventKind::kTxDone: return "tx";
    case EventKind::kAck: return "ack";
    case EventKind::kNack: return "nack";
    case EventKind::kCnp: return "cnp";
    case EventKind::kTimer: return "timer";
    case EventKind::kRxData: return "rx";
    case EventKind::kTimeout: return "timeout";
  }
  return "?";
}

}  // namespace hal
}  // namespace nicc

#endif  // NICC_HAL_EVENT_H_
