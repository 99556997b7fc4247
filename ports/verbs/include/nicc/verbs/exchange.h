// nicc/verbs/exchange.h — the out-of-band exchange of `nicc-verbs run`:
// a TCP connection between the two hosts (perftest style: the server
// listens, the client names it), over which each side sends what the other
// needs to connect its QPs.
//
// Protocol (text lines, '\n'-terminated, each at most kMaxLine bytes):
//
//   client -> server   nicc-verbs-oob <version>
//                      paths <n>
//                      path <i> qpn=<u24> psn=<u24> gid=<ipv6 text> rkey=<u32> addr=0x<hex>
//                      len=<u64>
//                      ... (n path lines, i = 0..n-1)
//                      end
//   server -> client   the same block for the server's QPs (rkey/addr/len: its buffer)
//   server -> client   ready                (its QPs are in RTR: writes may start)
//   client -> server   done messages=<n> bytes=<b> seconds=<s>
//   server -> client   bye
//
// Either side that rejects what it read (wrong magic, other version, bad
// field, wrong path count) sends "error <why>" and closes; the other reports
// "the peer refused the handshake: <why>". The version is checked first, so
// a future version's fields never reach this parser.
//
//   absl::StatusOr<OobChannel> ch = OobChannel::Connect("10.0.0.2", 18515, 10.0);
//   ch->Send(EncodeHello(mine));
//   absl::StatusOr<Hello> peer = ch->RecvHello();
//
// Status codes: Unavailable = nobody there (connection refused, no client
// within the timeout, unknown host), DeadlineExceeded = the peer went silent,
// DataLoss = short read (the peer closed mid-message), InvalidArgument =
// garbage or a field out of range, FailedPrecondition = version mismatch or
// a refusal by the peer.
#ifndef NICC_VERBS_EXCHANGE_H_
#define NICC_VERBS_EXCHANGE_H_

#include <infiniband/verbs.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace nicc {
namespace verbs {

constexpr uint32_t kOobVersion = 1;
constexpr uint16_t kOobDefaultPort = 18515;  // perftest's default
constexpr size_t kMaxLine = 512;
constexpr uint32_t kMaxOobPaths = 256;

struct PathEndpoint {
  uint32_t qpn = 0;
  uint32_t psn = 0;
  ibv_gid gid{};
  uint32_t rkey = 0;
  uint64_t addr = 0;
  uint64_t len = 0;
};

struct Hello {
  uint32_t version = kOobVersion;
  std::vector<PathEndpoint> paths;
};

// The text block of a hello, "end" line included.
std::string EncodeHello(const Hello& h);
// Parses one hello's lines (without the trailing "end"); the version is
// checked first.
absl::StatusOr<Hello> DecodeHello(const std::vector<std::string>& lines);

// The same handshake in the private data of an rdma_cm connect request /
// reply (--rdma-cm), which holds at most 56 bytes: "NV", version (1 byte),
// path count (1), PSN (3), rkey (4), addr (8), len (4), then 3 bytes per QPN
// (big-endian): at most kMaxCmPaths paths. The GID is not carried (rdma_cm
// knows the peer's address): DecodeCmHello sets `peer_gid` on every path.
constexpr uint32_t kMaxCmPaths = 8;
constexpr size_t kCmPrivateDataMax = 56;
absl::StatusOr<std::string> EncodeCmHello(const Hello& h);
absl::StatusOr<Hello> DecodeCmHello(const void* data, size_t len, const ibv_gid& peer_gid);

// A connected TCP socket with deadlines (seconds, from each call).
class OobChannel {
 public:
  // Server: listen on `port` (0 = any free port; port() tells which) of every
  // address, for one client.
  static absl::StatusOr<OobChannel> Listen(uint16_t port);
  absl::Status Accept(double timeout_s);
  // Client: connect to host:port (a name or an address).
  static absl::StatusOr<OobChannel> Connect(const std::string& host, uint16_t port,
                                            double timeout_s);

  OobChannel(OobChannel&& o) noexcept;
  OobChannel& operator=(OobChannel&& o) noexcept;
  OobChannel(const OobChannel&) = delete;
  OobChannel& operator=(const OobChannel&) = delete;
  ~OobChannel();

  uint16_t port() const { return port_; }
  const std::string& peer() const { return peer_; }

  absl::Status Send(const std::string& text);
  // One line without its '\n'. `what` says what was expected (messages).
  absl::StatusOr<std::string> RecvLine(double timeout_s, const std::string& what);
  // A whole hello block; a peer's "error ..." line becomes FailedPrecondition.
  absl::StatusOr<Hello> RecvHello(double timeout_s);
  // Expect exactly `word` as the first token of the next line; returns the line.
  absl::StatusOr<std::string> Expect(const std::string& word, double timeout_s);
  // Tells the peer why we give up (best effort) and closes.
  void SendError(const std::string& why);

 private:
  OobChannel() = default;
  int listen_fd_ = -1;
  int fd_ = -1;
  uint16_t port_ = 0;
  std::string peer_;
  std::string buf_;        // received, not yet returned
  uint64_t received_ = 0;  // bytes received so far (for short-read messages)
};

// A received line made printable for a message: control bytes as \xNN,
// at most 60 characters.
std::string Printable(const std::string& s);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_EXCHANGE_H_
