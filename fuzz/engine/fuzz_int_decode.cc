// fuzz_int_decode.cc — fuzz target `int-decode`: wire bytes as INT stacks
// (nicc/int_codec.h), every stack that decodes fed to an HPCC flow, a
// sprayed-HPCC flow (nicc/hpcc.h, nicc/hpcc_spray.h) and, as a PINT code, an
// HPCC-PINT flow of a valid configuration.
//
// Input:
//   byte 0      HPCC profile (mod the profile count)
//   byte 1      bit i set: row i of HPCC's parameter table takes the next
//               4 bytes (big-endian) mapped into the row's [min, max];
//               a combination Validate() refuses falls back to the profile
//   then records, each: 8 header bytes
//     [0]       stack length L (0..127; the low 7 bits)
//     [1..2]    time step, ns, signed 16-bit, times 16 (time may go back)
//     [3]       ack_seq step (x 1024 B); [4] snd_nxt lead (x 1024 B)
//     [5..6]    entropy value of the ACK (sprayed HPCC); [7] PINT code
//   followed by L bytes: the stack as on the wire, decoded from an
//   exact-size copy (a read past L is a sanitizer report).
// Invariants: a refused stack has hop_count 0 and the codec's status for
// the first rule it breaks (header, count, records, rate codes, in that
// order); a decoded one has at most kIntMaxHops hops, non-zero rate codes,
// and encodes back to the same bytes (bits 7..3 of byte 1 are reserved);
// after every ACK each flow's window is within [min_window_bytes, BDP], its
// rate within [min window / T, line rate], U at most kUCapQ20, the stage at
// most max_stage, and an action's window and rate are the flow's.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "fuzz_check.h"
#include "nicc/hpcc.h"
#include "nicc/hpcc_spray.h"
#include "nicc/int_codec.h"

