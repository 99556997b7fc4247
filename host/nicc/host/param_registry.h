// nicc/host/param_registry.h — host-side view of every parameter table:
// iterate them all, derive the names each consumer uses, set a field by
// name, and print the reference table of docs/params.md.
//
// Host only (C++17 standard library; not part of the freestanding engine).
// Consumers: the vector runner and C emitter, the verbs cc_params mapping,
// the ns-3 NIC's Attributes, nicc-sim's scenario keys and --help, and
// nicc-params (docs). A field added to param_tables.h reaches all of them.
//
//   nicc::host::ForEachTable([](const auto& t) {
//     for (uint32_t i = 0; i < t.count; ++i)
//       std::cout << nicc::host::ScenarioKey(t, t.rows[i]) << "\n";  // "dcqcn.rp_gd"
//   });
//
// Name rules (one derivation, applied everywhere):
//   table / C ABI / vector file   row name            rp_time_reset
//   scenario key (--set, TOML)    <algo>.<row name>   dcqcn.rp_time_reset
//   ns-3 Attribute                CamelCase of <algo>_<row name>
//                                                     DcqcnRpTimeReset
#ifndef NICC_HOST_PARAM_REGISTRY_H_
#define NICC_HOST_PARAM_REGISTRY_H_

#include <cstdint>
#include <sstream>
#include <string>

#include "nicc/dcqcn.h"
#include "nicc/ecn_path.h"
#include "nicc/hal/driver.h"
#include "nicc/hpcc.h"
#include "nicc/nscc.h"
#include "nicc/params.h"
#include "nicc/rccc.h"
#include "nicc/spray.h"

