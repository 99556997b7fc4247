// nicc/verbs/devices.h — RDMA devices as libibverbs (through VerbsApi) sees
// them, and the message printed when there are none.
//
//   auto devs = nicc::verbs::QueryDevices(api.get(), roots);
//   if (!devs.ok()) { std::cerr << devs.status().message(); return 2; }
//
// Units: MTU in bytes, clock in kHz, rates in kb/s.
#ifndef NICC_VERBS_DEVICES_H_
#define NICC_VERBS_DEVICES_H_

#include <infiniband/verbs.h>
#include <stdint.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "nicc/verbs/sysfs.h"
#include "nicc/verbs/verbs_api.h"

namespace nicc {
namespace verbs {

struct PortInfo {
  uint8_t num = 0;
  ibv_port_attr attr{};
  int query_error = 0;                        // errno of ibv_query_port, 0 = ok
  std::vector<std::pair<int, ibv_gid>> gids;  // non-zero GIDs by index
};

struct DeviceInfo {
  std::string name;
  ibv_device_attr_ex attr{};
  std::string error;  // why the device could not be opened or queried; empty = ok
  std::vector<PortInfo> ports;
};

// Opens every device, queries it and its ports, closes it. NotFound (with
// NoDeviceMessage) when libibverbs lists no device.
absl::StatusOr<std::vector<DeviceInfo>> QueryDevices(VerbsApi* api, const HostRoots& roots);

// What was looked for and how to get a software RoCE device.
std::string NoDeviceMessage(const HostRoots& roots, int list_errno);

// Opens the named device (empty name: the first one). The caller closes it
// with api->CloseDevice().
absl::StatusOr<ibv_context*> OpenDeviceByName(VerbsApi* api, const HostRoots& roots,
                                              const std::string& name, std::string* opened_name);

std::string GidToString(const ibv_gid& gid);
absl::StatusOr<ibv_gid> ParseGid(const std::string& text);  // IPv6 text form or 32 hex digits
bool GidIsZero(const ibv_gid& gid);
uint32_t MtuToBytes(ibv_mtu mtu);
const char* PortStateName(ibv_port_state s);
const char* LinkLayerName(uint8_t link_layer);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_DEVICES_H_
