// nicc/verbs/rdma_cm_link.h — `nicc-verbs run --rdma-cm`: connection setup
// through librdmacm instead of the TCP exchange. rdma_cm resolves the
// peer's IP address to a local device, port and route
// (rdma_resolve_addr / rdma_resolve_route), and the connection request and
// reply (rdma_connect / rdma_accept) carry the handshake as private data
// (EncodeCmHello in exchange.h: magic, version, QPNs, PSN, rkey, addr, len;
// the GID is the peer's IP address as rdma_cm resolved it). The cm_id has no
// QP of its own: the PathSet's QPs are connected by PathSet::Connect with the
// numbers the private data carried, the server's before it accepts.
//
// Built only when CMake finds librdmacm (rdma/rdma_cma.h); otherwise Built()
// is false and every call returns FailedPrecondition saying so.
//
//   if (!CmLink::Built()) ...
//   auto link = CmLink::Client("10.0.0.2", 18515, 10.0);   // or Server(port, timeout)
//   ibv_context* ctx = (*link)->context();                  // create the PathSet on it
//   absl::StatusOr<Hello> peer = (*link)->Establish(mine, 10.0);
#ifndef NICC_VERBS_RDMA_CM_LINK_H_
#define NICC_VERBS_RDMA_CM_LINK_H_

#include <infiniband/verbs.h>
#include <stdint.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "nicc/verbs/exchange.h"

namespace nicc {
namespace verbs {

class CmLink {
 public:
  static bool Built();
  // Client: resolve host:port to a device, port and route.
  static absl::StatusOr<std::unique_ptr<CmLink>> Client(const std::string& host, uint16_t port,
                                                        double timeout_s);
  // Server: listen on port and wait for one connect request.
  static absl::StatusOr<std::unique_ptr<CmLink>> Server(uint16_t port, double timeout_s);
  virtual ~CmLink() = default;

  virtual ibv_context* context() const = 0;  // the device rdma_cm chose (not ours to close)
  virtual uint8_t port_num() const = 0;
  virtual const Hello& request() const = 0;  // server: the client's hello
  // Client: connect with `mine`, return the server's hello. Server: accept
  // with `mine` (its QPs must already be in RTR), return request().
  virtual absl::StatusOr<Hello> Establish(const Hello& mine, double timeout_s) = 0;
  // Client: disconnect at the end. Server: wait for the client's disconnect.
  virtual absl::Status Finish(double timeout_s) = 0;
};

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_RDMA_CM_LINK_H_
