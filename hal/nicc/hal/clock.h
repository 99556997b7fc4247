// nicc/hal/clock.h — the NIC clock as the engine sees it, and the two
// conversions every backend needs.
//
// The engine's time is a free-running 32-bit nanosecond counter (TimeNs,
// common.h). Backends keep wider time (ns-3: 64-bit ns; verbs: the HCA's
// cycle counter converted to ns) and hand the engine its low 32 bits; the
// engine's timer deadlines come back as 32-bit values, which a backend lifts
// next to its own time with Unwrap().
//
//   nicc::TimeNs now = nicc::hal::ToNicTime(sim_ns);
//   uint64_t due = nicc::hal::Unwrap(action.timer_ns, sim_ns);  // >= sim_ns - 2^31
#ifndef NICC_HAL_CLOCK_H_
#define NICC_HAL_CLOCK_H_

#include "nicc/common.h"

namespace nicc {
namespace hal {

// The engine's view of a 64-bit nanosecond time: its low 32 bits.
constexpr TimeNs ToNicTime(uint64_t ns) { return static_cast<TimeNs>(ns); }

// The 64-bit time closest to `ref_ns` whose low 32 bits are `t`: exact for
// any deadline within +-2^31 ns of the reference. Never below 0.
constexpr uint64_t Unwrap(TimeNs t, uint64_t ref_ns) {
  const int32_t d = TimeDiffNs(t, static_cast<TimeNs>(ref_ns));
  if (d >= 0) return ref_ns + static_cast<uint32_t>(d);
  const uint64_t back = static_cast<uint32_t>(-(d + 1)) + 1ull;  // |d|, even for INT32_MIN
  return back > ref_ns ? 0 : ref_ns - back;
}

}  // namespace hal
}  // namespace nicc

#endif  // NICC_HAL_CLOCK_H_
