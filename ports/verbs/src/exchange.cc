// The TCP out-of-band exchange of nicc-verbs run (exchange.h).
#include "nicc/verbs/exchange.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nicc/verbs/devices.h"

namespace nicc {
namespace verbs {
namespace {

constexpr char kMagic[] = "nicc-verbs-oob";

uint64_t MonoMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000u + static_cast<uint64_t>(ts.tv_nsec) / 1000000u;
}

uint64_t TimeoutMs(double s) {
  return s <= 0 ? 0 : static_cast<uint64_t>(s * 1000.0 + 0.5);
}

// Waits for `events` on fd until the deadline; 1 ready, 0 timed out, -1 error.
int WaitFd(int fd, short events, uint64_t deadline_ms) {
  for (;;) {
    const uint64_t now = MonoMs();
    if (now >= deadline_ms) return 0;
    pollfd p{fd, events, 0};
    const uint64_t left = deadline_ms - now;
    const int r = poll(&p, 1, static_cast<int>(left > 1000000 ? 1000000 : left));
    if (r > 0) return 1;
    if (r < 0 && errno != EINTR) return -1;
  }
}

std::string KvOf(const std::vector<absl::string_view>& toks, absl::string_view key) {
  for (absl::string_view t : toks) {
    const size_t eq = t.find('=');
    if (eq != absl::string_view::npos && t.substr(0, eq) == key)
      return std::string(t.substr(eq + 1));
  }
  return std::string("\x01");  // absent
}

absl::Status Bad(const std::string& line, const std::string& why) {
  return absl::InvalidArgumentError(
      absl::StrCat("garbage from the peer: '", Printable(line), "': ", why));
}

bool ParseU64(const std::string& s, uint64_t* v) {
  if (absl::StartsWith(s, "0x")) return absl::SimpleHexAtoi(s.substr(2), v);
  return absl::SimpleAtoi(s, v);
}

}  // namespace

std::string Printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (out.size() >= 60) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7F)
      out += static_cast<char>(c);
    else
      out += absl::StrCat("\\x", absl::Hex(c, absl::kZeroPad2));
  }
  return out;
}

std::string EncodeHello(const Hello& h) {
  std::string out = absl::StrCat(kMagic, " ", h.version, "\npaths ", h.paths.size(), "\n");
  for (size_t i = 0; i < h.paths.size(); ++i) {
    const PathEndpoint& p = h.paths[i];
    absl::StrAppend(&out, "path ", i, " qpn=", p.qpn, " psn=", p.psn, " gid=", GidToString(p.gid),
                    " rkey=", p.rkey, " addr=0x", absl::Hex(p.addr), " len=", p.len, "\n");
  }
  out += "end\n";
  return out;
}

