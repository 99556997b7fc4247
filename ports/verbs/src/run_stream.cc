// nicc-verbs run, once connected (run_session.h): the target's serving, the
// paced and sprayed RDMA WRITE stream, and its report.
#include <string.h>
#include <time.h>

#include <algorithm>
#include <istream>
#include <ostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nicc/verbs/sysfs.h"
#include "run_session.h"

namespace nicc {
namespace verbs {
namespace {

void SleepNs(uint64_t ns) {
  timespec ts;
  ts.tv_sec = static_cast<time_t>(ns / 1000000000ull);
  ts.tv_nsec = static_cast<long>(ns % 1000000000ull);
  nanosleep(&ts, nullptr);
}

// The port's rp_cnp_handled during the stream: read every --cnp_poll_us,
// its growth fed to DCQCN.
struct CnpCounter {
  std::string path;
  bool readable = false;  // the first read worked; else no CNPs are fed
  uint64_t last = 0;      // the value at the last read
  uint64_t total = 0;     // CNPs since the start
  uint64_t next_ns = 0;   // when to read it next
};

// Reads the counter's start value; says so when DCQCN has to run without it.
CnpCounter OpenCnpCounter(RunSession& s) {
  CnpCounter c;
  c.path = absl::StrCat(PortDir(s.roots, s.devname, s.port), "/hw_counters/rp_cnp_handled");
  absl::StatusOr<uint64_t> cnp0 = ReadU64(c.path);
  c.readable = cnp0.ok();
  c.last = cnp0.ok() ? *cnp0 : 0;
  if (s.cc == CcMode::kDcqcn && !cnp0.ok())
    s.out << "degraded: " << cnp0.status().message()
          << ": DCQCN on the host sees no CNPs (its rate stays at line rate)\n";
  return c;
}

// Feeds the CNPs since the last read to the paths' CC, when a read is due.
void PollCnps(RunSession& s, uint64_t now, CnpCounter& c) {
  if (!c.readable || now < c.next_ns) return;
  absl::StatusOr<uint64_t> v = ReadU64(c.path);
  if (v.ok() && *v >= c.last) {
    s.set().DeliverCnps(static_cast<uint32_t>(std::min<uint64_t>(*v - c.last, 1u << 20)));
    c.total += *v - c.last;
    c.last = *v;
  }
  c.next_ns = now + s.opt.cnp_poll_us * 1000ull;
}

// Polls until nothing is in flight, for up to 2 s.
void DrainWrites(RunSession& s) {
  PathSet& set = s.set();
  const uint64_t drain_end = s.api->HostNowNs() + 2000000000ull;
  for (;;) {
    uint32_t outstanding = 0;
    for (uint32_t i = 0; i < set.num_paths(); ++i) outstanding += set.stats(i).outstanding;
    if (outstanding == 0 || s.api->HostNowNs() >= drain_end) break;
    set.Poll(64);
  }
}

// Tells the server we are done and waits for its "bye" (TCP), or
// disconnects (rdma_cm).
void SayDone(RunSession& s, const ReportSummary& sum) {
  if (s.ch) {
    absl::Status st = s.ch->Send(absl::StrFormat("done messages=%u bytes=%u seconds=%.6f\n",
                                                 sum.messages, sum.bytes, sum.seconds));
    absl::StatusOr<std::string> bye =
        st.ok() ? s.ch->Expect("bye", s.opt.timeout_s) : absl::StatusOr<std::string>(st);
    if (!bye.ok())
      s.out << "note: the server did not confirm the end: " << bye.status().message() << "\n";
  } else if (s.r.cm) {
    (void)s.r.cm->Finish(s.opt.timeout_s);
  }
}

// Writes --json and --plot, as asked; false if either failed.
bool WriteRunFiles(RunSession& s, const RunReport& report) {
  const RunOptions& opt = s.opt;
  bool ok = true;
  const std::string context = absl::StrFormat(
      "\"tool\": \"nicc-verbs run\", \"cc\": \"%s\", \"spray\": \"%s\", \"paths\": %u, "
      "\"msg_size\": %u, \"line_rate_mbps\": %u",
      opt.cc, opt.spray, s.set().num_paths(), opt.msg_size, s.line_mbps);
  if (!opt.json_path.empty()) {
    absl::Status st = report.WriteJson(opt.json_path, context);
    if (!st.ok()) {
      s.err << "nicc-verbs run: " << st.message() << "\n";
      ok = false;
    } else {
      s.out << "wrote " << opt.json_path << "\n";
    }
  }
  if (!opt.plot_path.empty()) {
    s.out.flush();  // before the plot script writes to the same stdout
    absl::Status st = report.Plot(opt.plot_path, opt.plot_script);
    if (!st.ok()) {
      s.err << "nicc-verbs run: " << st.message() << "\n";
      ok = false;
    }
  }
  return ok;
}

}  // namespace

int ServeForDuration(RunSession& s) {
  s.out << "target ready; serving for " << s.opt.duration_s << " s\n";
  s.out.flush();
  const uint64_t end = s.api->HostNowNs() + s.duration_ns();
  while (s.api->HostNowNs() < end) SleepNs(1000000);
  return kExitOk;
}

int ServeClient(RunSession& s) {
  const RunOptions& opt = s.opt;
  // The client may write once we are in RTR: say so, then wait for its end.
  const double wait_s = opt.timeout_s + 2.0 + 1e-9 * static_cast<double>(s.duration_ns());
  absl::Status st;
  std::string done;
  if (opt.rdma_cm) {
    absl::StatusOr<Hello> h = s.r.cm->Establish(s.mine, opt.timeout_s);
    st = h.ok() ? s.r.cm->Finish(wait_s) : h.status();
  } else {
    st = s.ch->Send("ready\n");
    s.out << "server: ready; the client writes into " << s.buf_len << " bytes\n";
    s.out.flush();
    absl::StatusOr<std::string> d =
        st.ok() ? s.ch->Expect("done", wait_s) : absl::StatusOr<std::string>(st);
    if (d.ok()) {
      done = *d;
      st = s.ch->Send("bye\n");
    } else {
      st = d.status();
    }
  }
  if (!st.ok()) {
    s.err << "nicc-verbs run --server: " << st.message() << "\n";
    return ExitFor(st);
  }
  s.out << "server: the client finished"
        << (done.size() > 5 ? ": " + done.substr(5) : std::string()) << "\n";
  return kExitOk;
}

int WaitForStart(RunSession& s) {
  if (s.mode == RunMode::kClient && !s.opt.rdma_cm) {
    absl::StatusOr<std::string> ready = s.ch->Expect("ready", s.opt.timeout_s);
    if (!ready.ok()) {
      s.err << "nicc-verbs run: from the server " << s.opt.host << ": " << ready.status().message()
            << "\n";
      return ExitFor(ready.status());
    }
  }
  if (s.mode == RunMode::kManual && s.opt.wait) {
    s.out << "press Enter to start sending (once the target has connected)\n";
    s.out.flush();
    std::string line;
    std::getline(s.in, line);
  }
  return kExitOk;
}

bool StreamWrites(RunSession& s, RunReport& report) {
  const RunOptions& opt = s.opt;
  PathSet& set = s.set();
  CnpCounter cnp = OpenCnpCounter(s);
  LatencyHistogram lat;
  set.set_latency_histogram(&lat);
  WriteRequest w{reinterpret_cast<uintptr_t>(s.r.buf), s.r.mr->lkey, opt.msg_size, s.raddr, s.rkey};
  const uint64_t report_ns = std::max<uint64_t>(opt.report_ms, 1) * 1000000ull;
  const uint64_t start = s.api->HostNowNs();
  const uint64_t end = start + s.duration_ns();
  cnp.next_ns = start;
  uint64_t next_report = start + report_ns;
  uint64_t posted = 0, offset = 0;
  bool failed = false;
  RunReport::PrintIntervalHeader(s.out);
  for (;;) {
    const uint64_t now = s.api->HostNowNs();
    if (now >= end || (opt.messages != 0 && posted >= opt.messages)) break;
    w.remote_addr = s.raddr + offset;
    const PostOutcome o = set.PostWrite(w);
    if (o.result == PostResult::kPosted) {
      ++posted;
      offset += opt.msg_size;
      if (offset + opt.msg_size > s.rlen) offset = 0;
    } else if (o.result == PostResult::kAllPathsFailed || o.result == PostResult::kPostError) {
      s.err << "nicc-verbs run: " << PostResultName(o.result)
            << (o.err != 0 ? absl::StrCat(": ", strerror(o.err)) : std::string()) << "\n";
      failed = true;
      break;
    }
    set.Poll(64);
    PollCnps(s, now, cnp);
    set.Tick();
    if (now >= next_report) {
      RunReport::PrintInterval(report.Sample(now - start, set, cnp.total), s.out);
      next_report += report_ns;
      if (next_report <= now) next_report = now + report_ns;
    }
  }
  DrainWrites(s);
  const uint64_t elapsed = s.api->HostNowNs() - start;
  report.Finish(elapsed, set, cnp.total, lat);
  set.set_latency_histogram(nullptr);
  return !failed;
}

int ReportRun(RunSession& s, const RunReport& report, bool failed) {
  report.PrintSummary(s.opt.cc, s.opt.spray, s.out);
  const ReportSummary& sum = report.summary();
  int rc = failed || sum.errors != 0 ? kExitFailed : kExitOk;
  SayDone(s, sum);
  if (!WriteRunFiles(s, report)) rc = kExitFailed;
  return rc;
}

}  // namespace verbs
}  // namespace nicc
