// nicc/verbs/path_set.h — a set of RC QPs to one peer used as the paths of
// one flow: the spray policy picks the QP of every message, the CC's rate is
// applied to each QP with ibv_modify_qp_rate_limit, completion timestamps give
// per-path RTT samples.
//
// Path i is QP i; its GRH flow label is flow_label ^ i, so its RoCEv2 UDP
// source port is FlowLabelToPort(flow_label ^ i) = FlowLabelToPort(flow_label)
// ^ i — exactly the port the spray engine names as EV i (spray.h EvPort).
//
//   auto ps = nicc::verbs::PathSet::Create(api, ctx, pd, opts);  // StatusOr
//   print((*ps)->qpn(i)) ... exchange with the peer out of band ...
//   (*ps)->Connect(peer);
//   for (;;) {
//     if ((*ps)->PostWrite(req).result == PostResult::kPosted) ...;
//     (*ps)->Poll(32);                  // RTT samples, feedback, errors
//     (*ps)->DeliverCnps(cnp_delta);    // e.g. from rp_cnp_handled
//     (*ps)->Tick();                    // DCQCN timer
//   }
//
// Degradations (caps().notes says which and why; never silent):
//   no completion timestamps, or no HCA clock read -> RTT from the host clock
//     around post and poll (includes polling delay);
//   no packet pacing / rate limit refused -> the host pacer alone enforces the
//     rate, per message (bursts within a message run at line rate);
//   rate below the device minimum -> clamped to the minimum.
// Units: ns (host CLOCK_MONOTONIC unless named *_cycles), kb/s, bytes.
#ifndef NICC_VERBS_PATH_SET_H_
#define NICC_VERBS_PATH_SET_H_

#include <infiniband/verbs.h>
#include <stdint.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nicc/dcqcn.h"
#include "nicc/spray.h"
#include "nicc/hal/driver.h"
#include "nicc/verbs/latency_histogram.h"
#include "nicc/verbs/verbs_api.h"

namespace nicc {
namespace verbs {

constexpr uint32_t kMaxPaths = 1u << spray::kMaxEvBits;  // 256 QPs: EV index fits 8 bits

// The congestion control a host can run: HPCC needs INT, which RDMA
// completions do not carry.
enum class CcMode : uint8_t {
  kNone = 0,   // line rate; spraying only
  kDcqcn = 1,  // DCQCN reaction point, fed CNP counts (e.g. rp_cnp_handled deltas) and timers
};

struct PathSetOptions {
  uint8_t port_num = 1;
  int gid_index = 0;                // local GID (pick a RoCE v2 one)
  uint32_t num_paths = 4;           // power of two, 1..256 (bitmap <= 64, dlb <= 16)
  uint32_t flow_label = 0x1A2B0;    // 20-bit base label; path i uses flow_label ^ i
  spray::Policy policy = spray::Policy::kOps;
  CcMode cc = CcMode::kNone;
  // Port speed (the driver's line_rate_mbps): the rate with cc none, and the
  // rate at which the QPs' hardware rate limit is lifted.
  uint32_t line_rate_mbps = 100000;
  dcqcn::Params dcqcn = dcqcn::Params::Mlx5(100000);  // line_rate_mbps = port speed
  uint32_t send_depth = 64;         // outstanding WRs per QP; power of two, 1..4096
  uint32_t seed = 1;                // spray PRNG seed
  bool want_timestamps = true;      // ask for IBV_WC_EX_WITH_COMPLETION_TIMESTAMP
  bool want_hw_pacing = true;       // use ibv_modify_qp_rate_limit when offered
  bool host_pacing = true;          // admit messages at the CC rate on the host
  uint64_t clock_recalibrate_ns = 100000000;  // HCA<->host clock pairing period (100 ms)
};

enum Degradation : uint32_t {
  kDegradeNoTimestamps = 1u << 0,  // device/CQ without completion timestamps
  kDegradeNoHcaClock = 1u << 1,    // timestamps, but ibv_query_rt_values_ex fails
  kDegradeNoHwPacing = 1u << 2,    // no packet pacing caps, or rate limit refused
  kDegradeRateClamped = 1u << 3,   // a rate below the device minimum was raised to it
};

struct Capabilities {
  bool hw_timestamps = false;   // RTT from completion timestamps (HCA clock)
  bool hw_pacing = false;       // per-QP rate limits reach the NIC
  uint64_t hca_core_clock_khz = 0;
  uint64_t completion_timestamp_mask = 0;
  uint32_t rate_limit_min_kbps = 0;
  uint32_t rate_limit_max_kbps = 0;
  uint32_t degradations = 0;    // Degradation bits
  std::vector<std::string> notes;  // one line per degradation: what, why, instead
};

struct PeerInfo {
  ibv_gid gid{};
  std::vector<uint32_t> qpns;   // the peer's QP for each path, in path order
  uint32_t psn = 0;             // the peer's initial send PSN (our rq_psn)
  uint32_t local_psn = 0;       // our initial send PSN
  ibv_mtu mtu = static_cast<ibv_mtu>(0);  // 0 = the port's active MTU
  uint8_t traffic_class = 0;    // DSCP << 2 | ECN bits of the GRH
  uint8_t hop_limit = 64;
  uint8_t sl = 0;
  uint8_t timeout = 14;         // local ACK timeout 4.096 us * 2^timeout
  uint8_t retry_cnt = 7;
  uint8_t rnr_retry = 7;
};

struct WriteRequest {
  uint64_t local_addr;
  uint32_t lkey;
  uint32_t length;
  uint64_t remote_addr;
  uint32_t rkey;
};

enum class PostResult : uint8_t {
  kPosted = 0,
  kPaced,           // the host pacer says not yet: retry at next_send_ns()
  kPathBusy,        // the chosen QP's send queue is full: Poll(), then retry
  kAllPathsFailed,  // every QP is in error
  kPostError,       // ibv_post_send failed (errno in err)
};

struct PostOutcome {
  PostResult result;
  uint32_t path;  // the path chosen (valid for kPosted, kPathBusy, kPostError)
  int err;
};

struct PathStats {
  uint32_t qpn = 0;
  uint32_t flow_label = 0;
  uint16_t udp_sport = 0;
  uint64_t posted = 0;
  uint64_t completed = 0;
  uint64_t errors = 0;
  uint64_t bytes = 0;
  uint32_t outstanding = 0;
  uint32_t last_rtt_ns = 0;
  uint32_t min_rtt_ns = 0;
  uint64_t rtt_sum_ns = 0;
  uint64_t rtt_samples = 0;
  uint32_t applied_rate_kbps = 0;  // last ibv_modify_qp_rate_limit value (0 = none)
  bool failed = false;             // the QP reported an error completion
};

class PathSet {
 public:
  static absl::StatusOr<std::unique_ptr<PathSet>> Create(VerbsApi* api, ibv_context* ctx,
                                                          ibv_pd* pd, const PathSetOptions& opt);
  ~PathSet();
  PathSet(const PathSet&) = delete;
  PathSet& operator=(const PathSet&) = delete;

