// vector_file.cc — parser of the conformance vector format (docs/vectors.md).
#include "vector_file.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace nicc_vectors {

const std::map<std::string, std::set<std::string>>& KindsByAlgo() {
  static const std::map<std::string, std::set<std::string>> kinds = {
      {"dcqcn", {"cnp", "timer", "tx", "rx"}},
      {"hpcc", {"ack"}},
      {"hpcc-pint", {"ack"}},
      {"hpcc-spray", {"ack"}},
      {"spray", {"select", "feedback"}},
      {"ecn_path", {"send", "ack", "mark"}},
      {"nscc", {"ack", "nack"}},
      {"rccc", {"rx", "close", "open", "ack", "nack"}},
  };
  return kinds;
}

namespace {

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string tok;
  while (in >> tok) out.push_back(tok);
  return out;
}

bool ParseDouble(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || end != s.c_str() + s.size() || !(v >= 0.0) || v > 1e9) return false;
  *out = v;
  return true;
}

class Parser {
 public:
  Parser(const std::string& path, VectorFile* out, ParseError* err) : path_(path), out_(out), err_(err) {}

  bool Fail(int line, const std::string& msg) {
    err_->path = path_;
    err_->line = line;
    err_->message = msg;
    return false;
  }

  bool Run(const std::string& text) {
    out_->path = path_;
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    bool header = false, ended = false;
    while (std::getline(in, raw)) {
      ++line;
      const size_t hash = raw.find('#');
      if (hash != std::string::npos) raw.resize(hash);
      const std::vector<std::string> t = Split(raw);
      if (t.empty()) continue;
      if (ended) return Fail(line, "text after 'end'");
      if (!header) {
        if (t.size() != 2 || t[0] != "nicc-vector") return Fail(line, "expected header 'nicc-vector 1'");
        if (t[1] != "1") return Fail(line, "unsupported format version '" + t[1] + "' (this runner reads 1)");
        header = true;
        continue;
      }
      if (!Line(t, line)) return false;
      if (t[0] == "end") ended = true;
    }
    if (!header) return Fail(line, "empty file: no 'nicc-vector 1' header");
    if (!ended) return Fail(line, "truncated: no 'end' line");
    if (out_->algo.empty()) return Fail(line, "missing field 'algo'");
    if (out_->name.empty()) return Fail(line, "missing field 'name'");
    if (out_->profile.empty()) return Fail(line, "missing field 'profile'");
    return true;
  }

 private:
  bool NeedArgs(const std::vector<std::string>& t, size_t n, int line) {
    if (t.size() != n) {
      return Fail(line, "'" + t[0] + "' takes " + std::to_string(n - 1) + " argument(s), got " +
                            std::to_string(t.size() - 1));
    }
    return true;
  }

  bool Line(const std::vector<std::string>& t, int line) {
    const std::string& k = t[0];
    if (k == "algo") {
      if (!NeedArgs(t, 2, line)) return false;
      if (!KindsByAlgo().count(t[1])) return Fail(line, "unknown algo '" + t[1] + "'");
      // The events read so far were checked against the algo they followed.
      if (!out_->events.empty()) return Fail(line, "'algo' after the first event");
      out_->algo = t[1];
    } else if (k == "name") {
      if (!NeedArgs(t, 2, line)) return false;
      out_->name = t[1];
    } else if (k == "profile") {
      if (!NeedArgs(t, 2, line)) return false;
      out_->profile = t[1];
    } else if (k == "seed") {
      uint64_t v;
      if (!NeedArgs(t, 2, line)) return false;
      if (!ParseUint(t[1], 0xFFFFFFFFu, &v)) return Fail(line, "bad number '" + t[1] + "' for seed");
      out_->seed = static_cast<uint32_t>(v);
    } else if (k == "param") {
      int64_t v;
      if (!NeedArgs(t, 3, line)) return false;
      if (!ParseInt(t[2], &v)) return Fail(line, "bad number '" + t[2] + "' for param " + t[1]);
      if (!out_->events.empty()) return Fail(line, "'param' after the first event");
      out_->params.emplace_back(t[1], v);
    } else if (k == "bound") {
      uint64_t v;
      if (!NeedArgs(t, 3, line)) return false;
      if (!ParseUint(t[2], 1000000, &v)) return Fail(line, "bad number '" + t[2] + "' for bound " + t[1]);
      out_->bounds[t[1]] = v;
    } else if (k == "tolerance") {
      Tolerance tol;
      if (!NeedArgs(t, 6, line)) return false;
      if (t[2] != "rel" || t[4] != "abs") return Fail(line, "expected 'tolerance FIELD rel R abs A'");
      if (!ParseDouble(t[3], &tol.rel)) return Fail(line, "bad number '" + t[3] + "' for rel");
      if (!ParseInt(t[5], &tol.abs) || tol.abs < 0) return Fail(line, "bad number '" + t[5] + "' for abs");
      out_->tolerances[t[1]] = tol;
    } else if (k == "expect-status") {
      if (!NeedArgs(t, 3, line)) return false;
      out_->expect_status_field = t[1];
      out_->expect_status_code = t[2];
    } else if (k == "at") {
      return At(t, line);
    } else if (k == "hop") {
      return HopLine(t, line);
    } else if (k == "expect") {
      return Expect(t, line);
    } else if (k == "end") {
      return NeedArgs(t, 1, line);
    } else {
      return Fail(line, "unknown line '" + k + "'");
    }
    return true;
  }

