// Tests of per-flow CC selection in the HAL driver (hal/nicc/hal/driver.h,
// cc_ops.h FlowCcState): one driver and one DriverConfig whose default CC
// is DCQCN run DCQCN, HPCC, HPCC-PINT, NSCC and no-CC flows side by side,
// each dispatching on its own kind; a typed slot refuses any kind but the
// config's; receivers pace CNPs only for DCQCN senders and grant RCCC
// credit only to nscc+rccc senders.
#include <gtest/gtest.h>

#include <vector>

#include "nicc/hal/backend.h"
#include "nicc/hal/driver.h"

#include "hal_recorder.h"

namespace hal = nicc::hal;
namespace dq = nicc::dcqcn;
namespace sp = nicc::spray;

namespace {

using hal_test::Recorder;

hal::DriverConfig MakeConfig(hal::CcKind cc) {
  hal::DriverConfig cfg{};
  const nicc::Status st = hal::InitDriverConfig(
      hal::DriverParams::Of(cc, 100000), dq::Params::Mlx5(100000), nicc::hpcc::Params::HpccPaper(),
      sp::Params::Defaults(sp::Policy::kEcmp, 0, 0x12345), nicc::ecn_path::Rule::Defaults(), &cfg);
  EXPECT_TRUE(st.ok()) << (st.field ? st.field : "");
  return cfg;
}

// An INT stack of one 100G hop with a 100 KB standing queue at time t:
// utilisation above eta, so HPCC cuts its window.
nicc::IntStack QueuedHop(uint32_t t_ns) {
  nicc::IntStack st{};
  st.hop_count = 1;
  st.hops[0] = nicc::IntHop::Make(3, t_ns, (t_ns * 125 / 10) / 128, 100000 / 80);
  return st;
}

TEST(HalPerFlowCc, OneDriverRunsEachFlowOnItsOwnKind) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn);
  Recorder rec;
  hal::Driver<Recorder, hal::AnySenderSlot, 8, 8> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId dcqcn, hpcc, pint, nscc, none, dflt;
  ASSERT_TRUE(drv.OpenTx(1, 1, &dcqcn, 0, hal::CcKind::kDcqcn).ok());
  ASSERT_TRUE(drv.OpenTx(2, 2, &hpcc, 0, hal::CcKind::kHpcc).ok());
  ASSERT_TRUE(drv.OpenTx(3, 3, &pint, 0, hal::CcKind::kHpccPint).ok());
  ASSERT_TRUE(drv.OpenTx(4, 4, &nscc, 0, hal::CcKind::kNscc).ok());
  ASSERT_TRUE(drv.OpenTx(5, 5, &none, 0, hal::CcKind::kNone).ok());
  ASSERT_TRUE(drv.OpenTx(6, 6, &dflt).ok());
  EXPECT_EQ(drv.TxKind(dcqcn), hal::CcKind::kDcqcn);
  EXPECT_EQ(drv.TxKind(hpcc), hal::CcKind::kHpcc);
  EXPECT_EQ(drv.TxKind(pint), hal::CcKind::kHpccPint);
  EXPECT_EQ(drv.TxKind(nscc), hal::CcKind::kNscc);
  EXPECT_EQ(drv.TxKind(none), hal::CcKind::kNone);
  EXPECT_EQ(drv.TxKind(dflt), hal::CcKind::kDcqcn) << "no kind given: the config's";
  EXPECT_EQ(drv.OpenTx(7, 7, &dflt, 0, static_cast<hal::CcKind>(hal::kCcKindCount)).code,
            nicc::StatusCode::kUnsupported);

  // Windows at open: HPCC's and NSCC's own; DCQCN and none have none.
  nicc::hpcc::State h0;
  nicc::hpcc::Init(cfg.hpcc, &h0, 0);
  nicc::nscc::State n0;
  nicc::nscc::Init(cfg.nscc, &n0);
  EXPECT_EQ(drv.WindowBytes(hpcc), nicc::hpcc::WindowBytes(h0));
  EXPECT_EQ(drv.WindowBytes(nscc), nicc::nscc::WindowBytes(n0));
  EXPECT_NE(drv.WindowBytes(hpcc), drv.WindowBytes(nscc));
  EXPECT_EQ(drv.WindowBytes(dcqcn), 0u);
  EXPECT_EQ(drv.WindowBytes(none), 0u);
  EXPECT_EQ(drv.RateKbps(none), 100000000u);

  // A CNP cuts the DCQCN flow only; the other kinds take none.
  for (hal::FlowId f : {dcqcn, hpcc, pint, nscc, none})
    ASSERT_TRUE(drv.Deliver(f, hal::Event::Cnp(), 100).ok());
  ASSERT_EQ(rec.calls.size(), 1u);
  EXPECT_EQ(rec.calls[0].flow, dcqcn);
  EXPECT_TRUE(rec.calls[0].action.Has(nicc::kActSetRate));
  EXPECT_LT(drv.RateKbps(dcqcn), 100000000u);

  // INT ACKs: the HPCC flow sets its window; the PINT flow reads only a
  // PINT code (the same INT gives it nothing), the DCQCN flow ignores both.
  rec.calls.clear();
  uint32_t seq = 0;
  for (uint32_t i = 0; i < 2; ++i) {
    const nicc::IntStack st = QueuedHop(1000 + i * 13000);
    seq += 20000;
    for (hal::FlowId f : {hpcc, pint, dcqcn}) {
      hal::Event ack = hal::Event::Ack(seq, seq + 100000, false, 0);
      ack.int_stack = &st;
      ASSERT_TRUE(drv.Deliver(f, ack, 1000 + i * 13000).ok());
    }
  }
  ASSERT_GE(rec.CountFor(hpcc), 1u);
  EXPECT_TRUE(rec.calls.back().action.Has(nicc::kActSetWindow));
  EXPECT_LT(drv.WindowBytes(hpcc), nicc::hpcc::WindowBytes(h0));
  EXPECT_EQ(rec.CountFor(pint), 0u);
  EXPECT_EQ(rec.CountFor(dcqcn), 0u);
  EXPECT_EQ(drv.WindowBytes(pint), nicc::hpcc::WindowBytes(h0));

  // A trim NACK: NSCC's quick adapt / multiplicative cut; HPCC ignores it.
  rec.calls.clear();
  hal::Event nack = hal::Event::Nack(0, /*trimmed=*/true);
  nack.bytes = 4096;
  nack.snd_nxt = 200000;
  ASSERT_TRUE(drv.Deliver(nscc, nack, 50000).ok());
  ASSERT_TRUE(drv.Deliver(hpcc, nack, 50000).ok());
  EXPECT_EQ(rec.CountFor(hpcc), 0u);
  EXPECT_LT(drv.WindowBytes(nscc), nicc::nscc::WindowBytes(n0));

  // The DCQCN flow's timer raises its rate; the others have no timer.
  const uint32_t cut = drv.RateKbps(dcqcn);
  ASSERT_TRUE(drv.Deliver(dcqcn, hal::Event::Timer(), 400000).ok());
  EXPECT_GT(drv.RateKbps(dcqcn), cut);
}

