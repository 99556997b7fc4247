// nicc/spray/ecmp.h — ecmp: one fixed EV (index 0, the flow's own port).
// docs/spray.md states the rule.
#ifndef NICC_SPRAY_ECMP_H_
#define NICC_SPRAY_ECMP_H_

#include "nicc/spray/common.h"

namespace nicc {
namespace spray {

struct EcmpState {
  uint8_t ev;  // index in use (0 unless the caller sets another)
  uint8_t reserved[3];
};
static_assert(sizeof(EcmpState) <= 32, "ecmp budget: 32 bytes");

inline void EcmpInit(const Config& cfg, EcmpState* s) {
  (void)cfg;
  *s = EcmpState{};
}

inline uint16_t EcmpSelect(const Config& cfg, const EcmpState* s) {
  return EvPort(cfg, s->ev);
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_ECMP_H_
