// nicc/verbs/cc_params.h — import of a ConnectX device's DCQCN parameters
// from the mlx5 debugfs files into nicc::dcqcn::Params.
//
// mlx5 exposes one file per parameter, holding one decimal number:
//   <debugfs>/mlx5/<pci>/cc_params/<name>     e.g. .../0000:3b:00.0/cc_params/rp_gd
// The names and units are those of dcqcn::Params (rp_* and
// np_min_time_between_cnps). The import starts from Params::Mlx5(line rate)
// and overrides every field whose file is present. Missing files keep the
// mlx5 default and are listed; a malformed file fails the import with
// "path:line: ..."; files the engine has no field for (np_cnp_dscp, ...)
// are listed as ignored. debugfs needs root and `mount -t debugfs none
// /sys/kernel/debug`.
//
//   auto imp = nicc::verbs::ImportMlx5CcParams(roots, "0000:3b:00.0", 100000);
//   if (imp.ok()) use(imp->params);
#ifndef NICC_VERBS_CC_PARAMS_H_
#define NICC_VERBS_CC_PARAMS_H_

#include <stdint.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nicc/dcqcn.h"
#include "nicc/verbs/sysfs.h"

namespace nicc {
namespace verbs {

struct CcParamsImport {
  dcqcn::Params params;
  std::string dir;                   // the cc_params directory read
  std::vector<std::string> applied;  // "name=value" for every imported field
  std::vector<std::string> missing;  // paths of fields left at the mlx5 default
  std::vector<std::string> ignored;  // files with no engine field
};

std::string CcParamsDir(const HostRoots& roots, const std::string& pci);

absl::StatusOr<CcParamsImport> ImportMlx5CcParams(const HostRoots& roots, const std::string& pci,
                                                  uint32_t line_rate_mbps);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_CC_PARAMS_H_
