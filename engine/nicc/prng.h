// nicc/prng.h — the engine's deterministic pseudo-random generator.
//
// Marsaglia's xorshift32 with shifts (13, 17, 5): 32 bits of state carried in
// the caller's per-flow state, integer only, identical on every platform, so
// the same seed gives the same sequence everywhere (the conformance vectors
// rely on it). docs/spray.md specifies it for independent reimplementation.
//
//   uint32_t x = nicc::PrngSeed(flow_id);     // never 0
//   uint32_t r = nicc::PrngNext(&x);          // first output
//   uint32_t ev = nicc::PrngByte(r) & mask;   // top byte, then mask
//
// Quality: period 2^32 - 1 over the non-zero states; the top byte used by the
// engine passes the uniformity tests in tests/spray_stats_test.cc. Not for
// anything that needs unpredictability.
#ifndef NICC_PRNG_H_
#define NICC_PRNG_H_

#include "nicc/common.h"

namespace nicc {

// Seeds are spread over the state space by a multiply with 2^32 / golden
// ratio (a bijection mod 2^32), so that small neighbouring seeds (queue
// numbers 1, 2, 3...) start far apart: xorshift32 started at 1 takes several
// steps before its top bits move.
constexpr uint32_t kPrngSeedMul = 0x9E3779B9u;

// xorshift32 has the all-zero state as a fixed point; seed 0, the only seed
// that multiplies to 0, starts from this constant ("nicc" in ASCII).
constexpr uint32_t kPrngZeroSeed = 0x6E696363u;

// The starting state for `seed`: seed * kPrngSeedMul mod 2^32 (unsigned
// multiply, wraps by definition), or kPrngZeroSeed when that is 0.
constexpr uint32_t PrngSeed(uint32_t seed) {
  return seed * kPrngSeedMul != 0 ? seed * kPrngSeedMul : kPrngZeroSeed;
}

// Advances *x by one xorshift32 step and returns the new state, which is the
// output. Shifts are on uint32_t, so bits leaving the word are dropped
// (arithmetic mod 2^32). A non-zero state never becomes zero.
inline uint32_t PrngNext(uint32_t* x) {
  uint32_t v = *x;
  v ^= v << 13;
  v ^= v >> 17;
  v ^= v << 5;
  *x = v;
  return v;
}

// The top 8 bits of an output: the bits the engine draws EV indices from
// (xorshift's high bits are better mixed than its low ones).
constexpr uint32_t PrngByte(uint32_t r) {
  return r >> 24;
}

}  // namespace nicc

#endif  // NICC_PRNG_H_