TEST(HalPerFlowCc, ReceiverPacesCnpsOnlyForDcqcnSenders) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kHpcc);  // default: no CNPs
  Recorder rec;
  hal::Driver<Recorder, hal::AnySenderSlot, 1, 4> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId rd, rh, rn, rdef;
  ASSERT_TRUE(drv.OpenRx(1, &rd, hal::CcKind::kDcqcn).ok());
  ASSERT_TRUE(drv.OpenRx(2, &rh, hal::CcKind::kHpcc).ok());
  ASSERT_TRUE(drv.OpenRx(3, &rn, hal::CcKind::kNscc).ok());
  ASSERT_TRUE(drv.OpenRx(4, &rdef).ok());
  EXPECT_EQ(drv.rx_slot(rdef).cc, hal::CcKind::kHpcc);
  hal::FlowId extra;
  EXPECT_EQ(drv.OpenRx(5, &extra, static_cast<hal::CcKind>(200)).code,
            nicc::StatusCode::kOutOfRange);
  for (hal::FlowId f : {rd, rh, rn, rdef})
    ASSERT_TRUE(drv.DeliverRx(f, hal::Event::RxData(true), 100).ok());
  ASSERT_EQ(rec.rx_calls.size(), 1u) << "a CE mark gives a CNP to the DCQCN sender only";
  EXPECT_EQ(rec.rx_calls[0].flow, rd);
  EXPECT_EQ(rec.rx_calls[0].action.flags, nicc::kActSendCnp);
}

