// The report of nicc-verbs run (run_report.h).
#include "nicc/verbs/run_report.h"

#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <ostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nicc {
namespace verbs {

RunReport::RunReport(uint32_t num_paths)
    : n_(num_paths),
      last_path_bytes_(num_paths, 0),
      last_rtt_sum_(num_paths, 0),
      last_rtt_samples_(num_paths, 0) {}

const ReportInterval& RunReport::Sample(uint64_t t_ns, const PathSet& ps, uint64_t cnps_total) {
  ReportInterval iv;
  iv.t_s = static_cast<double>(t_ns) / 1e9;
  iv.seconds = static_cast<double>(t_ns - last_t_ns_) / 1e9;
  uint64_t bytes = 0, msgs = 0;
  iv.path_bytes.resize(n_);
  iv.path_rtt_ns.resize(n_);
  for (uint32_t i = 0; i < n_ && i < ps.num_paths(); ++i) {
    const PathStats& s = ps.stats(i);
    bytes += s.bytes;
    msgs += s.completed;
    iv.path_bytes[i] = s.bytes - last_path_bytes_[i];
    const uint64_t ns = s.rtt_samples - last_rtt_samples_[i];
    iv.path_rtt_ns[i] = ns ? static_cast<uint32_t>((s.rtt_sum_ns - last_rtt_sum_[i]) / ns) : 0;
    last_path_bytes_[i] = s.bytes;
    last_rtt_sum_[i] = s.rtt_sum_ns;
    last_rtt_samples_[i] = s.rtt_samples;
  }
  iv.bytes = bytes - last_bytes_;
  iv.messages = msgs - last_msgs_;
  iv.cnps = cnps_total - last_cnps_;
  iv.rate_kbps = ps.rate_kbps();
  last_t_ns_ = t_ns;
  last_bytes_ = bytes;
  last_msgs_ = msgs;
  last_cnps_ = cnps_total;
  intervals_.push_back(std::move(iv));
  return intervals_.back();
}

void RunReport::Finish(uint64_t elapsed_ns, const PathSet& ps, uint64_t cnps_total,
                       const LatencyHistogram& lat) {
  // The tail since the last interval, if it is long enough to mean anything.
  if (elapsed_ns > last_t_ns_ + 1000000) Sample(elapsed_ns, ps, cnps_total);
  sum_ = ReportSummary{};
  sum_.seconds = static_cast<double>(elapsed_ns) / 1e9;
  for (uint32_t i = 0; i < ps.num_paths(); ++i) {
    const PathStats& s = ps.stats(i);
    sum_.paths.push_back(s);
    sum_.bytes += s.bytes;
    sum_.messages += s.completed;
    sum_.errors += s.errors;
  }
  sum_.cnps = cnps_total;
  sum_.avg_gbps = sum_.seconds > 0 ? static_cast<double>(sum_.bytes) * 8e-9 / sum_.seconds : 0;
  sum_.msg_rate = sum_.seconds > 0 ? static_cast<double>(sum_.messages) / sum_.seconds : 0;
  for (const ReportInterval& iv : intervals_) sum_.peak_gbps = std::max(sum_.peak_gbps, iv.gbps());
  if (intervals_.empty()) sum_.peak_gbps = sum_.avg_gbps;
  sum_.lat_samples = lat.count();
  sum_.lat_p50_ns = lat.Percentile(50);
  sum_.lat_p99_ns = lat.Percentile(99);
  sum_.lat_p999_ns = lat.Percentile(99.9);
  sum_.lat_max_ns = lat.max();
  sum_.final_rate_kbps = ps.rate_kbps();
}

void RunReport::PrintIntervalHeader(std::ostream& out) {
  out << "    t_s     Gb/s  msg/s       cc_Gb/s  CNPs  per path Gb/s (rtt us)\n";
}

void RunReport::PrintInterval(const ReportInterval& iv, std::ostream& out) {
  out << absl::StrFormat("%7.3f  %7.3f  %-10.0f  %7.3f  %-4u ", iv.t_s, iv.gbps(), iv.msg_rate(),
                         iv.rate_kbps / 1e6, iv.cnps);
  for (size_t i = 0; i < iv.path_bytes.size(); ++i)
    out << absl::StrFormat(
        " %.2f(%.1f)",
        iv.seconds > 0 ? static_cast<double>(iv.path_bytes[i]) * 8e-9 / iv.seconds : 0.0,
        iv.path_rtt_ns[i] / 1e3);
  out << "\n";
}

void RunReport::PrintSummary(const std::string& cc, const std::string& spray,
                             std::ostream& out) const {
  const ReportSummary& s = sum_;
  out << "path  qpn       sport  posted    completed  errors  bytes         rtt_min_us  rtt_avg_us "
         " qp_limit_Gb/s\n";
  for (size_t i = 0; i < s.paths.size(); ++i) {
    const PathStats& p = s.paths[i];
    out << absl::StrFormat(
        "%-5u %-9u %-6u %-9u %-10u %-7u %-13u %-11.2f %-11.2f %s\n", i, p.qpn, p.udp_sport,
        p.posted, p.completed, p.errors, p.bytes, p.min_rtt_ns / 1e3,
        p.rtt_samples ? static_cast<double>(p.rtt_sum_ns) / static_cast<double>(p.rtt_samples) / 1e3
                      : 0.0,
        p.applied_rate_kbps ? absl::StrFormat("%.3f", p.applied_rate_kbps / 1e6)
                            : std::string("none"));
  }
  out << absl::StrFormat(
      "total: %u messages, %u bytes in %.3f s = %.3f Gb/s average, %.3f Gb/s peak, %.0f msg/s; "
      "cc=%s spray=%s\n",
      s.messages, s.bytes, s.seconds, s.avg_gbps, s.peak_gbps, s.msg_rate, cc, spray);
  out << absl::StrFormat(
      "completion latency (us, %u samples): p50 %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n",
      s.lat_samples, static_cast<double>(s.lat_p50_ns) / 1e3,
      static_cast<double>(s.lat_p99_ns) / 1e3, static_cast<double>(s.lat_p999_ns) / 1e3,
      static_cast<double>(s.lat_max_ns) / 1e3);
  out << absl::StrFormat("CNPs seen: %u; CC rate at the end: %.3f Gb/s\n", s.cnps,
                         s.final_rate_kbps / 1e6);
}

std::string RunReport::Json(const std::string& context) const {
  const ReportSummary& s = sum_;
  std::string o = "{\n";
  if (!context.empty()) absl::StrAppend(&o, "  ", context, ",\n");
  absl::StrAppendFormat(&o,
                        "  \"seconds\": %.6f, \"bytes\": %u, \"messages\": %u, \"errors\": %u,\n"
                        "  \"avg_gbps\": %.6f, \"peak_gbps\": %.6f, \"msg_rate\": %.3f,\n"
                        "  \"latency_ns\": {\"samples\": %u, \"p50\": %u, \"p99\": %u, "
                        "\"p99_9\": %u, \"max\": %u},\n"
                        "  \"cnps\": %u, \"final_rate_kbps\": %u,\n  \"paths\": [",
                        s.seconds, s.bytes, s.messages, s.errors, s.avg_gbps, s.peak_gbps,
                        s.msg_rate, s.lat_samples, s.lat_p50_ns, s.lat_p99_ns, s.lat_p999_ns,
                        s.lat_max_ns, s.cnps, s.final_rate_kbps);
  for (size_t i = 0; i < s.paths.size(); ++i) {
    const PathStats& p = s.paths[i];
    absl::StrAppendFormat(
        &o,
        "%s\n    {\"path\": %u, \"qpn\": %u, \"udp_sport\": %u, \"posted\": %u, \"completed\": %u, "
        "\"errors\": %u, \"bytes\": %u, \"rtt_min_ns\": %u, \"rtt_avg_ns\": %u}",
        i ? "," : "", i, p.qpn, p.udp_sport, p.posted, p.completed, p.errors, p.bytes, p.min_rtt_ns,
        p.rtt_samples ? p.rtt_sum_ns / p.rtt_samples : 0);
  }
  o += "\n  ],\n  \"intervals\": [";
  for (size_t k = 0; k < intervals_.size(); ++k) {
    const ReportInterval& iv = intervals_[k];
    absl::StrAppendFormat(&o,
                          "%s\n    {\"t_s\": %.6f, \"gbps\": %.6f, \"msg_rate\": %.3f, "
                          "\"rate_kbps\": %u, \"cnps\": %u, \"path_bytes\": [",
                          k ? "," : "", iv.t_s, iv.gbps(), iv.msg_rate(), iv.rate_kbps, iv.cnps);
    for (size_t i = 0; i < iv.path_bytes.size(); ++i)
      absl::StrAppend(&o, i ? ", " : "", iv.path_bytes[i]);
    o += "], \"path_rtt_ns\": [";
    for (size_t i = 0; i < iv.path_rtt_ns.size(); ++i)
      absl::StrAppend(&o, i ? ", " : "", iv.path_rtt_ns[i]);
    o += "]}";
  }
  o += "\n  ]\n}\n";
  return o;
}

absl::Status RunReport::WriteJson(const std::string& path, const std::string& context) const {
  std::ofstream f(path);
  f << Json(context);
  f.close();
  if (!f) return absl::UnavailableError(absl::StrCat("--json: cannot write ", path));
  return absl::OkStatus();
}

std::string RunReport::Csv() const {
  std::string o = "t_s,gbps,msg_rate,rate_gbps,cnps";
  for (uint32_t i = 0; i < n_; ++i) absl::StrAppend(&o, ",path", i, "_gbps");
  for (uint32_t i = 0; i < n_; ++i) absl::StrAppend(&o, ",path", i, "_rtt_us");
  o += "\n";
  for (const ReportInterval& iv : intervals_) {
    absl::StrAppendFormat(&o, "%.6f,%.6f,%.3f,%.6f,%u", iv.t_s, iv.gbps(), iv.msg_rate(),
                          iv.rate_kbps / 1e6, iv.cnps);
    for (uint32_t i = 0; i < n_; ++i)
      absl::StrAppendFormat(
          &o, ",%.6f",
          iv.seconds > 0 ? static_cast<double>(iv.path_bytes[i]) * 8e-9 / iv.seconds : 0.0);
    for (uint32_t i = 0; i < n_; ++i) absl::StrAppendFormat(&o, ",%.3f", iv.path_rtt_ns[i] / 1e3);
    o += "\n";
  }
  return o;
}

absl::Status RunReport::Plot(const std::string& png, const std::string& script) const {
  const std::string csv = png + ".csv";
  {
    std::ofstream f(csv);
    f << Csv();
    if (!f) return absl::UnavailableError(absl::StrCat("--plot: cannot write ", csv));
  }
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const std::string cmd =
      absl::StrCat("/usr/bin/python3 ", quote(script), " ", quote(csv), " ", quote(png));
  const int rc = system(cmd.c_str());
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0)
    return absl::UnavailableError(
        absl::StrCat("--plot: '", cmd, "' failed (data kept in ", csv, ")"));
  return absl::OkStatus();
}

}  // namespace verbs
}  // namespace nicc
