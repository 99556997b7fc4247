// Tests of the HAL driver (hal/nicc/hal/driver.h) with a recording backend:
// the sender and receiver tables' capacities, handles and refusal counters,
// the slot sizes of each composition, dispatch of every event kind to the
// configured CC and spray policy, the ECN path rule, malformed INT input and
// the clock helpers.
#include "nicc/hal/driver.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "nicc/hal/backend.h"
#include "nicc/hal/clock.h"

#include "hal_recorder.h"

namespace hal = nicc::hal;
namespace dq = nicc::dcqcn;
namespace sp = nicc::spray;

namespace {

using hal_test::Recorder;
using AnyTx = hal::AnySenderSlot;

hal::DriverConfig MakeConfig(hal::CcKind cc, sp::Policy policy, uint32_t ev_bits, bool ecn_rule) {
  hal::DriverConfig cfg{};
  nicc::ecn_path::Rule rule = nicc::ecn_path::Rule::Defaults();
  rule.change_path_on_low_delay = ecn_rule ? 1 : 0;
  rule.base_rtt_ns = 8000;
  const nicc::Status st =
      hal::InitDriverConfig(hal::DriverParams::Of(cc, 100000), dq::Params::Mlx5(100000),
                            nicc::hpcc::Params::HpccPaper(),
                            sp::Params::Defaults(policy, ev_bits, 0x12345), rule, &cfg);
  EXPECT_TRUE(st.ok()) << (st.field ? st.field : "");
  return cfg;
}

TEST(HalDriver, TableCapacityHandlesAndFind) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kEcmp, 0, false);
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<dq::RpState, sp::EcmpState>, 4, 2> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId ids[4];
  for (uint32_t i = 0; i < 4; ++i) ASSERT_TRUE(drv.OpenTx(100 + i, i, &ids[i]).ok());
  EXPECT_EQ(drv.tx_size(), 4u);
  EXPECT_EQ(drv.tx_full(), 0u);
  hal::FlowId extra;
  const nicc::Status full = drv.OpenTx(200, 0, &extra);
  EXPECT_EQ(full.code, nicc::StatusCode::kFull);
  EXPECT_EQ(drv.OpenTx(201, 0, &extra).code, nicc::StatusCode::kFull);
  EXPECT_EQ(drv.tx_full(), 2u) << "every refusal is counted";
  EXPECT_EQ(drv.rx_full(), 0u);
  hal::FlowId found;
  ASSERT_TRUE(drv.FindTx(102, &found).ok());
  EXPECT_EQ(found, ids[2]);
  EXPECT_EQ(drv.FindTx(999, &found).code, nicc::StatusCode::kNotFound);
  ASSERT_TRUE(drv.CloseTx(ids[1]).ok());
  EXPECT_EQ(drv.CloseTx(ids[1]).code, nicc::StatusCode::kNotFound) << "double close";
  EXPECT_EQ(drv.Deliver(ids[1], hal::Event::Cnp(), 0).code, nicc::StatusCode::kNotFound);
  EXPECT_EQ(drv.Deliver(hal::kNoFlow, hal::Event::Cnp(), 0).code, nicc::StatusCode::kNotFound);
  ASSERT_TRUE(drv.OpenTx(300, 0, &extra).ok()) << "a closed slot is reused";
  EXPECT_EQ(extra, ids[1]);
  // The receiver table is separate: its own ids, capacity and counter.
  hal::FlowId r[2];
  ASSERT_TRUE(drv.OpenRx(100, &r[0]).ok());
  ASSERT_TRUE(drv.OpenRx(101, &r[1]).ok());
  EXPECT_EQ(drv.OpenRx(102, &extra).code, nicc::StatusCode::kFull);
  EXPECT_EQ(drv.rx_full(), 1u);
  EXPECT_EQ(drv.tx_full(), 2u);
  EXPECT_EQ(drv.rx_size(), 2u);
  ASSERT_TRUE(drv.FindRx(101, &found).ok());
  EXPECT_EQ(found, r[1]);
  ASSERT_TRUE(drv.FindTx(100, &found).ok()) << "same key, other table";
  EXPECT_EQ(found, ids[0]);
  EXPECT_EQ(drv.DeliverRx(r[0], hal::Event::Cnp(), 0).code, nicc::StatusCode::kUnsupported);
  EXPECT_EQ(drv.Deliver(ids[0], hal::Event::RxData(true), 0).code, nicc::StatusCode::kUnsupported);
  ASSERT_TRUE(drv.CloseRx(r[0]).ok());
  EXPECT_EQ(drv.DeliverRx(r[0], hal::Event::RxData(true), 0).code, nicc::StatusCode::kNotFound);
  EXPECT_TRUE(rec.calls.empty());
  EXPECT_TRUE(rec.rx_calls.empty());
}