  bool At(const std::vector<std::string>& t, int line) {
    if (out_->algo.empty()) return Fail(line, "event before 'algo'");
    if (t.size() < 3) return Fail(line, "expected 'at TIME KIND [key=value ...]'");
    Event e;
    e.line = line;
    if (!ParseUint(t[1], UINT64_MAX, &e.t_ns)) return Fail(line, "bad number '" + t[1] + "' for time");
    if (!out_->events.empty() && e.t_ns < out_->events.back().t_ns)
      return Fail(line, "time goes backwards (" + t[1] + " < " + std::to_string(out_->events.back().t_ns) + ")");
    e.kind = t[2];
    if (!KindsByAlgo().at(out_->algo).count(e.kind))
      return Fail(line, "unknown event '" + e.kind + "' for algo " + out_->algo);
    for (size_t i = 3; i < t.size(); ++i) {
      const size_t eq = t[i].find('=');
      if (eq == std::string::npos || eq == 0) return Fail(line, "expected key=value, got '" + t[i] + "'");
      e.args[t[i].substr(0, eq)] = t[i].substr(eq + 1);
    }
    out_->events.push_back(std::move(e));
    return true;
  }

  bool HopLine(const std::vector<std::string>& t, int line) {
    if (out_->events.empty() || out_->events.back().kind != "ack")
      return Fail(line, "'hop' must follow an 'ack' event");
    Hop h;
    std::set<std::string> seen;
    for (size_t i = 1; i < t.size(); ++i) {
      const size_t eq = t[i].find('=');
      if (eq == std::string::npos) return Fail(line, "expected key=value, got '" + t[i] + "'");
      const std::string key = t[i].substr(0, eq), val = t[i].substr(eq + 1);
      uint64_t v;
      if (!ParseUint(val, 0xFFFFFFFFu, &v)) return Fail(line, "bad number '" + val + "' for " + key);
      if (key == "rate") h.rate_code = static_cast<uint32_t>(v);
      else if (key == "ts") h.ts_ns = static_cast<uint32_t>(v);
      else if (key == "tx") h.tx_bytes = static_cast<uint32_t>(v);
      else if (key == "qlen") h.qlen_bytes = static_cast<uint32_t>(v);
      else return Fail(line, "unknown hop field '" + key + "'");
      seen.insert(key);
    }
    for (const char* need : {"rate", "ts", "tx", "qlen"})
      if (!seen.count(need)) return Fail(line, std::string("missing field '") + need + "' in hop");
    out_->events.back().hops.push_back(h);
    return true;
  }

  bool Expect(const std::vector<std::string>& t, int line) {
    if (out_->events.empty()) return Fail(line, "'expect' before the first event");
    if (t.size() < 3) return Fail(line, "expected 'expect FIELD VALUE [exact|rel R|abs A]'");
    Expectation x;
    x.line = line;
    x.field = t[1];
    x.text = t[2];
    x.numeric = ParseInt(t[2], &x.value);
    const bool symbolic = x.field == "flags" || x.field == "status";
    if (!symbolic && !x.numeric) return Fail(line, "bad number '" + t[2] + "' for " + x.field);
    size_t i = 3;
    bool qualified = false;
    while (i < t.size()) {
      if (t[i] == "exact") {
        x.compare = Compare::kExact;
        qualified = true;
        ++i;
      } else if ((t[i] == "rel" || t[i] == "abs") && i + 1 < t.size()) {
        x.compare = Compare::kTolerance;
        qualified = true;
        if (t[i] == "rel") {
          if (!ParseDouble(t[i + 1], &x.rel)) return Fail(line, "bad number '" + t[i + 1] + "' for rel");
        } else if (!ParseInt(t[i + 1], &x.abs) || x.abs < 0) {
          return Fail(line, "bad number '" + t[i + 1] + "' for abs");
        }
        i += 2;
      } else {
        return Fail(line, "unexpected '" + t[i] + "' in expect");
      }
    }
    if (!qualified) {
      auto it = out_->tolerances.find(x.field);
      if (it != out_->tolerances.end()) {
        x.compare = Compare::kTolerance;
        x.rel = it->second.rel;
        x.abs = it->second.abs;
      }
    }
    out_->events.back().expects.push_back(x);
    return true;
  }

  std::string path_;
  VectorFile* out_;
  ParseError* err_;
};

}  // namespace

std::string ParseError::ToString() const {
  return path + ":" + std::to_string(line) + ": " + message;
}

bool ParseInt(const std::string& s, int64_t* out) {
  if (s.empty()) return false;
  const bool neg = s[0] == '-';
  uint64_t mag;
  if (!ParseUint(neg ? s.substr(1) : s, neg ? 0x8000000000000000ull : 0x7FFFFFFFFFFFFFFFull, &mag)) return false;
  *out = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
  return true;
}

bool ParseUint(const std::string& s, uint64_t max, uint64_t* out) {
  if (s.empty()) return false;
  int base = 10;
  size_t i = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    i = 2;
  }
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    uint64_t d;
    if (c >= '0' && c <= '9') d = static_cast<uint64_t>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<uint64_t>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<uint64_t>(c - 'A' + 10);
    else return false;
    if (d > max || v > (max - d) / static_cast<uint64_t>(base)) return false;
    v = v * static_cast<uint64_t>(base) + d;
  }
  *out = v;
  return true;
}

bool ParseVector(const std::string& path, const std::string& text, VectorFile* out, ParseError* err) {
  *out = VectorFile{};
  return Parser(path, out, err).Run(text);
}

bool LoadVector(const std::string& path, VectorFile* out, ParseError* err) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    err->path = path;
    err->line = 0;
    err->message = "cannot open file";
    return false;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  return ParseVector(path, ss.str(), out, err);
}

}  // namespace nicc_vectors
