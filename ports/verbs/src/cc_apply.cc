// nicc-verbs cc show|apply|diff (cc_apply.h).
#include "nicc/verbs/cc_apply.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <cmath>
#include <ostream>

#ifdef NICC_VERBS_HAVE_TOML
#include <toml++/toml.h>
#endif

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nicc/host/param_registry.h"
#include "nicc/verbs/cc_params.h"
#include "nicc/verbs/commands.h"

namespace nicc {
namespace verbs {
namespace {

const auto& kTable = dcqcn::kParamTable;

// The rows that are mlx5 cc_params files.
bool IsNicRow(const ParamDesc<dcqcn::Params>& r) {
  return !r.backend() && !r.nicc_only();
}

// "300", "0x12c" or a selector name ("sigcomm15") for row `r`.
bool ParseFieldValue(const ParamDesc<dcqcn::Params>& r, const std::string& text, uint64_t* v) {
  const ChoiceSpan c = UnitChoices(r.unit);
  for (uint32_t i = 0; i < c.count; ++i)
    if (text == c.list[i].name) {
      *v = c.list[i].code;
      return true;
    }
  if (absl::StartsWith(text, "0x")) return absl::SimpleHexAtoi(text.substr(2), v);
  return absl::SimpleAtoi(text, v);
}

}  // namespace

int WriteU64File(const std::string& path, uint64_t value) {
  const int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return errno;
  const std::string text = absl::StrCat(value, "\n");
  const ssize_t n = write(fd, text.data(), text.size());
  const int e = n == static_cast<ssize_t>(text.size()) ? 0 : (n < 0 ? errno : EIO);
  if (close(fd) != 0 && e == 0) return errno;
  return e;
}

absl::StatusOr<ScenarioDcqcn> ReadScenarioDcqcn(const std::string& path) {
#ifndef NICC_VERBS_HAVE_TOML
  return absl::FailedPreconditionError(absl::StrCat(
      "--scenario ", path, ": this nicc-verbs was built without toml++ (libtomlplusplus-dev)"));
#else
  ScenarioDcqcn sc;
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", b.line, ":", b.column, ": ", std::string(e.description())));
  }
  auto where = [&](const toml::source_region& r) {
    return absl::StrCat(path, ":", r.begin.line, ":", r.begin.column);
  };
  // One value of the dcqcn group: `name` is the row or "profile".
  auto take = [&](const std::string& name, const toml::node& v,
                  const toml::source_region& at) -> absl::Status {
    if (name == "profile") {
      const auto* s = v.as_string();
      if (s == nullptr || FindProfile(kTable, s->get().c_str()) < 0)
        return absl::InvalidArgumentError(absl::StrCat(
            where(at), ": dcqcn.profile: expected one of ", host::ProfileList(kTable)));
      sc.profile = s->get();
      return absl::OkStatus();
    }
    const int32_t i = FindParam(kTable, name.c_str());
    if (i < 0 || kTable.rows[i].backend())
      return absl::InvalidArgumentError(
          absl::StrCat(where(at), ": unknown key 'dcqcn.", name, "'"));
    const ParamDesc<dcqcn::Params>& r = kTable.rows[i];
    std::string text;
    if (const auto* s = v.as_string()) {
      text = s->get();
    } else if (const auto* n = v.as_integer()) {
      if (n->get() == -1) return absl::OkStatus();  // -1 = the profile's value
      text = std::to_string(n->get());
    } else if (const auto* f = v.as_floating_point()) {
      const double d = f->get();
      if (d == -1) return absl::OkStatus();
      if (!std::isfinite(d) || d != std::floor(d) || d < 0 || d > 4294967295.0)
        return absl::InvalidArgumentError(
            absl::StrCat(where(v.source()), ": dcqcn.", name, ": expected an integer"));
      text = std::to_string(static_cast<uint64_t>(d));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat(where(v.source()), ": dcqcn.", name, ": expected a number"));
    }
    uint64_t val = 0;
    if (!ParseFieldValue(r, text, &val))
      return absl::InvalidArgumentError(
          absl::StrCat(where(v.source()), ": dcqcn.", name, " = '", text, "': expected a number"));
    if (val < r.min || val > r.max)
      return absl::InvalidArgumentError(absl::StrCat(where(v.source()), ": dcqcn.", name, " = ",
                                                     val, " is out of range ", host::RangeText(r),
                                                     " (-1 = the profile's value)"));
    sc.fields[r.name] = val;
    return absl::OkStatus();
  };
  for (auto&& [k, v] : root) {
    const std::string key(k.str());
    if (key == "dcqcn") {
      const auto* t = v.as_table();
      if (t == nullptr)
        return absl::InvalidArgumentError(
            absl::StrCat(where(k.source()), ": 'dcqcn' must be a table"));
      for (auto&& [k2, v2] : *t) {
        absl::Status st = take(std::string(k2.str()), v2, k2.source());
        if (!st.ok()) return st;
      }
    } else if (key == "dcqcn_variant") {
      absl::Status st = take("variant", v, k.source());
      if (!st.ok()) return st;
    } else if (absl::StartsWith(key, "dcqcn_")) {
      return absl::InvalidArgumentError(absl::StrCat(
          where(k.source()), ": '", key,
          "' is an old key name; nicc-sim maps it (and says so), "
          "nicc-verbs cc reads the dcqcn.<field> names only: rename it (docs/params.md)"));
    } else if (key == "base" || key == "compat") {
      const auto* s = v.as_string();
      sc.notes.push_back(absl::StrCat(
          where(k.source()), ": ", key, " = \"", s != nullptr ? s->get() : "?",
          "\": only this file's own dcqcn.* keys are read, not DCQCN values a built-in "
          "scenario or compat preset may imply (write those in the file)"));
    }
  }
  return sc;
#endif
}

