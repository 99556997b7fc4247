// vector_printer.cc — vector-file text from a parsed vector, and equality.
#include "vector_printer.h"

#include <cstdio>

namespace nicc_fuzz {

namespace {

using nicc_vectors::Compare;
using nicc_vectors::Event;
using nicc_vectors::Expectation;
using nicc_vectors::Hop;
using nicc_vectors::VectorFile;

// Shortest text strtod reads back to the same double.
std::string Real(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

bool SameExpect(const Expectation& a, const Expectation& b) {
  if (a.field != b.field || a.text != b.text || a.numeric != b.numeric || a.compare != b.compare)
    return false;
  if (a.numeric && a.value != b.value) return false;
  return a.compare == Compare::kExact || (a.rel == b.rel && a.abs == b.abs);
}

bool SameHop(const Hop& a, const Hop& b) {
  return a.rate_code == b.rate_code && a.ts_ns == b.ts_ns && a.tx_bytes == b.tx_bytes &&
         a.qlen_bytes == b.qlen_bytes;
}

bool SameEvent(const Event& a, const Event& b) {
  if (a.t_ns != b.t_ns || a.kind != b.kind || a.args != b.args) return false;
  if (a.hops.size() != b.hops.size() || a.expects.size() != b.expects.size()) return false;
  for (size_t i = 0; i < a.hops.size(); ++i)
    if (!SameHop(a.hops[i], b.hops[i])) return false;
  for (size_t i = 0; i < a.expects.size(); ++i)
    if (!SameExpect(a.expects[i], b.expects[i])) return false;
  return true;
}

bool Differ(std::string* what, const std::string& field) {
  *what = field;
  return false;
}

}  // namespace

std::string PrintVector(const VectorFile& v) {
  std::string o = "nicc-vector 1\n";
  o += "algo " + v.algo + "\nname " + v.name + "\nprofile " + v.profile + "\n";
  o += "seed " + std::to_string(v.seed) + "\n";
  for (const auto& kv : v.params) o += "param " + kv.first + " " + std::to_string(kv.second) + "\n";
  for (const auto& kv : v.bounds) o += "bound " + kv.first + " " + std::to_string(kv.second) + "\n";
  for (const auto& kv : v.tolerances)
    o += "tolerance " + kv.first + " rel " + Real(kv.second.rel) + " abs " +
         std::to_string(kv.second.abs) + "\n";
  if (!v.expect_status_field.empty() || !v.expect_status_code.empty())
    o += "expect-status " + v.expect_status_field + " " + v.expect_status_code + "\n";
  for (const Event& e : v.events) {
    o += "at " + std::to_string(e.t_ns) + " " + e.kind;
    for (const auto& kv : e.args) o += " " + kv.first + "=" + kv.second;
    o += "\n";
    for (const Hop& h : e.hops)
      o += "hop rate=" + std::to_string(h.rate_code) + " ts=" + std::to_string(h.ts_ns) +
           " tx=" + std::to_string(h.tx_bytes) + " qlen=" + std::to_string(h.qlen_bytes) + "\n";
    for (const Expectation& x : e.expects) {
      o += "expect " + x.field + " " + x.text;
      o += x.compare == Compare::kExact ? " exact"
                                        : " rel " + Real(x.rel) + " abs " + std::to_string(x.abs);
      o += "\n";
    }
  }
  return o + "end\n";
}

bool SameVector(const VectorFile& a, const VectorFile& b, std::string* what) {
  if (a.algo != b.algo) return Differ(what, "algo");
  if (a.name != b.name) return Differ(what, "name");
  if (a.profile != b.profile) return Differ(what, "profile");
  if (a.seed != b.seed) return Differ(what, "seed");
  if (a.params != b.params) return Differ(what, "params");
  if (a.bounds != b.bounds) return Differ(what, "bounds");
  if (a.tolerances.size() != b.tolerances.size()) return Differ(what, "tolerances");
  for (auto i = a.tolerances.begin(), j = b.tolerances.begin(); i != a.tolerances.end(); ++i, ++j)
    if (i->first != j->first || i->second.rel != j->second.rel || i->second.abs != j->second.abs)
      return Differ(what, "tolerance " + i->first);
  if (a.expect_status_field != b.expect_status_field ||
      a.expect_status_code != b.expect_status_code)
    return Differ(what, "expect-status");
  if (a.events.size() != b.events.size()) return Differ(what, "event count");
  for (size_t i = 0; i < a.events.size(); ++i)
    if (!SameEvent(a.events[i], b.events[i])) return Differ(what, "event " + std::to_string(i + 1));
  return true;
}

}  // namespace nicc_fuzz