  const Capabilities& caps() const { return caps_; }
  uint32_t num_paths() const { return static_cast<uint32_t>(paths_.size()); }
  const PathStats& stats(uint32_t path) const { return paths_[path].stats; }
  ibv_qp* qp(uint32_t path) const { return paths_[path].qp; }
  bool connected() const { return connected_; }

  // INIT -> RTR -> RTS for every path, with the path's GRH flow label.
  absl::Status Connect(const PeerInfo& peer);

  // Data path (no allocation, no virtual call except the host clock).
  PostOutcome PostWrite(const WriteRequest& w);
  uint32_t Poll(uint32_t max_completions);  // completions handled
  void DeliverCnps(uint32_t count);         // CNPs seen for this flow (capped at 1024)
  void Tick();                              // fires the CC timer when due

  uint32_t rate_kbps() const;               // the CC's current rate
  // Completion latency (post -> completion, ns) of every successful WR is
  // recorded into *h (fixed buckets, no allocation); nullptr = none.
  void set_latency_histogram(LatencyHistogram* h) { latency_ = h; }
  uint64_t next_send_ns() const { return next_send_ns_; }
  uint32_t pending_path() const { return pending_path_; }  // kNoPath if none

  // The backend member called by the engine (nicc/hal/backend.h contract).
  void Apply(hal::FlowId flow, const Action& action);
  void ApplyRx(hal::FlowId, const Action&) {}  // no receiver flows

  static constexpr uint32_t kNoPath = 0xFFFFFFFFu;

 private:
  struct Path {
    ibv_qp* qp = nullptr;
    PathStats stats;
    std::vector<uint64_t> post_ns;   // ring: host time each WR was posted
    std::vector<uint32_t> post_len;  // ring: its length
    uint64_t seq = 0;                // WRs posted (ring index)
  };

  PathSet(VerbsApi* api, ibv_context* ctx, ibv_pd* pd, const PathSetOptions& opt);
  absl::Status Init();
  void Calibrate(uint64_t now_ns);
  uint64_t CompletionHostNs(uint64_t cycles) const;
  void ApplyRate(uint32_t kbps);
  void Degrade(uint32_t bit, std::string note);
  void OnCompletion(uint64_t wr_id, ibv_wc_status status, uint64_t ts_cycles, uint64_t now_ns);

  VerbsApi* api_;
  ibv_context* ctx_;
  ibv_pd* pd_;
  PathSetOptions opt_;
  Capabilities caps_;
  hal::DriverConfig eng_cfg_{};
  // One sender flow (this peer; its EVs are the QPs), no receivers: the CC
  // (none or DCQCN) and the policy are options, so the slot holds any.
  hal::Driver<PathSet, hal::AnySenderSlot, 1, 0> engine_;
  hal::FlowId flow_ = 0;
  ibv_cq_ex* cq_ = nullptr;
  std::vector<Path> paths_;
  uint32_t ring_mask_ = 0;
  uint32_t failed_paths_ = 0;
  uint32_t pending_path_ = kNoPath;
  bool connected_ = false;
  uint32_t mtu_bytes_ = 1024;
  // Host pacer.
  uint32_t pace_kbps_ = 0;
  uint64_t next_send_ns_ = 0;
  // CC timer.
  bool timer_armed_ = false;
  TimeNs timer_ns_ = 0;
  // HCA clock pairing: host_ns at calib == calib_cycles on the HCA.
  uint64_t calib_cycles_ = 0;
  uint64_t calib_host_ns_ = 0;
  uint64_t next_calib_ns_ = 0;
  LatencyHistogram* latency_ = nullptr;
};

// Cycles of an HCA clock at `khz` kHz -> ns, without overflow for any
// 64-bit cycle count below 2^64 / 1e6 * khz: (c / khz) * 1e6 + (c % khz) * 1e6 / khz.
constexpr uint64_t HcaCyclesToNs(uint64_t cycles, uint64_t khz) {
  return khz == 0 ? 0 : (cycles / khz) * 1000000ull + (cycles % khz) * 1000000ull / khz;
}

const char* PostResultName(PostResult r);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_PATH_SET_H_