absl::StatusOr<CcTarget> BuildCcTarget(const std::string& profile, uint32_t line_rate_mbps,
                                       const std::string& scenario,
                                       const std::vector<std::string>& sets) {
  CcTarget t;
  ScenarioDcqcn sc;
  if (!scenario.empty()) {
    absl::StatusOr<ScenarioDcqcn> s = ReadScenarioDcqcn(scenario);
    if (!s.ok()) return s.status();
    sc = *s;
    t.notes = sc.notes;
  }
  t.profile = profile;
  if (!sc.profile.empty()) {
    if (!profile.empty() && profile != sc.profile)
      return absl::InvalidArgumentError(absl::StrCat("--profile=", profile, " but ", scenario,
                                                     " sets dcqcn.profile = \"", sc.profile,
                                                     "\": give one of them"));
    t.profile = sc.profile;
  }
  if (t.profile.empty()) t.profile = "mlx5";
  const int32_t p = FindProfile(kTable, t.profile.c_str());
  if (p < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("--profile=", t.profile, ": expected one of ", host::ProfileList(kTable)));
  t.params = dcqcn::Params::Of(static_cast<dcqcn::Profile>(p), line_rate_mbps);
  const std::string psrc = absl::StrCat("profile ", t.profile);
  for (uint32_t i = 0; i < kTable.count; ++i) t.source[kTable.rows[i].name] = psrc;
  std::string error;
  for (const auto& kv : sc.fields) {
    if (!host::SetByName(kTable, kv.first, kv.second, &t.params, &error))
      return absl::InvalidArgumentError(absl::StrCat(scenario, ": ", error));
    t.source[kv.first] = scenario;
  }
  for (const std::string& s : sets) {
    const size_t eq = s.find('=');
    std::string name = s.substr(0, eq);
    if (absl::StartsWith(name, "dcqcn.")) name = name.substr(6);
    const int32_t i = FindParam(kTable, name.c_str());
    if (eq == std::string::npos || i < 0 || kTable.rows[i].backend())
      return absl::InvalidArgumentError(absl::StrCat(
          "--set ", s,
          ": expected dcqcn.<field>=<value>, a field of the DCQCN table (nicc-params)"));
    uint64_t v = 0;
    if (!ParseFieldValue(kTable.rows[i], s.substr(eq + 1), &v))
      return absl::InvalidArgumentError(absl::StrCat("--set ", s, ": expected a number"));
    if (!host::SetByName(kTable, name, v, &t.params, &error))
      return absl::InvalidArgumentError(absl::StrCat("--set: ", error));
    t.source[name] = "--set";
  }
  const Status st = t.params.Validate();
  if (!st.ok()) {
    const std::string field = st.field != nullptr ? st.field : "?";
    return absl::InvalidArgumentError(
        absl::StrCat("the DCQCN values are invalid: dcqcn.", field, " ", StatusCodeName(st.code),
                     " (", t.source[field], "; line rate ", line_rate_mbps, " Mb/s)"));
  }
  return t;
}