namespace nicc {
namespace host {

// Calls f(table) for every table, in documentation order: the driver
// (line rate), DCQCN, HPCC, NSCC, RCCC, spray (common, then one group per policy), the
// ECN path rule.
template <class F>
void ForEachTable(F&& f) {
  f(hal::kDriverParamTable);
  f(dcqcn::kParamTable);
  f(hpcc::kParamTable);
  f(nscc::kParamTable);
  f(rccc::kParamTable);
  for (const auto& g : spray::kGroupTables) f(g);
  f(ecn_path::kParamTable);
}

// "rp_time_reset" -> "RpTimeReset"; "ecn_rule" -> "EcnRule".
inline std::string CamelCase(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char c : snake) {
    if (c == '_' || c == '-' || c == '.') {
      up = true;
      continue;
    }
    out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    up = false;
  }
  return out;
}

template <class P>
std::string AttributeName(const ParamTable<P>& t, const ParamDesc<P>& row) {
  return CamelCase(std::string(t.algo) + "_" + row.name);
}

template <class P>
std::string ScenarioKey(const ParamTable<P>& t, const ParamDesc<P>& row) {
  return std::string(t.algo) + "." + row.name;
}

// "300 us", "0..2147483 us".
template <class P>
std::string RangeText(const ParamDesc<P>& row) {
  std::ostringstream o;
  o << row.min << ".." << row.max << " " << UnitSymbol(row.unit);
  return o.str();
}

// "0 = mlx5, 1 = sigcomm15" for a field whose unit is a choice code; "" otherwise.
template <class P>
std::string ChoiceCodes(const ParamDesc<P>& row) {
  const ChoiceSpan c = UnitChoices(row.unit);
  std::string out;
  for (uint32_t i = 0; i < c.count; ++i)
    out += (i ? ", " : "") + std::to_string(c.list[i].code) + " = " + c.list[i].name;
  return out;
}

// The second scenario key of a selector row (its unit a choice code):
// `<algo>_<row>` ("dcqcn_variant"), beside `<algo>.<row>`; "" for other rows.
template <class P>
std::string SelectorKey(const ParamTable<P>& t, const ParamDesc<P>& row) {
  return UnitChoices(row.unit).list != nullptr ? std::string(t.algo) + "_" + row.name : std::string();
}

// One line of help: "rp_time_reset [us, 1..2147483]: rate-increase timer period".
template <class P>
std::string HelpText(const ParamTable<P>& t, const ParamDesc<P>& row) {
  std::ostringstream o;
  o << row.doc;
  if (UnitChoices(row.unit).list != nullptr) o << " (" << ChoiceCodes(row) << ")";
  o << " [" << UnitSymbol(row.unit) << ", " << row.min << ".." << row.max;
  for (uint32_t i = 0; i < t.profile_count; ++i)
    o << (i == 0 ? "; " : ", ") << t.profiles[i].name << " " << row.value[i];
  o << "]";
  return o.str();
}

// Sets field `name` of *p to `value` after checking the field's own range.
// Returns false with a message naming the field when the name is unknown or
// the value out of range (cross-field rules are Validate()'s).
template <class P>
bool SetByName(const ParamTable<P>& t, const std::string& name, uint64_t value, P* p,
               std::string* error) {
  const int32_t i = FindParam(t, name.c_str());
  if (i < 0) {
    if (error) *error = "unknown " + std::string(t.algo) + " parameter '" + name + "'";
    return false;
  }
  const ParamDesc<P>& row = t.rows[i];
  if (value < row.min || value > row.max) {
    if (error) {
      std::ostringstream o;
      o << t.algo << "." << row.name << " = " << value << " is out of range " << RangeText(row);
      *error = o.str();
    }
    return false;
  }
  (*p).*(row.member) = static_cast<uint32_t>(value);
  return true;
}

// Comma list of a table's profile names: "mlx5, dcqcn-paper".
template <class P>
std::string ProfileList(const ParamTable<P>& t) {
  std::string out;
  for (uint32_t i = 0; i < t.profile_count; ++i) out += (i ? ", " : "") + std::string(t.profiles[i].name);
  return out;
}

// Index of `name` in a list of choices (spray policies, CC kinds), or -1.
inline int32_t FindChoice(const ChoiceDesc* list, uint32_t n, const std::string& name) {
  for (uint32_t i = 0; i < n; ++i)
    if (name == list[i].name) return static_cast<int32_t>(i);
  return -1;
}

// The names of a list of choices: "ecmp, ops, bitmap, ...".
inline std::string ChoiceList(const ChoiceDesc* list, uint32_t n, const char* sep = ", ") {
  std::string out;
  for (uint32_t i = 0; i < n; ++i) out += (i ? sep : "") + std::string(list[i].name);
  return out;
}

// The Markdown reference of every table (docs/params.md is this text; a
// test fails when the checked-in file is stale).
inline std::string ParamsMarkdown() {
  std::ostringstream o;
  o << "# Parameters\n\n"
       "Generated from `engine/nicc/param_tables.h` by `nicc-params --markdown`; do not edit.\n"
       "Each row is one field: its name in the engine, the C ABI (`nicc/fw.h`) and vector\n"
       "files (`param NAME VALUE`), its scenario key for `nicc-sim --set` and TOML files,\n"
       "and the ns-3 Attribute of `ns3::NiccNic`. Fields marked *backend* are supplied by\n"
       "the backend from what it is attached to (port speed, flow label) and have no key or\n"
       "Attribute of their own. Ranges are each field's own; `Validate()` adds the rules\n"
       "between fields (docs of each algorithm).\n";
  std::string last_algo;
  ForEachTable([&](const auto& t) {
    if (last_algo != t.algo) {
      last_algo = t.algo;
      o << "\n## " << t.algo << "\n\nProfiles: ";
      for (uint32_t i = 0; i < t.profile_count; ++i)
        o << (i ? "; " : "") << "`" << t.profiles[i].name << "` (" << t.profiles[i].doc << ")";
      o << ".\n";
    }
    if (t.group[0] != '\0') o << "\n### " << t.algo << " / " << t.group << "\n";
    o << "\n| name | unit | min | max |";
    for (uint32_t i = 0; i < t.profile_count; ++i) o << " " << t.profiles[i].name << " |";
    o << " scenario key | ns-3 Attribute | meaning |\n|---|---|---|---|";
    for (uint32_t i = 0; i < t.profile_count; ++i) o << "---|";
    o << "---|---|---|\n";
    for (uint32_t r = 0; r < t.count; ++r) {
      const auto& row = t.rows[r];
      o << "| `" << row.name << "` | " << UnitSymbol(row.unit) << " | " << row.min << " | " << row.max
        << " |";
      for (uint32_t i = 0; i < t.profile_count; ++i) o << " " << row.value[i] << " |";
      if (row.backend())
        o << " *backend* | *backend* |";
      else
        o << " `" << ScenarioKey(t, row) << "` | `" << AttributeName(t, row) << "` |";
      o << " " << row.doc << " |\n";
    }
  });
  o << "\n## Choices\n\n| selector | value | code | meaning |\n|---|---|---|---|\n";
  for (const auto& c : hal::kCcKinds) o << "| driver cc | `" << c.name << "` | " << c.code << " | " << c.doc << " |\n";
  for (const auto& c : spray::kPolicies)
    o << "| spray policy | `" << c.name << "` | " << c.code << " | " << c.doc << " |\n";
  for (const auto& c : kDcqcnVariants)
    o << "| dcqcn variant (`dcqcn.variant`, `dcqcn_variant`) | `" << c.name << "` | " << c.code << " | " << c.doc
      << " |\n";
  o << "\n## Status codes\n\n| name | code | meaning |\n|---|---|---|\n";
  for (const auto& c : kStatusCodes) o << "| `" << c.name << "` | " << c.code << " | " << c.doc << " |\n";
  return o.str();
}

}  // namespace host
}  // namespace nicc

#endif  // NICC_HOST_PARAM_REGISTRY_H_