// nscc+rccc per flow in a DCQCN driver: its receiver flow grants credit
// from the driver's one port pool (no CNP), a DCQCN receiver flow beside it
// paces CNPs; its sender's window is bounded by the credit an ACK carries.
TEST(HalPerFlowCc, RcccFlowsBesideDcqcnFlows) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn);
  Recorder rec;
  hal::Driver<Recorder, hal::AnySenderSlot, 2, 2> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId rr, rd;
  ASSERT_TRUE(drv.OpenRx(1, &rr, hal::CcKind::kNsccRccc).ok());
  ASSERT_TRUE(drv.OpenRx(2, &rd, hal::CcKind::kDcqcn).ok());
  ASSERT_TRUE(drv.DeliverRx(rr, hal::Event::RxData(true, 4096, 4096, 1000000), 100).ok());
  ASSERT_TRUE(drv.DeliverRx(rd, hal::Event::RxData(true), 100).ok());
  ASSERT_EQ(rec.rx_calls.size(), 2u);
  EXPECT_EQ(rec.rx_calls[0].flow, rr);
  EXPECT_EQ(rec.rx_calls[0].action.flags, nicc::kActGrantCredit) << "RCCC: a grant, no CNP";
  // One active sender: the whole pool (100 Gb/s x 12 us = 150 KB) past the packet.
  EXPECT_EQ(rec.rx_calls[0].action.window_bytes, 4096u + 150000u);
  EXPECT_EQ(rec.rx_calls[1].flow, rd);
  EXPECT_EQ(rec.rx_calls[1].action.flags, nicc::kActSendCnp) << "DCQCN: a CNP";
  ASSERT_TRUE(drv.CloseRx(rr).ok());

  hal::FlowId s;
  ASSERT_TRUE(drv.OpenTx(3, 3, &s, 0, hal::CcKind::kNsccRccc).ok());
  EXPECT_EQ(drv.TxKind(s), hal::CcKind::kNsccRccc);
  hal::Event ack = hal::Event::Ack(4096, 8192, false, 0).WithCredit(4096 + 6000);
  ack.bytes = 4096;
  ack.rtt_ns = 5000;
  ASSERT_TRUE(drv.Deliver(s, ack, 10000).ok());
  // credit = max(initial 150000, granted 10096); window = min(W_nscc, credit - snd_una).
  EXPECT_EQ(drv.WindowBytes(s), 150000u - 4096u)
      << "the initial credit (one BDP) bounds the window";
  hal::Event ack2 = hal::Event::Ack(8192, 12288, false, 0).WithCredit(8192 + 20000);
  ack2.bytes = 4096;
  ack2.rtt_ns = 5000;
  ASSERT_TRUE(drv.Deliver(s, ack2, 20000).ok());
  EXPECT_EQ(drv.WindowBytes(s), 150000u - 8192u) << "a grant below the credit never lowers it";
  ASSERT_FALSE(rec.calls.empty());
  EXPECT_TRUE(rec.calls.back().action.Has(nicc::kActSetWindow));
}

TEST(HalPerFlowCc, TypedSlotRunsOnlyTheConfigsKind) {
  const hal::DriverConfig cfg = MakeConfig(hal::CcKind::kDcqcn);
  Recorder rec;
  hal::Driver<Recorder, hal::SenderSlot<dq::RpState, sp::EcmpState>, 2, 0> drv;
  ASSERT_TRUE(drv.Init(&cfg, &rec).ok());
  hal::FlowId f;
  EXPECT_EQ(drv.OpenTx(1, 1, &f, 0, hal::CcKind::kHpcc).code, nicc::StatusCode::kUnsupported);
  EXPECT_EQ(drv.tx_size(), 0u) << "a refused kind takes no slot";
  ASSERT_TRUE(drv.OpenTx(1, 1, &f, 0, hal::CcKind::kDcqcn).ok());
  EXPECT_EQ(drv.TxKind(f), hal::CcKind::kDcqcn);
  // The HPCC state type serves HPCC and HPCC-PINT, but dispatches on the
  // config's kind: only that one opens.
  const hal::DriverConfig hcfg = MakeConfig(hal::CcKind::kHpcc);
  hal::Driver<Recorder, hal::SenderSlot<nicc::hpcc::State, sp::EcmpState>, 2, 0> hd;
  ASSERT_TRUE(hd.Init(&hcfg, &rec).ok());
  EXPECT_EQ(hd.OpenTx(1, 1, &f, 0, hal::CcKind::kHpccPint).code, nicc::StatusCode::kUnsupported);
  EXPECT_TRUE(hd.OpenTx(1, 1, &f, 0, hal::CcKind::kHpcc).ok());
}

}  // namespace
