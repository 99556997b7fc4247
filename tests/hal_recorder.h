// A HAL backend for tests: records every action the driver applies to a
// sender flow (calls) and to a receiver flow (rx_calls), in order.
#ifndef NICC_TESTS_HAL_RECORDER_H_
#define NICC_TESTS_HAL_RECORDER_H_

#include <cstddef>
#include <vector>

#include "nicc/hal/backend.h"
#include "nicc/hal/driver.h"

namespace hal_test {

struct Recorder {
  struct Call {
    nicc::hal::FlowId flow;
    nicc::Action action;
  };
  std::vector<Call> calls;
  std::vector<Call> rx_calls;
  void Apply(nicc::hal::FlowId flow, const nicc::Action& a) { calls.push_back({flow, a}); }
  void ApplyRx(nicc::hal::FlowId flow, const nicc::Action& a) { rx_calls.push_back({flow, a}); }
  // Sender actions applied to flow f so far.
  size_t CountFor(nicc::hal::FlowId f) const {
    size_t n = 0;
    for (const Call& c : calls) n += c.flow == f ? 1 : 0;
    return n;
  }
};
static_assert(nicc::hal::BackendCheck<Recorder>::value, "Recorder is a backend");

}  // namespace hal_test

#endif  // NICC_TESTS_HAL_RECORDER_H_
