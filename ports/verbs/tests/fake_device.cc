// The fake RDMA device (see fake_device.h).
#include "fake_device.h"

#include <errno.h>
#include <string.h>

namespace nicc {
namespace verbs {
namespace testing {
namespace {

struct FakeCtx {
  ibv_context ctx;  // first: the verbs pointer is the wrapper's address
  FakeDevice* dev;
};
struct FakeQp {
  ibv_qp qp;
  FakeDevice* dev;
  uint32_t index;
};
struct FakeCq {
  ibv_cq_ex cq;
  FakeDevice* dev;
};

FakeDevice* DevOf(ibv_qp* qp) { return reinterpret_cast<FakeQp*>(qp)->dev; }
FakeDevice* DevOf(ibv_cq_ex* cq) { return reinterpret_cast<FakeCq*>(cq)->dev; }

int PostSendOp(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
  return DevOf(qp)->OnPostSend(qp, wr, bad);
}
int PostRecvOp(ibv_qp*, ibv_recv_wr*, ibv_recv_wr**) { return EOPNOTSUPP; }
int PollCqOp(ibv_cq*, int, ibv_wc*) { return -1; }  // the shim uses the extended API only
int StartPollOp(ibv_cq_ex* cq, ibv_poll_cq_attr*) { return DevOf(cq)->OnStartPoll(cq); }
int NextPollOp(ibv_cq_ex* cq) { return DevOf(cq)->OnNextPoll(cq); }
void EndPollOp(ibv_cq_ex*) {}
uint64_t ReadTsOp(ibv_cq_ex* cq) { return DevOf(cq)->OnReadTs(); }

}  // namespace

FakeDevice::FakeDevice(const Config& cfg) : cfg_(cfg) {
  for (int i = 0; i < cfg_.num_devices; ++i) {
    auto d = std::make_unique<ibv_device>();
    memset(d.get(), 0, sizeof(ibv_device));
    snprintf(d->name, sizeof d->name, "%s%s", cfg_.name, i == 0 ? "" : std::to_string(i).c_str());
    d->transport_type = IBV_TRANSPORT_IB;
    d->node_type = IBV_NODE_CA;
    devices_.push_back(std::move(d));
  }
}

FakeDevice::~FakeDevice() = default;

uint64_t FakeDevice::HcaCycles(uint64_t host_ns) const {
  // host_ns < 2^44 in tests, khz <= 2^21: the product stays below 2^64.
  return cfg_.hca_offset_cycles + host_ns * cfg_.hca_core_clock_khz / 1000000ull;
}

uint64_t FakeDevice::HostNowNs() {
  const uint64_t t = now_ns_;
  now_ns_ += cfg_.clock_step_ns;
  return t;
}

ibv_context* FakeDevice::OpenFirst() {
  int n = 0;
  ibv_device** list = GetDeviceList(&n);
  ibv_context* ctx = (n > 0) ? OpenDevice(list[0]) : nullptr;
  FreeDeviceList(list);
  return ctx;
}

ibv_device** FakeDevice::GetDeviceList(int* n) {
  if (cfg_.list_returns_null) {
    errno = ENOSYS;
    *n = 0;
    return nullptr;
  }
  ibv_device** list = new ibv_device*[devices_.size() + 1];
  for (size_t i = 0; i < devices_.size(); ++i) list[i] = devices_[i].get();
  list[devices_.size()] = nullptr;
  *n = static_cast<int>(devices_.size());
  return list;
}

void FakeDevice::FreeDeviceList(ibv_device** list) { delete[] list; }

const char* FakeDevice::GetDeviceName(ibv_device* d) { return d->name; }

ibv_context* FakeDevice::OpenDevice(ibv_device* d) {
  FakeCtx* c = new FakeCtx{};
  c->dev = this;
  c->ctx.device = d;
  c->ctx.ops.post_send = PostSendOp;
  c->ctx.ops.post_recv = PostRecvOp;
  c->ctx.ops.poll_cq = PollCqOp;
  ++open_contexts;
  return &c->ctx;
}

int FakeDevice::CloseDevice(ibv_context* ctx) {
  delete reinterpret_cast<FakeCtx*>(ctx);
  --open_contexts;
  return 0;
}

int FakeDevice::QueryDeviceEx(ibv_context*, ibv_device_attr_ex* a) {
  if (cfg_.query_device_fails) return EOPNOTSUPP;
  *a = ibv_device_attr_ex{};
  snprintf(a->orig_attr.fw_ver, sizeof a->orig_attr.fw_ver, "%s", "1.2.3");
  a->orig_attr.phys_port_cnt = 1;
  a->orig_attr.max_qp = 1024;
  a->hca_core_clock = cfg_.hca_core_clock_khz;
  a->completion_timestamp_mask = cfg_.completion_timestamp_mask;
  a->packet_pacing_caps.qp_rate_limit_min = cfg_.rate_limit_min_kbps;
  a->packet_pacing_caps.qp_rate_limit_max = cfg_.rate_limit_max_kbps;
  a->packet_pacing_caps.supported_qpts = cfg_.pacing_qpts;
  return 0;
}

int FakeDevice::QueryPort(ibv_context*, uint8_t port, ibv_port_attr* a) {
  if (port != 1) return EINVAL;
  *a = ibv_port_attr{};
  a->state = cfg_.port_state;
  a->max_mtu = IBV_MTU_4096;
  a->active_mtu = cfg_.active_mtu;
  a->gid_tbl_len = 4;
  a->link_layer = cfg_.link_layer;
  return 0;
}

int FakeDevice::QueryGid(ibv_context*, uint8_t port, int index, ibv_gid* gid) {
  if (port != 1 || index < 0 || index >= 4) return EINVAL;
  *gid = ibv_gid{};
  if (index == 1 || index == 3) {  // ::ffff:10.0.0.1 (RoCE v1 at 1, v2 at 3)
    gid->raw[10] = 0xFF;
    gid->raw[11] = 0xFF;
    gid->raw[12] = 10;
    gid->raw[15] = 1;
  }
  return 0;
}

int FakeDevice::QueryRtValuesEx(ibv_context*, ibv_values_ex* v) {
  if (cfg_.rt_values_fail) return EOPNOTSUPP;
  const uint64_t c = HcaCycles(now_ns_);
  v->comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
  v->raw_clock.tv_sec = static_cast<time_t>(c / 1000000000ull);
  v->raw_clock.tv_nsec = static_cast<long>(c % 1000000000ull);
  return 0;
}

ibv_pd* FakeDevice::AllocPd(ibv_context* ctx) {
  ibv_pd* pd = new ibv_pd{};
  pd->context = ctx;
  pd->handle = next_key_++;
  return pd;
}

int FakeDevice::DeallocPd(ibv_pd* pd) {
  delete pd;
  return 0;
}

ibv_mr* FakeDevice::RegMr(ibv_pd* pd, void* addr, size_t length, int) {
  ibv_mr* mr = new ibv_mr{};
  mr->context = pd->context;
  mr->pd = pd;
  mr->addr = addr;
  mr->length = length;
  mr->lkey = next_key_++;
  mr->rkey = next_key_++;
  return mr;
}

int FakeDevice::DeregMr(ibv_mr* mr) {
  delete mr;
  return 0;
}

ibv_cq_ex* FakeDevice::CreateCqEx(ibv_context* ctx, ibv_cq_init_attr_ex* attr) {
  if (cfg_.cq_timestamps_fail && (attr->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)) {
    errno = EOPNOTSUPP;
    return nullptr;
  }
  FakeCq* c = new FakeCq{};
  c->dev = this;
  c->cq.context = ctx;
  c->cq.cqe = static_cast<int>(attr->cqe);
  c->cq.start_poll = StartPollOp;
  c->cq.next_poll = NextPollOp;
  c->cq.end_poll = EndPollOp;
  c->cq.read_completion_ts = ReadTsOp;
  cq_wc_flags = static_cast<uint32_t>(attr->wc_flags);
  ++live_cqs;
  return &c->cq;
}

int FakeDevice::DestroyCq(ibv_cq* cq) {
  delete reinterpret_cast<FakeCq*>(cq);
  --live_cqs;
  return 0;
}

ibv_qp* FakeDevice::CreateQp(ibv_pd* pd, ibv_qp_init_attr* attr) {
  if (attr->qp_type != IBV_QPT_RC) {
    errno = EINVAL;
    return nullptr;
  }
  FakeQp* q = new FakeQp{};
  q->dev = this;
  q->index = next_qpn_ - kFirstQpn;
  q->qp.context = pd->context;
  q->qp.pd = pd;
  q->qp.send_cq = attr->send_cq;
  q->qp.recv_cq = attr->recv_cq;
  q->qp.qp_num = next_qpn_++;
  q->qp.qp_type = IBV_QPT_RC;
  q->qp.state = IBV_QPS_RESET;
  state_by_qpn[q->qp.qp_num] = IBV_QPS_RESET;
  ++live_qps;
  return &q->qp;
}

int FakeDevice::ModifyQp(ibv_qp* qp, ibv_qp_attr* a, int mask) {
  if (!(mask & IBV_QP_STATE)) return EINVAL;
  const ibv_qp_state from = qp->state;
  const ibv_qp_state to = a->qp_state;
  const bool ok = (from == IBV_QPS_RESET && to == IBV_QPS_INIT) ||
                  (from == IBV_QPS_INIT && to == IBV_QPS_RTR) ||
                  (from == IBV_QPS_RTR && to == IBV_QPS_RTS);
  if (!ok) return EINVAL;
  if (to == IBV_QPS_RTR) {
    if (!(mask & IBV_QP_AV) || !a->ah_attr.is_global) return EINVAL;  // RoCE needs a GRH
    flow_label_by_qpn[qp->qp_num] = a->ah_attr.grh.flow_label;
    dest_qpn_by_qpn[qp->qp_num] = a->dest_qp_num;
  }
  qp->state = to;
  state_by_qpn[qp->qp_num] = to;
  return 0;
}

int FakeDevice::DestroyQp(ibv_qp* qp) {
  delete reinterpret_cast<FakeQp*>(qp);
  --live_qps;
  return 0;
}

int FakeDevice::ModifyQpRateLimit(ibv_qp* qp, ibv_qp_rate_limit_attr* attr) {
  if (cfg_.rate_limit_fails) return EOPNOTSUPP;
  if (qp->state != IBV_QPS_RTS) return EINVAL;  // as mlx5: only on a ready QP
  if (attr->rate_limit != 0 && (attr->rate_limit < cfg_.rate_limit_min_kbps ||
                                attr->rate_limit > cfg_.rate_limit_max_kbps))
    return EINVAL;
  rate_calls.push_back(RateCall{qp->qp_num, attr->rate_limit});
  return 0;
}

int FakeDevice::OnPostSend(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
  const uint32_t idx = reinterpret_cast<FakeQp*>(qp)->index;
  if (qp->state != IBV_QPS_RTS) {
    *bad = wr;
    return EINVAL;
  }
  for (ibv_send_wr* w = wr; w != nullptr; w = w->next) {
    const uint32_t len = w->num_sge > 0 ? w->sg_list[0].length : 0;
    if (cfg_.record_posts)
      posts.push_back(Post{idx, qp->qp_num, w->wr_id, len, w->wr.rdma.remote_addr,
                           w->wr.rdma.rkey, now_ns_});
    auto r = rtt_ns_.find(idx);
    const uint64_t rtt = r != rtt_ns_.end() ? r->second : cfg_.default_rtt_ns;
    ibv_wc_status st = IBV_WC_SUCCESS;
    auto f = fail_next_.find(idx);
    if (f != fail_next_.end()) {
      st = f->second;
      fail_next_.erase(f);
    }
    const uint64_t ready = now_ns_ + rtt;
    cq_.push_back(Completion{w->wr_id, st, ready, HcaCycles(ready)});
  }
  return 0;
}

bool FakeDevice::PopReady(Completion* out) {
  auto best = cq_.end();
  for (auto it = cq_.begin(); it != cq_.end(); ++it)
    if (it->ready_ns <= now_ns_ && (best == cq_.end() || it->ready_ns < best->ready_ns)) best = it;
  if (best == cq_.end()) return false;
  *out = *best;
  cq_.erase(best);
  return true;
}

int FakeDevice::OnStartPoll(ibv_cq_ex* cq) {
  if (!PopReady(&cur_)) return ENOENT;
  cq->wr_id = cur_.wr_id;
  cq->status = cur_.status;
  return 0;
}

int FakeDevice::OnNextPoll(ibv_cq_ex* cq) { return OnStartPoll(cq); }

}  // namespace testing
}  // namespace verbs
}  // namespace nicc
