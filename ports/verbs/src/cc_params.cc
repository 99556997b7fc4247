// mlx5 cc_params (debugfs) -> dcqcn::Params.
#include "nicc/verbs/cc_params.h"

#include "absl/strings/str_cat.h"

namespace nicc {
namespace verbs {

std::string CcParamsDir(const HostRoots& roots, const std::string& pci) {
  return absl::StrCat(roots.debugfs, "/mlx5/", pci, "/cc_params");
}

absl::StatusOr<CcParamsImport> ImportMlx5CcParams(const HostRoots& roots, const std::string& pci,
                                                  uint32_t line_rate_mbps) {
  CcParamsImport imp;
  imp.dir = CcParamsDir(roots, pci);
  imp.params = dcqcn::Params::Mlx5(line_rate_mbps);
  if (pci.empty())
    return absl::InvalidArgumentError("cc_params import: the device's PCI address is unknown");
  if (!IsDir(imp.dir))
    return absl::NotFoundError(absl::StrCat(
        imp.dir, ": no such directory. cc_params exist on mlx5 devices only and need debugfs "
                 "(as root: mount -t debugfs none /sys/kernel/debug)"));
  // Every DCQCN table row but those the backend supplies (the line rate)
  // and nicc's own (the variant, rp_hai_without_bc) is an mlx5 cc_params
  // file of the same name.
  const auto& table = dcqcn::kParamTable;
  for (uint32_t i = 0; i < table.count; ++i) {
    const ParamDesc<dcqcn::Params>& f = table.rows[i];
    if (f.backend() || f.nicc_only()) continue;
    const std::string path = absl::StrCat(imp.dir, "/", f.name);
    if (!Exists(path)) {
      imp.missing.push_back(path);
      continue;
    }
    absl::StatusOr<uint64_t> v = ReadU64(path);
    if (!v.ok()) return v.status();  // carries path:line
    if (*v > 0xFFFFFFFFull)
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":1: value ", *v, " does not fit 32 bits"));
    imp.params.*(f.member) = static_cast<uint32_t>(*v);
    imp.applied.push_back(absl::StrCat(f.name, "=", *v));
  }
  for (const std::string& name : ListDir(imp.dir)) {
    const int32_t i = FindParam(table, name.c_str());
    if (i < 0 || table.rows[i].backend() || table.rows[i].nicc_only()) imp.ignored.push_back(name);
  }
  const Status st = imp.params.Validate();
  if (!st.ok()) {
    const std::string field = st.field != nullptr ? st.field : "?";
    return absl::InvalidArgumentError(absl::StrCat(
        "imported DCQCN parameters are invalid: ", field, " ", StatusCodeName(st.code),
        " (see ", imp.dir, "/", field, ")"));
  }
  return imp;
}

}  // namespace verbs
}  // namespace nicc
