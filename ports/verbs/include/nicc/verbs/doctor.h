// nicc/verbs/doctor.h — the host checklist for RoCE congestion control, each
// check a PASS / WARN / FAIL verdict with the command that fixes it.
//
// Checks, per device port (names as printed):
//   port_state     the port is ACTIVE
//   mtu            RDMA active MTU vs the netdev MTU: 4096 needs jumbo frames
//                  (netdev MTU >= 4200) on the host and every switch hop
//   roce_v2_gid    a RoCE v2 GID exists (Ethernet): UDP source ports, ECMP
//   ecn_np, ecn_rp ECN for RoCE enabled, where the driver exposes it:
//                  class/net/<if>/ecn/roce_{np,rp}/enable/<prio>
//   irq_affinity   the NIC's IRQs (class/net/<if>/device/msi_irqs, else
//                  /proc/interrupts) are affine (/proc/irq/<n>/smp_affinity_list)
//                  to CPUs of the NIC's NUMA node (class/net/<if>/device/numa_node,
//                  devices/system/node/node<N>/cpulist)
//   numa_locality  this process may run on the NIC's node (procfs self/status
//                  Cpus_allowed_list) — advice: numactl --cpunodebind
// All paths are under HostRoots, so tests use synthetic trees.
//
//   auto checks = nicc::verbs::RunDoctor(roots, devices, {});
//   for (auto& c : checks) std::cout << FormatCheck(c);
#ifndef NICC_VERBS_DOCTOR_H_
#define NICC_VERBS_DOCTOR_H_

#include <string>
#include <vector>

#include "nicc/verbs/devices.h"
#include "nicc/verbs/sysfs.h"

namespace nicc {
namespace verbs {

enum class Verdict { kPass, kWarn, kFail };
const char* VerdictName(Verdict v);

struct Check {
  std::string name;     // e.g. "mtu"
  std::string subject;  // e.g. "mlx5_0/1 (eth0)"
  Verdict verdict;
  std::string detail;   // what was found
  std::string fix;      // a command that fixes it; empty on PASS
};

struct DoctorOptions {
  int roce_prio = -1;  // the priority RoCE traffic uses; -1 = check all 0..7
};

std::vector<Check> RunDoctor(const HostRoots& roots, const std::vector<DeviceInfo>& devices,
                             const DoctorOptions& opt);

// "PASS  mtu            mlx5_0/1 (eth0): ...\n      fix: ...\n"
std::string FormatCheck(const Check& c);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_DOCTOR_H_