TEST(HalDriver, NoReceiverTable) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kNone, sp::Policy::kEcmp, 0, false);
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<hal::NoCcState, sp::EcmpState>, 1, 0> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  EXPECT_EQ(drv.OpenRx(1, &f).code, nicc::StatusCode::kFull);
  EXPECT_EQ(drv.rx_full(), 1u);
  ASSERT_TRUE(drv.OpenTx(1, 1, &f).ok());
  EXPECT_EQ(drv.RateKbps(f), 100000000u) << "no CC: line rate";
}

TEST(HalDriver, SlotTypesMustServeTheConfig) {
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<dq::RpState, sp::EcmpState>, 1, 1> drv;
  hal::DriverConfig cfg = MakeConfig(hal::CcKind::kHpcc, sp::Policy::kEcmp, 0, false);
  nicc::Status st = drv.Init(&cfg, &rec);
  EXPECT_EQ(st.code, nicc::StatusCode::kUnsupported);
  EXPECT_STREQ(st.field, "cc");
  hal::FlowId f;
  EXPECT_FALSE(drv.OpenTx(1, 1, &f).ok()) << "an unbound driver opens nothing";
  cfg = MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kOps, 3, false);
  st = drv.Init(&cfg, &rec);
  EXPECT_EQ(st.code, nicc::StatusCode::kUnsupported);
  EXPECT_STREQ(st.field, "policy");
  cfg = MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kEcmp, 0, false);
  EXPECT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::Driver<Recorder, hal::SenderSlot<nicc::hpcc::State, sp::RepsState>, 1, 1> hp;
  cfg = MakeConfig(hal::CcKind::kHpccPint, sp::Policy::kReps, 3, false);
  EXPECT_TRUE(hp.Init(&cfg, &rec).ok()) << "HPCC's state serves HPCC-PINT too";
}

TEST(HalDriver, SlotSizesPerComposition) {
  EXPECT_LE(sizeof(hal::SenderSlot<dq::RpState, sp::EcmpState>), 48u);
  EXPECT_LE(sizeof(hal::SenderSlot<nicc::hpcc::State, sp::RepsState>), 112u);
  EXPECT_LE(sizeof(hal::SenderSlot<nicc::hpcc::State, sp::BitmapState>), 112u);
  EXPECT_LE(sizeof(hal::ReceiverSlot), 24u);  // RCCC flow state + key + the sender's kind
  EXPECT_LE(sizeof(hal::SenderSlot<nicc::rccc::SenderState, sp::RepsState>), 88u);
  EXPECT_LE(sizeof(nicc::rccc::PortState), 64u);
  EXPECT_LE(sizeof(nicc::rccc::RxFlowState), 32u);
  EXPECT_LT(sizeof(hal::SenderSlot<nicc::hpcc::State, sp::EcmpState>),
            sizeof(hal::SenderSlot<nicc::hpcc::State, sp::RepsState>));
}