absl::StatusOr<std::map<std::string, uint64_t>> ReadCcParams(const std::string& dir,
                                                             std::vector<std::string>* missing) {
  std::map<std::string, uint64_t> cur;
  for (uint32_t i = 0; i < kTable.count; ++i) {
    const ParamDesc<dcqcn::Params>& r = kTable.rows[i];
    if (!IsNicRow(r)) continue;
    const std::string path = absl::StrCat(dir, "/", r.name);
    if (!Exists(path)) {
      if (missing != nullptr) missing->push_back(r.name);
      continue;
    }
    absl::StatusOr<uint64_t> v = ReadU64(path);
    if (!v.ok()) return v.status();  // path:line
    cur[r.name] = *v;
  }
  return cur;
}

CcApplyResult ApplyCcParams(const std::string& dir, const dcqcn::Params& want,
                            const std::map<std::string, uint64_t>& current,
                            const CcWriteFn& write) {
  CcApplyResult res;
  std::vector<std::pair<std::string, uint64_t>> done;  // name, old value
  for (uint32_t i = 0; i < kTable.count; ++i) {
    const ParamDesc<dcqcn::Params>& r = kTable.rows[i];
    if (!IsNicRow(r)) continue;
    auto it = current.find(r.name);
    const uint64_t v = want.*(r.member);
    if (it == current.end() || it->second == v) continue;
    const int e = write(absl::StrCat(dir, "/", r.name), v);
    if (e != 0) {
      res.failed_field = r.name;
      res.failed_errno = e;
      break;
    }
    res.written.push_back(absl::StrCat(r.name, " ", it->second, " -> ", v));
    done.emplace_back(r.name, it->second);
  }
  if (res.failed_field.empty()) return res;
  for (auto d = done.rbegin(); d != done.rend(); ++d) {
    if (write(absl::StrCat(dir, "/", d->first), d->second) == 0)
      res.restored.push_back(d->first);
    else
      res.not_restored.push_back(d->first);
  }
  return res;
}

