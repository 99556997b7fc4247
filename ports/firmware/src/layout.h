// layout.h — the C ABI's sender-context layout per configuration (CC area,
// spray area, ECN path state, key), shared by nicc_fw.cc and the footprint
// probe (bench/footprint/slot_footprint.cc). Freestanding, internal to
// ports/firmware.
#ifndef NICC_FW_LAYOUT_H_
#define NICC_FW_LAYOUT_H_

#include "nicc/fw.h"
#include "nicc/hal/driver.h"

namespace nicc {
namespace fw {

namespace hal = nicc::hal;

// Where each part of a sender context lives for one configuration: a
// context holds only what that configuration runs.
struct Layout {
  uint8_t spray_off;  // the CC area is at 0 and spray_off bytes long
  uint8_t path_off;   // ECN path state (DCQCN only); 0 = none
  uint8_t key_off;
  uint8_t bytes;      // the context's size, a multiple of 8
};
constexpr uint32_t RoundUp(uint32_t n, uint32_t a) { return (n + a - 1u) / a * a; }

constexpr uint32_t CcBytes(hal::CcKind cc) {
  return cc == hal::CcKind::kDcqcn                                    ? sizeof(nicc::dcqcn::RpState)
         : cc == hal::CcKind::kHpcc || cc == hal::CcKind::kHpccPint ? sizeof(nicc::hpcc::State)
         : cc == hal::CcKind::kNscc                                   ? sizeof(nicc::nscc::State)
         : cc == hal::CcKind::kHpccSpray                              ? sizeof(nicc::hpcc_spray::State)
         : cc == hal::CcKind::kNsccRccc                               ? sizeof(nicc::rccc::SenderState)
                                                                       : 0u;
}

constexpr uint32_t SprayBytes(nicc::spray::Policy p) {
  namespace sp = nicc::spray;
  return p == sp::Policy::kEcmp     ? sizeof(sp::EcmpState)
         : p == sp::Policy::kOps    ? sizeof(sp::OpsState)
         : p == sp::Policy::kBitmap ? sizeof(sp::BitmapState)
         : p == sp::Policy::kReps   ? sizeof(sp::RepsState)
         : p == sp::Policy::kPlb    ? sizeof(sp::PlbState)
                                    : sizeof(sp::DlbState);
}

// CC area, spray area, ECN path state when the CC takes marks, key; 8-byte
// multiple so that contexts placed back to back stay aligned.
constexpr uint32_t PathOff(hal::CcKind cc, nicc::spray::Policy policy) {
  return cc == hal::CcKind::kDcqcn ? RoundUp(RoundUp(CcBytes(cc), 8u) + SprayBytes(policy), 4u) : 0u;
}
constexpr uint32_t KeyOff(hal::CcKind cc, nicc::spray::Policy policy) {
  return PathOff(cc, policy) != 0 ? PathOff(cc, policy) + sizeof(nicc::ecn_path::State)
                                  : RoundUp(RoundUp(CcBytes(cc), 8u) + SprayBytes(policy), 4u);
}
// The context's size, before the narrowing into a Layout (AllFit checks it).
constexpr uint32_t ContextBytes(hal::CcKind cc, nicc::spray::Policy policy) {
  return RoundUp(KeyOff(cc, policy) + 4u, 8u);
}
constexpr Layout MakeLayout(hal::CcKind cc, nicc::spray::Policy policy) {
  return Layout{static_cast<uint8_t>(RoundUp(CcBytes(cc), 8u)), static_cast<uint8_t>(PathOff(cc, policy)),
                static_cast<uint8_t>(KeyOff(cc, policy)), static_cast<uint8_t>(ContextBytes(cc, policy))};
}

// Every composition fits NICC_FW_FLOW_BYTES (a Layout's uint8_t fields
// too); without DLB, 112 B, except sprayed HPCC (its four INT histories):
// 192 B, 208 with the bitmap.
constexpr bool AllFit() {
  for (uint32_t c = 0; c < hal::kCcKindCount; ++c) {
    for (uint32_t p = 0; p < nicc::spray::kPolicyCount; ++p) {
      const auto policy = static_cast<nicc::spray::Policy>(p);
      const auto cc = static_cast<hal::CcKind>(c);
      const uint32_t bytes = ContextBytes(cc, policy);
      if (bytes > NICC_FW_FLOW_BYTES || bytes > 255u) return false;
      const uint32_t cap = cc != hal::CcKind::kHpccSpray           ? 112u
                           : policy == nicc::spray::Policy::kBitmap ? 208u
                                                                    : 192u;
      if (policy != nicc::spray::Policy::kDlb && bytes > cap) return false;
    }
  }
  return true;
}
static_assert(AllFit(), "sender contexts: <= NICC_FW_FLOW_BYTES; <= 112 B without DLB (sprayed HPCC: 192, bitmap 208)");
static_assert(MakeLayout(hal::CcKind::kDcqcn, nicc::spray::Policy::kEcmp).bytes <= 48, "DCQCN + ECMP: 48 B");
static_assert(MakeLayout(hal::CcKind::kHpcc, nicc::spray::Policy::kReps).bytes <= 112, "HPCC + REPS: 112 B");
static_assert(MakeLayout(hal::CcKind::kNscc, nicc::spray::Policy::kReps).bytes <= 80, "NSCC + REPS: 80 B");
static_assert(MakeLayout(hal::CcKind::kNsccRccc, nicc::spray::Policy::kReps).bytes <= 88,
              "NSCC + RCCC + REPS: 88 B (NSCC + REPS + credit and snd_una)");
static_assert(MakeLayout(hal::CcKind::kHpccSpray, nicc::spray::Policy::kReps).bytes <= 192,
              "sprayed HPCC + REPS: 192 B");
static_assert(ContextBytes(hal::CcKind::kHpccSpray, nicc::spray::Policy::kDlb) == NICC_FW_FLOW_BYTES,
              "NICC_FW_FLOW_BYTES is the largest context (sprayed HPCC + DLB), no more");

}  // namespace fw
}  // namespace nicc

#endif  // NICC_FW_LAYOUT_H_
