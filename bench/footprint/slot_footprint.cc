// Footprint probe: the bytes of every sender slot composition (CC none /
// DCQCN / HPCC / NSCC / sprayed HPCC / NSCC + RCCC x each spray policy), of the receiver
// slot, RCCC's port and receiving-flow state, and of the C
// ABI's contexts per configuration, as the sizes of data symbols.
// scripts/cross-check.sh compiles this unit freestanding for each firmware
// target and prints the table from the symbol sizes (`nm -S`), so the report
// shows each target's own layout. No code: the "text" the report gives this
// unit is these tables' read-only data.
//
//   nicc_slot_tx_<cc>_<policy>   sizeof(hal::SenderSlot<Cc, Policy state>)
//   nicc_slot_tx_any_any         sizeof(hal::AnySenderSlot)
//   nicc_slot_rx                 sizeof(hal::ReceiverSlot)
//   nicc_fw_tx_<cc>_<policy>     nicc_fw_flow_bytes() of that configuration
//   nicc_fw_rx                   nicc_fw_rx_flow_bytes()
//   nicc_slot_rccc_port/_rx      sizeof(rccc::PortState) / sizeof(rccc::RxFlowState)
//   nicc_fw_port_bytes           NICC_FW_PORT_BYTES
#include "nicc/hal/driver.h"
#include "ports/firmware/src/layout.h"

namespace hal = nicc::hal;
namespace sp = nicc::spray;

#define NICC_SIZE_(name, ...) extern "C" const unsigned char name[__VA_ARGS__] = {0};
#define NICC_TX_ROW_(cc, Cc, kind)                                                                      \
  NICC_SIZE_(nicc_slot_tx_##cc##_ecmp, sizeof(hal::SenderSlot<Cc, sp::EcmpState>))                      \
  NICC_SIZE_(nicc_slot_tx_##cc##_ops, sizeof(hal::SenderSlot<Cc, sp::OpsState>))                        \
  NICC_SIZE_(nicc_slot_tx_##cc##_bitmap, sizeof(hal::SenderSlot<Cc, sp::BitmapState>))                  \
  NICC_SIZE_(nicc_slot_tx_##cc##_reps, sizeof(hal::SenderSlot<Cc, sp::RepsState>))                      \
  NICC_SIZE_(nicc_slot_tx_##cc##_plb, sizeof(hal::SenderSlot<Cc, sp::PlbState>))                        \
  NICC_SIZE_(nicc_slot_tx_##cc##_dlb, sizeof(hal::SenderSlot<Cc, sp::DlbState>))                        \
  NICC_SIZE_(nicc_fw_tx_##cc##_ecmp, nicc::fw::MakeLayout(hal::CcKind::kind, sp::Policy::kEcmp).bytes)     \
  NICC_SIZE_(nicc_fw_tx_##cc##_ops, nicc::fw::MakeLayout(hal::CcKind::kind, sp::Policy::kOps).bytes)       \
  NICC_SIZE_(nicc_fw_tx_##cc##_bitmap, nicc::fw::MakeLayout(hal::CcKind::kind, sp::Policy::kBitmap).bytes) \
  NICC_SIZE_(nicc_fw_tx_##cc##_reps, nicc::fw::MakeLayout(hal::CcKind::kind, sp::Policy::kReps).bytes)     \
  NICC_SIZE_(nicc_fw_tx_##cc##_plb, nicc::fw::MakeLayout(hal::CcKind::kind, sp::Policy::kPlb).bytes)       \
  NICC_SIZE_(nicc_fw_tx_##cc##_dlb, nicc::fw::MakeLayout(hal::CcKind::kind, sp::Policy::kDlb).bytes)

NICC_TX_ROW_(none, hal::NoCcState, kNone)
NICC_TX_ROW_(dcqcn, nicc::dcqcn::RpState, kDcqcn)
NICC_TX_ROW_(hpcc, nicc::hpcc::State, kHpcc)
NICC_TX_ROW_(nscc, nicc::nscc::State, kNscc)
NICC_TX_ROW_(hpcc_spray, nicc::hpcc_spray::State, kHpccSpray)
NICC_TX_ROW_(nscc_rccc, nicc::rccc::SenderState, kNsccRccc)
NICC_SIZE_(nicc_slot_tx_any_any, sizeof(hal::AnySenderSlot))
NICC_SIZE_(nicc_slot_rx, sizeof(hal::ReceiverSlot))
NICC_SIZE_(nicc_fw_rx, nicc::fw::RoundUp(sizeof(hal::ReceiverSlot), 8u))
NICC_SIZE_(nicc_slot_rccc_port, sizeof(nicc::rccc::PortState))
NICC_SIZE_(nicc_slot_rccc_rx, sizeof(nicc::rccc::RxFlowState))
NICC_SIZE_(nicc_fw_port_bytes, NICC_FW_PORT_BYTES)