// A sender composed of one CC and one policy behaves as the any-CC slot.
TEST(HalDriver, ComposedSlotMatchesTheAnySlot) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kBitmap, 3, true);
  Recorder a_rec, b_rec;
  hal::Driver<Recorder, hal::SenderSlot<dq::RpState, sp::BitmapState>, 1, 1> a;
  hal::Driver<Recorder, AnyTx, 1, 1> b;
  ASSERT_TRUE(a.Init(&cfg, &a_rec).ok());
  ASSERT_TRUE(b.Init(&cfg, &b_rec).ok());
  hal::FlowId fa, fb;
  ASSERT_TRUE(a.OpenTx(1, 9, &fa).ok());
  ASSERT_TRUE(b.OpenTx(1, 9, &fb).ok());
  for (uint32_t i = 0; i < 40; ++i) {
    const nicc::TimeNs now = 1000 * i;
    const uint16_t pa = a.SelectEv(fa, now);
    ASSERT_EQ(pa, b.SelectEv(fb, now));
    hal::Event e = i % 5 == 4 ? hal::Event::Cnp() : hal::Event::Ack(i * 1000, i * 1000 + 4096, i % 3 == 0, pa);
    e.rtt_ns = i % 2 ? 9000 : 40000;
    ASSERT_TRUE(a.Deliver(fa, e, now).ok());
    ASSERT_TRUE(b.Deliver(fb, e, now).ok());
    ASSERT_EQ(a.RateKbps(fa), b.RateKbps(fb));
  }
  EXPECT_EQ(a_rec.calls.size(), b_rec.calls.size());
}

TEST(HalDriver, DcqcnEventsReachTheEngineAndActionsTheBackend) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kEcmp, 0, false);
  Recorder rec;
  static hal::Driver<Recorder, AnyTx, 8, 8> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  ASSERT_TRUE(drv.OpenTx(7, 1, &f).ok());
  EXPECT_EQ(drv.RateKbps(f), 100000000u);
  EXPECT_EQ(drv.WindowBytes(f), 0u);
  // An idle flow's tx reports produce nothing.
  EXPECT_TRUE(drv.Deliver(f, hal::Event::TxDone(4096), 10).ok());
  EXPECT_TRUE(rec.calls.empty());
  // CNP: the same action the engine computes directly.
  dq::RpState ref;
  dq::RpInit(cfg.dcqcn, &ref);
  const nicc::Action want = dq::RpOnCnp(cfg.dcqcn, &ref, 1000);
  ASSERT_TRUE(drv.Deliver(f, hal::Event::Cnp(), 1000).ok());
  ASSERT_EQ(rec.calls.size(), 1u);
  EXPECT_EQ(rec.calls[0].flow, f);
  EXPECT_EQ(rec.calls[0].action.flags, want.flags);
  EXPECT_EQ(rec.calls[0].action.rate_kbps, want.rate_kbps);
  EXPECT_EQ(rec.calls[0].action.timer_ns, want.timer_ns);
  EXPECT_EQ(drv.RateKbps(f), want.rate_kbps);
  // Timer at its deadline: an increase and a re-arm.
  ASSERT_TRUE(drv.Deliver(f, hal::Event::Timer(), want.timer_ns).ok());
  ASSERT_EQ(rec.calls.size(), 2u);
  EXPECT_TRUE(rec.calls[1].action.Has(nicc::kActSetRate));
  EXPECT_TRUE(rec.calls[1].action.Has(nicc::kActArmTimer));
  EXPECT_GT(rec.calls[1].action.rate_kbps, want.rate_kbps);
  // Byte counter through TxDone.
  ASSERT_TRUE(drv.Deliver(f, hal::Event::TxDone(32767), want.timer_ns + 10).ok());
  ASSERT_EQ(rec.calls.size(), 3u);
  EXPECT_TRUE(rec.calls[2].action.Has(nicc::kActSetRate));
}

TEST(HalDriver, ReceiverSendsPacedCnps) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kEcmp, 0, false);
  Recorder rec;
  hal::Driver<Recorder, AnyTx, 2, 2> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  ASSERT_TRUE(drv.OpenRx(1, &f).ok());
  ASSERT_TRUE(drv.DeliverRx(f, hal::Event::RxData(false), 0).ok());
  ASSERT_TRUE(drv.DeliverRx(f, hal::Event::RxData(true), 100).ok());
  ASSERT_TRUE(drv.DeliverRx(f, hal::Event::RxData(true), 200).ok());   // paced (4 us)
  ASSERT_TRUE(drv.DeliverRx(f, hal::Event::RxData(true), 4100).ok());
  EXPECT_TRUE(rec.calls.empty()) << "receiver actions go to ApplyRx";
  ASSERT_EQ(rec.rx_calls.size(), 2u);
  EXPECT_EQ(rec.rx_calls[0].flow, f);
  EXPECT_EQ(rec.rx_calls[0].action.flags, nicc::kActSendCnp);
  EXPECT_EQ(rec.rx_calls[1].action.flags, nicc::kActSendCnp);
}

