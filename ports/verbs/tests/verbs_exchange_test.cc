// The TCP exchange of `nicc-verbs run` (exchange.h, run.cc): two in-process
// peers on 127.0.0.1 with the fake device, every failure a peer can cause
// (not there, garbage, another version, short read, silence), the rdma_cm
// private-data codec, and two nicc-verbs processes (the fake-device build)
// completing a run.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <future>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "fake_device.h"
#include "nicc/verbs/commands.h"
#include "nicc/verbs/exchange.h"
#include "nicc/verbs/rdma_cm_link.h"

namespace nicc {
namespace verbs {
namespace {

using testing::FakeDevice;
using ::testing::HasSubstr;

FakeDevice::Config FastClock() {
  FakeDevice::Config cfg;
  cfg.clock_step_ns = 200;  // the fake host clock moves as the run loop reads it
  return cfg;
}

RunOptions ClientOpts(uint16_t port) {
  RunOptions r;
  r.host = "127.0.0.1";
  r.tcp_port = port;
  r.num_paths = 4;
  r.msg_size = 4096;
  r.messages = 200;
  r.duration_s = 5;
  r.timeout_s = 5;
  r.gid_index = 3;
  r.line_rate_mbps = 100000;
  return r;
}

RunOptions ServerOpts() {
  RunOptions r;
  r.server = true;
  r.tcp_port = 0;  // any free port; on_listening says which
  r.timeout_s = 5;
  r.gid_index = 3;
  r.remote_len = 65536;
  r.line_rate_mbps = 100000;
  return r;
}

// A plain TCP socket standing in for a misbehaving peer.
class RawPeer {
 public:
  // Server side: listen on a free port of 127.0.0.1.
  RawPeer() {
    lfd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(lfd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    EXPECT_EQ(listen(lfd_, 1), 0);
    socklen_t l = sizeof a;
    getsockname(lfd_, reinterpret_cast<sockaddr*>(&a), &l);
    port_ = ntohs(a.sin_port);
  }
  ~RawPeer() {
    if (fd_ >= 0) close(fd_);
    if (lfd_ >= 0) close(lfd_);
  }
  uint16_t port() const { return port_; }
  void Accept() { fd_ = accept(lfd_, nullptr, nullptr); }
  void ConnectTo(uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    ASSERT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  }
  void Send(const std::string& s) {
    ASSERT_EQ(write(fd_, s.data(), s.size()), static_cast<ssize_t>(s.size()));
  }
  void CloseWrite() { shutdown(fd_, SHUT_WR); }
  // Everything the peer sends until it closes.
  std::string ReadAll() {
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd_, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    return out;
  }

 private:
  int lfd_ = -1, fd_ = -1;
  uint16_t port_ = 0;
};

// A port nobody listens on: bound, then closed.
uint16_t DeadPort() {
  RawPeer p;
  return p.port();
}

struct Result {
  int rc = -1;
  std::string out, err;
};

// The client against a scripted server: the server accepts, sends `reply`,
// optionally closes its side, and reads what the client sends until it
// closes. Returns the client's exit status and stderr; *seen (if given)
// gets what the client sent.
Result ClientAgainst(const std::string& reply, bool close_after_reply,
                     std::string* seen = nullptr) {
  RawPeer peer;
  std::string got;
  std::thread t([&] {
    peer.Accept();
    peer.Send(reply);
    if (close_after_reply) peer.CloseWrite();
    got = peer.ReadAll();
  });
  FakeDevice dev(FastClock());
  std::istringstream in;
  std::ostringstream out, err;
  Result r;
  r.rc = CmdRun(&dev, HostRoots{}, ClientOpts(peer.port()), in, out, err);
  t.join();
  r.out = out.str();
  r.err = err.str();
  if (seen) *seen = got;
  return r;
}

TEST(ExchangeRunTest, ServerAndClientCompleteARunOverTcp) {
  FakeDevice sdev(FastClock()), cdev(FastClock());
  {
    // Shift the server's key counter, so its rkey (0x1003: pd 0x1001, lkey
    // 0x1002) differs from the one the client's own MR gets (0x1002).
    ibv_context* c = sdev.OpenFirst();
    (void)sdev.DeallocPd(sdev.AllocPd(c));
    (void)sdev.CloseDevice(c);
  }
  std::promise<uint16_t> port;
  Result s, c;
  RunOptions so = ServerOpts();
  so.on_listening = [&](uint16_t p) { port.set_value(p); };
  std::thread server([&] {
    std::istringstream in;  // never read
    std::ostringstream out, err;
    s.rc = CmdRun(&sdev, HostRoots{}, so, in, out, err);
    s.out = out.str();
    s.err = err.str();
  });
  const uint16_t p = port.get_future().get();
  {
    std::istringstream in;
    std::ostringstream out, err;
    c.rc = CmdRun(&cdev, HostRoots{}, ClientOpts(p), in, out, err);
    c.out = out.str();
    c.err = err.str();
  }
  server.join();
  ASSERT_EQ(s.rc, kExitOk) << s.err << s.out;
  ASSERT_EQ(c.rc, kExitOk) << c.err << c.out;
  // The client's 200 writes, sprayed over 4 QPs, into the server's buffer.
  ASSERT_EQ(cdev.posts.size(), 200u);
  std::set<uint32_t> qps;
  for (const auto& post : cdev.posts) {
    qps.insert(post.qp_index);
    EXPECT_EQ(post.rkey, 0x1003u) << "the server's MR rkey, not the client's own";
    EXPECT_EQ(post.length, 4096u);
  }
  EXPECT_EQ(qps.size(), 4u);
  // Each side's QPs point at the other's (both fakes number QPs from 0x100).
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(cdev.dest_qpn_by_qpn[FakeDevice::kFirstQpn + i], FakeDevice::kFirstQpn + i);
    EXPECT_EQ(sdev.dest_qpn_by_qpn[FakeDevice::kFirstQpn + i], FakeDevice::kFirstQpn + i);
    EXPECT_EQ(sdev.state_by_qpn[FakeDevice::kFirstQpn + i], IBV_QPS_RTS);
  }
  EXPECT_THAT(s.out, HasSubstr("client ::ffff:127.0.0.1 asks for 4 paths"));
  EXPECT_THAT(s.out, HasSubstr("the client finished: messages=200 bytes=819200"));
  EXPECT_THAT(c.out, HasSubstr("connected 4 paths to ::ffff:10.0.0.1"));
  EXPECT_THAT(c.out, HasSubstr("total: 200 messages, 819200 bytes"));
  EXPECT_THAT(c.out,
              HasSubstr("completion latency (us, 200 samples): p50 10.10  p99 10.10  p99.9 10.10"));
}

TEST(ExchangeRunTest, RkeyAndAddressComeFromTheServer) {
  // The server's buffer is 64 KiB: 200 x 4 KiB writes wrap inside it.
  FakeDevice sdev(FastClock()), cdev(FastClock());
  std::promise<uint16_t> port;
  RunOptions so = ServerOpts();
  so.on_listening = [&](uint16_t p) { port.set_value(p); };
  int src = -1;
  std::thread server([&] {
    std::istringstream in;
    std::ostringstream out, err;
    src = CmdRun(&sdev, HostRoots{}, so, in, out, err);
  });
  std::istringstream in;
  std::ostringstream out, err;
  ASSERT_EQ(CmdRun(&cdev, HostRoots{}, ClientOpts(port.get_future().get()), in, out, err), kExitOk)
      << err.str();
  server.join();
  ASSERT_EQ(src, kExitOk);
  uint64_t lo = ~0ull, hi = 0;
  for (const auto& p : cdev.posts) {
    lo = std::min(lo, p.remote_addr);
    hi = std::max(hi, p.remote_addr + p.length);
  }
  EXPECT_EQ(hi - lo, 65536u) << "writes cover exactly the server's --remote_len";
}

TEST(ExchangeFailTest, NoServerIsExit3WithAClearMessage) {
  FakeDevice dev(FastClock());
  std::istringstream in;
  std::ostringstream out, err;
  const uint16_t p = DeadPort();
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, ClientOpts(p), in, out, err), kExitNoPeer);
  EXPECT_THAT(err.str(), HasSubstr("no nicc-verbs server at 127.0.0.1:" + std::to_string(p) +
                                   " (Connection refused)"));
  EXPECT_THAT(err.str(), HasSubstr("start `nicc-verbs run --server` there first"));
  EXPECT_EQ(dev.live_qps, 0);
}

TEST(ExchangeFailTest, NoClientWithinTheTimeoutIsExit3) {
  FakeDevice dev(FastClock());
  RunOptions so = ServerOpts();
  so.timeout_s = 0.2;
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, so, in, out, err), kExitNoPeer);
  EXPECT_THAT(err.str(), HasSubstr("no client connected to TCP port"));
  EXPECT_THAT(err.str(), HasSubstr("within 0.2 s (--timeout_s)"));
}

