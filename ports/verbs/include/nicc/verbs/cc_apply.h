// nicc/verbs/cc_apply.h — `nicc-verbs cc show|apply|diff`: a DCQCN profile
// (or a scenario file's dcqcn.* keys) beside, onto, or against an mlx5 NIC's
// cc_params (<debugfs>/mlx5/<pci>/cc_params/<name>, one decimal a file).
//
// Names, units, ranges and profiles are the rows of the engine's DCQCN table
// (dcqcn::kParamTable, param_tables.h): every row that is neither supplied by
// the backend (line_rate_mbps) nor nicc's own (variant, rp_hai_without_bc,
// rp_cut_on_grid) is an mlx5 cc_params file of the same name. Values are
// checked by host::SetByName (each field's range) and dcqcn::Params::
// Validate() (the rules between fields) before anything is written.
//
// apply: read every file first (a malformed file stops it before any
// write), write the fields whose value differs, in table order; if a write
// fails, write back the old value of every field already written, and name
// the field that failed.
//
//   CcOptions o; o.action = "apply"; o.device = "mlx5_0"; o.profile = "dcqcn-paper";
//   int rc = CmdCc(roots, o, std::cout, std::cerr);
#ifndef NICC_VERBS_CC_APPLY_H_
#define NICC_VERBS_CC_APPLY_H_

#include <stdint.h>

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nicc/dcqcn.h"
#include "nicc/verbs/sysfs.h"

namespace nicc {
namespace verbs {

// Writes `value` to `path` (decimal and '\n'); 0 or an errno value.
using CcWriteFn = std::function<int(const std::string& path, uint64_t value)>;
int WriteU64File(const std::string& path, uint64_t value);

struct CcOptions {
  std::string action;             // show | apply | diff
  std::string device;             // an RDMA device (mlx5_0) or a PCI address (0000:3b:00.0)
  std::string profile;            // a dcqcn profile; empty = the scenario's, else mlx5
  std::vector<std::string> sets;  // "name=value" or "dcqcn.name=value", after the scenario
  std::string scenario;           // a nicc-sim scenario file (TOML); its dcqcn.* keys
  uint32_t line_rate_mbps = 0;    // 0 = the device's port 1 rate in sysfs, else 100000
  int euid = -1;                  // -1 = geteuid() (tests set it)
  CcWriteFn write;                // empty = WriteU64File (tests wrap it)
};

int CmdCc(const HostRoots& roots, const CcOptions& opt, std::ostream& out, std::ostream& err);

// The DCQCN values a scenario file asks for: its dcqcn.profile (if any) and
// every dcqcn.<field> it sets (-1 = the profile's value, so left out),
// parsed as nicc-sim reads them (`[dcqcn] name = v` or `dcqcn.name = v`;
// `dcqcn_variant` too). Errors name file:line:column.
struct ScenarioDcqcn {
  std::string profile;                     // empty = not set
  std::map<std::string, uint64_t> fields;  // row name -> value
  std::vector<std::string> notes;          // base / compat keys the shim does not resolve
};
absl::StatusOr<ScenarioDcqcn> ReadScenarioDcqcn(const std::string& path);

// The values to compare or apply: profile, then the scenario's fields, then
// `sets`; every value range-checked, then Validate(). `source` says where
// each field's value came from ("profile mlx5", "file.toml", "--set").
struct CcTarget {
  dcqcn::Params params;
  std::string profile;
  std::map<std::string, std::string> source;
  std::vector<std::string> notes;
};
absl::StatusOr<CcTarget> BuildCcTarget(const std::string& profile, uint32_t line_rate_mbps,
                                       const std::string& scenario,
                                       const std::vector<std::string>& sets);

// Reads every mlx5 row's file under `dir`: name -> value; missing files
// are absent from the map and listed in *missing.
absl::StatusOr<std::map<std::string, uint64_t>> ReadCcParams(const std::string& dir,
                                                             std::vector<std::string>* missing);

struct CcApplyResult {
  std::vector<std::string> written;       // "name old -> new", in order
  std::vector<std::string> restored;      // names written back after a failure
  std::vector<std::string> not_restored;  // names whose write-back failed too
  std::string failed_field;               // empty = every write succeeded
  int failed_errno = 0;
};
// Writes `want` over `current` (fields whose value differs and whose file
// exists), rolling back on the first failure.
CcApplyResult ApplyCcParams(const std::string& dir, const dcqcn::Params& want,
                            const std::map<std::string, uint64_t>& current, const CcWriteFn& write);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_CC_APPLY_H_
