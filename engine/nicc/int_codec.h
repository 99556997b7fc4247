// nicc/int_codec.h — in-band network telemetry (INT) for HPCC: the per-hop
// record, the stack that carries up to kIntMaxHops of them, and the one-byte
// utilisation code of the PINT variant. Encode and decode, bounds-checked.
//
//   nicc::IntStack st;
//   nicc::Status s = nicc::DecodeIntStack(ack_payload, ack_len, &st);
//   if (!s.ok()) { drop_int(s); }           // never reads past ack_len
//   else nicc::hpcc::OnAck(cfg, &flow, ack_seq, snd_nxt, st, now_ns);
//
// Wire format (network byte order, i.e. big-endian):
//
//   stack  = header (2 bytes) + hop_count records (8 bytes each)
//   header   byte 0       hop_count, 0..kIntMaxHops (larger: kTooManyHops)
//            byte 1       bits 2..0: mult_log2 (the multiplier is 2^mult_log2,
//                         1..128); bits 7..3 reserved: sent as 0, ignored
//   record   one 64-bit big-endian word, most significant bit first:
//            bits 63..61  rate_code   link rate of the hop's egress port (table below)
//            bits 60..37  ts_ns       24-bit egress timestamp, ns, wraps every 16.8 ms
//            bits 36..17  tx_units    20-bit transmitted-bytes counter, units of
//                                     128 B x multiplier, wraps
//            bits 16..0   qlen_units  17-bit egress queue length, units of
//                                     80 B x multiplier
//   Records are in path order (hop 0 = the first switch the data packet met).
//
// Rate codes (3 bits). Code 0 is reserved so that an all-zero record (a
// zeroed or never-written buffer) is rejected:
//
//   code     0     1    2    3     4     5     6     7
//   Gb/s     -    25   50  100   200   400   800  1600
//
// PINT utilisation code (one byte): 0 means U = 0; c in 1..255 means
// U = 2^((c - 128) / 16), i.e. 16 steps per octave (4.4% apart, so the
// encoder's rounding error is at most 2.2%), from 0.0041 (c = 1) through
// 1.0 (c = 128) to 245 (c = 255). U is carried in Q20 (1.0 = 1 << 20).
//
// Freestanding: <stdint.h>/<stddef.h> through common.h; no heap; every loop
// is bounded by kIntMaxHops or by the 32 bits of a word.
#ifndef NICC_INT_CODEC_H_
#define NICC_INT_CODEC_H_

#include "nicc/common.h"

namespace nicc {

// Largest number of hops a stack may carry: the HPCC state budget
// (64 bytes per flow) holds the last record of exactly this many hops.
constexpr uint32_t kIntMaxHops = 5;

constexpr size_t kIntHeaderBytes = 2;
constexpr size_t kIntHopBytes = 8;
constexpr uint32_t kIntMaxMultLog2 = 7;  // 3 bits in the header

// Unit sizes of the counters before the multiplier.
constexpr uint32_t kIntTxUnitBytes = 128;
constexpr uint32_t kIntQlenUnitBytes = 80;

// Field widths and masks of a record.
constexpr uint32_t kIntTsBits = 24;
constexpr uint32_t kIntTxBits = 20;
constexpr uint32_t kIntQlenBits = 17;
constexpr uint32_t kIntTsMask = (1u << kIntTsBits) - 1u;
constexpr uint32_t kIntTxMask = (1u << kIntTxBits) - 1u;
constexpr uint32_t kIntQlenMask = (1u << kIntQlenBits) - 1u;
constexpr uint32_t kIntQlenShift = 0;
constexpr uint32_t kIntTxShift = kIntQlenBits;                // 17
constexpr uint32_t kIntTsShift = kIntTxShift + kIntTxBits;    // 37
constexpr uint32_t kIntRateShift = kIntTsShift + kIntTsBits;  // 61
static_assert(kIntRateShift + 3 == 64, "a record is exactly 64 bits");

constexpr uint32_t kIntRateCodeCount = 8;

// Link rate of a rate code in Gb/s; 0 for the reserved code 0.
constexpr uint32_t IntRateGbps(uint32_t rate_code) {
  return rate_code == 0 || rate_code >= kIntRateCodeCount ? 0u : 25u << (rate_code - 1u);
}
static_assert(IntRateGbps(3) == 100 && IntRateGbps(7) == 1600, "rate table");

// One hop's record, held as its 64-bit wire word (host byte order) so that
// copying it into a flow's history costs one store.
struct IntHop {
  uint64_t word;

