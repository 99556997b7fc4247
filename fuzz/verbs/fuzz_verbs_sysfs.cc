// fuzz/verbs/fuzz_verbs_sysfs.cc — target `verbs-sysfs`: the verbs shim's
// sysfs / procfs / debugfs readers on a synthetic tree built from the input.
//
// Input: records cut at lines "%%%"; each record is a path line, then the
// file's content (the rest of the record). The path is relative to a
// scratch root (TempTree: mkdtemp in $TMPDIR, else /tmp; removed after the
// input; TMPDIR=/dev/shm runs ~15x faster than a disk) whose sys/,
// proc/ and debug/ are HostRoots' sysfs, procfs and debugfs:
//   sys/class/infiniband/mlx5_0/ports/1/state      a file
//   sys/class/net/eth0/ecn/roce_np/enable/         a directory (trailing '/')
//   @sys/class/infiniband/mlx5_0/device sys/devices/pci0000:00/0000:3b:00.0
//                                                  a symlink inside the tree
// Paths with "..", NUL or more than 16 components are skipped.
// Then, as nicc-verbs list and doctor read a host: the device scan
// (ScanSysfs, NoDeviceMessage), every port's counters (ReadPortCounters)
// and GID table (ParseGid), the mlx5 cc_params import of each device with a
// PCI address (ImportMlx5CcParams), every CPU list (ParseCpuList) and the
// doctor's checks (RunDoctor on the ports as sysfs describes them).
// Invariants: a reader's error names a path of the tree; accepted values
// keep their documented bounds; every doctor check is named, PASS has no
// fix and WARN / FAIL has one.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "nicc/verbs/cc_params.h"
#include "nicc/verbs/devices.h"
#include "nicc/verbs/doctor.h"
#include "nicc/verbs/sysfs.h"
#include "temp_tree.h"

#define NICC_FUZZ_CHECK(cond, what)                                                          \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::cerr << "invariant broken: " #cond " (" << __FILE__ << ":" << __LINE__ << "): " \
                << what << std::endl;                                                        \
      __builtin_trap();                                                                      \
    }                                                                                        \
  } while (0)

