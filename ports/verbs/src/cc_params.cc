// mlx5 cc_params (debugfs) -> dcqcn::Params.
#include "nicc/verbs/cc_params.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace nicc {
namespace verbs {
namespace {

struct Field {
  const char* name;
  uint32_t dcqcn::Params::*member;
};

// Every dcqcn::Params field but line_rate_mbps, under its mlx5 file name.
constexpr Field kFields[] = {
    {"rp_time_reset", &dcqcn::Params::rp_time_reset},
    {"rp_byte_reset", &dcqcn::Params::rp_byte_reset},
    {"rp_threshold", &dcqcn::Params::rp_threshold},
    {"rp_ai_rate", &dcqcn::Params::rp_ai_rate},
    {"rp_hai_rate", &dcqcn::Params::rp_hai_rate},
    {"rp_gd", &dcqcn::Params::rp_gd},
    {"rp_min_dec_fac", &dcqcn::Params::rp_min_dec_fac},
    {"rp_min_rate", &dcqcn::Params::rp_min_rate},
    {"rp_max_rate", &dcqcn::Params::rp_max_rate},
    {"rp_dce_tcp_g", &dcqcn::Params::rp_dce_tcp_g},
    {"rp_dce_tcp_rtt", &dcqcn::Params::rp_dce_tcp_rtt},
    {"rp_rate_reduce_monitor_period", &dcqcn::Params::rp_rate_reduce_monitor_period},
    {"rp_initial_alpha_value", &dcqcn::Params::rp_initial_alpha_value},
    {"rp_rate_to_set_on_first_cnp", &dcqcn::Params::rp_rate_to_set_on_first_cnp},
    {"rp_clamp_tgt_rate", &dcqcn::Params::rp_clamp_tgt_rate},
    {"rp_clamp_tgt_rate_ati", &dcqcn::Params::rp_clamp_tgt_rate_ati},
    {"np_min_time_between_cnps", &dcqcn::Params::np_min_time_between_cnps},
};

}  // namespace

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
  for (const Field& f : kFields) {
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
    const bool known = std::any_of(std::begin(kFields), std::end(kFields),
                                   [&](const Field& f) { return name == f.name; });
    if (!known) imp.ignored.push_back(name);
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
