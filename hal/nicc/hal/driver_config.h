// nicc/hal/driver_config.h — what a driver is configured with: the CC kind of
// its flows (NICC_CC_KINDS), the driver's own parameter table (line rate),
// and DriverConfig, every algorithm's compiled config shared by all flows
// (InitDriverConfig). driver.h runs flows on it.
#ifndef NICC_HAL_DRIVER_CONFIG_H_
#define NICC_HAL_DRIVER_CONFIG_H_

#include "nicc/common.h"
#include "nicc/dcqcn.h"
#include "nicc/ecn_path.h"
#include "nicc/hpcc.h"
#include "nicc/nscc.h"
#include "nicc/rccc.h"
#include "nicc/spray.h"

namespace nicc {
namespace hal {

// Index of a flow in a driver's table. Stable from Open() to Close().
using FlowId = uint16_t;
constexpr FlowId kNoFlow = 0xFFFF;

// Congestion control of a driver's flows; names and codes are one list in
// param_tables.h (NICC_CC_KINDS), shared with the C ABI.
enum class CcKind : uint8_t {
#define NICC_X(tok, ctok, code, name, doc) k##tok = code,
  NICC_CC_KINDS(NICC_X)
#undef NICC_X
};
constexpr ChoiceDesc kCcKinds[] = {
#define NICC_X(tok, ctok, code, name, doc) {name, code, NICC_PARAM_DOC(doc)},
    NICC_CC_KINDS(NICC_X)
#undef NICC_X
};
constexpr uint32_t kCcKindCount = sizeof(kCcKinds) / sizeof(kCcKinds[0]);

constexpr const char* CcKindName(CcKind k) {
  return static_cast<uint32_t>(k) < kCcKindCount ? kCcKinds[static_cast<uint32_t>(k)].name : "?";
}

// The driver's own parameters: the CC its flows run, then one uint32_t per
// row of NICC_DRIVER_PARAMS (param_tables.h): the port's line rate, which a
// flow without CC is paced at whatever the CC tables say.
enum DriverProfile : uint8_t { NICC_DRIVER_PROFILES(NICC_PROFILE_ENUM_) kDriverProfileCount };

struct DriverParams {
  CcKind cc;
  NICC_PARAM_MEMBERS(NICC_DRIVER_PARAMS)

  // driver-default with this CC and port speed.
  static constexpr DriverParams Of(CcKind cc, uint32_t line_rate_mbps);
  // The CC choice, then each field's own range.
  constexpr Status Validate() const;
};

namespace detail {
using NiccRowParams_ = DriverParams;
constexpr ParamDesc<DriverParams> kDriverRows[] = {NICC_PARAM_ROWS(NICC_DRIVER_PARAMS)};
constexpr ProfileDesc kDriverProfiles[] = {NICC_DRIVER_PROFILES(NICC_PROFILE_ROW_)};
}  // namespace detail
constexpr ParamTable<DriverParams> kDriverParamTable = {
    "driver", "", detail::kDriverRows, sizeof(detail::kDriverRows) / sizeof(detail::kDriverRows[0]),
    detail::kDriverProfiles, kDriverProfileCount};

constexpr DriverParams DriverParams::Of(CcKind cc, uint32_t line_rate_mbps) {
  DriverParams d{};
  LoadProfile(kDriverParamTable, kDefault, &d);
  d.cc = cc;
  d.line_rate_mbps = line_rate_mbps;
  return d;
}

constexpr Status DriverParams::Validate() const {
  if (static_cast<uint32_t>(cc) >= kCcKindCount) return Status::Error(StatusCode::kOutOfRange, "cc");
  return CheckRanges(kDriverParamTable, *this);
}

// Everything a driver needs to know, compiled once and shared by all flows.
struct DriverConfig {
  CcKind cc;
  uint32_t line_rate_kbps;  // DriverParams::line_rate_mbps: the rate of a flow without CC
  dcqcn::Config dcqcn;      // used when cc == kDcqcn (the NP part always)
  hpcc::Config hpcc;        // used when cc == kHpcc / kHpccPint / kHpccSpray
  nscc::Config nscc;        // used when cc == kNscc / kNsccRccc
  rccc::Config rccc;        // used when cc == kNsccRccc (sender credit, receiver port pool)
  spray::Config spray;      // path selection for every flow
  ecn_path::Rule ecn_rule;  // NSCC rule: ECN with low delay changes path
};

// Compiles the parts of a DriverConfig from their Params. Fields that the
// chosen CC does not use are still validated, so a config is complete. The
// first bad field is named in the status, and then *out is left untouched
// (a live config stays whole): every part is validated before any is
// compiled, and each Compile() fails only where its Validate() does.
inline Status InitDriverConfig(const DriverParams& driver, const dcqcn::Params& dcqcn_params,
                               const hpcc::Params& hpcc_params, const nscc::Params& nscc_params,
                               const rccc::Params& rccc_params, const spray::Params& spray_params,
                               const ecn_path::Rule& rule, DriverConfig* out) {
  Status st = driver.Validate();
  if (st.ok()) st = dcqcn_params.Validate();
  if (st.ok()) st = hpcc_params.Validate();
  if (st.ok()) st = nscc_params.Validate();
  if (st.ok()) st = rccc_params.Validate();
  if (st.ok()) st = spray_params.Validate();
  if (st.ok()) st = rule.Validate();
  if (!st.ok()) return st;
  st = dcqcn::Compile(dcqcn_params, &out->dcqcn);
  if (st.ok()) st = hpcc::Compile(hpcc_params, &out->hpcc);
  if (st.ok()) st = nscc::Compile(nscc_params, &out->nscc);
  if (st.ok()) st = rccc::Compile(rccc_params, &out->rccc);
  if (st.ok()) st = spray::Compile(spray_params, &out->spray);
  NICC_ASSERT(st.ok());  // validated above
  if (!st.ok()) return st;
  out->cc = driver.cc;
  out->line_rate_kbps = driver.line_rate_mbps * kKbpsPerMbps;  // <= 1.6e9: fits
  out->ecn_rule = rule;
  return Status::Ok();
}

// The same with RCCC at its uec-default profile on the driver's port speed:
// for backends that do not run RCCC (yet) or take its
// defaults.
inline Status InitDriverConfig(const DriverParams& driver, const dcqcn::Params& dcqcn_params,
                               const hpcc::Params& hpcc_params, const nscc::Params& nscc_params,
                               const spray::Params& spray_params, const ecn_path::Rule& rule,
                               DriverConfig* out) {
  rccc::Params rp = rccc::Params::UecDefault();
  rp.line_rate_mbps = driver.line_rate_mbps;
  return InitDriverConfig(driver, dcqcn_params, hpcc_params, nscc_params, rp, spray_params, rule, out);
}

// The same with NSCC at its uec-default profile on the driver's port speed:
// for backends that do not run NSCC (yet) or take its defaults.
inline Status InitDriverConfig(const DriverParams& driver, const dcqcn::Params& dcqcn_params,
                               const hpcc::Params& hpcc_params,
                               const spray::Params& spray_params, const ecn_path::Rule& rule,
                               DriverConfig* out) {
  nscc::Params np = nscc::Params::UecDefault();
  np.line_rate_mbps = driver.line_rate_mbps;
  return InitDriverConfig(driver, dcqcn_params, hpcc_params, np, spray_params, rule, out);
}

}  // namespace hal
}  // namespace nicc

#endif  // NICC_HAL_DRIVER_CONFIG_H_