TEST(ExchangeFailTest, SilentServerTimesOut) {
  RawPeer peer;
  FakeDevice dev(FastClock());
  RunOptions r = ClientOpts(peer.port());
  r.timeout_s = 0.3;
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitNoPeer);  // accepted by the backlog
  EXPECT_THAT(err.str(),
              HasSubstr("sent nothing for 0.3 s while we waited for the peer's handshake"));
}

TEST(ExchangeFailTest, GarbageFromTheServerIsRejectedAndTold) {
  std::string seen;
  const Result r = ClientAgainst("HTTP/1.1 400 Bad Request\r\n\r\n", false, &seen);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err, HasSubstr("garbage from the peer: 'HTTP/1.1 400 Bad Request\\x0d'"));
  EXPECT_THAT(r.err, HasSubstr("expected 'nicc-verbs-oob <version>'"));
  // It sent its own handshake, then told the peer why it gave up.
  EXPECT_THAT(seen, HasSubstr("nicc-verbs-oob 1\npaths 4\npath 0 qpn=256"));
  EXPECT_THAT(seen, HasSubstr("\nerror garbage from the peer"));
}

TEST(ExchangeFailTest, GarbageToTheServerIsRejectedAndTold) {
  FakeDevice dev(FastClock());
  std::promise<uint16_t> port;
  RunOptions so = ServerOpts();
  so.on_listening = [&](uint16_t p) { port.set_value(p); };
  Result s;
  std::thread server([&] {
    std::istringstream in;
    std::ostringstream out, err;
    s.rc = CmdRun(&dev, HostRoots{}, so, in, out, err);
    s.err = err.str();
  });
  RawPeer peer;
  peer.ConnectTo(port.get_future().get());
  peer.Send(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n", 12));  // a TLS hello
  const std::string seen = peer.ReadAll();
  server.join();
  EXPECT_EQ(s.rc, kExitFailed);
  EXPECT_THAT(s.err, HasSubstr("garbage from the peer: '\\x16\\x03\\x01"));
  EXPECT_THAT(seen, HasSubstr("error garbage from the peer"));
  EXPECT_EQ(dev.live_qps, 0) << "no QP was made for a peer that never said hello";
}

TEST(ExchangeFailTest, VersionMismatchIsNamedOnBothSides) {
  std::string seen;
  const Result r = ClientAgainst(
      "nicc-verbs-oob 2\npaths 1\npath 0 qpn=5 psn=0 gid=::1 rkey=1 addr=0x0 len=99 "
      "extra=1\nend\n",
      false, &seen);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err, HasSubstr("the peer speaks handshake version 2, this nicc-verbs speaks 1"));
  EXPECT_THAT(r.err, HasSubstr("run the same nicc-verbs release on both hosts"));
  EXPECT_THAT(seen, HasSubstr("error the peer speaks handshake version 2"));
}