int CmdCc(const HostRoots& roots, const CcOptions& opt, std::ostream& out, std::ostream& err) {
  const std::string me = absl::StrCat("nicc-verbs cc ", opt.action);
  if (opt.action != "show" && opt.action != "apply" && opt.action != "diff") {
    err << "nicc-verbs cc: expected show, apply or diff, got '" << opt.action << "'\n";
    return kExitUsage;
  }
  if (opt.device.empty()) {
    err << me << ": name the device: nicc-verbs cc " << opt.action
        << " DEVICE (an RDMA device such as mlx5_0, or its PCI address)\n";
    return kExitUsage;
  }
  if (opt.action == "diff" && opt.scenario.empty() && opt.profile.empty() && opt.sets.empty()) {
    err << me << ": give --scenario FILE (and/or --profile / --set) to compare the NIC with\n";
    return kExitUsage;
  }
  // The device's PCI address (cc_params are per PCI function) and speed.
  std::string pci = opt.device;
  uint32_t line = opt.line_rate_mbps;
  if (opt.device.find(':') == std::string::npos) {
    absl::StatusOr<SysfsDevice> sd = ReadSysfsDevice(roots, opt.device);
    if (!sd.ok() || sd->pci.empty()) {
      err << me << ": no PCI address for RDMA device '" << opt.device << "' ("
          << (sd.ok() ? "no device link" : std::string(sd.status().message())) << " under "
          << roots.sysfs << "/class/infiniband); give the PCI address instead (nicc-verbs list)\n";
      return kExitNoDevice;
    }
    pci = sd->pci;
    for (const SysfsPort& p : sd->ports) {
      double g = 0;
      if (line == 0 && p.num == 1 && absl::SimpleAtod(p.rate.substr(0, p.rate.find(' ')), &g) &&
          g > 0)
        line = static_cast<uint32_t>(g * 1000);
    }
  }
  if (line == 0) line = 100000;
  absl::StatusOr<CcTarget> t = BuildCcTarget(opt.profile, line, opt.scenario, opt.sets);
  if (!t.ok()) {
    err << me << ": " << t.status().message() << "\n";
    return kExitUsage;
  }
  for (const std::string& n : t->notes) out << "note: " << n << "\n";
  const int euid = opt.euid >= 0 ? opt.euid : static_cast<int>(geteuid());
  const std::string root_hint =
      "cc_params live in debugfs, which only root may read or write: run it with sudo (and "
      "mount debugfs: mount -t debugfs none /sys/kernel/debug)";
  if (opt.action == "apply" && euid != 0) {
    err << me << ": not root (euid " << euid << "); " << root_hint << "\n";
    return kExitFailed;
  }
  const std::string dir = CcParamsDir(roots, pci);
  if (!IsDir(dir)) {
    err << me << ": " << dir << ": no such directory. cc_params exist on mlx5 devices only"
        << (euid != 0 ? absl::StrCat("; and ", root_hint) : std::string(" (is debugfs mounted?)"))
        << "\n";
    return kExitFailed;
  }
  std::vector<std::string> missing;
  absl::StatusOr<std::map<std::string, uint64_t>> cur = ReadCcParams(dir, &missing);
  if (!cur.ok()) {
    err << me << ": " << cur.status().message()
        << (absl::StrContains(cur.status().message(), "ermission") ? absl::StrCat("; ", root_hint)
                                                                   : std::string())
        << (opt.action == "apply" ? "\nnothing was written" : "") << "\n";
    return kExitFailed;
  }
  // The table: every mlx5 row, NIC beside the profile / scenario.
  const std::string col = opt.action == "show" && opt.scenario.empty() && opt.sets.empty()
                              ? absl::StrCat("profile ", t->profile)
                              : std::string("wanted");
  out << dir << "  (line rate " << line << " Mb/s; profile " << t->profile << ")\n";
  out << absl::StrFormat("  %-31s %-6s %-12s %-12s %s\n", "name", "unit", "NIC", col, "");
  int differ = 0;
  for (uint32_t i = 0; i < kTable.count; ++i) {
    const ParamDesc<dcqcn::Params>& r = kTable.rows[i];
    if (!IsNicRow(r)) continue;
    const uint64_t want = t->params.*(r.member);
    auto it = cur->find(r.name);
    const std::string nic = it == cur->end() ? std::string("missing") : absl::StrCat(it->second);
    const bool diff = it != cur->end() && it->second != want;
    differ += diff;
    const std::string& src = t->source[r.name];
    out << absl::StrFormat("%s %-31s %-6s %-12s %-12u %s\n", diff ? "*" : " ", r.name,
                           UnitSymbol(r.unit), nic, want,
                           absl::StrCat(diff ? "differs " : "",
                                        absl::StartsWith(src, "profile ") ? "" : "(" + src + ")"));
  }
  // nicc's own fields have no file; say so when the wanted value is not the profile's.
  const int32_t p = FindProfile(kTable, t->profile.c_str());
  for (uint32_t i = 0; i < kTable.count; ++i) {
    const ParamDesc<dcqcn::Params>& r = kTable.rows[i];
    if (!r.nicc_only() || t->params.*(r.member) == r.value[p]) continue;
    out << "note: dcqcn." << r.name << " = " << t->params.*(r.member)
        << " has no mlx5 cc_params file (a nicc model knob): the NIC keeps its own behaviour\n";
  }
  if (!missing.empty())
    out << "note: not on this NIC (no file, left alone): " << absl::StrJoin(missing, ", ") << "\n";
  out << differ << " of " << cur->size() << " fields differ\n";
  if (opt.action == "show") return kExitOk;
  if (opt.action == "diff") return differ == 0 ? kExitOk : kExitFailed;
  if (differ == 0) {
    out << "nothing to write\n";
    return kExitOk;
  }
  const CcWriteFn write = opt.write ? opt.write : CcWriteFn(WriteU64File);
  const CcApplyResult res = ApplyCcParams(dir, t->params, *cur, write);
  for (const std::string& w : res.written) out << "wrote " << w << "\n";
  if (res.failed_field.empty()) {
    out << "applied " << res.written.size() << " fields to " << dir << "\n";
    return kExitOk;
  }
  err << me << ": writing " << dir << "/" << res.failed_field
      << " failed: " << strerror(res.failed_errno)
      << (res.failed_errno == EACCES || res.failed_errno == EPERM
              ? absl::StrCat(" (", root_hint,
                             "; a kernel in lockdown mode refuses debugfs writes even to root)")
              : std::string())
      << "\n";
  if (!res.restored.empty())
    err << "  rolled back: " << absl::StrJoin(res.restored, ", ") << " (old values written back)\n";
  if (!res.not_restored.empty())
    err << "  COULD NOT roll back: " << absl::StrJoin(res.not_restored, ", ")
        << " (check them with nicc-verbs cc show)\n";
  if (res.restored.empty() && res.not_restored.empty()) err << "  nothing had been written\n";
  return kExitFailed;
}

}  // namespace verbs
}  // namespace nicc