// nscc+rccc: the driver's one port shares its credit pool (one BDP, 150000 B)
// among the receiving flows with backlog; each data packet's grant goes to
// ApplyRx with kActGrantCredit; a sender's window is bounded by the credit
// its ACKs carry.
TEST(HalDriver, RcccReceiverGrantsSharesOfThePortsPool) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kNsccRccc, sp::Policy::kReps, 3, false);
  EXPECT_EQ(cfg.rccc.pool_bytes, 150000u);
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<nicc::rccc::SenderState, sp::RepsState>, 2, 4> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId r[3];
  for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(drv.OpenRx(10 + i, &r[i]).ok());
  const uint32_t backlog = 1u << 24;
  ASSERT_TRUE(drv.DeliverRx(r[0], hal::Event::RxData(false, 4096, 4096, backlog), 0).ok());
  ASSERT_EQ(rec.rx_calls.size(), 1u);
  EXPECT_EQ(rec.rx_calls[0].action.flags, nicc::kActGrantCredit);
  EXPECT_EQ(rec.rx_calls[0].action.window_bytes, 4096u + 150000u);
  ASSERT_TRUE(drv.DeliverRx(r[1], hal::Event::RxData(false, 4096, 4096, backlog), 10).ok());
  EXPECT_EQ(rec.rx_calls[1].action.window_bytes, 4096u + 75000u);
  ASSERT_TRUE(drv.DeliverRx(r[2], hal::Event::RxData(false, 4096, 4096, backlog), 20).ok());
  EXPECT_EQ(rec.rx_calls[2].action.window_bytes, 4096u + 50000u);
  EXPECT_EQ(drv.rx_port().active, 3u);
  EXPECT_EQ(drv.rx_port().share_bytes, 50000u);
  // A packet that reaches its backlog end leaves; CloseRx of an active flow too.
  ASSERT_TRUE(drv.DeliverRx(r[0], hal::Event::RxData(false, 8192, 4096, 8192), 30).ok());
  EXPECT_EQ(drv.rx_port().active, 2u);
  EXPECT_EQ(drv.rx_port().share_bytes, 75000u);
  EXPECT_EQ(rec.rx_calls[3].action.window_bytes, 4096u + 150000u) << "the limit never decreases";
  ASSERT_TRUE(drv.CloseRx(r[1]).ok());
  EXPECT_EQ(drv.rx_port().active, 1u);
  EXPECT_EQ(drv.rx_port().share_bytes, 150000u);
  ASSERT_TRUE(drv.DeliverRx(r[2], hal::Event::RxData(false, 8192, 4096, backlog), 40).ok());
  EXPECT_EQ(rec.rx_calls[4].action.window_bytes, 8192u + 150000u);
  EXPECT_TRUE(rec.calls.empty());

  // The sender: initial credit one BDP from start_seq, then the ACK's credit.
  hal::FlowId f;
  ASSERT_TRUE(drv.OpenTx(1, 1, &f, /*start_seq=*/1000).ok());
  EXPECT_EQ(drv.WindowBytes(f), 150000u) << "min(NSCC 225000, initial credit 150000)";
  hal::Event ack = hal::Event::Ack(1000 + 4096, 1000 + 65536, false, 0xC001).WithCredit(1000 + 4096 + 50000);
  ack.bytes = 4096;
  ack.rtt_ns = 12500;
  ASSERT_TRUE(drv.Deliver(f, ack, 100).ok());
  ASSERT_EQ(rec.calls.size(), 1u);
  EXPECT_TRUE(rec.calls[0].action.Has(nicc::kActSetWindow));
  EXPECT_EQ(rec.calls[0].action.window_bytes, 150000u - 4096u) << "the initial credit is larger than the grant";
  ack = hal::Event::Ack(1000 + 8192, 1000 + 65536, false, 0xC001).WithCredit(1000 + 8192 + 200000);
  ack.bytes = 4096;
  ack.rtt_ns = 12500;
  ASSERT_TRUE(drv.Deliver(f, ack, 200).ok());
  EXPECT_EQ(rec.calls[1].action.window_bytes, 200000u);
  EXPECT_EQ(drv.WindowBytes(f), 200000u);
}

