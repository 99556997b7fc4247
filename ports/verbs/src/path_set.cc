// PathSet: QPs as spray paths, per-QP pacing, completion-timestamp RTT.
#include "nicc/verbs/path_set.h"

#include <errno.h>
#include <string.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nicc/hal/clock.h"
#include "nicc/hal/event.h"

namespace nicc {
namespace verbs {
namespace {

constexpr uint32_t kPathBits = 8;  // wr_id = seq << 8 | path (path < 256)
constexpr uint32_t kMaxSendDepth = 4096;
constexpr uint32_t kMaxCnpsPerCall = 1024;  // bounds DeliverCnps' loop

bool IsPow2(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

uint32_t Log2(uint32_t x) {
  uint32_t k = 0;
  while ((1u << k) < x && k < 31) ++k;
  return k;
}

uint32_t MtuBytes(ibv_mtu m) {
  switch (m) {
    case IBV_MTU_256: return 256;
    case IBV_MTU_512: return 512;
    case IBV_MTU_1024: return 1024;
    case IBV_MTU_2048: return 2048;
    case IBV_MTU_4096: return 4096;
  }
  return 1024;
}

std::string Errno(int e) { return absl::StrCat(strerror(e), " (errno ", e, ")"); }

}  // namespace

const char* PostResultName(PostResult r) {
  switch (r) {
    case PostResult::kPosted: return "posted";
    case PostResult::kPaced: return "paced";
    case PostResult::kPathBusy: return "path busy";
    case PostResult::kAllPathsFailed: return "all paths failed";
    case PostResult::kPostError: return "ibv_post_send failed";
  }
  return "?";
}

PathSet::PathSet(VerbsApi* api, ibv_context* ctx, ibv_pd* pd, const PathSetOptions& opt)
    : api_(api), ctx_(ctx), pd_(pd), opt_(opt) {}

PathSet::~PathSet() {
  for (Path& p : paths_) {
    if (p.qp != nullptr) (void)api_->DestroyQp(p.qp);
  }
  if (cq_ != nullptr) (void)api_->DestroyCq(ibv_cq_ex_to_cq(cq_));
}

absl::StatusOr<std::unique_ptr<PathSet>> PathSet::Create(VerbsApi* api, ibv_context* ctx,
                                                         ibv_pd* pd, const PathSetOptions& opt) {
  if (api == nullptr || ctx == nullptr || pd == nullptr)
    return absl::InvalidArgumentError("PathSet::Create: api, context and pd are required");
  if (!IsPow2(opt.num_paths) || opt.num_paths > kMaxPaths)
    return absl::InvalidArgumentError(absl::StrCat(
        "num_paths = ", opt.num_paths, ": must be a power of two in 1..", kMaxPaths,
        " (the spray engine sprays over 2^k entropy values)"));
  if (!IsPow2(opt.send_depth) || opt.send_depth > kMaxSendDepth)
    return absl::InvalidArgumentError(
        absl::StrCat("send_depth = ", opt.send_depth, ": must be a power of two in 1..4096"));
  std::unique_ptr<PathSet> ps(new PathSet(api, ctx, pd, opt));
  absl::Status st = ps->Init();
  if (!st.ok()) return st;
  return ps;
}

void PathSet::Degrade(uint32_t bit, std::string note) {
  if ((caps_.degradations & bit) == 0) caps_.notes.push_back(std::move(note));
  caps_.degradations |= bit;
}

absl::Status PathSet::Init() {
  spray::Params sp = spray::Params::Defaults(opt_.policy, Log2(opt_.num_paths), opt_.flow_label);
  // The NSCC rule stays off: a host's CNP count is per port, not per path, so
  // it cannot blame the last path. HPCC's params are validated, never used.
  const ecn_path::Rule no_rule = ecn_path::Rule::Of(ecn_path::kOff);
  const hal::CcKind cc = opt_.cc == CcMode::kDcqcn ? hal::CcKind::kDcqcn : hal::CcKind::kNone;
  const Status est = hal::InitDriverConfig(hal::DriverParams::Of(cc, opt_.line_rate_mbps), opt_.dcqcn,
                                           hpcc::Params::HpccPaper(), sp, no_rule, &eng_cfg_);
  if (!est.ok())
    return absl::InvalidArgumentError(absl::StrCat("engine parameter ", est.field ? est.field : "?",
                                                   ": ", StatusCodeName(est.code)));
  if (!engine_.Init(&eng_cfg_, this).ok()) return absl::InternalError("engine slot type");
  // One engine flow per path set: a refusal (kFull) is an error here, never
  // silent.
  const Status open = engine_.OpenTx(0, opt_.seed, &flow_);
  if (!open.ok())
    return absl::ResourceExhaustedError(absl::StrCat("engine flow table: ", StatusCodeName(open.code),
                                                     " (", engine_.tx_full(), " refused)"));

  // Capabilities.
  ibv_device_attr_ex dev{};
  const int qrc = api_->QueryDeviceEx(ctx_, &dev);
  if (qrc != 0) {
    Degrade(kDegradeNoTimestamps,
            absl::StrCat("ibv_query_device_ex failed: ", Errno(qrc),
                         "; completion timestamps off, RTT from the host clock"));
    Degrade(kDegradeNoHwPacing, "ibv_query_device_ex failed; per-QP pacing off, host pacer only");
  } else {
    caps_.hca_core_clock_khz = dev.hca_core_clock;
    caps_.completion_timestamp_mask = dev.completion_timestamp_mask;
    caps_.rate_limit_min_kbps = dev.packet_pacing_caps.qp_rate_limit_min;
    caps_.rate_limit_max_kbps = dev.packet_pacing_caps.qp_rate_limit_max;
    caps_.hw_timestamps = opt_.want_timestamps && dev.completion_timestamp_mask != 0 &&
                          dev.hca_core_clock != 0;
    if (!opt_.want_timestamps) {
      Degrade(kDegradeNoTimestamps, "completion timestamps not requested; RTT from the host clock");
    } else if (!caps_.hw_timestamps) {
      Degrade(kDegradeNoTimestamps,
              absl::StrCat("device reports no completion timestamps (completion_timestamp_mask=",
                           dev.completion_timestamp_mask, ", hca_core_clock=", dev.hca_core_clock,
                           " kHz); RTT from the host clock around post/poll"));
    }
    const bool rc_paced = (dev.packet_pacing_caps.supported_qpts & (1u << IBV_QPT_RC)) != 0;
    caps_.hw_pacing = opt_.want_hw_pacing && dev.packet_pacing_caps.qp_rate_limit_max != 0 && rc_paced;
    if (!opt_.want_hw_pacing) {
      Degrade(kDegradeNoHwPacing, "per-QP pacing not requested; host pacer only");
    } else if (!caps_.hw_pacing) {
      Degrade(kDegradeNoHwPacing,
              absl::StrCat("device offers no packet pacing for RC QPs (qp_rate_limit_max=",
                           dev.packet_pacing_caps.qp_rate_limit_max, " kb/s, supported_qpts=0x",
                           absl::Hex(dev.packet_pacing_caps.supported_qpts),
                           "); the rate is enforced by the host pacer, per message"));
    }
  }

  // One extended CQ for every path's send and receive queue.
  ibv_cq_init_attr_ex cqa{};
  cqa.cqe = opt_.num_paths * opt_.send_depth + opt_.num_paths;
  cqa.wc_flags = IBV_WC_STANDARD_FLAGS;
  if (caps_.hw_timestamps) cqa.wc_flags |= IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
  cq_ = api_->CreateCqEx(ctx_, &cqa);
  if (cq_ == nullptr && caps_.hw_timestamps) {
    const int e = errno;
    caps_.hw_timestamps = false;
    Degrade(kDegradeNoTimestamps,
            absl::StrCat("ibv_create_cq_ex with IBV_WC_EX_WITH_COMPLETION_TIMESTAMP failed: ",
                         Errno(e), "; RTT from the host clock around post/poll"));
    cqa.wc_flags = IBV_WC_STANDARD_FLAGS;
    cq_ = api_->CreateCqEx(ctx_, &cqa);
  }
  if (cq_ == nullptr) {
    const int e = errno;
    return absl::FailedPreconditionError(
        absl::StrCat("ibv_create_cq_ex failed: ", Errno(e),
                     "; the verbs shim needs extended CQs (rdma-core >= 13, provider support)"));
  }

  // Pair the HCA clock with the host clock (Calibrate() degrades on failure).
  if (caps_.hw_timestamps) Calibrate(api_->HostNowNs());

  // The QPs.
  uint32_t depth = opt_.send_depth;
  ring_mask_ = depth - 1u;
  paths_.resize(opt_.num_paths);
  for (uint32_t i = 0; i < opt_.num_paths; ++i) {
    ibv_qp_init_attr qa{};
    qa.send_cq = ibv_cq_ex_to_cq(cq_);
    qa.recv_cq = ibv_cq_ex_to_cq(cq_);
    qa.qp_type = IBV_QPT_RC;
    qa.sq_sig_all = 1;  // every message completes: one RTT sample each
    qa.cap.max_send_wr = depth;
    qa.cap.max_recv_wr = 1;
    qa.cap.max_send_sge = 1;
    qa.cap.max_recv_sge = 1;
    ibv_qp* qp = api_->CreateQp(pd_, &qa);
    if (qp == nullptr) {
      const int e = errno;
      return absl::ResourceExhaustedError(absl::StrCat("ibv_create_qp (RC) for path ", i,
                                                       " failed: ", Errno(e)));
    }
    Path& p = paths_[i];
    p.qp = qp;
    p.post_ns.assign(depth, 0);
    p.post_len.assign(depth, 0);
    p.stats.qpn = qp->qp_num;
    p.stats.flow_label = spray::EvFlowLabel(eng_cfg_.spray, i);
    p.stats.udp_sport = spray::EvPort(eng_cfg_.spray, i);
  }
  pace_kbps_ = engine_.RateKbps(flow_);
  return absl::OkStatus();
}

void PathSet::Calibrate(uint64_t now_ns) {
  ibv_values_ex v{};
  v.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
  const uint64_t before = api_->HostNowNs();
  const int rc = api_->QueryRtValuesEx(ctx_, &v);
  const uint64_t after = api_->HostNowNs();
  if (rc != 0 || (v.comp_mask & IBV_VALUES_MASK_RAW_CLOCK) == 0) {
    caps_.hw_timestamps = false;
    Degrade(kDegradeNoHcaClock,
            absl::StrCat("ibv_query_rt_values_ex cannot read the HCA clock (",
                         rc != 0 ? Errno(rc) : std::string("no raw clock"),
                         "); completion timestamps unused, RTT from the host clock"));
    return;
  }
  // Providers (mlx5) report the raw cycle counter in raw_clock; tv_sec is 0.
  calib_cycles_ = static_cast<uint64_t>(v.raw_clock.tv_sec) * 1000000000ull +
                  static_cast<uint64_t>(v.raw_clock.tv_nsec);
  calib_host_ns_ = before + (after - before) / 2;
  next_calib_ns_ = now_ns + opt_.clock_recalibrate_ns;
}

uint64_t PathSet::CompletionHostNs(uint64_t cycles) const {
  const uint64_t mask = caps_.completion_timestamp_mask;
  const uint64_t fwd = (cycles - calib_cycles_) & mask;
  if (fwd <= mask / 2) return calib_host_ns_ + HcaCyclesToNs(fwd, caps_.hca_core_clock_khz);
  const uint64_t back = HcaCyclesToNs((calib_cycles_ - cycles) & mask, caps_.hca_core_clock_khz);
  return back > calib_host_ns_ ? 0 : calib_host_ns_ - back;
}

absl::Status PathSet::Connect(const PeerInfo& peer) {
  if (peer.qpns.size() != paths_.size())
    return absl::InvalidArgumentError(absl::StrCat("the peer gives ", peer.qpns.size(),
                                                   " QP numbers for ", paths_.size(), " paths"));
  ibv_mtu mtu = peer.mtu;
  if (static_cast<int>(mtu) == 0) {
    ibv_port_attr pa{};
    const int rc = api_->QueryPort(ctx_, opt_.port_num, &pa);
    if (rc != 0)
      return absl::UnavailableError(absl::StrCat("ibv_query_port(", static_cast<int>(opt_.port_num),
                                                 ") failed: ", Errno(rc)));
    mtu = pa.active_mtu;
  }
  mtu_bytes_ = MtuBytes(mtu);
  for (uint32_t i = 0; i < paths_.size(); ++i) {
    ibv_qp* qp = paths_[i].qp;
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = opt_.port_num;
    a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    int rc = api_->ModifyQp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                                        IBV_QP_ACCESS_FLAGS);
    if (rc != 0)
      return absl::InternalError(absl::StrCat("path ", i, ": QP ", qp->qp_num,
                                              " RESET->INIT failed: ", Errno(rc)));
    a = ibv_qp_attr{};
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = mtu;
    a.dest_qp_num = peer.qpns[i];
    a.rq_psn = peer.psn & 0xFFFFFFu;
    a.max_dest_rd_atomic = 1;
    a.min_rnr_timer = 12;
    a.ah_attr.is_global = 1;
    a.ah_attr.port_num = opt_.port_num;
    a.ah_attr.sl = peer.sl;
    a.ah_attr.grh.dgid = peer.gid;
    a.ah_attr.grh.sgid_index = static_cast<uint8_t>(opt_.gid_index);
    a.ah_attr.grh.hop_limit = peer.hop_limit;
    a.ah_attr.grh.traffic_class = peer.traffic_class;
    a.ah_attr.grh.flow_label = paths_[i].stats.flow_label;  // -> the path's UDP source port
    rc = api_->ModifyQp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                                    IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                                    IBV_QP_MIN_RNR_TIMER);
    if (rc != 0)
      return absl::InternalError(absl::StrCat("path ", i, ": QP ", qp->qp_num, " INIT->RTR (peer QP ",
                                              peer.qpns[i], ") failed: ", Errno(rc)));
    a = ibv_qp_attr{};
    a.qp_state = IBV_QPS_RTS;
    a.timeout = peer.timeout;
    a.retry_cnt = peer.retry_cnt;
    a.rnr_retry = peer.rnr_retry;
    a.sq_psn = peer.local_psn & 0xFFFFFFu;
    a.max_rd_atomic = 1;
    rc = api_->ModifyQp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                                    IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
    if (rc != 0)
      return absl::InternalError(absl::StrCat("path ", i, ": QP ", qp->qp_num,
                                              " RTR->RTS failed: ", Errno(rc)));
  }
  connected_ = true;
  ApplyRate(engine_.RateKbps(flow_));
  return absl::OkStatus();
}

void PathSet::ApplyRate(uint32_t kbps) {
  pace_kbps_ = kbps;
  if (!caps_.hw_pacing || !connected_) return;
  // At line rate the limiter is removed (0): mlx5 has a small table of rates.
  uint32_t hw = kbps >= eng_cfg_.line_rate_kbps ? 0u : kbps;
  if (hw != 0 && hw < caps_.rate_limit_min_kbps) {
    Degrade(kDegradeRateClamped,
            absl::StrCat("rate ", hw, " kb/s is below the device minimum ",
                         caps_.rate_limit_min_kbps, " kb/s: clamped to the minimum"));
    hw = caps_.rate_limit_min_kbps;
  }
  if (hw > caps_.rate_limit_max_kbps) hw = 0;  // above what the NIC can pace: no limit
  for (uint32_t i = 0; i < paths_.size(); ++i) {
    Path& p = paths_[i];
    if (p.stats.applied_rate_kbps == hw || p.stats.failed) continue;
    ibv_qp_rate_limit_attr rl{};
    rl.rate_limit = hw;
    rl.typical_pkt_sz = static_cast<uint16_t>(mtu_bytes_);
    const int rc = api_->ModifyQpRateLimit(p.qp, &rl);
    if (rc != 0) {
      caps_.hw_pacing = false;
      Degrade(kDegradeNoHwPacing,
              absl::StrCat("ibv_modify_qp_rate_limit(QP ", p.qp->qp_num, ", ", hw,
                           " kb/s) failed: ", Errno(rc), "; host pacer only from now on"));
      return;
    }
    p.stats.applied_rate_kbps = hw;
  }
}

void PathSet::Apply(hal::FlowId flow, const Action& action) {
  (void)flow;
  if (action.Has(kActSetRate)) ApplyRate(action.rate_kbps);
  if (action.Has(kActArmTimer)) {
    timer_armed_ = true;
    timer_ns_ = action.timer_ns;
  }
  if (action.Has(kActCancelTimer)) timer_armed_ = false;
}

uint32_t PathSet::rate_kbps() const { return engine_.RateKbps(flow_); }

PostOutcome PathSet::PostWrite(const WriteRequest& w) {
  const uint32_t n = num_paths();
  if (failed_paths_ == n) return PostOutcome{PostResult::kAllPathsFailed, kNoPath, 0};
  const uint64_t now = api_->HostNowNs();
  if (opt_.host_pacing && now < next_send_ns_)
    return PostOutcome{PostResult::kPaced, kNoPath, 0};
  const TimeNs now32 = hal::ToNicTime(now);
  uint32_t path = pending_path_;
  if (path == kNoPath) {
    // A failed QP cannot send: ask the policy again (bounded by the path count).
    for (uint32_t tries = 0; tries < n; ++tries) {
      const int32_t idx = spray::EvIndex(eng_cfg_.spray, engine_.SelectEv(flow_, now32));
      path = idx < 0 ? 0u : static_cast<uint32_t>(idx);
      if (!paths_[path].stats.failed) break;
    }
    if (paths_[path].stats.failed) return PostOutcome{PostResult::kAllPathsFailed, kNoPath, 0};
  }
  Path& p = paths_[path];
  if (p.stats.outstanding >= opt_.send_depth) {
    pending_path_ = path;  // keep the policy's choice for the retry
    return PostOutcome{PostResult::kPathBusy, path, 0};
  }
  pending_path_ = kNoPath;
  const uint64_t seq = p.seq;
  ibv_sge sge;
  sge.addr = w.local_addr;
  sge.length = w.length;
  sge.lkey = w.lkey;
  ibv_send_wr wr{};
  ibv_send_wr* bad = nullptr;
  wr.wr_id = (seq << kPathBits) | path;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = IBV_WR_RDMA_WRITE;
  wr.send_flags = IBV_SEND_SIGNALED;
  wr.wr.rdma.remote_addr = w.remote_addr;
  wr.wr.rdma.rkey = w.rkey;
  p.post_ns[seq & ring_mask_] = now;
  p.post_len[seq & ring_mask_] = w.length;
  const int rc = ibv_post_send(p.qp, &wr, &bad);
  if (rc != 0) return PostOutcome{PostResult::kPostError, path, rc};
  p.seq = seq + 1;
  ++p.stats.posted;
  ++p.stats.outstanding;
  if (opt_.host_pacing && pace_kbps_ != 0) {
    // bytes * 8e6 / kbps ns; bytes < 2^32 -> < 2^55, no overflow.
    const uint64_t cost_ns = static_cast<uint64_t>(w.length) * 8000000ull / pace_kbps_;
    next_send_ns_ = (next_send_ns_ > now ? next_send_ns_ : now) + cost_ns;
  }
  (void)engine_.Deliver(flow_, hal::Event::TxDone(w.length), now32);
  return PostOutcome{PostResult::kPosted, path, 0};
}

void PathSet::OnCompletion(uint64_t wr_id, ibv_wc_status status, uint64_t ts_cycles,
                           uint64_t now_ns) {
  const uint32_t path = static_cast<uint32_t>(wr_id & ((1u << kPathBits) - 1u));
  if (path >= paths_.size()) return;  // not ours (e.g. a receive)
  Path& p = paths_[path];
  const uint64_t slot = (wr_id >> kPathBits) & ring_mask_;
  if (p.stats.outstanding != 0) --p.stats.outstanding;
  const TimeNs now32 = hal::ToNicTime(now_ns);
  const uint16_t port = p.stats.udp_sport;
  if (status != IBV_WC_SUCCESS) {
    ++p.stats.errors;
    if (!p.stats.failed) {
      p.stats.failed = true;  // an RC QP in error stays there
      ++failed_paths_;
    }
    if (status == IBV_WC_RETRY_EXC_ERR || status == IBV_WC_RNR_RETRY_EXC_ERR) {
      (void)engine_.Deliver(flow_, hal::Event::Timeout(port), now32);
    } else if (status != IBV_WC_WR_FLUSH_ERR) {
      (void)engine_.Deliver(flow_, hal::Event::Nack(port), now32);
    }
    return;
  }
  const uint64_t done_ns = caps_.hw_timestamps ? CompletionHostNs(ts_cycles) : now_ns;
  const uint64_t posted_ns = p.post_ns[slot];
  uint32_t rtt_ns = 0;
  if (done_ns > posted_ns) {
    const uint64_t d = done_ns - posted_ns;
    rtt_ns = d > kTimeHorizonNs ? kTimeHorizonNs : static_cast<uint32_t>(d);
  }
  ++p.stats.completed;
  p.stats.bytes += p.post_len[slot];
  if (latency_ != nullptr) latency_->Record(rtt_ns);
  if (rtt_ns != 0) {
    p.stats.last_rtt_ns = rtt_ns;
    if (p.stats.min_rtt_ns == 0 || rtt_ns < p.stats.min_rtt_ns) p.stats.min_rtt_ns = rtt_ns;
    p.stats.rtt_sum_ns += rtt_ns;
    ++p.stats.rtt_samples;
  }
  // Field by field: the ACK's sequence fields mean nothing to a host (RDMA
  // completions carry none); ev, rtt and bytes are what the engine uses.
  hal::Event e = hal::Event::Of(hal::EventKind::kAck);
  e.ev = port;
  e.ecn = 0;  // a host cannot see the ECN-echo of a completion
  e.rtt_ns = rtt_ns;
  e.bytes = p.post_len[slot];
  (void)engine_.Deliver(flow_, e, now32);
}

uint32_t PathSet::Poll(uint32_t max_completions) {
  if (max_completions == 0) return 0;
  const uint64_t now = api_->HostNowNs();
  if (caps_.hw_timestamps && now >= next_calib_ns_) Calibrate(now);
  ibv_poll_cq_attr attr{};
  int rc = ibv_start_poll(cq_, &attr);
  if (rc != 0) return 0;  // ENOENT: empty
  uint32_t done = 0;
  for (;;) {
    const uint64_t ts = caps_.hw_timestamps ? ibv_wc_read_completion_ts(cq_) : 0;
    OnCompletion(cq_->wr_id, cq_->status, ts, now);
    if (++done >= max_completions) break;
    rc = ibv_next_poll(cq_);
    if (rc != 0) break;
  }
  ibv_end_poll(cq_);
  return done;
}

void PathSet::DeliverCnps(uint32_t count) {
  const uint32_t n = count < kMaxCnpsPerCall ? count : kMaxCnpsPerCall;
  const TimeNs now32 = hal::ToNicTime(api_->HostNowNs());
  for (uint32_t i = 0; i < n; ++i) (void)engine_.Deliver(flow_, hal::Event::Cnp(), now32);
}

void PathSet::Tick() {
  if (!timer_armed_) return;
  const TimeNs now32 = hal::ToNicTime(api_->HostNowNs());
  if (!TimeReached(now32, timer_ns_)) return;
  timer_armed_ = false;  // the engine re-arms through Apply()
  (void)engine_.Deliver(flow_, hal::Event::Timer(), now32);
}

}  // namespace verbs
}  // namespace nicc
