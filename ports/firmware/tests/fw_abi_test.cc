// Tests of the firmware C ABI (nicc/fw.h): enumerated fields checked at full
// width, every returned code a named NICC_FW_* enumerator, per-configuration
// context sizes, and sender/receiver contexts.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "nicc/fw.h"
#include "nicc/fw_vector.h"
#include "nicc/hal/driver.h"

namespace {

// Every status code nicc/fw.h names.
const int kNamedCodes[] = {NICC_FW_OK,           NICC_FW_ERR_ZERO,          NICC_FW_ERR_OUT_OF_RANGE,
                           NICC_FW_ERR_INCONSISTENT, NICC_FW_ERR_TRUNCATED,  NICC_FW_ERR_TOO_MANY_HOPS,
                           NICC_FW_ERR_BAD_RATE_CODE, NICC_FW_ERR_FULL,      NICC_FW_ERR_NOT_FOUND,
                           NICC_FW_ERR_UNSUPPORTED};

bool Named(int code) {
  for (int c : kNamedCodes)
    if (c == code) return true;
  return false;
}

nicc_fw_params Defaults() {
  nicc_fw_params p;
  EXPECT_EQ(nicc_fw_params_default(&p, 100000), NICC_FW_OK);
  return p;
}

int Configure(const nicc_fw_params& p, const char** bad) {
  nicc_fw_config cfg;
  *bad = nullptr;
  return nicc_fw_configure(&cfg, &p, bad);
}

TEST(FwAbi, CcIsCheckedAtFullWidth) {
  for (uint32_t cc : {uint32_t{NICC_FW_CC_COUNT}, 256u, 257u, 0x10000u, 0xFFFFFFFFu}) {
    nicc_fw_params p = Defaults();
    p.cc = cc;
    const char* bad;
    EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_OUT_OF_RANGE) << "cc " << cc;
    ASSERT_NE(bad, nullptr);
    EXPECT_STREQ(bad, "cc") << "cc " << cc << " must not read as cc " << (cc & 0xFF);
  }
}

TEST(FwAbi, PolicyIsCheckedAtFullWidth) {
  for (uint32_t policy : {6u, 256u, 257u, 0xFFFFFFFFu}) {
    nicc_fw_params p = Defaults();
    p.spray.policy = policy;
    const char* bad;
    EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_OUT_OF_RANGE) << "policy " << policy;
    ASSERT_NE(bad, nullptr);
    EXPECT_STREQ(bad, "policy");
  }
}

TEST(FwAbi, DriverLineRate) {
  nicc_fw_params p = Defaults();
  EXPECT_EQ(p.driver.line_rate_mbps, 100000u);
  p.cc = NICC_FW_CC_NONE;
  p.driver.line_rate_mbps = 400000;
  nicc_fw_config cfg;
  ASSERT_EQ(nicc_fw_configure(&cfg, &p, nullptr), NICC_FW_OK);
  nicc_fw_flow flow;
  nicc_fw_flow_init(&cfg, &flow, 1, 1, 0);
  EXPECT_EQ(nicc_fw_rate_kbps(&cfg, &flow), 400000000u) << "cc none: the driver's line rate, not DCQCN's";
  p.driver.line_rate_mbps = 0;
  const char* bad;
  EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_ZERO);
  EXPECT_STREQ(bad, "line_rate_mbps");
}

TEST(FwAbi, UnsupportedIsANamedCode) {
  nicc_fw_params p = Defaults();
  p.spray.policy = NICC_FW_SPRAY_BITMAP;
  p.spray.ev_bits = 7;
  const char* bad;
  EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_UNSUPPORTED);
  EXPECT_STREQ(bad, "ev_bits");
  p.spray.policy = NICC_FW_SPRAY_DLB;
  p.spray.ev_bits = 5;
  EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_UNSUPPORTED);
}

