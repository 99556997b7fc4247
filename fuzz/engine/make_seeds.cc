// make_seeds.cc — writes the binary seed inputs of the int-decode and fw-abi
// fuzz targets (fuzz/corpus/int-decode, fuzz/corpus/fw-abi) from the codec
// and the C ABI themselves, so that a seed follows the struct layout and the
// defaults of the build that wrote it:
//
//   build/release/fuzz/engine/nicc-fuzz-make-seeds fuzz/corpus
//
// Input layouts: the banners of fuzz_int_decode.cc and fuzz_fw_abi.cc.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "nicc/fw.h"
#include "nicc/int_codec.h"

namespace {

using Bytes = std::vector<uint8_t>;

void Put32le(Bytes* b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

bool Write(const std::string& path, const Bytes& b) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(b.data(), 1, b.size(), f) == b.size();
  return std::fclose(f) == 0 && ok;
}

// An INT stack of `hops` hops at round k: each hop's clock and byte counter
// advance by one RTT's worth, hop `hot` carries a queue.
Bytes Stack(uint32_t hops, uint32_t k, uint32_t hot, uint32_t mult, uint32_t rate_code) {
  nicc::IntStack st{};
  st.hop_count = static_cast<uint8_t>(hops);
  st.mult_log2 = static_cast<uint8_t>(mult);
  for (uint32_t h = 0; h < hops && h < nicc::kIntMaxHops; ++h)
    st.hops[h] = nicc::IntHop::Make(rate_code, 13000 * k + 300 * h, (k * 12000u) >> mult,
                                    h == hot ? (30000u / nicc::kIntQlenUnitBytes) >> mult : 0u);
  uint8_t buf[64];
  size_t len = 0;
  if (!nicc::EncodeIntStack(st, buf, sizeof buf, &len).ok()) return Bytes{};
  return Bytes(buf, buf + len);
}

// int-decode: one record (8-byte header, then the stack).
void IntRecord(Bytes* b, const Bytes& stack, int16_t dt16, uint8_t seq_step, uint16_t ev,
               uint8_t pint) {
  b->push_back(static_cast<uint8_t>(stack.size()));
  b->push_back(static_cast<uint8_t>(static_cast<uint16_t>(dt16) >> 8));
  b->push_back(static_cast<uint8_t>(dt16));
  b->push_back(seq_step);
  b->push_back(40);
  b->push_back(static_cast<uint8_t>(ev >> 8));
  b->push_back(static_cast<uint8_t>(ev));
  b->push_back(pint);
  b->insert(b->end(), stack.begin(), stack.end());
}

Bytes IntSeed(uint32_t hops, uint32_t mult, uint32_t rate_code, bool tuned) {
  Bytes b = {0, 0};
  if (tuned) {  // rows 0 (line rate) and 1 (base RTT) from the input: 400G-ish, ~5 us
    b = {1, 3};
    for (uint32_t v : {400000u - 1u, 4000u}) {
      for (int i = 3; i >= 0; --i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
  }
  for (uint32_t k = 1; k <= 24; ++k)
    IntRecord(&b, Stack(hops, k, k % hops, mult, rate_code), 13000 / 16, 4,
              static_cast<uint16_t>(11 + k % 3), static_cast<uint8_t>(100 + k));
  return b;
}

Bytes IntBadSeed() {
  Bytes b = {0, 0};
  IntRecord(&b, Bytes{}, 100, 1, 1, 0);                                 // empty: truncated header
  IntRecord(&b, Bytes{6, 0}, 100, 1, 1, 0);                             // 6 hops: too many
  IntRecord(&b, Bytes{2, 0, 0x60, 0, 0, 0, 0, 0, 0, 0}, 100, 1, 1, 0);  // 2 hops, one record
  Bytes zero_rate = Stack(1, 1, 0, 0, 3);
  zero_rate[2] &= 0x1F;  // rate code 0
  IntRecord(&b, zero_rate, 100, 1, 1, 0);
  Bytes reserved = Stack(2, 2, 1, 2, 5);
  reserved[1] |= 0xF8;       // reserved header bits set
  reserved.push_back(0xEE);  // a trailing byte
  IntRecord(&b, reserved, -100, 1, 1, 255);
  return b;
}

// fw-abi: the parameter struct, the contexts' header, then 32-byte records.
struct FwEvent {
  uint8_t op, kind;
  uint32_t dt, bytes, seq, nxt, rtt;
  uint16_t ev;
  uint8_t ecn, pint, has_pint;
  Bytes stack;  // empty: no stack
  uint32_t credit;
};

void FwRecord(Bytes* b, const FwEvent& e) {
  b->push_back(e.op);
  b->push_back(e.kind);
  for (uint32_t v : {e.dt, e.bytes, e.seq, e.nxt, e.rtt}) Put32le(b, v);
  b->push_back(static_cast<uint8_t>(e.ev));
  b->push_back(static_cast<uint8_t>(e.ev >> 8));
  b->push_back(e.ecn);
  b->push_back(e.pint);
  b->push_back(e.has_pint);
  b->push_back(e.stack.empty() ? 255 : static_cast<uint8_t>(e.stack.size()));
  Put32le(b, e.credit);
  b->insert(b->end(), e.stack.begin(), e.stack.end());
}

Bytes FwSeed(uint32_t cc, uint32_t policy, uint32_t ev_bits) {
  nicc_fw_params p;
  nicc_fw_params_default(&p, 100000);
  p.cc = cc;
  p.spray.policy = policy;
  p.spray.ev_bits = ev_bits;
  p.ecn_rule.change_path_on_low_delay = cc == NICC_FW_CC_DCQCN ? 1 : 0;
  Bytes b(reinterpret_cast<const uint8_t*>(&p), reinterpret_cast<const uint8_t*>(&p) + sizeof p);
  Put32le(&b, 7);                 // key
  Put32le(&b, 99);                // seed
  Put32le(&b, 1000);              // start_seq
  Put32le(&b, NICC_FW_CC_DCQCN);  // the second receiver's sender CC
  for (uint32_t k = 1; k <= 20; ++k) {
    const uint32_t seq = 1000 + 4096 * k;
    FwEvent sel{6, 0, 500, 0, 0, 0, 0, 0, 0, 0, 0, {}, 0};
    FwRecord(&b, sel);
    FwEvent ack{0,
                NICC_FW_EV_ACK,
                1000,
                4096,
                seq,
                seq + 65536,
                14000 + 500 * (k % 7),
                static_cast<uint16_t>(0xC000 + k % 4),
                static_cast<uint8_t>(k % 3 == 0),
                static_cast<uint8_t>(90 + 3 * k),
                1,
                {},
                seq + 150000};
    if (cc == NICC_FW_CC_HPCC || cc == NICC_FW_CC_HPCC_SPRAY) ack.stack = Stack(3, k, k % 3, 0, 3);
    FwRecord(&b, ack);
    if (k % 4 == 0) FwRecord(&b, FwEvent{1, NICC_FW_EV_CNP, 200, 0, 0, 0, 0, 0, 0, 0, 0, {}, 0});
    if (k % 5 == 0)
      FwRecord(&b, FwEvent{2, NICC_FW_EV_TIMER, 60000, 0, 0, 0, 0, 0, 0, 0, 0, {}, 0});
    if (k % 6 == 0)
      FwRecord(&b,
               FwEvent{3, NICC_FW_EV_NACK, 100, 4160, 0, seq + 70000, 0, 0xC001, 0, 0, 0, {}, 0});
    if (k % 3 == 1)
      FwRecord(&b, FwEvent{3, NICC_FW_EV_TX_DONE, 100, 65536, 0, 0, 0, 0, 0, 0, 0, {}, 0});
    FwRecord(&b, FwEvent{static_cast<uint8_t>(k % 2 ? 5 : 0x14),
                         NICC_FW_EV_RX_DATA,
                         300,
                         4096,
                         seq,
                         seq + 1000000,
                         0,
                         0,
                         static_cast<uint8_t>(k % 2),
                         0,
                         0,
                         {},
                         0});
  }
  FwRecord(&b, FwEvent{7, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, {}, 0});  // a receiver closes
  FwRecord(&b, FwEvent{0, NICC_FW_EV_ACK, 10, 0, 0, 0, 0, 0, 0, 0, 0, Bytes{1, 2, 3},
                       0});  // malformed stack
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: %s CORPUS_DIR   (writes CORPUS_DIR/int-decode/*, CORPUS_DIR/fw-abi/*)\n",
                 argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  bool ok = true;
  ok &= Write(dir + "/int-decode/paper-3hops", IntSeed(3, 0, 3, false));
  ok &= Write(dir + "/int-decode/tuned-5hops-mult3", IntSeed(5, 3, 5, true));
  ok &= Write(dir + "/int-decode/one-hop-1600g", IntSeed(1, 0, 7, false));
  ok &= Write(dir + "/int-decode/malformed", IntBadSeed());
  static const char* const kCc[] = {"none", "dcqcn",      "hpcc",     "hpcc-pint",
                                    "nscc", "hpcc-spray", "nscc-rccc"};
  static_assert(sizeof(kCc) / sizeof(kCc[0]) == NICC_FW_CC_COUNT, "one seed per CC kind");
  for (uint32_t cc = 0; cc < NICC_FW_CC_COUNT; ++cc) {
    const uint32_t policy = cc == NICC_FW_CC_DCQCN ? NICC_FW_SPRAY_ECMP : NICC_FW_SPRAY_REPS;
    ok &= Write(dir + "/fw-abi/" + kCc[cc], FwSeed(cc, policy, cc == NICC_FW_CC_DCQCN ? 0 : 2));
  }
  ok &= Write(dir + "/fw-abi/nscc-dlb", FwSeed(NICC_FW_CC_NSCC, NICC_FW_SPRAY_DLB, 3));
  ok &= Write(dir + "/fw-abi/dcqcn-bitmap", FwSeed(NICC_FW_CC_DCQCN, NICC_FW_SPRAY_BITMAP, 3));
  Bytes bad = FwSeed(NICC_FW_CC_NSCC, NICC_FW_SPRAY_OPS, 2);
  nicc_fw_params p;
  std::memcpy(&p, bad.data(), sizeof p);
  p.nscc.gamma_x1024 = 1025;  // out of range: refused
  std::memcpy(bad.data(), &p, sizeof p);
  ok &= Write(dir + "/fw-abi/refused-gamma", bad);
  if (!ok) {
    std::fprintf(stderr, "make-seeds: cannot write under %s (do int-decode/ and fw-abi/ exist?)\n",
                 dir.c_str());
    return 2;
  }
  return 0;
}