TEST(HalDriver, RcccReceiverNeedsItsPort) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kNsccRccc, sp::Policy::kEcmp, 0, false);
  hal::ReceiverSlot r;
  hal::ReceiverInit(cfg, &r, 7);
  nicc::Action a;
  EXPECT_EQ(hal::ReceiverDispatch(cfg, &r, hal::Event::RxData(false, 4096, 4096, 8192), 0, &a).code,
            nicc::StatusCode::kUnsupported);
  EXPECT_EQ(a.flags, 0u);
}

TEST(HalDriver, SprayPortsFollowThePolicy) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kNone, sp::Policy::kOps, 3, false);
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<hal::NoCcState, sp::OpsState>, 2, 0> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  ASSERT_TRUE(drv.OpenTx(1, 42, &f).ok());
  for (int round = 0; round < 4; ++round) {
    std::set<uint16_t> ports;
    for (int i = 0; i < 8; ++i) {
      const uint16_t p = drv.SelectEv(f, static_cast<uint32_t>(round * 8 + i));
      EXPECT_GE(p, 0xC000u);
      ports.insert(p);
    }
    EXPECT_EQ(ports.size(), 8u) << "OPS: each of 8 ports once per round";
  }
  EXPECT_EQ(drv.SelectEv(hal::kNoFlow, 0), 0u);
  EXPECT_EQ(drv.RateKbps(f), 100000000u) << "no CC: line rate";
}

// NSCC rule: a CNP while the newest RTT shows little queueing moves the flow
// off the last port (bitmap penalty) and keeps the rate; with the rule off,
// or with a high RTT, the CNP cuts.
TEST(HalDriver, EcnWithLowDelayChangesPathInsteadOfCutting) {
  for (bool rule_on : {true, false}) {
    for (uint32_t rtt : {9000u, 30000u}) {  // base 8 us: 1 us vs 22 us of queueing
      SCOPED_TRACE(testing::Message() << "rule " << rule_on << " rtt " << rtt);
      const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kBitmap, 3, rule_on);
      Recorder rec;
      hal::Driver<Recorder, hal::SenderSlot<dq::RpState, sp::BitmapState>, 2, 0> drv;
      ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
      hal::FlowId f;
      ASSERT_TRUE(drv.OpenTx(1, 5, &f).ok());
      const uint16_t port = drv.SelectEv(f, 0);
      hal::Event ack = hal::Event::Ack(1000, 2000, false, port);
      ack.rtt_ns = rtt;
      ASSERT_TRUE(drv.Deliver(f, ack, 10).ok());
      ASSERT_TRUE(drv.Deliver(f, hal::Event::Cnp(), 20).ok());
      const uint32_t idx = static_cast<uint32_t>(sp::EvIndex(cfg.spray, port));
      const bool change_path = rule_on && rtt == 9000u;
      if (change_path) {
        EXPECT_TRUE(rec.calls.empty()) << "rate kept";
        EXPECT_EQ(drv.RateKbps(f), 100000000u);
        EXPECT_EQ(sp::BitmapPenalty(drv.tx_slot(f).spray, idx), cfg.spray.bitmap_ecn_penalty);
      } else {
        ASSERT_EQ(rec.calls.size(), 1u);
        EXPECT_LT(drv.RateKbps(f), 100000000u) << "cut";
        EXPECT_EQ(sp::BitmapPenalty(drv.tx_slot(f).spray, idx), 0u);
      }
    }
  }
}

