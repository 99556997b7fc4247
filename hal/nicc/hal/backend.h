// nicc/hal/backend.h — what a backend must provide to host the engine.
//
// A backend is any type with these members, called by
// Driver<Backend, TxSlot, kTx, kRx> (driver.h) after an event whenever the
// engine asks for something:
//
//   void Apply(nicc::hal::FlowId flow, const nicc::Action& action);    // sender flows
//   void ApplyRx(nicc::hal::FlowId flow, const nicc::Action& action);  // receiver flows
//
// (sender and receiver flows are separate tables with their own FlowIds; a
// receiver's only action is kActSendCnp)
// and it must, for each bit set in action.flags (common.h):
//   kActSetRate      pace the flow at action.rate_kbps from now on
//   kActSetWindow    allow at most action.window_bytes unacknowledged bytes
//   kActUseEv        send the flow's next packet with UDP source port action.ev
//   kActSendCnp      send one CNP to the flow's sender (receiver side)
//   kActArmTimer     (re)arm the flow's single timer at action.timer_ns (NIC
//                    clock; replaces any armed deadline) and deliver
//                    Event::Timer() when it fires
//   kActCancelTimer  cancel the flow's timer
//
// A backend delivers, per flow and with the current NIC time (clock.h):
//   Event::TxDone(bytes)     after each packet leaves (drives DCQCN's byte counter)
//   Event::Ack(...)          per ACK, with the INT stack (HPCC), ECN-echo, the
//                            port the acknowledged packet used, and an RTT sample
//   Event::Nack(port), Event::Timeout(port)   loss signals per port
//   Event::Cnp()             per CNP received
//   Event::RxData(ce)        per data packet received, to DeliverRx() on the
//                            receiver flow (OpenRx())
//   Event::Timer()           when the armed timer fires
// and asks Driver::SelectEv() for the UDP source port of each packet it sends.
//
// Nothing here is virtual: the firmware port's backend is a struct whose Apply
// writes into a caller-provided action record; the ns-3 and verbs backends are
// classes with the same member. BackendCheck<B> below turns a missing or
// misspelt member into a readable compile error.
#ifndef NICC_HAL_BACKEND_H_
#define NICC_HAL_BACKEND_H_

#include "nicc/common.h"
#include "nicc/hal/driver.h"

namespace nicc {
namespace hal {

template <class B>
struct BackendCheck {
  template <class T>
  static constexpr bool HasApply(decltype(static_cast<void (T::*)(FlowId, const Action&)>(&T::Apply))) {
    return true;
  }
  template <class T>
  static constexpr bool HasApply(...) {
    return false;
  }
  template <class T>
  static constexpr bool HasApplyRx(decltype(static_cast<void (T::*)(FlowId, const Action&)>(&T::ApplyRx))) {
    return true;
  }
  template <class T>
  static constexpr bool HasApplyRx(...) {
    return false;
  }
  static constexpr bool value = HasApply<B>(nullptr) && HasApplyRx<B>(nullptr);
  static_assert(HasApply<B>(nullptr), "a nicc backend needs: void Apply(nicc::hal::FlowId, const nicc::Action&)");
  static_assert(HasApplyRx<B>(nullptr),
                "a nicc backend needs: void ApplyRx(nicc::hal::FlowId, const nicc::Action&)");
};

}  // namespace hal
}  // namespace nicc

#endif  // NICC_HAL_BACKEND_H_
