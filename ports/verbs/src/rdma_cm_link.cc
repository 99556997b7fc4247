// --rdma-cm connection setup over librdmacm (rdma_cm_link.h).
#include "nicc/verbs/rdma_cm_link.h"

#include "absl/strings/str_cat.h"

#ifdef NICC_VERBS_HAVE_RDMACM
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <string.h>

#include <cstring>
#endif

namespace nicc {
namespace verbs {

#ifndef NICC_VERBS_HAVE_RDMACM

bool CmLink::Built() {
  return false;
}

namespace {
absl::Status NotBuilt() {
  return absl::FailedPreconditionError(
      "--rdma-cm: this nicc-verbs was built without librdmacm (install librdmacm-dev and "
      "rebuild); use the TCP exchange (the default)");
}
}  // namespace

absl::StatusOr<std::unique_ptr<CmLink>> CmLink::Client(const std::string&, uint16_t, double) {
  return NotBuilt();
}
absl::StatusOr<std::unique_ptr<CmLink>> CmLink::Server(uint16_t, double) {
  return NotBuilt();
}

#else

bool CmLink::Built() {
  return true;
}

namespace {

ibv_gid GidOfAddr(const sockaddr* sa) {
  ibv_gid g{};
  if (sa == nullptr) return g;
  if (sa->sa_family == AF_INET) {
    // IPv4-mapped: ::ffff:a.b.c.d, the RoCE v2 GID of an IPv4 address.
    g.raw[10] = 0xFF;
    g.raw[11] = 0xFF;
    memcpy(&g.raw[12], &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, 4);
  } else if (sa->sa_family == AF_INET6) {
    memcpy(g.raw, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, 16);
  }
  return g;
}

int TimeoutMs(double s) {
  return s <= 0 ? 0 : static_cast<int>(s * 1000.0 + 0.5);
}

class RealCmLink : public CmLink {
 public:
  ~RealCmLink() override {
    if (conn_ != nullptr && conn_ != listen_) rdma_destroy_id(conn_);
    if (listen_ != nullptr) rdma_destroy_id(listen_);
    if (ch_ != nullptr) rdma_destroy_event_channel(ch_);
  }

  // Waits for one event on the channel; `want` is the expected type. The
  // event's private data (if any) is copied to *pdata.
  absl::Status Wait(rdma_cm_event_type want, double timeout_s, const char* what,
                    std::string* pdata = nullptr, rdma_cm_id** new_id = nullptr) {
    pollfd p{ch_->fd, POLLIN, 0};
    const int r = poll(&p, 1, TimeoutMs(timeout_s));
    if (r == 0)
      return absl::UnavailableError(
          absl::StrCat("--rdma-cm: no ", what, " within ", timeout_s, " s (--timeout_s)"));
    rdma_cm_event* ev = nullptr;
    if (r < 0 || rdma_get_cm_event(ch_, &ev) != 0)
      return absl::InternalError(absl::StrCat("--rdma-cm: rdma_get_cm_event: ", strerror(errno)));
    const rdma_cm_event_type got = ev->event;
    const int status = ev->status;
    if (got == want) {
      if (pdata != nullptr && ev->param.conn.private_data != nullptr)
        pdata->assign(static_cast<const char*>(ev->param.conn.private_data),
                      ev->param.conn.private_data_len);
      if (new_id != nullptr) *new_id = ev->id;
      rdma_ack_cm_event(ev);
      return absl::OkStatus();
    }
    rdma_ack_cm_event(ev);
    const std::string msg = absl::StrCat("--rdma-cm: waiting for ", what, ", got ",
                                         rdma_event_str(got), " (status ", status, ")");
    if (got == RDMA_CM_EVENT_REJECTED || got == RDMA_CM_EVENT_UNREACHABLE ||
        got == RDMA_CM_EVENT_ADDR_ERROR || got == RDMA_CM_EVENT_ROUTE_ERROR)
      return absl::UnavailableError(absl::StrCat(
          msg, ": is `nicc-verbs run --server --rdma-cm` running there (same --tcp_port)?"));
    return absl::InternalError(msg);
  }

  ibv_context* context() const override { return conn_->verbs; }
  uint8_t port_num() const override { return conn_->port_num; }
  const Hello& request() const override { return request_; }