// Every field of every parameter struct set to 0, 1, 2^31 and 2^32 - 1 in
// turn: whatever configure returns is a named code, and an error names a
// field.
TEST(FwAbi, EveryReturnedCodeIsNamed) {
  struct Part {
    size_t offset, words;
  };
  const Part parts[] = {
      {offsetof(nicc_fw_params, dcqcn), sizeof(nicc_fw_dcqcn_params) / 4},
      {offsetof(nicc_fw_params, hpcc), sizeof(nicc_fw_hpcc_params) / 4},
      {offsetof(nicc_fw_params, spray), sizeof(nicc_fw_spray_params) / 4},
      {offsetof(nicc_fw_params, ecn_rule), sizeof(nicc_fw_ecn_rule_params) / 4},
      {offsetof(nicc_fw_params, driver), sizeof(nicc_fw_driver_params) / 4},
      {offsetof(nicc_fw_params, cc), 1},
  };
  int seen_errors = 0;
  for (uint32_t cc = 0; cc < NICC_FW_CC_COUNT; ++cc) {
    for (const Part& part : parts) {
      for (size_t w = 0; w < part.words; ++w) {
        for (uint32_t v : {0u, 1u, 0x80000000u, 0xFFFFFFFFu}) {
          nicc_fw_params p = Defaults();
          p.cc = cc;
          std::memcpy(reinterpret_cast<unsigned char*>(&p) + part.offset + 4 * w, &v, 4);
          const char* bad;
          const int code = Configure(p, &bad);
          ASSERT_TRUE(Named(code)) << "code " << code;
          if (code != NICC_FW_OK) {
            ++seen_errors;
            ASSERT_NE(bad, nullptr);
            EXPECT_GT(std::strlen(bad), 0u);
          }
        }
      }
    }
  }
  EXPECT_GT(seen_errors, 0);
  // Event errors: an unknown kind, a malformed INT stack, a receiver's event
  // on a sender context.
  nicc_fw_params p = Defaults();
  p.cc = NICC_FW_CC_HPCC;
  nicc_fw_config cfg;
  ASSERT_EQ(nicc_fw_configure(&cfg, &p, nullptr), NICC_FW_OK);
  nicc_fw_flow flow;
  nicc_fw_flow_init(&cfg, &flow, 1, 1, 0);
  nicc_fw_event ev{};
  nicc_fw_action act;
  ev.kind = 7;
  EXPECT_EQ(nicc_fw_on_event(&cfg, &flow, &ev, 0, &act), NICC_FW_ERR_OUT_OF_RANGE);
  const uint8_t junk[3] = {1, 2, 3};
  ev.kind = NICC_FW_EV_ACK;
  ev.int_stack = junk;
  ev.int_len = 3;
  const int int_code = nicc_fw_on_event(&cfg, &flow, &ev, 0, &act);
  EXPECT_NE(int_code, NICC_FW_OK);
  EXPECT_TRUE(Named(int_code));
  ev = nicc_fw_event{};
  ev.kind = NICC_FW_EV_RX_DATA;
  EXPECT_EQ(nicc_fw_on_event(&cfg, &flow, &ev, 0, &act), NICC_FW_ERR_UNSUPPORTED);
  nicc_fw_rx_flow rx;
  nicc_fw_rx_flow_init(&cfg, &rx, 1);
  ev.kind = NICC_FW_EV_CNP;
  EXPECT_EQ(nicc_fw_on_rx_event(&cfg, &rx, &ev, 0, &act), NICC_FW_ERR_UNSUPPORTED);
}

