// nicc/verbs/verbs_api.h — the seam between the verbs shim and libibverbs.
//
// Every exported (or control-path) verbs call the shim makes goes through
// VerbsApi, a small virtual interface: RealVerbsApi() calls libibverbs, tests
// pass a fake device (ports/verbs/tests/fake_device.h). The data path —
// ibv_post_send, ibv_start_poll / ibv_next_poll / ibv_end_poll,
// ibv_wc_read_completion_ts, ibv_poll_cq — is NOT here: those are static
// inline dispatchers through the ops of the objects the API returned, so a
// fake ibv_context / ibv_qp / ibv_cq_ex with its own function pointers is
// enough, and the real data path pays no virtual call.
//
//   std::unique_ptr<nicc::verbs::VerbsApi> api = nicc::verbs::RealVerbsApi();
//   int n = 0;
//   ibv_device** list = api->GetDeviceList(&n);
//
// Return conventions are libibverbs' own (NULL + errno, or an errno value).
// Time: HostNowNs() is CLOCK_MONOTONIC in ns (a fake clock in tests).
#ifndef NICC_VERBS_VERBS_API_H_
#define NICC_VERBS_VERBS_API_H_

#include <infiniband/verbs.h>
#include <stdint.h>

#include <memory>

namespace nicc {
namespace verbs {

class VerbsApi {
 public:
  virtual ~VerbsApi() = default;

  // Devices.
  virtual ibv_device** GetDeviceList(int* num_devices) = 0;
  virtual void FreeDeviceList(ibv_device** list) = 0;
  virtual const char* GetDeviceName(ibv_device* device) = 0;
  virtual ibv_context* OpenDevice(ibv_device* device) = 0;
  virtual int CloseDevice(ibv_context* context) = 0;

  // Queries (0 or an errno value, as libibverbs).
  virtual int QueryDeviceEx(ibv_context* context, ibv_device_attr_ex* attr) = 0;
  virtual int QueryPort(ibv_context* context, uint8_t port_num, ibv_port_attr* attr) = 0;
  virtual int QueryGid(ibv_context* context, uint8_t port_num, int index, ibv_gid* gid) = 0;
  virtual int QueryRtValuesEx(ibv_context* context, ibv_values_ex* values) = 0;

  // Resources.
  virtual ibv_pd* AllocPd(ibv_context* context) = 0;
  virtual int DeallocPd(ibv_pd* pd) = 0;
  virtual ibv_mr* RegMr(ibv_pd* pd, void* addr, size_t length, int access) = 0;
  virtual int DeregMr(ibv_mr* mr) = 0;
  virtual ibv_cq_ex* CreateCqEx(ibv_context* context, ibv_cq_init_attr_ex* attr) = 0;
  virtual int DestroyCq(ibv_cq* cq) = 0;
  virtual ibv_qp* CreateQp(ibv_pd* pd, ibv_qp_init_attr* attr) = 0;
  virtual int ModifyQp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask) = 0;
  virtual int DestroyQp(ibv_qp* qp) = 0;

  // Per-QP packet pacing, rate in kb/s (0 = no limit).
  virtual int ModifyQpRateLimit(ibv_qp* qp, ibv_qp_rate_limit_attr* attr) = 0;

  // Host clock, ns (CLOCK_MONOTONIC for the real API).
  virtual uint64_t HostNowNs() = 0;
};

// The libibverbs implementation (stateless; one per process is enough).
std::unique_ptr<VerbsApi> RealVerbsApi();

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_VERBS_API_H_
