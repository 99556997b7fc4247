// A fake RDMA device behind the same verbs calls the shim makes.
//
// Control path: FakeDevice implements VerbsApi. Data path: the objects it
// returns are real struct ibv_context / ibv_qp / ibv_cq_ex whose ops point at
// this file's functions, so the static inline ibv_post_send, ibv_start_poll,
// ibv_next_poll, ibv_end_poll and ibv_wc_read_completion_ts of
// <infiniband/verbs.h> land here unchanged.
//
// The device has a host clock (HostNowNs: set by the test, optionally
// advancing by clock_step_ns per read) and an HCA clock derived from it:
//   cycles(host_ns) = hca_offset_cycles + host_ns * hca_core_clock_khz / 1e6.
// A posted WR completes at post time + the QP's RTT: it becomes visible to
// polling once the host clock reaches that time, stamped with the HCA cycles
// of that time.
//
//   FakeDevice dev(FakeDevice::Config{});
//   ibv_context* ctx = dev.OpenFirst();
//   ibv_pd* pd = dev.AllocPd(ctx);
//   auto ps = PathSet::Create(&dev, ctx, pd, opts);
#ifndef NICC_VERBS_TESTS_FAKE_DEVICE_H_
#define NICC_VERBS_TESTS_FAKE_DEVICE_H_

#include <infiniband/verbs.h>
#include <stdint.h>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nicc/verbs/verbs_api.h"

namespace nicc {
namespace verbs {
namespace testing {

class FakeDevice : public VerbsApi {
 public:
  struct Config {
    int num_devices = 1;
    const char* name = "fake0";
    bool list_returns_null = false;          // ibv_get_device_list -> NULL, errno ENOSYS
    bool query_device_fails = false;
    uint64_t hca_core_clock_khz = 1000000;   // 1 GHz
    uint64_t completion_timestamp_mask = 0xFFFFFFFFFFFFull;  // 48-bit; 0 = no timestamps
    uint32_t rate_limit_min_kbps = 1000;
    uint32_t rate_limit_max_kbps = 100000000;
    uint32_t pacing_qpts = 1u << IBV_QPT_RC;
    bool cq_timestamps_fail = false;         // create_cq_ex with the timestamp flag -> EOPNOTSUPP
    bool rt_values_fail = false;             // ibv_query_rt_values_ex -> EOPNOTSUPP
    bool rate_limit_fails = false;           // ibv_modify_qp_rate_limit -> EOPNOTSUPP
    uint8_t link_layer = IBV_LINK_LAYER_ETHERNET;
    ibv_port_state port_state = IBV_PORT_ACTIVE;
    ibv_mtu active_mtu = IBV_MTU_4096;
    uint64_t clock_step_ns = 0;              // host clock advance per HostNowNs()
    uint64_t hca_offset_cycles = 987654321;
    uint32_t default_rtt_ns = 10000;
    bool record_posts = true;                // false: keep no post log (benchmarks)
  };

  struct Post {
    uint32_t qp_index;
    uint32_t qpn;
    uint64_t wr_id;
    uint32_t length;
    uint64_t remote_addr;
    uint32_t rkey;
    uint64_t host_ns;
  };
  struct RateCall {
    uint32_t qpn;
    uint32_t rate_kbps;
  };

  explicit FakeDevice(const Config& cfg);
  ~FakeDevice() override;

  // Test controls.
  void SetNow(uint64_t ns) { now_ns_ = ns; }
  uint64_t now() const { return now_ns_; }
  void SetRttNs(uint32_t qp_index, uint32_t rtt_ns) { rtt_ns_[qp_index] = rtt_ns; }
  void FailNextCompletion(uint32_t qp_index, ibv_wc_status st) { fail_next_[qp_index] = st; }
  uint64_t HcaCycles(uint64_t host_ns) const;
  ibv_context* OpenFirst();  // GetDeviceList + OpenDevice of device 0
  uint32_t QpIndexOf(uint32_t qpn) const { return qpn - kFirstQpn; }

  std::vector<Post> posts;
  std::vector<RateCall> rate_calls;
  std::map<uint32_t, uint32_t> flow_label_by_qpn;  // set at INIT->RTR
  std::map<uint32_t, uint32_t> dest_qpn_by_qpn;
  std::map<uint32_t, ibv_qp_state> state_by_qpn;
  uint32_t cq_wc_flags = 0;  // flags of the CQ created

  static constexpr uint32_t kFirstQpn = 0x100;

  // VerbsApi.
  ibv_device** GetDeviceList(int* num_devices) override;
  void FreeDeviceList(ibv_device** list) override;
  const char* GetDeviceName(ibv_device* device) override;
  ibv_context* OpenDevice(ibv_device* device) override;
  int CloseDevice(ibv_context* context) override;
  int QueryDeviceEx(ibv_context* context, ibv_device_attr_ex* attr) override;
  int QueryPort(ibv_context* context, uint8_t port_num, ibv_port_attr* attr) override;
  int QueryGid(ibv_context* context, uint8_t port_num, int index, ibv_gid* gid) override;
  int QueryRtValuesEx(ibv_context* context, ibv_values_ex* values) override;
  ibv_pd* AllocPd(ibv_context* context) override;
  int DeallocPd(ibv_pd* pd) override;
  ibv_mr* RegMr(ibv_pd* pd, void* addr, size_t length, int access) override;
  int DeregMr(ibv_mr* mr) override;
  ibv_cq_ex* CreateCqEx(ibv_context* context, ibv_cq_init_attr_ex* attr) override;
  int DestroyCq(ibv_cq* cq) override;
  ibv_qp* CreateQp(ibv_pd* pd, ibv_qp_init_attr* attr) override;
  int ModifyQp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask) override;
  int DestroyQp(ibv_qp* qp) override;
  int ModifyQpRateLimit(ibv_qp* qp, ibv_qp_rate_limit_attr* attr) override;
  uint64_t HostNowNs() override;

  // Data-path entry points (ops of the fake objects).
  int OnPostSend(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad);
  int OnStartPoll(ibv_cq_ex* cq);
  int OnNextPoll(ibv_cq_ex* cq);
  uint64_t OnReadTs() const { return cur_.ts_cycles; }

  int open_contexts = 0;
  int live_qps = 0;
  int live_cqs = 0;

 private:
  struct Completion {
    uint64_t wr_id;
    ibv_wc_status status;
    uint64_t ready_ns;
    uint64_t ts_cycles;
  };
  bool PopReady(Completion* out);

  Config cfg_;
  uint64_t now_ns_ = 1000000;  // 1 ms: a non-zero start catches unset-time bugs
  std::vector<std::unique_ptr<ibv_device>> devices_;
  std::map<uint32_t, uint32_t> rtt_ns_;
  std::map<uint32_t, ibv_wc_status> fail_next_;
  std::deque<Completion> cq_;  // in post order; a completion pops once ready
  Completion cur_{};
  uint32_t next_qpn_ = kFirstQpn;
  uint32_t next_key_ = 0x1000;
};

}  // namespace testing
}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_TESTS_FAKE_DEVICE_H_