TEST(ExchangeFailTest, ARefusalFromTheServerIsReported) {
  const Result r =
      ClientAgainst("error the peer speaks handshake version 1, this nicc-verbs speaks 7\n", true);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err,
              HasSubstr("the peer refused the handshake: the peer speaks handshake version 1"));
}

TEST(ExchangeFailTest, ShortReadSaysHowFarItGot) {
  const Result r = ClientAgainst("nicc-verbs-oob 1\npaths 4\npath 0 qpn=7", true);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err,
              HasSubstr("short read: the peer 127.0.0.1 closed the connection after 37 bytes"));
  EXPECT_THAT(r.err, HasSubstr("(partial line 'path 0 qpn=7')"));
}

TEST(ExchangeFailTest, WrongPathCountOrSmallBufferIsRefused) {
  std::string seen;
  const Result r = ClientAgainst(
      EncodeHello(Hello{kOobVersion, {PathEndpoint{9, 0, ibv_gid{}, 1, 0x1000, 65536}}}), false,
      &seen);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err, HasSubstr("the server answered with 1 paths, the client asked for 4"));
  EXPECT_THAT(seen, HasSubstr("error the server answered with 1 paths"));
}

TEST(ExchangeCodecTest, HelloRoundTripsAndRejectsBadFields) {
  Hello h;
  for (uint32_t i = 0; i < 2; ++i) {
    PathEndpoint e;
    e.qpn = 0x100 + i;
    e.psn = 0xABCDE;
    e.gid.raw[10] = e.gid.raw[11] = 0xFF;
    e.gid.raw[15] = 7;
    e.rkey = 0xDEADBEEF;
    e.addr = 0x7F0000001000ull;
    e.len = 1 << 20;
    h.paths.push_back(e);
  }
  const std::string text = EncodeHello(h);
  EXPECT_EQ(text.substr(0, 34), "nicc-verbs-oob 1\npaths 2\npath 0 qp");
  std::vector<std::string> lines;
  std::istringstream is(text);
  for (std::string l; std::getline(is, l) && l != "end";) lines.push_back(l);
  absl::StatusOr<Hello> back = DecodeHello(lines);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->paths.size(), 2u);
  EXPECT_EQ(back->paths[1].qpn, 0x101u);
  EXPECT_EQ(back->paths[1].psn, 0xABCDEu);
  EXPECT_EQ(back->paths[1].rkey, 0xDEADBEEFu);
  EXPECT_EQ(back->paths[1].addr, 0x7F0000001000ull);
  EXPECT_EQ(back->paths[1].len, 1u << 20);
  EXPECT_EQ(memcmp(back->paths[1].gid.raw, h.paths[1].gid.raw, 16), 0);
  auto bad = [&](size_t i, const std::string& line) {
    std::vector<std::string> l = lines;
    l[i] = line;
    return std::string(DecodeHello(l).status().message());
  };
  EXPECT_THAT(bad(2, "path 0 qpn=0 psn=0 gid=::1 rkey=1 addr=0x0 len=1"),
              HasSubstr("qpn: expected 1..16777215"));
  EXPECT_THAT(bad(2, "path 0 qpn=1 psn=16777216 gid=::1 rkey=1 addr=0x0 len=1"), HasSubstr("psn"));
  EXPECT_THAT(bad(2, "path 1 qpn=1 psn=0 gid=::1 rkey=1 addr=0x0 len=1"),
              HasSubstr("expected 'path 0"));
  EXPECT_THAT(bad(2, "path 0 qpn=1 psn=0 gid=zz rkey=1 addr=0x0 len=1"), HasSubstr("gid:"));
  EXPECT_THAT(bad(1, "paths 0"), HasSubstr("expected 'paths <1..256>'"));
  EXPECT_THAT(bad(1, "paths 3"), HasSubstr("'paths 3' but 2 path lines"));
  EXPECT_THAT(bad(0, "nicc-verbs-oob x"), HasSubstr("the version is not a number"));
}