// Receivers pace CNPs only for DCQCN senders: by the configuration's CC,
// or per flow by the sender's (nicc_fw_rx_flow_init_cc).
TEST(FwAbi, ReceiverCnpsFollowTheSendersCc) {
  nicc_fw_params p = Defaults();
  p.cc = NICC_FW_CC_HPCC;
  nicc_fw_config cfg;
  const char* bad = nullptr;
  ASSERT_EQ(nicc_fw_configure(&cfg, &p, &bad), NICC_FW_OK);
  nicc_fw_event ev{};
  ev.kind = NICC_FW_EV_RX_DATA;
  ev.ecn = 1;
  nicc_fw_action act;
  nicc_fw_rx_flow by_cfg, dcqcn, nscc;
  nicc_fw_rx_flow_init(&cfg, &by_cfg, 1);
  ASSERT_EQ(nicc_fw_rx_flow_init_cc(&cfg, &dcqcn, 2, NICC_FW_CC_DCQCN), NICC_FW_OK);
  ASSERT_EQ(nicc_fw_rx_flow_init_cc(&cfg, &nscc, 3, NICC_FW_CC_NSCC), NICC_FW_OK);
  EXPECT_EQ(nicc_fw_rx_flow_init_cc(&cfg, &nscc, 3, NICC_FW_CC_COUNT), NICC_FW_ERR_OUT_OF_RANGE);
  ASSERT_EQ(nicc_fw_on_rx_event(&cfg, &by_cfg, &ev, 100, &act), NICC_FW_OK);
  EXPECT_EQ(act.flags, 0u) << "HPCC sender (the configuration's): no CNP";
  ASSERT_EQ(nicc_fw_on_rx_event(&cfg, &nscc, &ev, 100, &act), NICC_FW_OK);
  EXPECT_EQ(act.flags, 0u) << "NSCC sender: no CNP";
  ASSERT_EQ(nicc_fw_on_rx_event(&cfg, &dcqcn, &ev, 100, &act), NICC_FW_OK);
  EXPECT_EQ(act.flags, static_cast<uint32_t>(NICC_FW_ACT_SEND_CNP)) << "DCQCN sender: a CNP";
}

TEST(FwAbi, ContextBytesPerConfiguration) {
  size_t largest_without_dlb = 0, largest = 0;
  for (uint32_t cc = 0; cc < NICC_FW_CC_COUNT; ++cc) {
    for (uint32_t policy = 0; policy < NICC_FW_SPRAY_COUNT; ++policy) {
      nicc_fw_params p = Defaults();
      p.cc = cc;
      p.spray.policy = policy;
      p.spray.ev_bits = 2;
      nicc_fw_config cfg;
      ASSERT_EQ(nicc_fw_configure(&cfg, &p, nullptr), NICC_FW_OK) << cc << " " << policy;
      const size_t n = nicc_fw_flow_bytes(&cfg);
      EXPECT_EQ(n % 8, 0u);
      EXPECT_LE(n, static_cast<size_t>(NICC_FW_FLOW_BYTES));
      if (policy != NICC_FW_SPRAY_DLB && cc != NICC_FW_CC_HPCC_SPRAY && n > largest_without_dlb)
        largest_without_dlb = n;
      if (n > largest) largest = n;
      EXPECT_LE(nicc_fw_rx_flow_bytes(&cfg), static_cast<size_t>(NICC_FW_RX_FLOW_BYTES));
      if (cc == NICC_FW_CC_DCQCN && policy == NICC_FW_SPRAY_ECMP) {
        EXPECT_LE(n, 48u);
      }
      if (cc == NICC_FW_CC_HPCC && policy == NICC_FW_SPRAY_REPS) {
        EXPECT_LE(n, 112u);
      }
      if (cc == NICC_FW_CC_NSCC && policy == NICC_FW_SPRAY_REPS) {
        EXPECT_LE(n, 80u);
      }
      // Sprayed HPCC: 160 B of state (four paths' INT histories) + the
      // policy's + the key, 8-byte rounded.
      if (cc == NICC_FW_CC_HPCC_SPRAY) {
        const size_t want = policy == NICC_FW_SPRAY_ECMP     ? 168u
                            : policy == NICC_FW_SPRAY_OPS    ? 176u
                            : policy == NICC_FW_SPRAY_BITMAP ? 208u
                            : policy == NICC_FW_SPRAY_REPS   ? 192u
                            : policy == NICC_FW_SPRAY_PLB    ? 184u
                                                             : 224u;
        EXPECT_EQ(n, want) << "policy " << policy;
      }
    }
  }
  EXPECT_LE(largest_without_dlb, 112u);
  EXPECT_EQ(largest, static_cast<size_t>(NICC_FW_FLOW_BYTES));
}

