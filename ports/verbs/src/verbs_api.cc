// The real VerbsApi: one line per call into libibverbs.
#include "nicc/verbs/verbs_api.h"

#include <errno.h>
#include <time.h>

namespace nicc {
namespace verbs {
namespace {

class LibibverbsApi final : public VerbsApi {
 public:
  ibv_device** GetDeviceList(int* n) override { return ibv_get_device_list(n); }
  void FreeDeviceList(ibv_device** list) override { ibv_free_device_list(list); }
  const char* GetDeviceName(ibv_device* d) override { return ibv_get_device_name(d); }
  ibv_context* OpenDevice(ibv_device* d) override { return ibv_open_device(d); }
  int CloseDevice(ibv_context* c) override { return ibv_close_device(c); }

  int QueryDeviceEx(ibv_context* c, ibv_device_attr_ex* attr) override {
    return ibv_query_device_ex(c, nullptr, attr);
  }
  int QueryPort(ibv_context* c, uint8_t port, ibv_port_attr* attr) override {
    return ibv_query_port(c, port, attr);
  }
  int QueryGid(ibv_context* c, uint8_t port, int index, ibv_gid* gid) override {
    return ibv_query_gid(c, port, index, gid);
  }
  int QueryRtValuesEx(ibv_context* c, ibv_values_ex* values) override {
    return ibv_query_rt_values_ex(c, values);
  }

  ibv_pd* AllocPd(ibv_context* c) override { return ibv_alloc_pd(c); }
  int DeallocPd(ibv_pd* pd) override { return ibv_dealloc_pd(pd); }
  ibv_mr* RegMr(ibv_pd* pd, void* addr, size_t len, int access) override {
    return ibv_reg_mr(pd, addr, len, access);
  }
  int DeregMr(ibv_mr* mr) override { return ibv_dereg_mr(mr); }
  ibv_cq_ex* CreateCqEx(ibv_context* c, ibv_cq_init_attr_ex* attr) override {
    return ibv_create_cq_ex(c, attr);
  }
  int DestroyCq(ibv_cq* cq) override { return ibv_destroy_cq(cq); }
  ibv_qp* CreateQp(ibv_pd* pd, ibv_qp_init_attr* attr) override {
    return ibv_create_qp(pd, attr);
  }
  int ModifyQp(ibv_qp* qp, ibv_qp_attr* attr, int mask) override {
    return ibv_modify_qp(qp, attr, mask);
  }
  int DestroyQp(ibv_qp* qp) override { return ibv_destroy_qp(qp); }
  int ModifyQpRateLimit(ibv_qp* qp, ibv_qp_rate_limit_attr* attr) override {
    return ibv_modify_qp_rate_limit(qp, attr);
  }

  uint64_t HostNowNs() override {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
  }
};

}  // namespace

std::unique_ptr<VerbsApi> RealVerbsApi() { return std::make_unique<LibibverbsApi>(); }

}  // namespace verbs
}  // namespace nicc