TEST(ExchangeCodecTest, RdmaCmPrivateDataFitsAndChecksTheVersion) {
  Hello h;
  for (uint32_t i = 0; i < kMaxCmPaths; ++i)
    h.paths.push_back(
        PathEndpoint{0xABC000u + i, 0x123456, ibv_gid{}, 0xCAFEF00D, 0x7F1122334455ull, 4096});
  absl::StatusOr<std::string> pd = EncodeCmHello(h);
  ASSERT_TRUE(pd.ok()) << pd.status();
  EXPECT_LE(pd->size(), kCmPrivateDataMax);
  ibv_gid peer{};
  peer.raw[15] = 9;
  absl::StatusOr<Hello> back = DecodeCmHello(pd->data(), pd->size(), peer);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->paths.size(), kMaxCmPaths);
  EXPECT_EQ(back->paths[7].qpn, 0xABC007u);
  EXPECT_EQ(back->paths[0].psn, 0x123456u);
  EXPECT_EQ(back->paths[0].rkey, 0xCAFEF00Du);
  EXPECT_EQ(back->paths[0].addr, 0x7F1122334455ull);
  EXPECT_EQ(back->paths[0].len, 4096u);
  EXPECT_EQ(back->paths[3].gid.raw[15], 9);
  std::string v2 = *pd;
  v2[2] = 2;
  EXPECT_THAT(std::string(DecodeCmHello(v2.data(), v2.size(), peer).status().message()),
              HasSubstr("the peer speaks handshake version 2"));
  EXPECT_THAT(std::string(DecodeCmHello("GET /", 5, peer).status().message()),
              HasSubstr("not a nicc-verbs handshake"));
  EXPECT_FALSE(DecodeCmHello(pd->data(), 30, peer).ok()) << "short";
  h.paths.push_back(h.paths[0]);
  EXPECT_THAT(std::string(EncodeCmHello(h).status().message()), HasSubstr("at most 8 paths"));
}