absl::StatusOr<Hello> DecodeHello(const std::vector<std::string>& lines) {
  Hello h;
  if (lines.empty()) return absl::InvalidArgumentError("garbage from the peer: empty handshake");
  {
    const std::string& l = lines[0];
    const std::vector<absl::string_view> t = absl::StrSplit(l, ' ');
    if (t.size() != 2 || t[0] != kMagic)
      return Bad(l,
                 absl::StrCat("expected '", kMagic, " <version>' (is the peer nicc-verbs run?)"));
    uint32_t v = 0;
    if (!absl::SimpleAtoi(t[1], &v)) return Bad(l, "the version is not a number");
    if (v != kOobVersion)
      return absl::FailedPreconditionError(
          absl::StrCat("the peer speaks handshake version ", v, ", this nicc-verbs speaks ",
                       kOobVersion, ": run the same nicc-verbs release on both hosts"));
    h.version = v;
  }
  if (lines.size() < 2) return absl::InvalidArgumentError("garbage from the peer: no 'paths' line");
  uint32_t n = 0;
  {
    const std::vector<absl::string_view> t = absl::StrSplit(lines[1], ' ');
    if (t.size() != 2 || t[0] != "paths" || !absl::SimpleAtoi(t[1], &n) || n == 0 ||
        n > kMaxOobPaths)
      return Bad(lines[1], absl::StrCat("expected 'paths <1..", kMaxOobPaths, ">'"));
  }
  if (lines.size() != 2 + n)
    return absl::InvalidArgumentError(absl::StrCat("garbage from the peer: 'paths ", n, "' but ",
                                                   lines.size() - 2, " path lines"));
  for (uint32_t i = 0; i < n; ++i) {
    const std::string& l = lines[2 + i];
    const std::vector<absl::string_view> t = absl::StrSplit(l, ' ', absl::SkipEmpty());
    uint32_t idx = 0;
    if (t.size() != 8 || t[0] != "path" || !absl::SimpleAtoi(t[1], &idx) || idx != i)
      return Bad(
          l, absl::StrCat("expected 'path ", i, " qpn=.. psn=.. gid=.. rkey=.. addr=.. len=..'"));
    PathEndpoint p;
    uint64_t qpn = 0, psn = 0, rkey = 0;
    if (!ParseU64(KvOf(t, "qpn"), &qpn) || qpn == 0 || qpn > 0xFFFFFF)
      return Bad(l, "qpn: expected 1..16777215");
    if (!ParseU64(KvOf(t, "psn"), &psn) || psn > 0xFFFFFF)
      return Bad(l, "psn: expected 0..16777215");
    if (!ParseU64(KvOf(t, "rkey"), &rkey) || rkey > 0xFFFFFFFFull)
      return Bad(l, "rkey: expected a 32-bit number");
    if (!ParseU64(KvOf(t, "addr"), &p.addr)) return Bad(l, "addr: expected 0x<hex>");
    if (!ParseU64(KvOf(t, "len"), &p.len)) return Bad(l, "len: expected a number");
    absl::StatusOr<ibv_gid> g = ParseGid(KvOf(t, "gid"));
    if (!g.ok()) return Bad(l, absl::StrCat("gid: ", g.status().message()));
    p.qpn = static_cast<uint32_t>(qpn);
    p.psn = static_cast<uint32_t>(psn);
    p.rkey = static_cast<uint32_t>(rkey);
    p.gid = *g;
    h.paths.push_back(p);
  }
  return h;
}

absl::StatusOr<std::string> EncodeCmHello(const Hello& h) {
  const size_t n = h.paths.size();
  if (n == 0 || n > kMaxCmPaths)
    return absl::InvalidArgumentError(absl::StrCat("--rdma-cm carries at most ", kMaxCmPaths,
                                                   " paths in its private data (", n, " asked)"));
  const PathEndpoint& p = h.paths[0];
  if (p.len > 0xFFFFFFFFull)
    return absl::InvalidArgumentError("--rdma-cm: the buffer must be below 4 GiB (--remote_len)");
  std::string o = "NV";
  auto put = [&o](uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) o += static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  put(h.version, 1);
  put(n, 1);
  put(p.psn, 3);
  put(p.rkey, 4);
  put(p.addr, 8);
  put(p.len, 4);
  for (const PathEndpoint& e : h.paths) put(e.qpn, 3);
  return o;
}

absl::StatusOr<Hello> DecodeCmHello(const void* data, size_t len, const ibv_gid& peer_gid) {
  const uint8_t* b = static_cast<const uint8_t*>(data);
  if (b == nullptr || len < 3 || b[0] != 'N' || b[1] != 'V')
    return absl::InvalidArgumentError(
        "garbage from the peer: the rdma_cm private data is not a nicc-verbs handshake");
  if (b[2] != kOobVersion)
    return absl::FailedPreconditionError(
        absl::StrCat("the peer speaks handshake version ", b[2], ", this nicc-verbs speaks ",
                     kOobVersion, ": run the same nicc-verbs release on both hosts"));
  size_t off = 3;
  auto get = [&](int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = v << 8 | b[off++];
    return v;
  };
  if (len < 23)
    return absl::InvalidArgumentError("garbage from the peer: short rdma_cm private data");
  const uint32_t n = static_cast<uint32_t>(get(1));
  if (n == 0 || n > kMaxCmPaths || len < 23 + 3 * static_cast<size_t>(n))
    return absl::InvalidArgumentError(absl::StrCat(
        "garbage from the peer: rdma_cm private data for ", n, " paths in ", len, " bytes"));
  PathEndpoint p;
  p.psn = static_cast<uint32_t>(get(3));
  p.rkey = static_cast<uint32_t>(get(4));
  p.addr = get(8);
  p.len = get(4);
  p.gid = peer_gid;
  Hello h;
  for (uint32_t i = 0; i < n; ++i) {
    p.qpn = static_cast<uint32_t>(get(3));
    if (p.qpn == 0)
      return absl::InvalidArgumentError("garbage from the peer: QPN 0 in rdma_cm private data");
    h.paths.push_back(p);
  }
  return h;
}

