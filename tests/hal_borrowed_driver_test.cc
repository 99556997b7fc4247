// Tests of BorrowedDriver (hal/nicc/hal/driver.h): a driver over tables whose
// arrays the caller provides and grows. It must hand out the same FlowIds
// and keep the same per-flow state as a fixed-capacity Driver of the final
// size, refuse (and count) a full table, and reject bad storage.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "nicc/hal/driver.h"

namespace hal = nicc::hal;
namespace sp = nicc::spray;

namespace {

struct Recorder {
  uint32_t tx_calls = 0;
  uint32_t rx_calls = 0;
  void Apply(hal::FlowId, const nicc::Action&) { ++tx_calls; }
  void ApplyRx(hal::FlowId, const nicc::Action&) { ++rx_calls; }
};

hal::DriverConfig MakeConfig() {
  hal::DriverConfig cfg{};
  const nicc::Status st = hal::InitDriverConfig(
      hal::DriverParams::Of(hal::CcKind::kDcqcn, 100000), nicc::dcqcn::Params::Mlx5(100000),
      nicc::hpcc::Params::HpccPaper(), sp::Params::Defaults(sp::Policy::kReps, 4, 0x777),
      nicc::ecn_path::Rule::Defaults(), &cfg);
  EXPECT_TRUE(st.ok()) << (st.field ? st.field : "");
  return cfg;
}

template <class Slot>
struct Arrays {
  std::vector<Slot> slots;
  std::vector<hal::FlowId> ids;
  std::vector<uint32_t> used;
  hal::SlotStorage<Slot> Resize(uint32_t n) {
    slots.resize(n);
    ids.resize(n);
    used.resize((n + 31) / 32, 0);
    return hal::SlotStorage<Slot>{slots.data(), ids.data(), used.data(), n};
  }
};

using Tx = hal::AnySenderSlot;
using Borrowed = hal::BorrowedDriver<Recorder, Tx>;
constexpr uint32_t kCap = 40;  // not a multiple of 32: the last in-use word is partial
using Fixed = hal::Driver<Recorder, Tx, kCap, kCap>;

// xorshift32: a fixed, reproducible sequence of opens and closes.
uint32_t Next(uint32_t* s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

TEST(HalBorrowedDriver, GrownTablesMatchAFixedDriver) {
  const hal::DriverConfig cfg = MakeConfig();
  Recorder rb, rf;
  Arrays<Tx> tx;
  Arrays<hal::ReceiverSlot> rx;
  Borrowed b;
  ASSERT_TRUE(b.BindTx(tx.Resize(0)).ok());
  ASSERT_TRUE(b.BindRx(rx.Resize(0)).ok());
  ASSERT_TRUE(b.Init(&cfg, &rb).ok());
  static Fixed f;  // ~10 KB: off the stack
  ASSERT_TRUE(f.Init(&cfg, &rf).ok());
  EXPECT_EQ(b.tx_capacity(), 0u);

  std::vector<hal::FlowId> open_tx, open_rx;
  uint32_t seed = 12345, grows = 0;
  for (uint32_t step = 0; step < 4000; ++step) {
    const uint32_t r = Next(&seed);
    const bool rx_side = (r & 1u) != 0;
    const bool open = (r >> 1) % 3 != 0 || (rx_side ? open_rx.empty() : open_tx.empty());
    std::vector<hal::FlowId>& list = rx_side ? open_rx : open_tx;
    if (open) {
      const uint32_t key = r >> 8;
      // The caller's policy: grow a table with at most one free slot
      // (doubling, up to kCap), so it grows both full and with a freed id
      // still on its free list.
      if (!rx_side && b.tx_size() + 1 >= b.tx_capacity() && b.tx_capacity() < kCap) {
        const uint32_t n = b.tx_capacity() == 0 ? 3 : std::min(kCap, 2 * b.tx_capacity());
        ASSERT_TRUE(b.GrowTx(tx.Resize(n)).ok());
        ++grows;
      }
      if (rx_side && b.rx_size() + 1 >= b.rx_capacity() && b.rx_capacity() < kCap) {
        const uint32_t n = b.rx_capacity() == 0 ? 3 : std::min(kCap, 2 * b.rx_capacity());
        ASSERT_TRUE(b.GrowRx(rx.Resize(n)).ok());
        ++grows;
      }
      hal::FlowId ib = hal::kNoFlow, ifx = hal::kNoFlow;
      const nicc::Status sb = rx_side ? b.OpenRx(key, &ib) : b.OpenTx(key, key, &ib);
      const nicc::Status sf = rx_side ? f.OpenRx(key, &ifx) : f.OpenTx(key, key, &ifx);
      ASSERT_EQ(sb.code, sf.code) << "step " << step;
      if (sb.ok()) {
        ASSERT_EQ(ib, ifx) << "step " << step << ": same id as the fixed table";
        list.push_back(ib);
      }
    } else {
      const size_t k = (r >> 4) % list.size();
      const hal::FlowId id = list[k];
      list.erase(list.begin() + static_cast<long>(k));
      ASSERT_TRUE(rx_side ? b.CloseRx(id).ok() : b.CloseTx(id).ok());
      ASSERT_TRUE(rx_side ? f.CloseRx(id).ok() : f.CloseTx(id).ok());
    }
    // Some events on an open flow of each side: the state must follow.
    if (!open_tx.empty()) {
      const hal::FlowId id = open_tx[r % open_tx.size()];
      ASSERT_TRUE(b.Deliver(id, hal::Event::Cnp(), step * 3000u).ok());
      ASSERT_TRUE(f.Deliver(id, hal::Event::Cnp(), step * 3000u).ok());
      ASSERT_EQ(b.RateKbps(id), f.RateKbps(id)) << "step " << step;
      ASSERT_EQ(b.SelectEv(id, step * 3000u), f.SelectEv(id, step * 3000u)) << "step " << step;
    }
    if (!open_rx.empty()) {
      const hal::FlowId id = open_rx[r % open_rx.size()];
      ASSERT_TRUE(b.DeliverRx(id, hal::Event::RxData(true), step * 3000u).ok());
      ASSERT_TRUE(f.DeliverRx(id, hal::Event::RxData(true), step * 3000u).ok());
    }
  }
  EXPECT_EQ(b.tx_capacity(), kCap);
  EXPECT_EQ(b.rx_capacity(), kCap);
  EXPECT_GE(grows, 8u) << "both tables grew from 0 in steps";
  EXPECT_GT(b.tx_full(), 0u) << "the sequence filled the grown table";
  EXPECT_EQ(b.tx_full(), f.tx_full());
  EXPECT_EQ(b.rx_full(), f.rx_full());
  EXPECT_EQ(b.tx_size(), f.tx_size());
  EXPECT_EQ(rb.tx_calls, rf.tx_calls);
  EXPECT_EQ(rb.rx_calls, rf.rx_calls);
  EXPECT_GT(rb.rx_calls, 0u) << "CNPs were asked for";
  hal::FlowId found_b, found_f;
  for (hal::FlowId id : open_tx) {
    const uint32_t key = b.tx_slot(id).key;
    ASSERT_TRUE(b.FindTx(key, &found_b).ok());
    ASSERT_TRUE(f.FindTx(key, &found_f).ok());
    EXPECT_EQ(found_b, found_f);
  }
}

TEST(HalBorrowedDriver, FullTableIsRefusedAndCounted) {
  const hal::DriverConfig cfg = MakeConfig();
  Recorder rec;
  Arrays<Tx> tx;
  Arrays<hal::ReceiverSlot> rx;
  Borrowed b;
  ASSERT_TRUE(b.BindTx(tx.Resize(2)).ok());
  ASSERT_TRUE(b.BindRx(rx.Resize(0)).ok());
  ASSERT_TRUE(b.Init(&cfg, &rec).ok());
  hal::FlowId id;
  EXPECT_EQ(b.OpenRx(1, &id).code, nicc::StatusCode::kFull) << "capacity 0 refuses";
  EXPECT_EQ(b.rx_full(), 1u);
  ASSERT_TRUE(b.OpenTx(1, 1, &id).ok());
  ASSERT_TRUE(b.OpenTx(2, 2, &id).ok());
  EXPECT_EQ(b.OpenTx(3, 3, &id).code, nicc::StatusCode::kFull);
  EXPECT_EQ(b.tx_full(), 1u);
  // Growing keeps the open flows and their keys.
  ASSERT_TRUE(b.GrowTx(tx.Resize(5)).ok());
  EXPECT_EQ(b.tx_size(), 2u);
  ASSERT_TRUE(b.OpenTx(3, 3, &id).ok());
  EXPECT_EQ(id, 2u) << "the lowest never-used id";
  hal::FlowId found;
  ASSERT_TRUE(b.FindTx(2, &found).ok());
  EXPECT_EQ(found, 1u);
  EXPECT_EQ(b.tx_full(), 1u) << "growing does not clear the count";
}

TEST(HalBorrowedDriver, BadStorageIsRejected) {
  Arrays<Tx> tx;
  Borrowed b;
  hal::SlotStorage<Tx> s = tx.Resize(4);
  hal::SlotStorage<Tx> no_ids = s;
  no_ids.free_ids = nullptr;
  EXPECT_EQ(b.BindTx(no_ids).code, nicc::StatusCode::kOutOfRange);
  hal::SlotStorage<Tx> huge = s;
  huge.capacity = hal::kNoFlow;
  EXPECT_EQ(b.BindTx(huge).code, nicc::StatusCode::kOutOfRange);
  ASSERT_TRUE(b.BindTx(s).ok());
  EXPECT_EQ(b.tx_capacity(), 4u);
  hal::SlotStorage<Tx> smaller = s;
  smaller.capacity = 3;
  EXPECT_EQ(b.GrowTx(smaller).code, nicc::StatusCode::kOutOfRange);
  EXPECT_EQ(b.tx_capacity(), 4u) << "unchanged after a refused grow";
  hal::SlotStorage<Tx> no_used = tx.Resize(8);
  no_used.used = nullptr;
  EXPECT_EQ(b.GrowTx(no_used).code, nicc::StatusCode::kOutOfRange);
  EXPECT_EQ(b.tx_capacity(), 4u);
}

}  // namespace