TEST(RdmaCmTest, WithoutADeviceTheSameMessageAsEveryCommand) {
  FakeDevice::Config cfg;
  cfg.num_devices = 0;
  FakeDevice dev(cfg);
  for (bool server : {false, true}) {
    RunOptions r = server ? ServerOpts() : ClientOpts(DeadPort());
    r.rdma_cm = true;
    std::istringstream in;
    std::ostringstream out, err;
    const int rc = CmdRun(&dev, HostRoots{}, r, in, out, err);
    if (!CmLink::Built()) {
      EXPECT_EQ(rc, kExitUsage);
      EXPECT_THAT(err.str(), HasSubstr("built without librdmacm"));
      continue;
    }
    EXPECT_EQ(rc, kExitNoDevice) << err.str();
    EXPECT_THAT(err.str(), HasSubstr("no RDMA device found"));
    EXPECT_THAT(err.str(), HasSubstr("modprobe rdma_rxe"));
  }
}

TEST(RdmaCmTest, UsageChecks) {
  FakeDevice dev(FastClock());
  RunOptions r = ClientOpts(1);
  r.rdma_cm = true;
  r.num_paths = 16;
  std::istringstream in;
  std::ostringstream out, err;
  if (CmLink::Built()) {
    EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitUsage);
    EXPECT_THAT(err.str(), HasSubstr("1..8 (--rdma-cm"));
  }
  r = RunOptions{};
  r.rdma_cm = true;
  r.role = "target";
  r.num_paths = 2;
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("--rdma-cm needs --server or HOST"));
}

// ---- Two nicc-verbs processes (the fake-device build of the tool). ----

TEST(ExchangeProcessTest, TwoProcessesCompleteARun) {
  const std::string bin = NICC_VERBS_FAKE_CLI;
  char dir[] = "/tmp/nicc-verbs-xchg-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string sout = std::string(dir) + "/server.out";
  // The server in the background; its first line names the port it got.
  const std::string scmd = bin + " run --server --tcp_port=0 --timeout_s=10 --gid_index=3 > " +
                           sout + " 2>&1; echo \"exit=$?\" >> " + sout;
  FILE* srv = popen(scmd.c_str(), "r");
  ASSERT_NE(srv, nullptr);
  int port = 0;
  for (int i = 0; i < 200 && port == 0; ++i) {
    usleep(20000);
    FILE* f = fopen(sout.c_str(), "r");
    if (f == nullptr) continue;
    char line[256];
    if (fgets(line, sizeof line, f) != nullptr)
      sscanf(line, "server: waiting for a client on TCP port %d", &port);
    fclose(f);
  }
  ASSERT_GT(port, 0) << "the server did not say which port it listens on";
  const std::string ccmd = bin + " run 127.0.0.1 --tcp_port=" + std::to_string(port) +
                           " --gid_index=3 -n 500 -s 8192 --num_paths=8 --spray=ops --cc=dcqcn "
                           "--report_ms=1 --json=" +
                           dir + "/run.json 2>&1";
  FILE* cli = popen(ccmd.c_str(), "r");
  ASSERT_NE(cli, nullptr);
  std::string cout_text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, cli)) > 0) cout_text.append(buf, n);
  const int cst = pclose(cli);
  pclose(srv);
  std::string stext;
  if (FILE* f = fopen(sout.c_str(), "r")) {
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) stext.append(buf, n);
    fclose(f);
  }
  EXPECT_TRUE(WIFEXITED(cst) && WEXITSTATUS(cst) == 0) << cout_text;
  EXPECT_THAT(cout_text, HasSubstr("connected 8 paths"));
  EXPECT_THAT(cout_text, HasSubstr("total: 500 messages, 4096000 bytes"));  // -n 500 -s 8192
  EXPECT_THAT(stext, HasSubstr("client ::ffff:127.0.0.1 asks for 8 paths"));
  EXPECT_THAT(stext, HasSubstr("the client finished: messages=500 bytes=4096000"));
  EXPECT_THAT(stext, HasSubstr("exit=0"));
  std::string json;
  if (FILE* f = fopen((std::string(dir) + "/run.json").c_str(), "r")) {
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) json.append(buf, n);
    fclose(f);
  }
  EXPECT_THAT(json, HasSubstr("\"messages\": 500"));
  EXPECT_THAT(json, HasSubstr("\"paths\": 8"));
  std::string rm = std::string("rm -rf ") + dir;
  EXPECT_EQ(system(rm.c_str()), 0);
}

TEST(ExchangeProcessTest, NoServerExits3) {
  const std::string cmd = std::string(NICC_VERBS_FAKE_CLI) +
                          " run 127.0.0.1 --tcp_port=" + std::to_string(DeadPort()) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[1024];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == kExitNoPeer) << out;
  EXPECT_THAT(out, HasSubstr("(Connection refused)"));
}

}  // namespace
}  // namespace verbs
}  // namespace nicc
