// nicc/common.h — shared vocabulary of the engine: status values, time,
// rates, fixed-point helpers and the action record every algorithm returns.
//
// Freestanding: includes <stdint.h> and <stddef.h> only (and the
// preprocessor lists of param_tables.h); no heap, no
// exceptions, no floating point. Every engine header includes this one.
//
//   nicc::Status s = params.Validate();
//   if (!s.ok()) { log("bad %s", s.field); }
//
// Units used throughout the engine (names carry them):
//   *_ns    uint32_t nanoseconds of a free-running NIC clock that wraps every
//           2^32 ns (~4.29 s). Differences are taken with TimeDiffNs().
//   *_kbps  uint32_t kilobits per second: reaches 4.29 Tb/s, resolves 1 kb/s
//           (the unit of ibv_modify_qp_rate_limit).
//   *_q20   unsigned fixed point with 20 fractional bits (1.0 = 1 << 20).
#ifndef NICC_COMMON_H_
#define NICC_COMMON_H_

#include <stddef.h>
#include <stdint.h>

#include "nicc/param_tables.h"

// Broken-invariant check. A build decides the policy: define NICC_ASSERT
// itself before including the engine, or NICC_ASSERT_TRAP=1 to trap (test
// builds do); the default compiles to nothing so that firmware pays nothing.
// Bad input is reported through Status, never through this macro.
#ifndef NICC_ASSERT
#if defined(NICC_ASSERT_TRAP) && NICC_ASSERT_TRAP
#define NICC_ASSERT(cond) ((cond) ? (void)0 : __builtin_trap())
#else
#define NICC_ASSERT(cond) ((void)0)
#endif
#endif

// A helper whose one call site is a hot path: inlined whatever the
// compiler's heuristics (GCC and Clang, the project's compilers).
#define NICC_ALWAYS_INLINE __attribute__((always_inline))

namespace nicc {

// ---------------------------------------------------------------------------
// Status: errors are values.
// ---------------------------------------------------------------------------

// The codes, their snake-case names and meanings are one list in
// param_tables.h (NICC_STATUS_CODES), which the C ABI also expands.
enum class StatusCode : uint8_t {
#define NICC_X(tok, ctok, code, key, doc) k##tok = code,
  NICC_STATUS_CODES(NICC_X)
#undef NICC_X
};

// A status: a code plus the name of the offending field (a string literal,
// e.g. "rp_time_reset"), or nullptr when the status is kOk or the code needs
// no field. Cheap to return by value (8 or 16 bytes).
struct [[nodiscard]] Status {
  StatusCode code;
  const char* field;