absl::StatusOr<OobChannel> OobChannel::Listen(uint16_t port) {
  OobChannel c;
  c.listen_fd_ = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  bool v6 = c.listen_fd_ >= 0;
  if (!v6) c.listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (c.listen_fd_ < 0) return absl::InternalError(absl::StrCat("socket: ", strerror(errno)));
  int one = 1, zero = 0;
  setsockopt(c.listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  int rc;
  if (v6) {
    setsockopt(c.listen_fd_, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);  // IPv4 too
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_any;
    a.sin6_port = htons(port);
    rc = bind(c.listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
  } else {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = htons(port);
    rc = bind(c.listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
  }
  if (rc != 0 || listen(c.listen_fd_, 1) != 0)
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot listen on TCP port ", port, ": ", strerror(errno),
        errno == EADDRINUSE ? " (another server running? choose one with --tcp_port)" : ""));
  sockaddr_storage ss{};
  socklen_t sl = sizeof ss;
  getsockname(c.listen_fd_, reinterpret_cast<sockaddr*>(&ss), &sl);
  c.port_ = ntohs(ss.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port
                                           : reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  return c;
}

absl::Status OobChannel::Accept(double timeout_s) {
  const int w = WaitFd(listen_fd_, POLLIN, MonoMs() + TimeoutMs(timeout_s));
  if (w == 0)
    return absl::UnavailableError(absl::StrCat("no client connected to TCP port ", port_,
                                               " within ", timeout_s, " s (--timeout_s)"));
  sockaddr_storage ss{};
  socklen_t sl = sizeof ss;
  fd_ = w < 0 ? -1 : accept4(listen_fd_, reinterpret_cast<sockaddr*>(&ss), &sl, SOCK_CLOEXEC);
  if (fd_ < 0) return absl::InternalError(absl::StrCat("accept: ", strerror(errno)));
  char host[NI_MAXHOST] = "?";
  getnameinfo(reinterpret_cast<sockaddr*>(&ss), sl, host, sizeof host, nullptr, 0, NI_NUMERICHOST);
  peer_ = host;
  close(listen_fd_);
  listen_fd_ = -1;
  return absl::OkStatus();
}

absl::StatusOr<OobChannel> OobChannel::Connect(const std::string& host, uint16_t port,
                                               double timeout_s) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string ps = absl::StrCat(port);
  const int g = getaddrinfo(host.c_str(), ps.c_str(), &hints, &res);
  if (g != 0)
    return absl::UnavailableError(absl::StrCat("cannot resolve '", host, "': ", gai_strerror(g)));
  const uint64_t deadline = MonoMs() + TimeoutMs(timeout_s);
  std::string last = "no address";
  bool timed_out = false;
  for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
    const int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) continue;
    int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    int err = rc == 0 ? 0 : errno;
    if (rc != 0 && err == EINPROGRESS) {
      const int w = WaitFd(fd, POLLOUT, deadline);
      if (w == 0) {
        close(fd);
        timed_out = true;
        continue;
      }
      socklen_t el = sizeof err;
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
    }
    if (err != 0) {
      last = strerror(err);
      close(fd);
      continue;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    freeaddrinfo(res);
    OobChannel c;
    c.fd_ = fd;
    c.port_ = port;
    c.peer_ = host;
    return c;
  }
  freeaddrinfo(res);
  if (timed_out && last == "no address")
    return absl::UnavailableError(absl::StrCat("no answer from ", host, ":", port, " within ",
                                               timeout_s, " s (--timeout_s)"));
  return absl::UnavailableError(
      absl::StrCat("no nicc-verbs server at ", host, ":", port, " (", last,
                   "); start `nicc-verbs run --server` there first (same --tcp_port)"));
}

OobChannel::OobChannel(OobChannel&& o) noexcept {
  *this = std::move(o);
}

