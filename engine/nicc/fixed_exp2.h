// nicc/fixed_exp2.h — fixed-point powers of two and logarithms, integer
// only: the 2^(-i/64) table and -log2(k / 1024), used by DCQCN's
// constant-time alpha decay (dcqcn.h, KeepPow and Compile).
#ifndef NICC_FIXED_EXP2_H_
#define NICC_FIXED_EXP2_H_

#include <stdint.h>

namespace nicc {
namespace fixed {

// 2^(-i/64) in Q30, i = 0..64: each entry the nearest integer to
// 2^30 * 2^(-i/64). A power 2^(-x) is a shift by the whole part of x and
// this table, interpolated linearly, for its fraction (DCQCN's alpha decay:
// docs/dcqcn.md, "Alpha", gives the error bound).
constexpr uint32_t kExp2NegQ30[65] = {
    1073741824u, 1062175491u, 1050733751u, 1039415261u, 1028218693u, 1017142735u,
    1006186087u, 995347464u, 984625594u, 974019220u, 963527098u, 953147997u,
    942880699u, 932724001u, 922676710u, 912737649u, 902905651u, 893179563u,
    883558244u, 874040567u, 864625413u, 855311680u, 846098274u, 836984114u,
    827968132u, 819049271u, 810226483u, 801498734u, 792865000u, 784324269u,
    775875538u, 767517817u, 759250125u, 751071493u, 742980960u, 734977579u,
    727060411u, 719228525u, 711481005u, 703816941u, 696235434u, 688735596u,
    681316545u, 673977412u, 666717336u, 659535466u, 652430958u, 645402981u,
    638450708u, 631573326u, 624770026u, 618040012u, 611382493u, 604796689u,
    598281827u, 591837143u, 585461881u, 579155293u, 572916640u, 566745190u,
    560640218u, 554601009u, 548626854u, 542717053u, 536870912u,
};

// -log2(k / 1024) in Q28 for k = 1..1023: 10 - log2(k), with the 28
// fractional bits of log2(k) by repeated squaring of k / 2^floor(log2 k)
// (Q31, each square truncated). Compile only. Loop bounds: 10 and 28.
inline uint32_t NegLog2KeepQ28(uint32_t k) {
  uint32_t e = 0;
  while (e < 10u && (k >> (e + 1u)) != 0) ++e;  // floor(log2 k), k < 2^10
  // k < 2^(e+1): k << (21 - e) < 2^22; then a constant shift to Q31.
  uint64_t y = static_cast<uint64_t>(k << (21u - e)) << 10;  // in [2^31, 2^32)
  uint32_t frac = 0;
  for (uint32_t b = 28; b-- > 0;) {
    y = (y * y) >> 31;  // y < 2^32: y * y < 2^64
    if (y >= (static_cast<uint64_t>(1) << 32)) {
      y >>= 1;
      frac |= 1u << b;
    }
  }
  return (10u << 28) - ((e << 28) | frac);
}

}  // namespace fixed
}  // namespace nicc

#endif  // NICC_FIXED_EXP2_H_
