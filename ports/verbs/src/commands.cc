// nicc-verbs subcommands list and doctor (run: run.cc, run_stream.cc).
#include "nicc/verbs/commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <istream>
#include <memory>
#include <ostream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nicc/host/param_registry.h"
#include "nicc/verbs/cc_params.h"
#include "nicc/verbs/devices.h"

namespace nicc {
namespace verbs {
namespace {

// Congestion-related counters first; all of them with --all_counters.
void PrintCounters(const HostRoots& roots, const std::string& dev, uint32_t port, bool all,
                   std::ostream& out) {
  absl::StatusOr<PortCounters> c = ReadPortCounters(roots, dev, port);
  if (!c.ok()) {
    out << "    counters: " << c.status().message() << "\n";
    return;
  }
  std::vector<std::string> parts;
  for (size_t i = 0; i < kKeyHwCounterCount; ++i) {
    auto it = c->hw.find(kKeyHwCounters[i].name);
    if (it != c->hw.end()) parts.push_back(absl::StrCat(it->first, "=", it->second));
  }
  out << "    hw_counters: " << (parts.empty() ? "(none of the congestion counters)" : absl::StrJoin(parts, " "))
      << "\n";
  if (all) {
    for (const auto& kv : c->hw) out << "      hw_counters/" << kv.first << " = " << kv.second << "\n";
    for (const auto& kv : c->port) out << "      counters/" << kv.first << " = " << kv.second << "\n";
  } else if (!c->port.empty()) {
    std::vector<std::string> p;
    for (const char* name : {"port_xmit_data", "port_rcv_data", "port_xmit_packets",
                             "port_rcv_packets", "port_xmit_discards", "port_rcv_errors"}) {
      auto it = c->port.find(name);
      if (it != c->port.end()) p.push_back(absl::StrCat(it->first, "=", it->second));
    }
    if (!p.empty()) out << "    counters: " << absl::StrJoin(p, " ") << "\n";
  }
  for (const std::string& pr : c->problems) out << "    counter problem: " << pr << "\n";
}

}  // namespace

int CmdList(VerbsApi* api, const HostRoots& roots, const ListOptions& opt, std::ostream& out,
            std::ostream& err) {
  absl::StatusOr<std::vector<DeviceInfo>> devs = QueryDevices(api, roots);
  if (!devs.ok()) {
    err << "nicc-verbs list: " << devs.status().message();
    return kExitNoDevice;
  }
  for (const DeviceInfo& d : *devs) {
    if (!d.error.empty()) {
      out << d.name << ": " << d.error << "\n";
      continue;
    }
    const ibv_device_attr_ex& a = d.attr;
    const bool ts = a.completion_timestamp_mask != 0 && a.hca_core_clock != 0;
    const bool rc_pacing = a.packet_pacing_caps.qp_rate_limit_max != 0 &&
                           (a.packet_pacing_caps.supported_qpts & (1u << IBV_QPT_RC)) != 0;
    out << d.name << "  fw " << a.orig_attr.fw_ver << "  ports " << d.ports.size() << "\n";
    out << "  completion timestamps: "
        << (ts ? absl::StrCat("yes (hca_core_clock ", a.hca_core_clock, " kHz, mask 0x",
                              absl::Hex(a.completion_timestamp_mask), ")")
               : std::string("no -> RTT from the host clock"))
        << "\n";
    out << "  packet pacing (RC): "
        << (rc_pacing ? absl::StrCat(a.packet_pacing_caps.qp_rate_limit_min, "..",
                                     a.packet_pacing_caps.qp_rate_limit_max, " kb/s")
                      : std::string("no -> host pacing only"))
        << "\n";
    absl::StatusOr<SysfsDevice> sd = ReadSysfsDevice(roots, d.name);
    if (sd.ok() && !sd->pci.empty()) out << "  pci " << sd->pci << "\n";
    for (const PortInfo& p : d.ports) {
      out << "  port " << static_cast<int>(p.num) << ": ";
      if (p.query_error != 0) {
        out << "ibv_query_port failed: " << strerror(p.query_error) << "\n";
        continue;
      }
      const SysfsPort* sp = nullptr;
      if (sd.ok())
        for (const SysfsPort& s : sd->ports)
          if (s.num == p.num) sp = &s;
      out << PortStateName(p.attr.state) << "  " << LinkLayerName(p.attr.link_layer)
          << "  active MTU " << MtuToBytes(p.attr.active_mtu) << " (max "
          << MtuToBytes(p.attr.max_mtu) << ")";
      if (sp != nullptr && !sp->rate.empty()) out << "  " << sp->rate;
      out << "\n";
      for (const auto& g : p.gids) {
        out << "    gid[" << g.first << "] " << GidToString(g.second);
        if (sp != nullptr) {
          auto t = sp->gid_types.find(g.first);
          if (t != sp->gid_types.end()) out << "  " << t->second;
          auto n = sp->gid_ndevs.find(g.first);
          if (n != sp->gid_ndevs.end()) out << "  " << n->second;
        }
        out << "\n";
      }
      PrintCounters(roots, d.name, p.num, opt.all_counters, out);
    }
  }
  return kExitOk;
}

int CmdDoctor(VerbsApi* api, const HostRoots& roots, const DoctorOptions& opt, std::ostream& out,
              std::ostream& err) {
  absl::StatusOr<std::vector<DeviceInfo>> devs = QueryDevices(api, roots);
  if (!devs.ok()) {
    err << "nicc-verbs doctor: " << devs.status().message();
    return kExitNoDevice;
  }
  const std::vector<Check> checks = RunDoctor(roots, *devs, opt);
  int pass = 0, warn = 0, fail = 0;
  for (const Check& c : checks) {
    out << FormatCheck(c);
    (c.verdict == Verdict::kPass ? pass : c.verdict == Verdict::kWarn ? warn : fail)++;
  }
  out << pass << " passed, " << warn << " warnings, " << fail << " failed\n";
  return fail == 0 ? kExitOk : kExitFailed;
}

}  // namespace verbs
}  // namespace nicc
