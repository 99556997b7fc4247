// fuzz_fw_abi.cc — fuzz target `fw-abi`: the firmware C ABI (nicc/fw.h) with
// arbitrary parameters and an arbitrary stream of events.
//
// Input: the first sizeof(nicc_fw_params) bytes are the parameter struct,
// every field as given (shorter inputs are ignored); then key, seed and
// start_seq of one sender context (4 bytes each) and the CC of a second
// receiver context's sender (4 bytes); then records of 32 bytes:
//   [0]      operation: bits 2..0: 0-3 sender event, 4 receiver event,
//            5 receiver event on the port, 6 select_ev, 7 receiver close
//            (bit 3 set: re-initialise a sender context instead);
//            bit 4: the second receiver context
//   [1]      event kind (any value)     [2..5]   time step, ns (any: wraps)
//   [6..9]   bytes   [10..13] seq   [14..17] snd_nxt   [18..21] rtt_ns
//   [22..23] ev      [24] ecn      [25] pint_code     [26] has_pint
//   [27]     INT stack length L: 255 = no stack (NULL), else L bytes follow
//            the record (an exact-size copy: a read past L is a report)
//   [28..31] credit
// Invariants, every one derived from nicc/fw.h and the engine's tables
// (nicc/param_tables.h), not from a copy:
//   - every status any call returns is one of NICC_STATUS_CODES;
//   - a field outside its table row's [min, max], a cc or a spray policy
//     past its list, is refused; a refusal names a field of those tables,
//     leaves the configuration it was given untouched (the previous one
//     stays usable) and runs nothing;
//   - with a valid configuration, after every call: the sender's rate is
//     within [min, max] of its CC (DCQCN: rp_min_rate .. rp_max_rate or
//     the line rate; HPCC, NSCC: the floor window over the base RTT .. the
//     line rate; none: the driver's line rate) and its window within
//     [floor, ceiling] (HPCC: min window .. BDP; NSCC: min window .. BDP x
//     max_window_pct; nscc+rccc: 0 .. that; rate-based CCs: 0); an action's
//     rate and window are the flow's; sender calls never ask for a CNP or a
//     credit grant, receiver calls nothing else; a call that fails returns
//     no action and leaves its context as it was.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "fuzz_check.h"
#include "nicc/fw.h"