// NSCC through the C ABI: its parameters reach the engine (a bad one is
// named), an ACK with ECN at low delay asks for another entropy value, a
// marked ACK at high delay cuts the window, and a NACK after a quick-adapt
// period with little delivered sets the window to what was delivered.
TEST(FwAbi, NsccEvents) {
  nicc_fw_params p = Defaults();
  p.cc = NICC_FW_CC_NSCC;
  p.spray.policy = NICC_FW_SPRAY_REPS;
  p.spray.ev_bits = 3;
  p.nscc.delay_ewma_x1024 = 1024;
  const char* bad = nullptr;
  p.nscc.gamma_x1024 = 1025;
  EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_OUT_OF_RANGE);
  ASSERT_NE(bad, nullptr);
  EXPECT_STREQ(bad, "gamma_x1024");
  p.nscc.gamma_x1024 = 819;
  nicc_fw_config cfg;
  ASSERT_EQ(nicc_fw_configure(&cfg, &p, nullptr), NICC_FW_OK);
  nicc_fw_flow flow;
  nicc_fw_flow_init(&cfg, &flow, 1, 1, 0);
  EXPECT_EQ(nicc_fw_window_bytes(&cfg, &flow), 225000u);  // 1.5 x 100 Gb/s x 12 us
  EXPECT_EQ(nicc_fw_rate_kbps(&cfg, &flow), 100000000u);  // capped at the line rate
  nicc_fw_event ev{};
  ev.kind = NICC_FW_EV_ACK;
  ev.ev = 0xC003;
  ev.seq = 4096;
  ev.snd_nxt = 65536;
  ev.bytes = 4096;
  ev.ecn = 1;
  ev.rtt_ns = 14000;  // 2 us of queueing, below the 9 us target
  nicc_fw_action a;
  ASSERT_EQ(nicc_fw_on_event(&cfg, &flow, &ev, 100, &a), NICC_FW_OK);
  EXPECT_EQ(a.flags, NICC_FW_ACT_CHANGE_EV);
  EXPECT_EQ(a.ev, 0xC003);
  ev.seq = 8192;
  ev.rtt_ns = 12000 + 18000;  // 18 us: keep 1 - 0.8 x 9/18 = 0.6
  ASSERT_EQ(nicc_fw_on_event(&cfg, &flow, &ev, 200, &a), NICC_FW_OK);
  EXPECT_EQ(a.flags, NICC_FW_ACT_SET_WINDOW | NICC_FW_ACT_SET_RATE);
  EXPECT_NEAR(a.window_bytes, 225000.0 * 0.6, 225000.0 * 0.002);
  nicc_fw_event nack{};
  nack.kind = NICC_FW_EV_NACK;
  nack.ev = 0xC003;
  nack.bytes = 4160;
  nack.snd_nxt = 69632;
  ASSERT_EQ(nicc_fw_on_event(&cfg, &flow, &nack, 30000, &a), NICC_FW_OK);  // period over: adapt
  EXPECT_EQ(a.flags, NICC_FW_ACT_SET_WINDOW | NICC_FW_ACT_SET_RATE);
  EXPECT_EQ(a.window_bytes, 4160u);  // 4096 B delivered in the period, below the one-MTU floor
}

// Sprayed HPCC through the C ABI: ACKs alternate between two entropy values
// whose INT stacks (wire bytes, decoded inside nicc_fw_on_event) describe
// two 3-hop paths; EV 11's is idle (half the line rate, no queue), EV 12's
// hop 2 is loaded (line rate, 40 kB queue). The window follows the loaded
// path (U = max over paths), where the same ACKs of EV 11 alone leave it at
// the line-rate BDP, as single-path HPCC listening to EV 11 only would. A
// malformed stack is refused and changes nothing.
struct SprayRun {
  uint32_t window_bytes;
  uint32_t measurements;  // actions that set the window
};