namespace {

namespace hp = nicc::hpcc;
namespace hs = nicc::hpcc_spray;

struct Reader {
  const uint8_t* p;
  size_t n;
  bool Take(size_t k, const uint8_t** out) {
    if (n < k) return false;
    *out = p;
    p += k;
    n -= k;
    return true;
  }
};

uint32_t Be32(const uint8_t* b) {
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

// Parameters from the input, each overridden row inside its table range.
hp::Params ParamsFrom(Reader* in) {
  const uint8_t* head;
  if (!in->Take(2, &head)) return hp::Params::HpccPaper();
  const auto profile = static_cast<hp::Profile>(head[0] % hp::kProfileCount);
  hp::Params p = hp::Params::Of(profile);
  for (uint32_t i = 0; i < hp::kParamTable.count && i < 8; ++i) {
    const uint8_t* v;
    if (!(head[1] & (1u << i)) || !in->Take(4, &v)) continue;
    const nicc::ParamDesc<hp::Params>& row = hp::kParamTable.rows[i];
    const uint64_t span = uint64_t{row.max} - row.min + 1u;
    p.*(row.member) = static_cast<uint32_t>(row.min + Be32(v) % span);
  }
  return p.Validate().ok() ? p : hp::Params::Of(profile);
}

// What DecodeIntStack must return for buf[0..len), from the wire format's
// rules in their documented order.
nicc::StatusCode Expected(const uint8_t* buf, size_t len) {
  if (len < nicc::kIntHeaderBytes) return nicc::StatusCode::kTruncated;
  const uint32_t n = buf[0];
  if (n > nicc::kIntMaxHops) return nicc::StatusCode::kTooManyHops;
  if (len < nicc::kIntHeaderBytes + nicc::kIntHopBytes * n) return nicc::StatusCode::kTruncated;
  for (uint32_t i = 0; i < n; ++i)
    if ((buf[nicc::kIntHeaderBytes + nicc::kIntHopBytes * i] >> 5) == 0)
      return nicc::StatusCode::kBadRateCode;
  return nicc::StatusCode::kOk;
}

void CheckDecode(const uint8_t* buf, size_t len, const nicc::Status& st, const nicc::IntStack& s) {
  const nicc::StatusCode want = Expected(buf, len);
  NICC_FUZZ_CHECK(st.code == want, "decode of %zu bytes: status %s, the format says %s", len,
                  nicc::StatusCodeKey(st.code), nicc::StatusCodeKey(want));
  if (!st.ok()) {
    NICC_FUZZ_CHECK(s.hop_count == 0, "refused stack left hop_count %u", s.hop_count);
    NICC_FUZZ_CHECK(st.field != nullptr && st.field[0] != '\0',
                    "refused stack without a field name");
    return;
  }
  NICC_FUZZ_CHECK(s.hop_count <= nicc::kIntMaxHops, "hop_count %u", s.hop_count);
  NICC_FUZZ_CHECK(s.mult_log2 == (buf[1] & nicc::kIntMaxMultLog2), "mult_log2 %u from byte %u",
                  s.mult_log2, buf[1]);
  for (uint32_t i = 0; i < s.hop_count; ++i)
    NICC_FUZZ_CHECK(s.hops[i].rate_code() != 0 && nicc::IntRateGbps(s.hops[i].rate_code()) != 0,
                    "hop %u: rate code %u", i, s.hops[i].rate_code());
  uint8_t out[nicc::kIntHeaderBytes + nicc::kIntHopBytes * nicc::kIntMaxHops];
  size_t written = 0;
  const nicc::Status es = nicc::EncodeIntStack(s, out, sizeof out, &written);
  NICC_FUZZ_CHECK(es.ok(), "decoded stack does not encode: %s", nicc::StatusCodeKey(es.code));
  NICC_FUZZ_CHECK(written == nicc::IntStackBytes(s.hop_count), "encoded %zu bytes for %u hops",
                  written, s.hop_count);
  NICC_FUZZ_CHECK(out[0] == buf[0] && out[1] == (buf[1] & nicc::kIntMaxMultLog2) &&
                      std::memcmp(out + 2, buf + 2, written - 2) == 0,
                  "decode -> encode changed the stack");
}

// Bounds of a flow on config c built from params p.
struct Bounds {
  uint32_t w_min, w_max, rate_min, rate_max, max_stage;
};

Bounds BoundsOf(const hp::Params& p) {
  const uint64_t bdp = uint64_t{p.line_rate_mbps} * p.base_rtt_ns / 8000u;
  // min window over T in kb/s (8e6 / T per byte and ns), less one for rounding.
  const uint64_t rmin = uint64_t{p.min_window_bytes} * 8000000u / p.base_rtt_ns;
  return Bounds{p.min_window_bytes, static_cast<uint32_t>(bdp),
                static_cast<uint32_t>(rmin > 0 ? rmin - 1 : 0), p.line_rate_mbps * 1000u,
                p.max_stage};
}

void CheckFlow(const char* which, const Bounds& b, uint32_t window, uint32_t rate, uint32_t u_q20,
               uint32_t stage, const nicc::Action& a) {
  NICC_FUZZ_CHECK(window >= b.w_min && window <= b.w_max, "%s: window %u outside [%u, %u]", which,
                  window, b.w_min, b.w_max);
  NICC_FUZZ_CHECK(rate >= b.rate_min && rate <= b.rate_max, "%s: rate %u kb/s outside [%u, %u]",
                  which, rate, b.rate_min, b.rate_max);
  NICC_FUZZ_CHECK(u_q20 <= hp::kUCapQ20, "%s: U %u above the cap", which, u_q20);
  NICC_FUZZ_CHECK(stage <= b.max_stage, "%s: stage %u above max_stage %u", which, stage,
                  b.max_stage);
  if (a.Has(nicc::kActSetWindow))
    NICC_FUZZ_CHECK(a.window_bytes == window, "%s: action window %u, flow %u", which,
                    a.window_bytes, window);
  if (a.Has(nicc::kActSetRate))
    NICC_FUZZ_CHECK(a.rate_kbps == rate, "%s: action rate %u, flow %u", which, a.rate_kbps, rate);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in{data, size};
  const hp::Params p = ParamsFrom(&in);
  hp::Config cfg;
  NICC_FUZZ_CHECK(hp::Compile(p, &cfg).ok(), "a validated configuration does not compile");
  const Bounds b = BoundsOf(p);
  hp::State flow, pint;
  hs::State spray;
  hp::Init(cfg, &flow, 0);
  hp::Init(cfg, &pint, 0);
  hs::Init(cfg, &spray, 0);
  CheckFlow("init", b, hp::WindowBytes(flow), hp::RateKbps(cfg, flow), flow.u_q20, flow.stage,
            nicc::Action::None());
  uint32_t now = 0, seq = 0;
  const uint8_t* h;
  while (in.Take(8, &h)) {
    const size_t len = h[0] & 0x7Fu;
    const uint8_t* wire;
    if (!in.Take(len, &wire)) break;
    now +=
        static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>((h[1] << 8) | h[2])) * 16);
    seq += uint32_t{h[3]} * 1024u;
    const uint32_t nxt = seq + uint32_t{h[4]} * 1024u;
    const auto ev = static_cast<uint16_t>((h[5] << 8) | h[6]);

    std::unique_ptr<uint8_t[]> copy(new uint8_t[len]);
    if (len != 0) std::memcpy(copy.get(), wire, len);
    nicc::IntStack st;
    std::memset(&st, 0xA5, sizeof st);
    const nicc::Status ds = nicc::DecodeIntStack(copy.get(), len, &st);
    CheckDecode(wire, len, ds, st);

    const nicc::Action ap = hp::OnPintAck(cfg, &pint, seq, nxt, h[7], now);
    CheckFlow("hpcc-pint", b, hp::WindowBytes(pint), hp::RateKbps(cfg, pint), pint.u_q20,
              pint.stage, ap);
    if (!ds.ok()) continue;
    const nicc::Action a = hp::OnAck(cfg, &flow, seq, nxt, st, now);
    CheckFlow("hpcc", b, hp::WindowBytes(flow), hp::RateKbps(cfg, flow), flow.u_q20, flow.stage, a);
    NICC_FUZZ_CHECK(flow.hop_count == st.hop_count, "hpcc: history of %u hops after a %u-hop ACK",
                    flow.hop_count, st.hop_count);
    const nicc::Action as = hs::OnAck(cfg, &spray, seq, nxt, ev, st, now);
    CheckFlow("hpcc-spray", b, hs::WindowBytes(spray), hs::RateKbps(cfg, spray), spray.u_q20,
              spray.stage, as);
    NICC_FUZZ_CHECK(spray.path_count <= hs::PathCap(spray.hop_count),
                    "hpcc-spray: %u paths of %u hops", spray.path_count, spray.hop_count);
    for (uint32_t i = 0; i < spray.path_count; ++i)
      NICC_FUZZ_CHECK(spray.path_u_q20[i] <= hp::kUCapQ20, "hpcc-spray: path %u U %u", i,
                      spray.path_u_q20[i]);
  }
  return 0;
}