  absl::StatusOr<Hello> Establish(const Hello& mine, double timeout_s) override {
    absl::StatusOr<std::string> pd = EncodeCmHello(mine);
    if (!pd.ok()) return pd.status();
    rdma_conn_param cp{};
    cp.private_data = pd->data();
    cp.private_data_len = static_cast<uint8_t>(pd->size());
    cp.responder_resources = 1;
    cp.initiator_depth = 1;
    cp.retry_count = 7;
    cp.rnr_retry_count = 7;
    cp.qp_num = mine.paths[0].qpn;  // the cm_id has no QP of its own
    if (server_) {
      if (rdma_accept(conn_, &cp) != 0)
        return absl::InternalError(absl::StrCat("--rdma-cm: rdma_accept: ", strerror(errno)));
      absl::Status st = Wait(RDMA_CM_EVENT_ESTABLISHED, timeout_s, "ESTABLISHED");
      if (!st.ok()) return st;
      return request_;
    }
    if (rdma_connect(conn_, &cp) != 0)
      return absl::InternalError(absl::StrCat("--rdma-cm: rdma_connect: ", strerror(errno)));
    std::string reply;
    absl::Status st = Wait(RDMA_CM_EVENT_ESTABLISHED, timeout_s, "the server's reply", &reply);
    if (!st.ok()) return st;
    return DecodeCmHello(reply.data(), reply.size(), GidOfAddr(rdma_get_peer_addr(conn_)));
  }

  absl::Status Finish(double timeout_s) override {
    if (!server_) {
      rdma_disconnect(conn_);
      return absl::OkStatus();
    }
    return Wait(RDMA_CM_EVENT_DISCONNECTED, timeout_s, "the client's disconnect");
  }

  bool server_ = false;
  rdma_event_channel* ch_ = nullptr;
  rdma_cm_id* listen_ = nullptr;
  rdma_cm_id* conn_ = nullptr;
  Hello request_;
};

absl::Status Errno(const char* call) {
  return absl::UnavailableError(absl::StrCat("--rdma-cm: ", call, ": ", strerror(errno)));
}

}  // namespace

absl::StatusOr<std::unique_ptr<CmLink>> CmLink::Client(const std::string& host, uint16_t port,
                                                       double timeout_s) {
  auto l = std::make_unique<RealCmLink>();
  l->ch_ = rdma_create_event_channel();
  if (l->ch_ == nullptr) return Errno("rdma_create_event_channel");
  if (rdma_create_id(l->ch_, &l->conn_, nullptr, RDMA_PS_TCP) != 0) return Errno("rdma_create_id");
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string ps = absl::StrCat(port);
  const int g = getaddrinfo(host.c_str(), ps.c_str(), &hints, &res);
  if (g != 0)
    return absl::UnavailableError(absl::StrCat("cannot resolve '", host, "': ", gai_strerror(g)));
  const int rc = rdma_resolve_addr(l->conn_, nullptr, res->ai_addr, TimeoutMs(timeout_s));
  freeaddrinfo(res);
  if (rc != 0) return Errno("rdma_resolve_addr");
  absl::Status st = l->Wait(RDMA_CM_EVENT_ADDR_RESOLVED, timeout_s, "address resolution");
  if (!st.ok()) return st;
  if (rdma_resolve_route(l->conn_, TimeoutMs(timeout_s)) != 0) return Errno("rdma_resolve_route");
  st = l->Wait(RDMA_CM_EVENT_ROUTE_RESOLVED, timeout_s, "route resolution");
  if (!st.ok()) return st;
  return std::unique_ptr<CmLink>(std::move(l));
}

absl::StatusOr<std::unique_ptr<CmLink>> CmLink::Server(uint16_t port, double timeout_s) {
  auto l = std::make_unique<RealCmLink>();
  l->server_ = true;
  l->ch_ = rdma_create_event_channel();
  if (l->ch_ == nullptr) return Errno("rdma_create_event_channel");
  if (rdma_create_id(l->ch_, &l->listen_, nullptr, RDMA_PS_TCP) != 0)
    return Errno("rdma_create_id");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  if (rdma_bind_addr(l->listen_, reinterpret_cast<sockaddr*>(&a)) != 0)
    return Errno("rdma_bind_addr");
  if (rdma_listen(l->listen_, 1) != 0) return Errno("rdma_listen");
  std::string pdata;
  absl::Status st =
      l->Wait(RDMA_CM_EVENT_CONNECT_REQUEST, timeout_s, "connect request", &pdata, &l->conn_);
  if (!st.ok()) return st;
  absl::StatusOr<Hello> h =
      DecodeCmHello(pdata.data(), pdata.size(), GidOfAddr(rdma_get_peer_addr(l->conn_)));
  if (!h.ok()) {
    rdma_reject(l->conn_, nullptr, 0);
    return h.status();
  }
  l->request_ = *h;
  return std::unique_ptr<CmLink>(std::move(l));
}

#endif  // NICC_VERBS_HAVE_RDMACM

}  // namespace verbs
}  // namespace nicc