// Sprayed HPCC: the driver gives each ACK's INT stack with its entropy
// value to hpcc_spray::OnAck. The typed slot (OPS: every EV once a round,
// so all four paths are heard) and the any-CC slot give the engine's own
// actions; each slot type refuses the other HPCC kind.
TEST(HalDriver, HpccSprayAckFeedsThePathOfItsEv) {
  namespace hs = nicc::hpcc_spray;
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kHpccSpray, sp::Policy::kOps, 2, false);
  Recorder a_rec, b_rec;
  using SprayTx = hal::SenderSlot<hs::State, sp::OpsState>;
  static_assert(sizeof(hal::SenderSlot<hs::State, sp::RepsState>) == 192, "sprayed HPCC + REPS: 160 + 24 + key");
  static_assert(sizeof(SprayTx) == 176, "sprayed HPCC + OPS: 160 + 8 + key, 8-aligned");
  hal::Driver<Recorder, SprayTx, 1, 0> a;
  hal::Driver<Recorder, AnyTx, 1, 0> b;
  ASSERT_TRUE(a.Init(&cfg, &a_rec).ok());
  ASSERT_TRUE(b.Init(&cfg, &b_rec).ok());
  hal::FlowId fa, fb;
  ASSERT_TRUE(a.OpenTx(1, 9, &fa, 0).ok());
  ASSERT_TRUE(b.OpenTx(1, 9, &fb, 0).ok());
  hs::State ref;
  hs::Init(cfg.hpcc, &ref, 0);
  uint32_t set_window = 0;
  for (uint32_t i = 0; i < 48; ++i) {
    const nicc::TimeNs now = 2000 + 1000 * i;
    const uint16_t ev = a.SelectEv(fa, now);
    ASSERT_EQ(ev, b.SelectEv(fb, now));
    // Per EV its own path: the EV's low bits pick which of two hops is
    // queued (40 kB), so paths differ; tx at line rate on every hop.
    nicc::IntStack st{};
    st.hop_count = 2;
    for (uint32_t h = 0; h < 2; ++h)
      st.hops[h] = nicc::IntHop::Make(3, now - 500 + h * 100, (now * 25 / 2) / 128,
                                      (ev & 1u) == h ? 40000u / 80 : 0u);
    hal::Event e = hal::Event::Ack(i * 4096, i * 4096 + 65536, false, ev);
    e.rtt_ns = 9000;
    e.int_stack = &st;
    const nicc::Action want = hs::OnAck(cfg.hpcc, &ref, e.seq, e.snd_nxt, ev, st, now);
    const size_t before = a_rec.calls.size();
    ASSERT_TRUE(a.Deliver(fa, e, now).ok());
    ASSERT_TRUE(b.Deliver(fb, e, now).ok());
    ASSERT_EQ(a_rec.calls.size(), before + (want.flags != 0 ? 1u : 0u));
    if (want.flags != 0) {
      EXPECT_EQ(a_rec.calls.back().action.window_bytes, want.window_bytes);
      EXPECT_EQ(b_rec.calls.back().action.window_bytes, want.window_bytes);
      set_window += want.Has(nicc::kActSetWindow) ? 1u : 0u;
    }
    ASSERT_EQ(a.WindowBytes(fa), hs::WindowBytes(ref));
    ASSERT_EQ(b.WindowBytes(fb), hs::WindowBytes(ref));
    ASSERT_EQ(a.RateKbps(fa), hs::RateKbps(cfg.hpcc, ref));
  }
  EXPECT_GT(set_window, 20u) << "each EV comes back every round: its path measures";
  EXPECT_EQ(ref.path_count, 4u) << "four EVs, four paths kept";
  EXPECT_LT(a.WindowBytes(fa), 162500u) << "queued paths: U > eta";
  // A NACK changes no HPCC state; each HPCC slot type serves its kind only.
  const size_t calls = a_rec.calls.size();
  ASSERT_TRUE(a.Deliver(fa, hal::Event::Nack(a.SelectEv(fa, 60000)), 60000).ok());
  EXPECT_EQ(a_rec.calls.size(), calls);
  hal::DriverConfig hp_cfg = MakeConfig(hal::CcKind::kHpcc, sp::Policy::kOps, 2, false);
  EXPECT_EQ(a.Init(&hp_cfg, &a_rec).code, nicc::StatusCode::kUnsupported);
  hal::Driver<Recorder, hal::SenderSlot<nicc::hpcc::State, sp::OpsState>, 1, 0> hp;
  EXPECT_EQ(hp.Init(&cfg, &a_rec).code, nicc::StatusCode::kUnsupported);
}

