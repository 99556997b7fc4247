// nicc/verbs/run_report.h — what `nicc-verbs run` reports, per interval
// (--report_ms) and at the end: bandwidth (average and peak Gb/s), message
// rate, completion latency percentiles (LatencyHistogram), per-path bytes
// and RTT, CNPs seen and the rate the host CC set over time; as text, as
// JSON (--json) and as a CSV plotted by tools/plot_run.py (--plot).
//
//   RunReport rep(num_paths);
//   rep.Sample(now_ns - start_ns, path_set, cnps_so_far);   // every --report_ms
//   rep.PrintInterval(out);
//   ... rep.Finish(elapsed_ns, path_set, cnps, latency); rep.PrintSummary(out);
#ifndef NICC_VERBS_RUN_REPORT_H_
#define NICC_VERBS_RUN_REPORT_H_

#include <stdint.h>

#include <iosfwd>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nicc/verbs/latency_histogram.h"
#include "nicc/verbs/path_set.h"

namespace nicc {
namespace verbs {

struct ReportInterval {
  double t_s = 0;      // end of the interval, since the start
  double seconds = 0;  // its length
  uint64_t bytes = 0;  // completed in it
  uint64_t messages = 0;
  uint64_t cnps = 0;       // rp_cnp_handled delta
  uint32_t rate_kbps = 0;  // the CC's rate at its end
  std::vector<uint64_t> path_bytes;
  std::vector<uint32_t> path_rtt_ns;  // average over the interval (0 = no sample)
  double gbps() const { return seconds > 0 ? static_cast<double>(bytes) * 8e-9 / seconds : 0; }
  double msg_rate() const { return seconds > 0 ? static_cast<double>(messages) / seconds : 0; }
};

struct ReportSummary {
  double seconds = 0;
  uint64_t bytes = 0, messages = 0, errors = 0, cnps = 0;
  double avg_gbps = 0, peak_gbps = 0, msg_rate = 0;
  uint64_t lat_p50_ns = 0, lat_p99_ns = 0, lat_p999_ns = 0, lat_max_ns = 0, lat_samples = 0;
  uint32_t final_rate_kbps = 0;
  std::vector<PathStats> paths;
};

class RunReport {
 public:
  explicit RunReport(uint32_t num_paths);
  // Closes the interval ending at t_ns (since the start) from the running totals.
  const ReportInterval& Sample(uint64_t t_ns, const PathSet& ps, uint64_t cnps_total);
  void Finish(uint64_t elapsed_ns, const PathSet& ps, uint64_t cnps_total,
              const LatencyHistogram& lat);

  const std::vector<ReportInterval>& intervals() const { return intervals_; }
  const ReportSummary& summary() const { return sum_; }

  static void PrintIntervalHeader(std::ostream& out);
  static void PrintInterval(const ReportInterval& iv, std::ostream& out);
  void PrintSummary(const std::string& cc, const std::string& spray, std::ostream& out) const;

  // `context` is a JSON object body ("\"cc\": \"dcqcn\", ...") put first.
  std::string Json(const std::string& context) const;
  absl::Status WriteJson(const std::string& path, const std::string& context) const;
  // t_s, gbps, msg_rate, rate_gbps, cnps, path<i>_gbps, path<i>_rtt_us.
  std::string Csv() const;
  // Writes `png`.csv and runs `python3 <script> <csv> <png>`.
  absl::Status Plot(const std::string& png, const std::string& script) const;

 private:
  uint32_t n_;
  uint64_t last_t_ns_ = 0, last_bytes_ = 0, last_msgs_ = 0, last_cnps_ = 0;
  std::vector<uint64_t> last_path_bytes_, last_rtt_sum_, last_rtt_samples_;
  std::vector<ReportInterval> intervals_;
  ReportSummary sum_;
};

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_RUN_REPORT_H_