SprayRun RunSprayedHpcc(bool with_loaded_path) {
  nicc_fw_params p = Defaults();
  p.cc = NICC_FW_CC_HPCC_SPRAY;
  p.spray.policy = NICC_FW_SPRAY_REPS;
  p.spray.ev_bits = 2;
  nicc_fw_config cfg;
  EXPECT_EQ(nicc_fw_configure(&cfg, &p, nullptr), NICC_FW_OK);
  EXPECT_EQ(nicc_fw_flow_bytes(&cfg), 192u);
  nicc_fw_flow flow;
  nicc_fw_flow_init(&cfg, &flow, 1, 1, 1000);
  EXPECT_EQ(nicc_fw_window_bytes(&cfg, &flow), 162500u);  // 100 Gb/s x 13 us
  SprayRun r{0, 0};
  for (uint32_t k = 0; k < 60; ++k) {
    const uint16_t ev = k % 2 == 0 ? 11 : 12;
    if (ev == 12 && !with_loaded_path) continue;
    const uint32_t round = k / 2 + 1;     // each path hears an ACK every 2 us
    const uint32_t t_ns = 13000 + 1000 * k;
    nicc::IntStack st{};
    st.hop_count = 3;
    for (uint32_t h = 0; h < 3; ++h) {
      const bool loaded = ev == 12 && h == 2;
      const uint64_t tx_bytes = uint64_t{round} * 2000u * (loaded ? 25u : 12u) / 2u;  // 12.5 or 6 B/ns
      st.hops[h] = nicc::IntHop::Make(3, t_ns - 2000 + 500 * h, static_cast<uint32_t>(tx_bytes / nicc::kIntTxUnitBytes),
                                      loaded ? 40000u / nicc::kIntQlenUnitBytes : 0u);
    }
    uint8_t buf[64];
    size_t len = 0;
    EXPECT_TRUE(nicc::EncodeIntStack(st, buf, sizeof buf, &len).ok());
    nicc_fw_event e{};
    e.kind = NICC_FW_EV_ACK;
    e.ev = ev;
    e.seq = 1000 + 4096 * k;
    e.snd_nxt = 1000 + 4096 * (k + 40);
    e.int_stack = buf;
    e.int_len = static_cast<uint16_t>(len);
    nicc_fw_action a;
    EXPECT_EQ(nicc_fw_on_event(&cfg, &flow, &e, t_ns, &a), NICC_FW_OK);
    if (a.flags & NICC_FW_ACT_SET_WINDOW) {
      ++r.measurements;
      EXPECT_EQ(a.window_bytes, nicc_fw_window_bytes(&cfg, &flow));
    }
  }
  // A truncated stack: the codec's error, the flow unchanged.
  const uint32_t before = nicc_fw_window_bytes(&cfg, &flow);
  const uint8_t junk[3] = {1, 2, 3};
  nicc_fw_event bad{};
  bad.kind = NICC_FW_EV_ACK;
  bad.ev = 12;
  bad.int_stack = junk;
  bad.int_len = 3;
  nicc_fw_action a;
  EXPECT_EQ(nicc_fw_on_event(&cfg, &flow, &bad, 80000, &a), NICC_FW_ERR_TRUNCATED);
  EXPECT_EQ(a.flags, 0u);
  EXPECT_EQ(nicc_fw_window_bytes(&cfg, &flow), before);
  r.window_bytes = before;
  return r;
}

