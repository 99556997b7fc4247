// The host checklist.
#include "nicc/verbs/doctor.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace nicc {
namespace verbs {
namespace {

// A netdev MTU that carries a 4096-byte RoCE payload: 4096 + IPv6 40 + UDP 8
// + BTH 12 + RETH 16 + ICRC 4 = 4176, rounded up.
constexpr uint64_t kJumboMtu = 4200;
constexpr int kPrios = 8;

Check Make(const std::string& name, const std::string& subject, Verdict v, std::string detail,
           std::string fix = "") {
  return Check{name, subject, v, std::move(detail), std::move(fix)};
}

bool Subset(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

// Reads a 0/1 enable file: 1, 0, or -1 with *problem set.
int ReadFlag(const std::string& path, std::string* problem) {
  absl::StatusOr<uint64_t> v = ReadU64(path);
  if (!v.ok()) {
    *problem = std::string(v.status().message());
    return -1;
  }
  if (*v > 1) {
    *problem = absl::StrCat(path, ":1: expected 0 or 1, got ", *v);
    return -1;
  }
  return static_cast<int>(*v);
}

void CheckEcn(const HostRoots& roots, const std::string& side, const std::string& ifname,
              const std::string& subject, const DoctorOptions& opt, std::vector<Check>* out) {
  const std::string name = absl::StrCat("ecn_", side);
  const std::string dir = absl::StrCat(roots.sysfs, "/class/net/", ifname, "/ecn/roce_", side,
                                       "/enable");
  if (!IsDir(dir)) {
    out->push_back(Make(name, subject, Verdict::kWarn,
                        absl::StrCat(dir, " not found: the driver does not expose ECN for RoCE "
                                          "in sysfs (only mlx5 does); cannot verify"),
                        "check ECN/DCQCN with the NIC vendor's tool (e.g. mlxconfig, niccli)"));
    return;
  }
  std::vector<int> prios;
  if (opt.roce_prio >= 0) {
    prios.push_back(opt.roce_prio);
  } else {
    for (int p = 0; p < kPrios; ++p) prios.push_back(p);
  }
  std::vector<std::string> off, problems;
  int on = 0;
  for (int p : prios) {
    const std::string path = absl::StrCat(dir, "/", p);
    std::string problem;
    const int v = ReadFlag(path, &problem);
    if (v < 0) {
      problems.push_back(problem);
    } else if (v == 0) {
      off.push_back(absl::StrCat(p));
    } else {
      ++on;
    }
  }
  const std::string what = side == "np" ? "notification point (CNP generation)"
                                        : "reaction point (rate cuts on CNP)";
  if (!problems.empty()) {
    out->push_back(Make(name, subject, Verdict::kWarn,
                        absl::StrCat("ECN ", what, ": unreadable: ", absl::StrJoin(problems, "; ")),
                        absl::StrCat("cat ", dir, "/*   # as root")));
    return;
  }
  if (off.empty()) {
    out->push_back(Make(name, subject, Verdict::kPass,
                        absl::StrCat("ECN ", what, " enabled on priorit",
                                     prios.size() == 1 ? "y " : "ies ",
                                     prios.size() == 1 ? absl::StrCat(prios[0]) : "0-7")));
    return;
  }
  const Verdict v = (on == 0 || opt.roce_prio >= 0) ? Verdict::kFail : Verdict::kWarn;
  out->push_back(Make(name, subject, v,
                      absl::StrCat("ECN ", what, " disabled on priorit",
                                   off.size() == 1 ? "y " : "ies ", absl::StrJoin(off, ",")),
                      absl::StrCat("for p in ", absl::StrJoin(off, " "), "; do echo 1 > ", dir,
                                   "/$p; done")));
}

// IRQ numbers of a netdev's PCI function.
std::vector<std::string> NicIrqs(const HostRoots& roots, const std::string& ifname,
                                 const std::string& pci) {
  std::vector<std::string> irqs =
      ListDir(absl::StrCat(roots.sysfs, "/class/net/", ifname, "/device/msi_irqs"));
  if (!irqs.empty()) return irqs;
  absl::StatusOr<std::string> text = ReadFile(roots.procfs + "/interrupts");
  if (!text.ok()) return irqs;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    const absl::string_view num = absl::StripAsciiWhitespace(line.substr(0, colon));
    uint32_t n = 0;
    if (!absl::SimpleAtoi(num, &n)) continue;
    const absl::string_view rest = line.substr(colon + 1);
    if ((!pci.empty() && absl::StrContains(rest, pci)) || absl::StrContains(rest, ifname))
      irqs.push_back(std::string(num));
  }
  return irqs;
}

void CheckNuma(const HostRoots& roots, const std::string& ifname, const std::string& pci,
               const std::string& subject, std::vector<Check>* out) {
  const std::string node_path = absl::StrCat(roots.sysfs, "/class/net/", ifname, "/device/numa_node");
  absl::StatusOr<std::string> node_text = ReadLine(node_path);
  int node = -1;
  if (!node_text.ok() || !absl::SimpleAtoi(*node_text, &node) || node < 0) {
    const std::string why = !node_text.ok() ? std::string(node_text.status().message())
                                            : absl::StrCat(node_path, ":1: '", *node_text, "'");
    out->push_back(Make("irq_affinity", subject, Verdict::kPass,
                        absl::StrCat("NIC NUMA node unknown or single-node host (", why,
                                     "): nothing to align")));
    out->push_back(Make("numa_locality", subject, Verdict::kPass,
                        "single NUMA node (or not reported): any CPU is local"));
    return;
  }
  const std::string cpulist_path =
      absl::StrCat(roots.sysfs, "/devices/system/node/node", node, "/cpulist");
  absl::StatusOr<std::string> cpulist = ReadLine(cpulist_path);
  absl::StatusOr<std::vector<uint32_t>> node_cpus =
      cpulist.ok() ? ParseCpuList(*cpulist) : absl::StatusOr<std::vector<uint32_t>>(cpulist.status());
  if (!node_cpus.ok() || node_cpus->empty()) {
    out->push_back(Make("irq_affinity", subject, Verdict::kWarn,
                        absl::StrCat("NIC on node ", node, " but its CPUs are unknown: ",
                                     node_cpus.ok() ? cpulist_path + " is empty"
                                                    : std::string(node_cpus.status().message())),
                        absl::StrCat("lscpu | grep 'NUMA node", node, "'")));
    return;
  }
  const std::string node_list = *cpulist;

  // IRQ affinity.
  const std::vector<std::string> irqs = NicIrqs(roots, ifname, pci);
  if (irqs.empty()) {
    out->push_back(Make("irq_affinity", subject, Verdict::kWarn,
                        absl::StrCat("no IRQs found for ", ifname, " (", roots.sysfs, "/class/net/",
                                     ifname, "/device/msi_irqs, ", roots.procfs, "/interrupts)"),
                        absl::StrCat("grep -e ", ifname, pci.empty() ? "" : " -e " + pci, " /proc/interrupts")));
  } else {
    std::vector<std::string> remote, problems;
    for (const std::string& irq : irqs) {
      const std::string path = absl::StrCat(roots.procfs, "/irq/", irq, "/smp_affinity_list");
      absl::StatusOr<std::string> aff = ReadLine(path);
      if (!aff.ok()) {
        problems.push_back(std::string(aff.status().message()));
        continue;
      }
      absl::StatusOr<std::vector<uint32_t>> cpus = ParseCpuList(*aff);
      if (!cpus.ok()) {
        problems.push_back(absl::StrCat(path, ":1: ", cpus.status().message()));
        continue;
      }
      if (!Subset(*cpus, *node_cpus)) remote.push_back(absl::StrCat(irq, "->", *aff));
    }
    const std::string fix = absl::StrCat(
        "systemctl stop irqbalance; for i in ", absl::StrJoin(irqs, " "), "; do echo ", node_list,
        " > /proc/irq/$i/smp_affinity_list; done   # or: set_irq_affinity_bynode.sh ", node, " ",
        ifname);
    if (remote.empty() && problems.empty()) {
      out->push_back(Make("irq_affinity", subject, Verdict::kPass,
                          absl::StrCat(irqs.size(), " IRQs, all on node ", node, " CPUs ", node_list)));
    } else {
      const bool none_local = remote.size() + problems.size() == irqs.size() && problems.empty();
      std::string detail = absl::StrCat(remote.size(), " of ", irqs.size(), " IRQs off node ", node,
                                        " (CPUs ", node_list, ")");
      if (!remote.empty()) absl::StrAppend(&detail, ": ", absl::StrJoin(remote, ", "));
      if (!problems.empty()) absl::StrAppend(&detail, "; unreadable: ", absl::StrJoin(problems, "; "));
      out->push_back(Make("irq_affinity", subject, none_local ? Verdict::kFail : Verdict::kWarn,
                          detail, fix));
    }
  }

  // NUMA locality of this process.
  absl::StatusOr<std::string> status = ReadFile(roots.procfs + "/self/status");
  std::string allowed;
  if (status.ok()) {
    for (absl::string_view line : absl::StrSplit(*status, '\n')) {
      if (absl::ConsumePrefix(&line, "Cpus_allowed_list:"))
        allowed = std::string(absl::StripAsciiWhitespace(line));
    }
  }
  const std::string numactl = absl::StrCat("numactl --cpunodebind=", node, " --membind=", node,
                                           " nicc-verbs run ...   # or taskset -c ", node_list);
  absl::StatusOr<std::vector<uint32_t>> mine = ParseCpuList(allowed);
  if (allowed.empty() || !mine.ok()) {
    out->push_back(Make("numa_locality", subject, Verdict::kWarn,
                        absl::StrCat("cannot read Cpus_allowed_list from ", roots.procfs,
                                     "/self/status; NIC is on node ", node, " (CPUs ", node_list, ")"),
                        numactl));
  } else if (Subset(*mine, *node_cpus)) {
    out->push_back(Make("numa_locality", subject, Verdict::kPass,
                        absl::StrCat("this process runs on CPUs ", allowed, ", local to node ", node)));
  } else {
    out->push_back(Make("numa_locality", subject, Verdict::kWarn,
                        absl::StrCat("this process may run on CPUs ", allowed, "; the NIC is on node ",
                                     node, " (CPUs ", node_list,
                                     "): pin the workload and its buffers there"),
                        numactl));
  }
}

}  // namespace

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "PASS";
    case Verdict::kWarn: return "WARN";
    case Verdict::kFail: return "FAIL";
  }
  return "?";
}