namespace {

#define NICC_FUZZ_CODE_(tok, ctok, code, key, doc) NICC_FW_##ctok,
const int kNamedCodes[] = {NICC_STATUS_CODES(NICC_FUZZ_CODE_)};
#undef NICC_FUZZ_CODE_

bool Named(int code) {
  for (int c : kNamedCodes)
    if (c == code) return true;
  return false;
}

// Every field name a refusal may give: each table's rows, and the two
// enumerated selectors.
#define NICC_FUZZ_NAME_(name, unit, min, max, values, flags, doc) #name,
const char* const kFieldNames[] = {
    "cc", "policy",
    NICC_DRIVER_PARAMS(NICC_FUZZ_NAME_) NICC_DCQCN_PARAMS(NICC_FUZZ_NAME_)
        NICC_HPCC_PARAMS(NICC_FUZZ_NAME_) NICC_NSCC_PARAMS(NICC_FUZZ_NAME_)
            NICC_RCCC_PARAMS(NICC_FUZZ_NAME_) NICC_SPRAY_PARAMS(NICC_FUZZ_NAME_)
                NICC_ECN_RULE_PARAMS(NICC_FUZZ_NAME_)};
#undef NICC_FUZZ_NAME_

bool KnownField(const char* f) {
  if (f == nullptr) return false;
  for (const char* n : kFieldNames)
    if (std::strcmp(n, f) == 0) return true;
  return false;
}

bool InRange(uint32_t v, uint64_t min, uint64_t max) {
  return v >= min && v <= max;
}

// Whether every field is inside its row's range and the selectors inside
// their lists (necessary for a valid configuration, not sufficient).
bool FieldsInRange(const nicc_fw_params& p) {
  bool ok = p.cc < NICC_FW_CC_COUNT && p.spray.policy < NICC_FW_SPRAY_COUNT;
#define NICC_FUZZ_DRIVER_(name, unit, min, max, values, flags, doc) \
  ok = ok && InRange(p.driver.name, min, max);
#define NICC_FUZZ_DCQCN_(name, unit, min, max, values, flags, doc) \
  ok = ok && InRange(p.dcqcn.name, min, max);
#define NICC_FUZZ_HPCC_(name, unit, min, max, values, flags, doc) \
  ok = ok && InRange(p.hpcc.name, min, max);
#define NICC_FUZZ_NSCC_(name, unit, min, max, values, flags, doc) \
  ok = ok && InRange(p.nscc.name, min, max);
#define NICC_FUZZ_RCCC_(name, unit, min, max, values, flags, doc) \
  ok = ok && InRange(p.rccc.name, min, max);
#define NICC_FUZZ_SPRAY_(name, unit, min, max, values, flags, doc) \
  ok = ok && InRange(p.spray.name, min, max);
#define NICC_FUZZ_ECN_(name, unit, min, max, values, flags, doc) \
  ok = ok && InRange(p.ecn_rule.name, min, max);
  NICC_DRIVER_PARAMS(NICC_FUZZ_DRIVER_)
  NICC_DCQCN_PARAMS(NICC_FUZZ_DCQCN_)
  NICC_HPCC_PARAMS(NICC_FUZZ_HPCC_)
  NICC_NSCC_PARAMS(NICC_FUZZ_NSCC_)
  NICC_RCCC_PARAMS(NICC_FUZZ_RCCC_)
  NICC_SPRAY_PARAMS(NICC_FUZZ_SPRAY_)
  NICC_ECN_RULE_PARAMS(NICC_FUZZ_ECN_)
#undef NICC_FUZZ_DRIVER_
#undef NICC_FUZZ_DCQCN_
#undef NICC_FUZZ_HPCC_
#undef NICC_FUZZ_NSCC_
#undef NICC_FUZZ_RCCC_
#undef NICC_FUZZ_SPRAY_
#undef NICC_FUZZ_ECN_
  return ok;
}

// A sender's bounds under a valid configuration, from its parameters.
struct Bounds {
  uint32_t rate_min, rate_max, win_min, win_max;
};

// Rate of `window` bytes per base RTT in kb/s, less the engines' rounding
// (their window-to-rate constants are rounded to 2^-16 of their value).
uint32_t FloorRate(uint32_t window, uint32_t base_rtt_ns, uint32_t line_kbps) {
  const uint64_t r = uint64_t{window} * 8000000u / base_rtt_ns;
  const uint64_t lo = r - r / 32768u - (r > 0 ? 1u : 0u);
  return static_cast<uint32_t>(lo < line_kbps ? lo : line_kbps);
}

Bounds BoundsOf(const nicc_fw_params& p) {
  switch (p.cc) {
    case NICC_FW_CC_NONE:
      return Bounds{p.driver.line_rate_mbps * 1000u, p.driver.line_rate_mbps * 1000u, 0, 0};
    case NICC_FW_CC_DCQCN: {
      const uint32_t max = p.dcqcn.rp_max_rate != 0 ? p.dcqcn.rp_max_rate : p.dcqcn.line_rate_mbps;
      return Bounds{p.dcqcn.rp_min_rate * 1000u, max * 1000u, 0, 0};
    }
    case NICC_FW_CC_HPCC:
    case NICC_FW_CC_HPCC_PINT:
    case NICC_FW_CC_HPCC_SPRAY: {
      const uint64_t bdp = uint64_t{p.hpcc.line_rate_mbps} * p.hpcc.base_rtt_ns / 8000u;
      const uint32_t line = p.hpcc.line_rate_mbps * 1000u;
      return Bounds{FloorRate(p.hpcc.min_window_bytes, p.hpcc.base_rtt_ns, line), line,
                    p.hpcc.min_window_bytes, static_cast<uint32_t>(bdp)};
    }
    default: {  // NSCC, NSCC + RCCC
      const uint64_t bdp = uint64_t{p.nscc.line_rate_mbps} * p.nscc.base_rtt_ns / 8000u;
      const uint32_t line = p.nscc.line_rate_mbps * 1000u;
      const uint32_t wmax = static_cast<uint32_t>(bdp * p.nscc.max_window_pct / 100u);
      const bool credit = p.cc == NICC_FW_CC_NSCC_RCCC;
      return Bounds{FloorRate(p.nscc.min_window_bytes, p.nscc.base_rtt_ns, line), line,
                    credit ? 0u : p.nscc.min_window_bytes, wmax};
    }
  }
}

bool HasWindow(uint32_t cc) {
  return cc != NICC_FW_CC_NONE && cc != NICC_FW_CC_DCQCN;
}

uint32_t Le32(const uint8_t* b) {
  return uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
}

// Storage of exactly `n` bytes (a context of the size the ABI asks for):
// an access past it is a sanitizer report.
struct Exact {
  explicit Exact(size_t n)
      : bytes(n), p(static_cast<unsigned char*>(std::malloc(n == 0 ? 1 : n))) {}
  ~Exact() { std::free(p); }
  Exact(const Exact&) = delete;
  Exact& operator=(const Exact&) = delete;
  size_t bytes;
  unsigned char* p;
};

void CheckSender(const nicc_fw_params& p, const Bounds& b, const nicc_fw_config* cfg,
                 const nicc_fw_flow* flow, const nicc_fw_action* a, const char* call) {
  const uint32_t rate = nicc_fw_rate_kbps(cfg, flow);
  const uint32_t window = nicc_fw_window_bytes(cfg, flow);
  NICC_FUZZ_CHECK(rate >= b.rate_min && rate <= b.rate_max,
                  "%s (cc %u): rate %u kb/s outside [%u, %u]", call, p.cc, rate, b.rate_min,
                  b.rate_max);
  NICC_FUZZ_CHECK(window >= b.win_min && window <= b.win_max,
                  "%s (cc %u): window %u outside [%u, %u]", call, p.cc, window, b.win_min,
                  b.win_max);
  if (a == nullptr) return;
  NICC_FUZZ_CHECK((a->flags & (NICC_FW_ACT_SEND_CNP | NICC_FW_ACT_GRANT_CREDIT)) == 0,
                  "%s (cc %u): a sender's action with flags 0x%x", call, p.cc, a->flags);
  if (a->flags & NICC_FW_ACT_SET_RATE)
    NICC_FUZZ_CHECK(a->rate_kbps == rate, "%s (cc %u): action rate %u, flow %u", call, p.cc,
                    a->rate_kbps, rate);
  if (a->flags & NICC_FW_ACT_SET_WINDOW) {
    NICC_FUZZ_CHECK(HasWindow(p.cc), "%s (cc %u): set_window from a rate-based CC", call, p.cc);
    NICC_FUZZ_CHECK(a->window_bytes == window, "%s (cc %u): action window %u, flow %u", call, p.cc,
                    a->window_bytes, window);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < sizeof(nicc_fw_params)) return 0;
  nicc_fw_params p;
  std::memcpy(&p, data, sizeof p);
  data += sizeof p;
  size -= sizeof p;

  // A configuration that holds a valid one before the call.
  nicc_fw_params defaults;
  NICC_FUZZ_CHECK(nicc_fw_params_default(&defaults, 100000) == NICC_FW_OK, "defaults");
  nicc_fw_config cfg, before;
  std::memset(&cfg, 0, sizeof cfg);
  NICC_FUZZ_CHECK(nicc_fw_configure(&cfg, &defaults, nullptr) == NICC_FW_OK,
                  "the defaults are refused");
  std::memcpy(&before, &cfg, sizeof cfg);

  const char* bad = nullptr;
  const int code = nicc_fw_configure(&cfg, &p, &bad);
  NICC_FUZZ_CHECK(Named(code), "configure returned %d", code);
  if (!FieldsInRange(p))
    NICC_FUZZ_CHECK(code != NICC_FW_OK, "a field outside its range was accepted");
  if (code != NICC_FW_OK) {
    NICC_FUZZ_CHECK(KnownField(bad), "refusal %d names '%s'", code, bad ? bad : "(null)");
    NICC_FUZZ_CHECK(std::memcmp(&cfg, &before, sizeof cfg) == 0,
                    "refusal %d (%s) changed the configuration it was given", code, bad);
    return 0;
  }
  const Bounds b = BoundsOf(p);
  const size_t flow_bytes = nicc_fw_flow_bytes(&cfg);
  const size_t rx_bytes = nicc_fw_rx_flow_bytes(&cfg);
  NICC_FUZZ_CHECK(flow_bytes > 0 && flow_bytes <= NICC_FW_FLOW_BYTES && flow_bytes % 8 == 0,
                  "flow bytes %zu", flow_bytes);
  NICC_FUZZ_CHECK(rx_bytes > 0 && rx_bytes <= NICC_FW_RX_FLOW_BYTES, "rx flow bytes %zu", rx_bytes);

  if (size < 16) return 0;
  Exact flow_mem(flow_bytes), snap(flow_bytes);
  Exact rx_mem[2] = {Exact(rx_bytes), Exact(rx_bytes)};
  Exact rx_snap(rx_bytes);
  auto* flow = reinterpret_cast<nicc_fw_flow*>(flow_mem.p);
  nicc_fw_rx_flow* rx[2] = {reinterpret_cast<nicc_fw_rx_flow*>(rx_mem[0].p),
                            reinterpret_cast<nicc_fw_rx_flow*>(rx_mem[1].p)};
  nicc_fw_port port, port_snap;
  nicc_fw_flow_init(&cfg, flow, Le32(data), Le32(data + 4), Le32(data + 8));
  CheckSender(p, b, &cfg, flow, nullptr, "flow_init");
  nicc_fw_rx_flow_init(&cfg, rx[0], Le32(data));
  nicc_fw_rx_flow_init(&cfg, rx[1], Le32(data));  // before init_cc: a refused CC leaves it
  std::memcpy(rx_snap.p, rx[1], rx_bytes);
  const uint32_t sender_cc = Le32(data + 12);
  const int cc_code = nicc_fw_rx_flow_init_cc(&cfg, rx[1], Le32(data) + 1, sender_cc);
  NICC_FUZZ_CHECK(Named(cc_code), "rx_flow_init_cc returned %d", cc_code);
  NICC_FUZZ_CHECK((cc_code == NICC_FW_OK) == (sender_cc < NICC_FW_CC_COUNT),
                  "rx_flow_init_cc(%u) returned %d", sender_cc, cc_code);
  if (cc_code != NICC_FW_OK)
    NICC_FUZZ_CHECK(std::memcmp(rx_snap.p, rx[1], rx_bytes) == 0,
                    "refused rx_flow_init_cc changed the context");
  const uint32_t rx_cc[2] = {p.cc, cc_code == NICC_FW_OK ? sender_cc : p.cc};
  nicc_fw_port_init(&cfg, &port);
  data += 16;
  size -= 16;

  uint32_t now = 0;
  while (size >= 32) {
    const uint8_t* r = data;
    data += 32;
    size -= 32;
    nicc_fw_event ev;
    std::memset(&ev, 0, sizeof ev);
    ev.kind = r[1];
    now += Le32(r + 2);
    ev.bytes = Le32(r + 6);
    ev.seq = Le32(r + 10);
    ev.snd_nxt = Le32(r + 14);
    ev.rtt_ns = Le32(r + 18);
    ev.ev = static_cast<uint16_t>(r[22] | (r[23] << 8));
    ev.ecn = r[24];
    ev.pint_code = r[25];
    ev.has_pint = r[26];
    ev.credit = Le32(r + 28);
    std::unique_ptr<uint8_t[]> stack;
    if (r[27] != 255) {
      const size_t len = r[27] < size ? r[27] : size;
      stack.reset(new uint8_t[len == 0 ? 1 : len]);
      if (len != 0) std::memcpy(stack.get(), data, len);
      ev.int_stack = stack.get();
      ev.int_len = static_cast<uint16_t>(len);
      data += len;
      size -= len;
    }
    const uint32_t op = r[0] & 7u;
    const uint32_t which = (r[0] >> 4) & 1u;
    nicc_fw_action act;
    std::memset(&act, 0x5A, sizeof act);
    if (op <= 3) {
      std::memcpy(snap.p, flow, flow_bytes);
      const int st = nicc_fw_on_event(&cfg, flow, &ev, now, &act);
      NICC_FUZZ_CHECK(Named(st), "on_event (kind %u) returned %d", ev.kind, st);
      if (st != NICC_FW_OK) {
        NICC_FUZZ_CHECK(act.flags == 0, "on_event error %d with action flags 0x%x", st, act.flags);
        NICC_FUZZ_CHECK(std::memcmp(snap.p, flow, flow_bytes) == 0,
                        "on_event error %d changed the flow", st);
      }
      CheckSender(p, b, &cfg, flow, &act, "on_event");
    } else if (op == 4 || op == 5) {
      std::memcpy(rx_snap.p, rx[which], rx_bytes);
      std::memcpy(&port_snap, &port, sizeof port);
      const int st = op == 4 ? nicc_fw_on_rx_event(&cfg, rx[which], &ev, now, &act)
                             : nicc_fw_on_rx_port_event(&cfg, &port, rx[which], &ev, now, &act);
      NICC_FUZZ_CHECK(Named(st), "rx event (kind %u) returned %d", ev.kind, st);
      if (st != NICC_FW_OK) {
        NICC_FUZZ_CHECK(act.flags == 0, "rx event error %d with action flags 0x%x", st, act.flags);
        NICC_FUZZ_CHECK(std::memcmp(rx_snap.p, rx[which], rx_bytes) == 0 &&
                            std::memcmp(&port_snap, &port, sizeof port) == 0,
                        "rx event error %d changed the receiver", st);
      }
      const uint32_t allowed =
          (rx_cc[which] == NICC_FW_CC_DCQCN ? NICC_FW_ACT_SEND_CNP : 0u) |
          (rx_cc[which] == NICC_FW_CC_NSCC_RCCC && op == 5 ? NICC_FW_ACT_GRANT_CREDIT : 0u);
      NICC_FUZZ_CHECK((act.flags & ~allowed) == 0, "rx event (sender cc %u) asked for flags 0x%x",
                      rx_cc[which], act.flags);
    } else if (op == 6) {
      nicc_fw_select_ev(&cfg, flow, now);
      CheckSender(p, b, &cfg, flow, nullptr, "select_ev");
    } else if (r[0] & 8u) {
      nicc_fw_flow_init(&cfg, flow, ev.seq, ev.snd_nxt, ev.bytes);
      CheckSender(p, b, &cfg, flow, nullptr, "flow_init");
    } else {
      nicc_fw_rx_flow_close(&cfg, &port, rx[which]);
    }
  }
  return 0;
}