// nscc+rccc through the C ABI: params.rccc checked by name, the port and
// receiver contexts, the credit in RX_DATA's grant and in the ACK.
TEST(FwAbi, NsccRcccEvents) {
  nicc_fw_params p = Defaults();
  p.cc = NICC_FW_CC_NSCC_RCCC;
  EXPECT_EQ(p.rccc.pool_pct, 100u);
  EXPECT_EQ(p.rccc.line_rate_mbps, 100000u);
  const char* bad = nullptr;
  p.rccc.pool_pct = 0;
  EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_ZERO);
  ASSERT_NE(bad, nullptr);
  EXPECT_STREQ(bad, "pool_pct");
  p.rccc.pool_pct = 100;
  p.rccc.initial_credit_bytes = 0x80000000u;  // 2^31: above 2^30, not read as negative
  EXPECT_EQ(Configure(p, &bad), NICC_FW_ERR_OUT_OF_RANGE);
  EXPECT_STREQ(bad, "initial_credit_bytes");
  p.rccc.initial_credit_bytes = 150000;
  nicc_fw_config cfg;
  ASSERT_EQ(nicc_fw_configure(&cfg, &p, nullptr), NICC_FW_OK);
  EXPECT_EQ(nicc_fw_rx_flow_bytes(&cfg), 24u);
  EXPECT_LE(nicc_fw_flow_bytes(&cfg), 72u);  // NSCC + RCCC (56) + ECMP + key

  nicc_fw_port port;
  nicc_fw_port_init(&cfg, &port);
  nicc_fw_rx_flow rx[2];
  nicc_fw_rx_flow_init(&cfg, &rx[0], 1);
  nicc_fw_rx_flow_init(&cfg, &rx[1], 2);
  nicc_fw_event ev{};
  ev.kind = NICC_FW_EV_RX_DATA;
  ev.seq = 0xFFFFF000u;  // the grant wraps past 2^32
  ev.bytes = 4096;
  ev.snd_nxt = 0x00100000u;  // backlog end, after the wrap
  nicc_fw_action a;
  EXPECT_EQ(nicc_fw_on_rx_event(&cfg, &rx[0], &ev, 0, &a), NICC_FW_ERR_UNSUPPORTED) << "needs its port";
  EXPECT_EQ(a.flags, 0u);
  ASSERT_EQ(nicc_fw_on_rx_port_event(&cfg, &port, &rx[0], &ev, 0, &a), NICC_FW_OK);
  EXPECT_EQ(a.flags, NICC_FW_ACT_GRANT_CREDIT);
  EXPECT_EQ(a.window_bytes, 0xFFFFF000u + 150000u);  // modulo 2^32
  ev.seq = 4096;
  ev.snd_nxt = 1u << 24;
  ASSERT_EQ(nicc_fw_on_rx_port_event(&cfg, &port, &rx[1], &ev, 10, &a), NICC_FW_OK);
  EXPECT_EQ(a.window_bytes, 4096u + 75000u);
  nicc_fw_rx_flow_close(&cfg, &port, &rx[0]);
  ev.seq = 8192;
  ASSERT_EQ(nicc_fw_on_rx_port_event(&cfg, &port, &rx[1], &ev, 20, &a), NICC_FW_OK);
  EXPECT_EQ(a.window_bytes, 8192u + 150000u) << "the closed flow left the pool";

  nicc_fw_flow flow;
  nicc_fw_flow_init(&cfg, &flow, 1, 1, 0);
  EXPECT_EQ(nicc_fw_window_bytes(&cfg, &flow), 150000u);
  nicc_fw_event ack{};
  ack.kind = NICC_FW_EV_ACK;
  ack.seq = 4096;
  ack.snd_nxt = 65536;
  ack.bytes = 4096;
  ack.rtt_ns = 12500;
  ack.credit = 0xFFFFFFF0u;  // 2^32 - 16: behind snd_una modulo 2^32, ignored
  ASSERT_EQ(nicc_fw_on_event(&cfg, &flow, &ack, 100, &a), NICC_FW_OK);
  EXPECT_TRUE(a.flags & NICC_FW_ACT_SET_WINDOW);
  EXPECT_EQ(a.window_bytes, 150000u - 4096u);
  ack.seq = 8192;
  ack.credit = 8192 + 30000;
  ASSERT_EQ(nicc_fw_on_event(&cfg, &flow, &ack, 200, &a), NICC_FW_OK);
  EXPECT_EQ(a.window_bytes, 150000u - 8192u) << "a smaller grant does not lower the credit";
  ack.seq = 12288;
  ack.credit = 12288 + 200000;
  ASSERT_EQ(nicc_fw_on_event(&cfg, &flow, &ack, 300, &a), NICC_FW_OK);
  EXPECT_EQ(a.window_bytes, 200000u);
  EXPECT_EQ(nicc_fw_window_bytes(&cfg, &flow), 200000u);
}

TEST(FwAbi, HpccSprayEvents) {
  const SprayRun idle = RunSprayedHpcc(false);
  const SprayRun both = RunSprayedHpcc(true);
  EXPECT_GT(idle.measurements, 20u);
  EXPECT_GT(both.measurements, 40u);
  // EV 11 alone: U ~ 0.48 < eta, the window stays at the BDP (+ W_AI steps,
  // capped at the BDP).
  EXPECT_EQ(idle.window_bytes, 162500u);
  // With EV 12: U -> 1 + 40000 / 162500 = 1.25 on that path, each update
  // cuts the window by eta / U (measured: 98292 B after 30 us).
  EXPECT_LT(both.window_bytes, 162500u * 9 / 10);
  EXPECT_GT(both.window_bytes, 162500u / 2);
}