OobChannel& OobChannel::operator=(OobChannel&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) close(fd_);
    if (listen_fd_ >= 0) close(listen_fd_);
    fd_ = std::exchange(o.fd_, -1);
    listen_fd_ = std::exchange(o.listen_fd_, -1);
    port_ = o.port_;
    peer_ = std::move(o.peer_);
    buf_ = std::move(o.buf_);
    received_ = o.received_;
  }
  return *this;
}

OobChannel::~OobChannel() {
  if (fd_ >= 0) close(fd_);
  if (listen_fd_ >= 0) close(listen_fd_);
}

absl::Status OobChannel::Send(const std::string& text) {
  size_t off = 0;
  while (off < text.size()) {
    const ssize_t n = send(fd_, text.data() + off, text.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return absl::UnavailableError(
          absl::StrCat("sending to the peer ", peer_, ": ", strerror(errno)));
    off += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> OobChannel::RecvLine(double timeout_s, const std::string& what) {
  const uint64_t deadline = MonoMs() + TimeoutMs(timeout_s);
  for (;;) {
    const size_t nl = buf_.find('\n');
    if (nl != std::string::npos) {
      if (nl > kMaxLine) break;
      std::string line = buf_.substr(0, nl);
      buf_.erase(0, nl + 1);
      return line;
    }
    if (buf_.size() > kMaxLine) break;
    const int w = WaitFd(fd_, POLLIN, deadline);
    if (w == 0)
      return absl::DeadlineExceededError(absl::StrCat("the peer ", peer_, " sent nothing for ",
                                                      timeout_s, " s while we waited for ", what,
                                                      " (--timeout_s)"));
    char tmp[1024];
    const ssize_t n = w < 0 ? -1 : recv(fd_, tmp, sizeof tmp, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0)
      return absl::DataLossError(absl::StrCat(
          "short read: the peer ", peer_, " closed the connection after ", received_,
          " bytes, while we waited for ", what,
          buf_.empty() ? std::string() : absl::StrCat(" (partial line '", Printable(buf_), "')")));
    if (n < 0)
      return absl::UnavailableError(absl::StrCat("receiving from ", peer_, ": ", strerror(errno)));
    received_ += static_cast<uint64_t>(n);
    buf_.append(tmp, static_cast<size_t>(n));
  }
  return absl::InvalidArgumentError(absl::StrCat("garbage from the peer ", peer_,
                                                 ": a line longer than ", kMaxLine,
                                                 " bytes starting '", Printable(buf_), "'"));
}

absl::StatusOr<Hello> OobChannel::RecvHello(double timeout_s) {
  std::vector<std::string> lines;
  for (;;) {
    absl::StatusOr<std::string> l = RecvLine(timeout_s, "the peer's handshake");
    if (!l.ok()) return l.status();
    if (lines.empty() && absl::StartsWith(*l, "error "))
      return absl::FailedPreconditionError(
          absl::StrCat("the peer refused the handshake: ", l->substr(6)));
    if (*l == "end") break;
    lines.push_back(*l);
    // A version line we do not speak: stop before parsing the rest.
    if (lines.size() == 1 || lines.size() > 2 + kMaxOobPaths) {
      absl::StatusOr<Hello> first = DecodeHello(lines);
      if (!first.ok() && !absl::StrContains(first.status().message(), "no 'paths' line"))
        return first.status();
    }
  }
  return DecodeHello(lines);
}

absl::StatusOr<std::string> OobChannel::Expect(const std::string& word, double timeout_s) {
  absl::StatusOr<std::string> l = RecvLine(timeout_s, absl::StrCat("'", word, "'"));
  if (!l.ok()) return l;
  if (absl::StartsWith(*l, "error "))
    return absl::FailedPreconditionError(absl::StrCat("the peer gave up: ", l->substr(6)));
  if (*l != word && !absl::StartsWith(*l, word + " "))
    return absl::InvalidArgumentError(absl::StrCat("garbage from the peer ", peer_, ": expected '",
                                                   word, "', got '", Printable(*l), "'"));
  return l;
}

void OobChannel::SendError(const std::string& why) {
  if (fd_ < 0) return;
  std::string w = why;
  for (char& c : w)
    if (c == '\n') c = ' ';
  (void)Send(absl::StrCat("error ", w.substr(0, kMaxLine - 8), "\n"));
  shutdown(fd_, SHUT_WR);
}

}  // namespace verbs
}  // namespace nicc