std::string FormatCheck(const Check& c) {
  std::string s = absl::StrFormat("%s  %-14s %s: %s\n", VerdictName(c.verdict), c.name, c.subject,
                                  c.detail);
  if (!c.fix.empty()) absl::StrAppend(&s, "      fix: ", c.fix, "\n");
  return s;
}

std::vector<Check> RunDoctor(const HostRoots& roots, const std::vector<DeviceInfo>& devices,
                             const DoctorOptions& opt) {
  std::vector<Check> out;
  for (const DeviceInfo& dev : devices) {
    if (!dev.error.empty()) {
      out.push_back(Make("device", dev.name, Verdict::kFail, dev.error,
                         "ls -l /dev/infiniband; check permissions and that the driver is loaded"));
      continue;
    }
    absl::StatusOr<SysfsDevice> sd = ReadSysfsDevice(roots, dev.name);
    for (const PortInfo& port : dev.ports) {
      std::string ifname;
      const SysfsPort* sp = nullptr;
      if (sd.ok()) {
        for (const SysfsPort& p : sd->ports)
          if (p.num == port.num) sp = &p;
        if (sp != nullptr && !sp->gid_ndevs.empty()) ifname = sp->gid_ndevs.begin()->second;
        if (ifname.empty() && !sd->netdevs.empty()) ifname = sd->netdevs[0];
      }
      const std::string subject = absl::StrCat(dev.name, "/", static_cast<int>(port.num),
                                               ifname.empty() ? "" : " (" + ifname + ")");
      if (port.query_error != 0) {
        out.push_back(Make("port_state", subject, Verdict::kFail,
                           absl::StrCat("ibv_query_port failed: errno ", port.query_error),
                           absl::StrCat("rdma link show ", dev.name)));
        continue;
      }
      const bool eth = port.attr.link_layer == IBV_LINK_LAYER_ETHERNET;
      if (port.attr.state == IBV_PORT_ACTIVE) {
        out.push_back(Make("port_state", subject, Verdict::kPass, "ACTIVE"));
      } else {
        out.push_back(Make("port_state", subject, Verdict::kFail,
                           absl::StrCat("port is ", PortStateName(port.attr.state)),
                           eth && !ifname.empty() ? absl::StrCat("ip link set dev ", ifname, " up")
                                                  : "check the cable and the subnet manager (opensm)"));
      }

      // MTU.
      const uint32_t active = MtuToBytes(port.attr.active_mtu);
      if (!eth) {
        out.push_back(Make("mtu", subject, active >= 4096 ? Verdict::kPass : Verdict::kWarn,
                           absl::StrCat("InfiniBand active MTU ", active),
                           active >= 4096 ? "" : "set mtu=5 (4096) for the partition in opensm's partitions.conf"));
      } else if (ifname.empty()) {
        out.push_back(Make("mtu", subject, Verdict::kWarn,
                           absl::StrCat("active MTU ", active, "; no netdev found for this port"),
                           absl::StrCat("rdma link show ", dev.name, "/", static_cast<int>(port.num))));
      } else {
        const std::string mtu_path = absl::StrCat(roots.sysfs, "/class/net/", ifname, "/mtu");
        absl::StatusOr<uint64_t> netmtu = ReadU64(mtu_path);
        const std::string jumbo_fix = absl::StrCat(
            "ip link set dev ", ifname, " mtu 9000   # and MTU >= 9000 on every switch port and "
            "on the peer (jumbo frames end to end)");
        if (!netmtu.ok()) {
          out.push_back(Make("mtu", subject, Verdict::kWarn,
                             absl::StrCat("active MTU ", active, "; netdev MTU unreadable: ",
                                          netmtu.status().message()),
                             absl::StrCat("ip link show ", ifname)));
        } else if (active < 1024) {
          out.push_back(Make("mtu", subject, Verdict::kFail,
                             absl::StrCat("active MTU ", active, " with ", ifname, " MTU ", *netmtu,
                                          ": RDMA messages cut into tiny packets"),
                             jumbo_fix));
        } else if (active >= 4096) {
          out.push_back(Make("mtu", subject, Verdict::kPass,
                             absl::StrCat("active MTU ", active, ", ", ifname, " MTU ", *netmtu,
                                          " (jumbo); check the switches carry >= ", kJumboMtu)));
        } else if (*netmtu < kJumboMtu) {
          out.push_back(Make("mtu", subject, Verdict::kWarn,
                             absl::StrCat("active MTU ", active, ": ", ifname, " MTU ", *netmtu,
                                          " < ", kJumboMtu, ", jumbo frames off"),
                             jumbo_fix));
        } else {
          out.push_back(Make("mtu", subject, Verdict::kWarn,
                             absl::StrCat("active MTU ", active, " although ", ifname, " MTU is ",
                                          *netmtu, ": the port's max_mtu or a stale setting limits it"),
                             absl::StrCat("ibv_devinfo -d ", dev.name, " -v | grep mtu; ip link set dev ",
                                          ifname, " down && ip link set dev ", ifname, " up")));
        }
      }
      if (!eth) continue;

      // RoCE v2 GID.
      bool v2 = false;
      if (sp != nullptr)
        for (const auto& t : sp->gid_types)
          if (absl::StrContains(t.second, "v2")) v2 = true;
      if (v2) {
        out.push_back(Make("roce_v2_gid", subject, Verdict::kPass, "a RoCE v2 GID is configured"));
      } else {
        out.push_back(Make("roce_v2_gid", subject, Verdict::kWarn,
                           "no RoCE v2 GID found in gid_attrs/types: no UDP source ports, no ECMP "
                           "spraying",
                           absl::StrCat("cma_roce_mode -d ", dev.name, " -p ",
                                        static_cast<int>(port.num),
                                        " -m 2; and give the netdev an IP address")));
      }
      if (ifname.empty()) continue;
      CheckEcn(roots, "np", ifname, subject, opt, &out);
      CheckEcn(roots, "rp", ifname, subject, opt, &out);
      CheckNuma(roots, ifname, sd.ok() ? sd->pci : std::string(), subject, &out);
    }
  }
  return out;
}

}  // namespace verbs
}  // namespace nicc