// A context of exactly nicc_fw_flow_bytes() (bytes after it untouched)
// behaves as a full-size one.
TEST(FwAbi, ExactSizeContextsWork) {
  for (uint32_t cc = 0; cc < NICC_FW_CC_COUNT; ++cc) {
    for (uint32_t policy = 0; policy < NICC_FW_SPRAY_COUNT; ++policy) {
      nicc_fw_params p = Defaults();
      p.cc = cc;
      p.spray.policy = policy;
      p.spray.ev_bits = 3;
      p.ecn_rule.change_path_on_low_delay = 1;
      nicc_fw_config cfg;
      ASSERT_EQ(nicc_fw_configure(&cfg, &p, nullptr), NICC_FW_OK);
      const size_t n = nicc_fw_flow_bytes(&cfg);
      nicc_fw_flow small_store, full;
      std::memset(&small_store, 0xA5, sizeof small_store);
      nicc_fw_flow* small = &small_store;
      nicc_fw_flow_init(&cfg, small, 5, 9, 0);
      nicc_fw_flow_init(&cfg, &full, 5, 9, 0);
      for (uint32_t i = 0; i < 64; ++i) {
        const uint16_t a = nicc_fw_select_ev(&cfg, small, i * 100);
        ASSERT_EQ(a, nicc_fw_select_ev(&cfg, &full, i * 100));
        nicc_fw_event ev{};
        ev.kind = i % 7 == 3 ? NICC_FW_EV_CNP : i % 11 == 5 ? NICC_FW_EV_TIMEOUT : NICC_FW_EV_ACK;
        ev.ev = a;
        ev.seq = i * 1000;
        ev.snd_nxt = i * 1000 + 4000;
        ev.ecn = i % 3 == 0;
        ev.rtt_ns = i % 2 ? 9000 : 60000;
        nicc_fw_action x, y;
        ASSERT_EQ(nicc_fw_on_event(&cfg, small, &ev, i * 100 + 50, &x),
                  nicc_fw_on_event(&cfg, &full, &ev, i * 100 + 50, &y));
        ASSERT_EQ(x.flags, y.flags);
        ASSERT_EQ(nicc_fw_rate_kbps(&cfg, small), nicc_fw_rate_kbps(&cfg, &full));
      }
      const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&small_store);
      for (size_t i = n; i < sizeof small_store; ++i)
        ASSERT_EQ(bytes[i], 0xA5) << "cc " << cc << " policy " << policy << ": byte " << i << " of " << n;
    }
  }
}

}  // namespace

namespace {

void NsccGammaTooHigh(nicc_fw_params* p) {
  nicc_fw_params_default(p, 100000);
  p->cc = NICC_FW_CC_NSCC;
  p->nscc.gamma_x1024 = 1025;
}

struct Reports {
  std::vector<std::string> fields;
};

void Collect(void* ctx, uint32_t, const char* field, uint32_t, uint32_t) {
  static_cast<Reports*>(ctx)->fields.push_back(field);
}

}  // namespace

// A parameter-error vector passes only with the code and the field
// nicc_fw_configure returns; another code or another field is a mismatch.
TEST(FwAbi, VectorRunChecksConfigureStatusAndField) {
  struct Case {
    int32_t status;
    const char* field;
    uint32_t mismatches;
    const char* reported;
  } cases[] = {
      {NICC_FW_ERR_OUT_OF_RANGE, "gamma_x1024", 0, nullptr},
      {NICC_FW_ERR_OUT_OF_RANGE, "gamma_x102", 1, "configure_field"},
      {NICC_FW_ERR_ZERO, "gamma_x1024", 1, "configure"},
      {NICC_FW_OK, nullptr, 1, "configure"},
  };
  for (const Case& c : cases) {
    const nicc_fw_vector v = {"t/err", NsccGammaTooHigh, 0, 0, nullptr, 0, c.status, c.field};
    Reports r;
    EXPECT_EQ(nicc_fw_vector_run(&v, Collect, &r), c.mismatches) << (c.field ? c.field : "-");
    ASSERT_EQ(r.fields.size(), c.mismatches);
    if (c.reported) {
      EXPECT_EQ(r.fields[0], c.reported);
    }
  }
}