namespace {

namespace fs = std::filesystem;
using nicc::verbs::testing::TempTree;

constexpr size_t kMaxRecords = 64;
constexpr size_t kMaxDepth = 16;

// The path as a relative path inside the tree, or "" if it may leave it.
std::string CleanPath(const std::string& p) {
  if (p.empty() || p.find('\0') != std::string::npos || p.size() > 512) return "";
  std::vector<std::string> parts;
  for (absl::string_view c : absl::StrSplit(p, '/', absl::SkipEmpty())) {
    if (c == "." || c == "..") return "";
    parts.emplace_back(c);
  }
  if (parts.empty() || parts.size() > kMaxDepth) return "";
  std::string out;
  for (const std::string& c : parts) out += (out.empty() ? "" : "/") + c;
  return out;
}

void Build(const TempTree& t, const std::string& input) {
  size_t records = 0;
  for (absl::string_view rec : absl::StrSplit(input, "\n%%%\n")) {
    if (++records > kMaxRecords) break;
    const size_t nl = rec.find('\n');
    const std::string head(rec.substr(0, nl));
    const std::string body = nl == absl::string_view::npos ? "" : std::string(rec.substr(nl + 1));
    std::error_code ec;
    if (!head.empty() && head[0] == '@') {
      const std::vector<std::string> two = absl::StrSplit(head.substr(1), ' ');
      if (two.size() != 2) continue;
      const std::string link = CleanPath(two[0]);
      const std::string target = CleanPath(two[1]);
      if (link.empty() || target.empty()) continue;
      fs::create_directories(fs::path(t.Path(link)).parent_path(), ec);
      fs::create_symlink(t.Path(target), t.Path(link), ec);
      continue;
    }
    const std::string rel = CleanPath(head);
    if (rel.empty()) continue;
    if (head.back() == '/') {
      fs::create_directories(t.Path(rel), ec);
      continue;
    }
    fs::create_directories(fs::path(t.Path(rel)).parent_path(), ec);
    if (fs::is_directory(t.Path(rel), ec)) continue;
    std::ofstream(t.Path(rel), std::ios::binary) << body;
  }
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// An error message names a path of the tree (somewhere in it).
void CheckNamed(const absl::Status& st, const std::string& root, const char* reader) {
  NICC_FUZZ_CHECK(!st.ok(), reader);
  const std::string msg(st.message());
  NICC_FUZZ_CHECK(msg.find(root) != std::string::npos, reader << " error names no path: " << msg);
}

void CheckCpuList(const std::string& text) {
  absl::StatusOr<std::vector<uint32_t>> cpus = nicc::verbs::ParseCpuList(text);
  if (!cpus.ok()) return;
  for (size_t i = 0; i < cpus->size(); ++i) {
    NICC_FUZZ_CHECK((*cpus)[i] < 65536, "CPU " << (*cpus)[i]);
    NICC_FUZZ_CHECK(i == 0 || (*cpus)[i - 1] < (*cpus)[i], "CPU list not sorted / unique");
  }
}

// The port as the device reports it, from its sysfs files: state "4: ACTIVE"
// (the number; states past ACTIVE_DEFER are not reported by a kernel),
// link layer, and an active MTU picked from the rate text.
nicc::verbs::PortInfo PortFromSysfs(const nicc::verbs::SysfsPort& sp) {
  nicc::verbs::PortInfo pi;
  pi.num = static_cast<uint8_t>(sp.num);
  int state = 0;
  const std::string num = sp.state.substr(0, sp.state.find(':'));
  if (!absl::SimpleAtoi(num, &state) || state < IBV_PORT_NOP || state > IBV_PORT_ACTIVE_DEFER) {
    pi.query_error = EINVAL;
    return pi;
  }
  pi.attr.state = static_cast<ibv_port_state>(state);
  pi.attr.link_layer = sp.link_layer == "Ethernet" ? IBV_LINK_LAYER_ETHERNET : IBV_LINK_LAYER_INFINIBAND;
  pi.attr.active_mtu = static_cast<ibv_mtu>(IBV_MTU_256 + sp.rate.size() % 5);
  return pi;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TempTree t;
  NICC_FUZZ_CHECK(!t.Path("").empty() && t.Path("") != "/", "mkdtemp failed");
  const std::string root = t.Path("");
  Build(t, std::string(reinterpret_cast<const char*>(data), size));
  nicc::verbs::HostRoots roots;
  roots.sysfs = t.Path("sys");
  roots.procfs = t.Path("proc");
  roots.debugfs = t.Path("debug");

  const std::vector<nicc::verbs::SysfsDevice> devs = nicc::verbs::ScanSysfs(roots);
  if (devs.empty()) {
    const std::string msg = nicc::verbs::NoDeviceMessage(roots, 0);
    NICC_FUZZ_CHECK(msg.find(roots.sysfs) != std::string::npos, "no-device message names no path");
  }
  std::vector<nicc::verbs::DeviceInfo> infos;
  for (const nicc::verbs::SysfsDevice& d : devs) {
    NICC_FUZZ_CHECK(!d.name.empty(), "device without a name");
    nicc::verbs::DeviceInfo info;
    info.name = d.name;
    for (size_t i = 0; i < d.ports.size(); ++i) {
      const nicc::verbs::SysfsPort& sp = d.ports[i];
      NICC_FUZZ_CHECK(i == 0 || d.ports[i - 1].num <= sp.num, "ports not sorted");
      absl::StatusOr<nicc::verbs::PortCounters> c = nicc::verbs::ReadPortCounters(roots, d.name, sp.num);
      if (c.ok()) {
        for (const std::string& p : c->problems) {
          NICC_FUZZ_CHECK(StartsWith(p, root), "counter problem names no path: " << p);
        }
      } else {
        CheckNamed(c.status(), root, "ReadPortCounters");
      }
      const std::string gid_dir = nicc::verbs::PortDir(roots, d.name, sp.num) + "/gids";
      for (const std::string& g : nicc::verbs::ListDir(gid_dir)) {
        absl::StatusOr<std::string> text = nicc::verbs::ReadLine(gid_dir + "/" + g);
        if (!text.ok()) continue;
        absl::StatusOr<ibv_gid> gid = nicc::verbs::ParseGid(*text);
        if (!gid.ok()) continue;
        absl::StatusOr<ibv_gid> again = nicc::verbs::ParseGid(nicc::verbs::GidToString(*gid));
        NICC_FUZZ_CHECK(again.ok() && std::equal(again->raw, again->raw + 16, gid->raw),
                        "GID " << *text << " does not read back from " << nicc::verbs::GidToString(*gid));
      }
      if (sp.num >= 1 && sp.num <= 255) info.ports.push_back(PortFromSysfs(sp));
    }
    if (!d.pci.empty()) {
      absl::StatusOr<nicc::verbs::CcParamsImport> imp =
          nicc::verbs::ImportMlx5CcParams(roots, d.pci, 100000);
      if (imp.ok()) {
        NICC_FUZZ_CHECK(imp->params.Validate().ok(), "imported parameters do not validate");
      } else {
        CheckNamed(imp.status(), root, "ImportMlx5CcParams");
      }
    }
    infos.push_back(info);
  }
  for (const std::string& node : nicc::verbs::ListDir(roots.sysfs + "/devices/system/node")) {
    absl::StatusOr<std::string> text = nicc::verbs::ReadFile(roots.sysfs + "/devices/system/node/" + node + "/cpulist");
    if (text.ok()) CheckCpuList(*text);
  }
  for (const std::string& irq : nicc::verbs::ListDir(roots.procfs + "/irq")) {
    absl::StatusOr<std::string> text = nicc::verbs::ReadFile(roots.procfs + "/irq/" + irq + "/smp_affinity_list");
    if (text.ok()) CheckCpuList(*text);
  }
  for (int prio : {-1, 3}) {
    nicc::verbs::DoctorOptions opt;
    opt.roce_prio = prio;
    for (const nicc::verbs::Check& c : nicc::verbs::RunDoctor(roots, infos, opt)) {
      NICC_FUZZ_CHECK(!c.name.empty() && !c.subject.empty() && !c.detail.empty(), "unnamed check");
      NICC_FUZZ_CHECK((c.verdict == nicc::verbs::Verdict::kPass) == c.fix.empty(),
                      c.name << " " << nicc::verbs::VerdictName(c.verdict) << " with fix '" << c.fix << "'");
      NICC_FUZZ_CHECK(!nicc::verbs::FormatCheck(c).empty(), "empty FormatCheck");
    }
  }
  return 0;
}
