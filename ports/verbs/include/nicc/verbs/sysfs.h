// nicc/verbs/sysfs.h — what the host tells us through sysfs, procfs and
// debugfs, read from configurable roots so tests run on synthetic trees.
//
//   nicc::verbs::HostRoots roots;              // /sys, /proc, /sys/kernel/debug
//   roots.sysfs = "/tmp/fake-sys";
//   auto c = nicc::verbs::ReadPortCounters(roots, "mlx5_0", 1);
//   if (c.ok()) print(c->hw["rp_cnp_handled"]);
//
// Paths used (under roots.sysfs):
//   class/infiniband/<dev>/ports/<p>/hw_counters/<name>   driver counters
//   class/infiniband/<dev>/ports/<p>/counters/<name>      IB port counters
//   class/infiniband/<dev>/ports/<p>/{state,link_layer,rate,gid_attrs/...}
//   class/infiniband/<dev>/device -> PCI device (its basename is the PCI address)
// Every malformed file is reported as "path:line: what was expected".
#ifndef NICC_VERBS_SYSFS_H_
#define NICC_VERBS_SYSFS_H_

#include <stdint.h>

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace nicc {
namespace verbs {

struct HostRoots {
  std::string sysfs = "/sys";
  std::string procfs = "/proc";
  std::string debugfs = "/sys/kernel/debug";
};

// Whole file, or NotFound naming the path.
absl::StatusOr<std::string> ReadFile(const std::string& path);
// The file's first line without surrounding blanks.
absl::StatusOr<std::string> ReadLine(const std::string& path);
// A file holding one unsigned decimal integer (blanks around it allowed):
// NotFound if missing, InvalidArgument "path:line: ..." if malformed.
absl::StatusOr<uint64_t> ReadU64(const std::string& path);
// Entry names of a directory, sorted; empty if it does not exist.
std::vector<std::string> ListDir(const std::string& path);
bool IsDir(const std::string& path);
bool Exists(const std::string& path);

// Port counters: every readable file of hw_counters/ and counters/.
struct PortCounters {
  std::map<std::string, uint64_t> hw;    // hw_counters/<name>
  std::map<std::string, uint64_t> port;  // counters/<name>
  std::vector<std::string> problems;     // unreadable or malformed files, path:line
};
absl::StatusOr<PortCounters> ReadPortCounters(const HostRoots& roots, const std::string& dev,
                                              uint32_t port);
std::string PortDir(const HostRoots& roots, const std::string& dev, uint32_t port);

// The congestion-related hw_counters, with what each counts (docs and `list`).
struct CounterInfo {
  const char* name;
  const char* meaning;
};
extern const CounterInfo kKeyHwCounters[];
extern const size_t kKeyHwCounterCount;

// What sysfs says about a device (independent of libibverbs).
struct SysfsPort {
  uint32_t num = 0;
  std::string state;       // e.g. "4: ACTIVE"
  std::string link_layer;  // "Ethernet" / "InfiniBand"
  std::string rate;        // e.g. "100 Gb/sec (4X EDR)"
  std::map<int, std::string> gid_types;  // index -> "RoCE v2"
  std::map<int, std::string> gid_ndevs;  // index -> netdev
};
struct SysfsDevice {
  std::string name;
  std::string pci;                  // e.g. 0000:3b:00.0; empty if unknown
  std::vector<std::string> netdevs;
  std::vector<SysfsPort> ports;
};
std::vector<SysfsDevice> ScanSysfs(const HostRoots& roots);
absl::StatusOr<SysfsDevice> ReadSysfsDevice(const HostRoots& roots, const std::string& dev);

// CPU list syntax ("0-3,8,10-11") -> sorted CPU numbers; InvalidArgument on
// bad syntax. Bounded: at most 65536 CPUs.
absl::StatusOr<std::vector<uint32_t>> ParseCpuList(const std::string& text);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_SYSFS_H_
