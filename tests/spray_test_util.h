// Helpers of the spray unit tests (spray_test.cc, spray_lb_test.cc): the
// policies' default parameters on one flow label, their compiled config, and
// the index of a port among a flow's entropy values.
#ifndef NICC_TESTS_SPRAY_TEST_UTIL_H_
#define NICC_TESTS_SPRAY_TEST_UTIL_H_

#include "nicc/spray.h"

#include <gtest/gtest.h>

namespace spray_test {

namespace sp = nicc::spray;
using sp::Policy;

constexpr uint32_t kFlowLabel = 0x12345;  // port 0xE341

inline sp::Params P(Policy policy, uint32_t ev_bits) {
  return sp::Params::Defaults(policy, ev_bits, kFlowLabel);
}

inline sp::Config C(const sp::Params& p) {
  sp::Config cfg{};
  const nicc::Status st = sp::Compile(p, &cfg);
  EXPECT_TRUE(st.ok()) << (st.field ? st.field : "");
  return cfg;
}

inline sp::Config C(Policy policy, uint32_t ev_bits) {
  return C(P(policy, ev_bits));
}

inline uint32_t Idx(const sp::Config& cfg, uint16_t port) {
  const int32_t i = sp::EvIndex(cfg, port);
  EXPECT_GE(i, 0) << "port " << port << " is not one of the flow's EVs";
  return static_cast<uint32_t>(i);
}

}  // namespace spray_test

#endif  // NICC_TESTS_SPRAY_TEST_UTIL_H_