// Sprayed HPCC's path signal: an ACK on a path above eta while another path
// in use is below comes back with change_ev on its EV, and the driver gives
// REPS kEcn for it (not recycled), as for an ECN mark; the light path's
// clean ACKs are recycled. Two EVs: A's hop queued 40 kB at line rate, B's
// at half rate with no queue.
TEST(HalDriver, HpccSprayPathSignalStopsRepsRecyclingTheLoadedEv) {
  namespace hs = nicc::hpcc_spray;
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kHpccSpray, sp::Policy::kReps, 2, false);
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<hs::State, sp::RepsState>, 1, 0> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  ASSERT_TRUE(drv.OpenTx(1, 9, &f, 0).ok());
  const uint16_t ev_a = sp::EvPort(cfg.spray, 1);
  const uint16_t ev_b = sp::EvPort(cfg.spray, 2);
  uint32_t signals_a = 0;
  for (uint32_t i = 0; i < 40; ++i) {
    const nicc::TimeNs now = 2000 + 1000 * i;
    const bool loaded = (i & 1u) == 0;
    nicc::IntStack st{};
    st.hop_count = 2;
    for (uint32_t h = 0; h < 2; ++h)
      st.hops[h] = nicc::IntHop::Make(3, now - 500 + h * 100, (now * 25 / (loaded ? 2 : 4)) / 128,
                                      loaded && h == 1 ? 40000u / 80 : 0u);
    hal::Event e = hal::Event::Ack(i * 4096, i * 4096 + 65536, false, loaded ? ev_a : ev_b);
    e.int_stack = &st;
    const size_t before = rec.calls.size();
    ASSERT_TRUE(drv.Deliver(f, e, now).ok());
    if (rec.calls.size() == before || !rec.calls.back().action.Has(nicc::kActChangeEv)) continue;
    ASSERT_TRUE(loaded) << "the light path never signals, ACK " << i;
    EXPECT_EQ(rec.calls.back().action.ev, ev_a);
    ++signals_a;
  }
  EXPECT_GT(signals_a, 10u) << "the loaded path signals once its U is above eta";
  const sp::RepsState& reps = drv.tx_slot(f).spray;
  ASSERT_EQ(reps.count, sp::kRepsRing) << "B's clean ACKs fill the ring";
  for (uint32_t j = 0; j < sp::kRepsRing; ++j)
    EXPECT_EQ(reps.ring[j], 2u) << "only B recycled, slot " << j;
}

// INT arrives decoded (event.h): the backend decodes the wire bytes once.
TEST(HalDriver, HpccAckWithDecodedIntSetsWindow) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kHpcc, sp::Policy::kEcmp, 0, false);
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<nicc::hpcc::State, sp::EcmpState>, 2, 0> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  ASSERT_TRUE(drv.OpenTx(1, 1, &f, /*start_seq=*/0).ok());
  const uint32_t w0 = drv.WindowBytes(f);
  EXPECT_GT(w0, 0u);
  // Two ACKs over one 100G hop with a standing queue: the second measures U
  // from the first's history and sets window and rate.
  uint8_t buf[64];
  size_t len = 0;
  uint32_t seq = 0;
  for (uint32_t i = 0; i < 2; ++i) {
    nicc::IntStack st{};
    st.hop_count = 1;
    st.mult_log2 = 0;
    // 12.5 KB per us at 100 Gb/s: tx advances at line rate, queue 100 KB.
    st.hops[0] = nicc::IntHop::Make(3, 1000 + i * 13000, (i * 13000 * 125 / 10) / 128, 100000 / 80);
    ASSERT_TRUE(nicc::EncodeIntStack(st, buf, sizeof buf, &len).ok());
    nicc::IntStack decoded;  // as a backend does where the packet arrives
    ASSERT_TRUE(nicc::DecodeIntStack(buf, len, &decoded).ok());
    seq += 20000;
    hal::Event ack = hal::Event::Ack(seq, seq + 100000, false, 0);
    ack.int_stack = &decoded;
    ASSERT_TRUE(drv.Deliver(f, ack, 1000 + i * 13000).ok());
  }
  ASSERT_FALSE(rec.calls.empty());
  const nicc::Action& a = rec.calls.back().action;
  EXPECT_TRUE(a.Has(nicc::kActSetWindow));
  EXPECT_TRUE(a.Has(nicc::kActSetRate));
  EXPECT_LT(a.window_bytes, w0) << "U > eta: the window shrinks";
  EXPECT_EQ(drv.WindowBytes(f), a.window_bytes);
  // An ACK without INT changes nothing (a malformed stack never gets here:
  // the backend's decode refuses it; the C ABI's test covers that path).
  const size_t n = rec.calls.size();
  const auto before = drv.tx_slot(f);
  ASSERT_TRUE(drv.Deliver(f, hal::Event::Ack(seq + 1000, seq + 200000, false, 0), 30000).ok());
  EXPECT_EQ(rec.calls.size(), n);
  EXPECT_EQ(drv.tx_slot(f).cc.w_q4, before.cc.w_q4);
}