  constexpr uint32_t rate_code() const { return static_cast<uint32_t>(word >> kIntRateShift); }
  constexpr uint32_t ts_ns() const {
    return static_cast<uint32_t>(word >> kIntTsShift) & kIntTsMask;
  }
  constexpr uint32_t tx_units() const {
    return static_cast<uint32_t>(word >> kIntTxShift) & kIntTxMask;
  }
  constexpr uint32_t qlen_units() const { return static_cast<uint32_t>(word) & kIntQlenMask; }

  // Builds a record; each field is truncated to its width (counters wrap
  // on the wire exactly like this).
  static constexpr IntHop Make(uint32_t rate_code, uint32_t ts_ns, uint32_t tx_units,
                               uint32_t qlen_units) {
    return IntHop{(static_cast<uint64_t>(rate_code & 7u) << kIntRateShift) |
                  (static_cast<uint64_t>(ts_ns & kIntTsMask) << kIntTsShift) |
                  (static_cast<uint64_t>(tx_units & kIntTxMask) << kIntTxShift) |
                  (static_cast<uint64_t>(qlen_units & kIntQlenMask) << kIntQlenShift)};
  }
};
static_assert(sizeof(IntHop) == 8, "one record, one word");

// A decoded stack. hop_count <= kIntMaxHops after a successful decode.
struct IntStack {
  uint8_t hop_count;
  uint8_t mult_log2;  // multiplier = 2^mult_log2, 0..kIntMaxMultLog2
  uint8_t reserved[6];
  IntHop hops[kIntMaxHops];
};
static_assert(sizeof(IntStack) == 8 + 8 * kIntMaxHops, "IntStack layout");

// Bytes on the wire of a stack with `hop_count` records.
constexpr size_t IntStackBytes(uint32_t hop_count) {
  return kIntHeaderBytes + kIntHopBytes * hop_count;
}

// Decodes a stack from buf[0..len). Checks, in this order: the header fits
// (kTruncated, "int_header"), hop_count <= kIntMaxHops (kTooManyHops,
// "hop_count"), every record fits (kTruncated, "int_hops"), every rate code is
// known (kBadRateCode, "rate_code"). Reads only buf[0..IntStackBytes(n)) with
// n the declared count, and never beyond len. On error out->hop_count is 0.
inline Status DecodeIntStack(const uint8_t* buf, size_t len, IntStack* out);

// Encodes `st` into buf[0..cap) and sets *written to the bytes used. Checks
// hop_count (kTooManyHops), the room (kTruncated: nothing is written),
// mult_log2 (kOutOfRange) and each rate code (kBadRateCode).
inline Status EncodeIntStack(const IntStack& st, uint8_t* buf, size_t cap, size_t* written);

// Appends `hop` to the encoded stack in buf[0..cap), in place, as a switch
// stamps its record at egress: the record goes after the last one and
// hop_count goes up by one. Checks, in this order: the header fits
// (kTruncated, "int_header"), the stack is not full (kTooManyHops,
// "hop_count"), the new record fits (kTruncated, "int_hops"), its rate code
// is known (kBadRateCode, "rate_code"). On error nothing is written.
inline Status AppendIntHop(uint8_t* buf, size_t cap, IntHop hop);

// PINT: one-byte utilisation code <-> U in Q20 (see the banner).
constexpr uint32_t kPintOneCode = 128;  // the code of U = 1.0
inline uint32_t PintDecodeQ20(uint8_t code);
inline uint8_t PintEncodeQ20(uint32_t u_q20);

// ===========================================================================
// Implementation.
// ===========================================================================

namespace detail {

// Written out so that compilers merge it into one load (+ byte swap).
inline uint64_t LoadBe64(const uint8_t* p) {
  return (static_cast<uint64_t>(p[0]) << 56) | (static_cast<uint64_t>(p[1]) << 48) |
         (static_cast<uint64_t>(p[2]) << 40) | (static_cast<uint64_t>(p[3]) << 32) |
         (static_cast<uint64_t>(p[4]) << 24) | (static_cast<uint64_t>(p[5]) << 16) |
         (static_cast<uint64_t>(p[6]) << 8) | static_cast<uint64_t>(p[7]);
}

inline void StoreBe64(uint64_t v, uint8_t* p) {
  for (uint32_t i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (56u - 8u * i));
}

// 2^(28 + f/16) for f = 0..15, rounded: the mantissas of the PINT code.
constexpr uint32_t kPintMantQ28[16] = {
    268435456u, 280320109u, 292730940u, 305691246u, 319225354u, 333358668u, 348117717u, 363530205u,
    379625062u, 396432500u, 413984066u, 432312707u, 451452825u, 471440350u, 492312797u, 514109347u};
// 2^(28 + (f + 0.5)/16), rounded: geometric midpoints, so that the encoder
// rounds to the nearest code in the log domain.
constexpr uint32_t kPintMidQ28[16] = {
    274313427u, 286458320u, 299140913u, 312385013u, 326215479u, 340658272u, 355740503u, 371490480u,
    387937769u, 405113241u, 423049137u, 441779122u, 461338355u, 481763549u, 503093043u, 525366875u};

}  // namespace detail

inline Status DecodeIntStack(const uint8_t* buf, size_t len, IntStack* out) {
  out->hop_count = 0;
  if (len < kIntHeaderBytes) return Status::Error(StatusCode::kTruncated, "int_header");
  const uint32_t n = buf[0];
  if (n > kIntMaxHops) return Status::Error(StatusCode::kTooManyHops, "hop_count");
  if (len < IntStackBytes(n)) return Status::Error(StatusCode::kTruncated, "int_hops");
  out->mult_log2 = static_cast<uint8_t>(buf[1] & kIntMaxMultLog2);
  const uint8_t* rec = buf + kIntHeaderBytes;
  for (uint32_t i = 0; i < kIntMaxHops && i < n; ++i) {
    const uint64_t w = detail::LoadBe64(rec + kIntHopBytes * i);
    if ((w >> kIntRateShift) == 0) return Status::Error(StatusCode::kBadRateCode, "rate_code");
    out->hops[i].word = w;
  }
  out->hop_count = static_cast<uint8_t>(n);
  return Status::Ok();
}

inline Status EncodeIntStack(const IntStack& st, uint8_t* buf, size_t cap, size_t* written) {
  *written = 0;
  const uint32_t n = st.hop_count;
  if (n > kIntMaxHops) return Status::Error(StatusCode::kTooManyHops, "hop_count");
  if (cap < IntStackBytes(n)) return Status::Error(StatusCode::kTruncated, "int_stack");
  if (st.mult_log2 > kIntMaxMultLog2) return Status::Error(StatusCode::kOutOfRange, "mult_log2");
  for (uint32_t i = 0; i < kIntMaxHops && i < n; ++i)
    if (st.hops[i].rate_code() == 0) return Status::Error(StatusCode::kBadRateCode, "rate_code");
  buf[0] = static_cast<uint8_t>(n);
  buf[1] = st.mult_log2;
  for (uint32_t i = 0; i < kIntMaxHops && i < n; ++i)
    detail::StoreBe64(st.hops[i].word, buf + kIntHeaderBytes + kIntHopBytes * i);
  *written = IntStackBytes(n);
  return Status::Ok();
}

inline Status AppendIntHop(uint8_t* buf, size_t cap, IntHop hop) {
  if (cap < kIntHeaderBytes) return Status::Error(StatusCode::kTruncated, "int_header");
  const uint32_t n = buf[0];
  if (n >= kIntMaxHops) return Status::Error(StatusCode::kTooManyHops, "hop_count");
  if (cap < IntStackBytes(n + 1)) return Status::Error(StatusCode::kTruncated, "int_hops");
  if (hop.rate_code() == 0) return Status::Error(StatusCode::kBadRateCode, "rate_code");
  detail::StoreBe64(hop.word, buf + IntStackBytes(n));
  buf[0] = static_cast<uint8_t>(n + 1u);
  return Status::Ok();
}

// U = mant[c & 15] * 2^((c >> 4) - 8) / 2^8 in Q20, rounded: the shift is
// 16 - (c >> 4), 1..16. Largest result 2^28.94 < 2^32.
inline uint32_t PintDecodeQ20(uint8_t code) {
  if (code == 0) return 0;
  const uint32_t shift = 16u - (static_cast<uint32_t>(code) >> 4);
  const uint32_t mant = detail::kPintMantQ28[code & 15u];
  return (mant + (1u << (shift - 1u))) >> shift;
}

// Nearest code in the log domain; saturates at 1 (U > 0 but below the
// smallest code) and 255 (U >= 245). Loops: 32 (bit scan) + 16 (table).
inline uint8_t PintEncodeQ20(uint32_t u_q20) {
  if (u_q20 == 0) return 0;
  int32_t top = 31;  // index of the highest set bit
  for (uint32_t i = 0; i < 32 && (u_q20 >> top) == 0; ++i) --top;
  // Mantissa normalised to [2^28, 2^29).
  const uint32_t m = top >= 28 ? u_q20 >> (top - 28) : u_q20 << (28 - top);
  int32_t f = 0;
  for (uint32_t j = 0; j < 16; ++j) f += m >= detail::kPintMidQ28[j] ? 1 : 0;
  const int32_t code = 128 + 16 * (top - 20) + f;
  return static_cast<uint8_t>(code < 1 ? 1 : (code > 255 ? 255 : code));
}

}  // namespace nicc

#endif  // NICC_INT_CODEC_H_