  constexpr bool ok() const { return code == StatusCode::kOk; }
  static constexpr Status Ok() { return Status{StatusCode::kOk, nullptr}; }
  static constexpr Status Error(StatusCode c, const char* f) {
    return Status{c, f};
  }
};

// Human-readable meaning of a status code, for host tools and test messages.
constexpr const char* StatusCodeName(StatusCode c) {
  switch (c) {
#define NICC_X(tok, ctok, code, key, doc) \
  case StatusCode::k##tok: return doc;
    NICC_STATUS_CODES(NICC_X)
#undef NICC_X
  }
  return "unknown status";
}

// ---------------------------------------------------------------------------
// Time: 32-bit wrapping nanoseconds.
// ---------------------------------------------------------------------------

using TimeNs = uint32_t;

// Largest interval the engine can measure unambiguously: half the clock's
// period. Every configured period must stay below it (Validate() checks).
constexpr uint32_t kTimeHorizonNs = 0x7FFFFFFFu;  // ~2.147 s

// Signed difference a - b of two wrapping timestamps. Exact whenever the true
// interval is within +-kTimeHorizonNs. Computed in unsigned arithmetic (which
// wraps by definition) and then reinterpreted, so it is free of signed
// overflow UB.
constexpr int32_t TimeDiffNs(TimeNs a, TimeNs b) {
  const uint32_t d = a - b;
  return d <= kTimeHorizonNs ? static_cast<int32_t>(d)
                             : -static_cast<int32_t>(~d) - 1;
}

// Elapsed time from `since` to `now`, with an apparent step backwards (an
// event delivered out of order) treated as zero elapsed.
constexpr uint32_t ElapsedNs(TimeNs now, TimeNs since) {
  const int32_t d = TimeDiffNs(now, since);
  return d > 0 ? static_cast<uint32_t>(d) : 0u;
}

// True when `now` is at or past `deadline` (wrap-safe).
constexpr bool TimeReached(TimeNs now, TimeNs deadline) {
  return TimeDiffNs(now, deadline) >= 0;
}

// ---------------------------------------------------------------------------
// Rates and fixed point.
// ---------------------------------------------------------------------------

// 1.6 Tb/s, the fastest link the engine is specified for, in kb/s. Rates are
// uint32 kb/s, so this leaves 2.6x headroom below 2^32.
constexpr uint32_t kMaxLineRateKbps = 1600u * 1000u * 1000u;
constexpr uint32_t kKbpsPerMbps = 1000u;

constexpr uint32_t kQ20One = 1u << 20;

// x * f for a Q20 factor f <= 1.0: (2^32 * 2^20 = 2^52 < 2^64), result <= x.
constexpr uint32_t MulQ20(uint32_t x, uint32_t f_q20) {
  return static_cast<uint32_t>((static_cast<uint64_t>(x) * f_q20) >> 20);
}

constexpr uint32_t MinU32(uint32_t a, uint32_t b) { return a < b ? a : b; }
constexpr uint32_t MaxU32(uint32_t a, uint32_t b) { return a > b ? a : b; }

// Index of the lowest set bit of x (x != 0). The count-trailing-zeros
// instruction where the core has one; elsewhere (rv32imac, rv64imac:
// no Zbb) a de Bruijn multiply and a 32-byte table, so no libgcc call.
inline uint32_t LowestBit(uint32_t x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || \
                          defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__riscv_zbb))
  return static_cast<uint32_t>(__builtin_ctz(x));
#else
  static constexpr uint8_t kDeBruijnPos[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20,
                                               15, 25, 17, 4,  8,  31, 27, 13, 23, 21, 19,
                                               16, 7,  26, 12, 18, 6,  11, 5,  10, 9};
  return kDeBruijnPos[((x & (0u - x)) * 0x077CB531u) >> 27];
#endif
}

// a + b saturating at `cap` (no wrap even when a + b > 2^32).
constexpr uint32_t AddCapped(uint32_t a, uint32_t b, uint32_t cap) {
  return (a >= cap || b >= cap - a) ? cap : a + b;
}

// ---------------------------------------------------------------------------
// Action: what an algorithm asks the backend to do after an event.
// ---------------------------------------------------------------------------

// Bits of Action::flags. Fields without their bit set carry no meaning.
// The list, with names and meanings, is NICC_ACTION_FLAGS in param_tables.h.
enum ActionFlag : uint8_t {
#define NICC_X(tok, ctok, bit, name, doc) kAct##tok = 1u << bit,
  NICC_ACTION_FLAGS(NICC_X)
#undef NICC_X
};

// Name of each flag bit, for traces and vector files ("set_rate", ...).
struct ActionFlagName {
  uint8_t bit;
  const char* name;
};
constexpr ActionFlagName kActionFlagNames[] = {
#define NICC_X(tok, ctok, bit, name, doc) {static_cast<uint8_t>(1u << bit), name},
    NICC_ACTION_FLAGS(NICC_X)
#undef NICC_X
};

struct Action {
  uint32_t rate_kbps;
  uint32_t window_bytes;
  TimeNs timer_ns;  // absolute deadline on the NIC clock
  uint16_t ev;      // entropy value (RoCEv2 UDP source port)
  uint8_t flags;    // ActionFlag bits
  uint8_t reserved;

  constexpr bool Has(ActionFlag f) const { return (flags & f) != 0; }
  static constexpr Action None() { return Action{0, 0, 0, 0, 0, 0}; }
};
static_assert(sizeof(Action) == 16, "Action is returned in registers/stack");

}  // namespace nicc

#endif  // NICC_COMMON_H_