TEST(HalDriver, InitDriverConfigNamesTheBadField) {
  hal::DriverConfig cfg{};
  dq::Params d = dq::Params::Mlx5(100000);
  d.rp_time_reset = 0;
  nicc::Status st = hal::InitDriverConfig(hal::DriverParams::Of(hal::CcKind::kDcqcn, 100000), d,
                                          nicc::hpcc::Params::HpccPaper(),
                                          sp::Params::Defaults(sp::Policy::kOps, 3, 1),
                                          nicc::ecn_path::Rule::Defaults(), &cfg);
  ASSERT_FALSE(st.ok());
  EXPECT_STREQ(st.field, "rp_time_reset");
  st = hal::InitDriverConfig(hal::DriverParams::Of(static_cast<hal::CcKind>(9), 100000), dq::Params::Mlx5(100000),
                             nicc::hpcc::Params::HpccPaper(), sp::Params::Defaults(sp::Policy::kOps, 3, 1),
                             nicc::ecn_path::Rule::Defaults(), &cfg);
  EXPECT_STREQ(st.field, "cc");
}

// The line rate is the driver's own parameter: a flow without CC runs at
// it whatever DCQCN's (port speed) field says.
TEST(HalDriver, LineRateIsTheDriversParameter) {
  hal::DriverConfig cfg{};
  ASSERT_TRUE(hal::InitDriverConfig(hal::DriverParams::Of(hal::CcKind::kNone, 25000), dq::Params::Mlx5(100000),
                                    nicc::hpcc::Params::HpccPaper(), sp::Params::Defaults(sp::Policy::kEcmp, 0, 1),
                                    nicc::ecn_path::Rule::Defaults(), &cfg)
                  .ok());
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<hal::NoCcState, sp::EcmpState>, 1, 0> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  ASSERT_TRUE(drv.OpenTx(1, 1, &f).ok());
  EXPECT_EQ(drv.RateKbps(f), 25000000u);
  hal::DriverParams bad = hal::DriverParams::Of(hal::CcKind::kNone, 0);
  EXPECT_EQ(bad.Validate().code, nicc::StatusCode::kZero);
  EXPECT_STREQ(bad.Validate().field, "line_rate_mbps");
  bad.line_rate_mbps = NICC_MAX_LINE_RATE_MBPS + 1;
  EXPECT_EQ(bad.Validate().code, nicc::StatusCode::kOutOfRange);
  EXPECT_EQ(hal::kDriverParamTable.count, 1u);
  EXPECT_TRUE(hal::kDriverParamTable.rows[0].backend());
}

TEST(HalClock, UnwrapLiftsDeadlinesNextToTheReference) {
  const uint64_t ref = 5ull * (1ull << 32) + 100;  // five wraps in
  EXPECT_EQ(hal::ToNicTime(ref), 100u);
  EXPECT_EQ(hal::Unwrap(hal::ToNicTime(ref + 300000), ref), ref + 300000);
  EXPECT_EQ(hal::Unwrap(static_cast<nicc::TimeNs>(100u - 50u), ref), ref - 50);  // just behind
  const uint64_t near_wrap = (1ull << 32) - 10;
  EXPECT_EQ(hal::Unwrap(hal::ToNicTime(near_wrap + 1000), near_wrap), near_wrap + 1000);
  EXPECT_EQ(hal::Unwrap(0xFFFFFF00u, 10), 0u) << "never below zero";
}

}  // namespace
