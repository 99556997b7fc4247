// INT stack codec and PINT utilisation code: byte layout, round trips, and
// every status path of decode and encode. Buffers are allocated at their
// exact length so that AddressSanitizer catches any read past the end.
#include "nicc/int_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

namespace {

using nicc::IntHop;
using nicc::IntStack;
using nicc::StatusCode;

// A heap copy of exactly `len` bytes (ASan flags any access beyond it).
std::unique_ptr<uint8_t[]> Exact(const uint8_t* src, size_t len) {
  std::unique_ptr<uint8_t[]> p(new uint8_t[len == 0 ? 1 : len]);
  if (len != 0) std::memcpy(p.get(), src, len);
  return p;
}

IntStack RandomStack(std::mt19937_64& rng, uint32_t hops) {
  IntStack st{};
  st.hop_count = static_cast<uint8_t>(hops);
  st.mult_log2 = static_cast<uint8_t>(rng() % 8);
  for (uint32_t i = 0; i < hops; ++i) {
    st.hops[i] = IntHop::Make(1 + static_cast<uint32_t>(rng() % 7), static_cast<uint32_t>(rng()),
                              static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()));
  }
  return st;
}

std::vector<uint8_t> Encoded(const IntStack& st) {
  std::vector<uint8_t> buf(nicc::IntStackBytes(st.hop_count));
  size_t len = 0;
  EXPECT_TRUE(nicc::EncodeIntStack(st, buf.data(), buf.size(), &len).ok());
  EXPECT_EQ(len, buf.size());
  return buf;
}

TEST(IntCodec, RateTable) {
  const uint32_t want[8] = {0, 25, 50, 100, 200, 400, 800, 1600};
  for (uint32_t c = 0; c < 8; ++c) EXPECT_EQ(nicc::IntRateGbps(c), want[c]) << c;
  EXPECT_EQ(nicc::IntRateGbps(8), 0u);
}

TEST(IntCodec, FieldsAreTruncatedToTheirWidths) {
  const IntHop h = IntHop::Make(7, 0x1ABCDEF, 0x1FFFFF, 0x3FFFF);
  EXPECT_EQ(h.rate_code(), 7u);
  EXPECT_EQ(h.ts_ns(), 0xABCDEFu);
  EXPECT_EQ(h.tx_units(), 0xFFFFFu);
  EXPECT_EQ(h.qlen_units(), 0x1FFFFu);
}

// The documented layout, bit for bit: a 2-byte header (hop count,
// multiplier), then rate 3 | ts 24 | tx 20 | qlen 17, MSB first, big-endian.
TEST(IntCodec, GoldenBytes) {
  IntStack st{};
  st.hop_count = 1;
  st.mult_log2 = 5;
  st.hops[0] = IntHop::Make(/*rate_code=*/3, /*ts_ns=*/0x123456, /*tx_units=*/0xABCDE,
                            /*qlen_units=*/0x1F00F);
  uint8_t buf[12];
  std::memset(buf, 0xEE, sizeof buf);
  size_t len = 0;
  ASSERT_TRUE(nicc::EncodeIntStack(st, buf, sizeof buf, &len).ok());
  ASSERT_EQ(len, 10u);
  const uint8_t want[12] = {0x01, 0x05, 0x62, 0x46, 0x8A, 0xD5, 0x79, 0xBD, 0xF0, 0x0F, 0xEE, 0xEE};
  EXPECT_EQ(0, std::memcmp(buf, want, sizeof want));

  IntStack back{};
  auto exact = Exact(buf, len);
  ASSERT_TRUE(nicc::DecodeIntStack(exact.get(), len, &back).ok());
  EXPECT_EQ(back.hop_count, 1);
  EXPECT_EQ(back.mult_log2, 5);
  EXPECT_EQ(back.hops[0].rate_code(), 3u);
  EXPECT_EQ(back.hops[0].ts_ns(), 0x123456u);
  EXPECT_EQ(back.hops[0].tx_units(), 0xABCDEu);
  EXPECT_EQ(back.hops[0].qlen_units(), 0x1F00Fu);
}

TEST(IntCodec, RoundTripEveryHopCount) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    for (uint32_t n = 0; n <= nicc::kIntMaxHops; ++n) {
      const IntStack st = RandomStack(rng, n);
      const std::vector<uint8_t> wire = Encoded(st);
      ASSERT_EQ(wire.size(), 2u + 8u * n);
      auto exact = Exact(wire.data(), wire.size());
      IntStack back{};
      ASSERT_TRUE(nicc::DecodeIntStack(exact.get(), wire.size(), &back).ok());
      ASSERT_EQ(back.hop_count, n);
      ASSERT_EQ(back.mult_log2, st.mult_log2);
      for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(back.hops[i].word, st.hops[i].word);
    }
  }
}

TEST(IntCodec, ReservedHeaderBitsAreIgnored) {
  IntStack st{};
  st.hop_count = 1;
  st.mult_log2 = 2;
  st.hops[0] = IntHop::Make(1, 1, 1, 1);
  std::vector<uint8_t> wire = Encoded(st);
  wire[1] = static_cast<uint8_t>(wire[1] | 0xF8);
  IntStack back{};
  ASSERT_TRUE(nicc::DecodeIntStack(wire.data(), wire.size(), &back).ok());
  EXPECT_EQ(back.mult_log2, 2);
}

TEST(IntCodec, DecodeTruncatedHeader) {
  const uint8_t one[1] = {0};
  IntStack out{};
  out.hop_count = 3;
  nicc::Status s = nicc::DecodeIntStack(nullptr, 0, &out);
  EXPECT_EQ(s.code, StatusCode::kTruncated);
  EXPECT_STREQ(s.field, "int_header");
  EXPECT_EQ(out.hop_count, 0);
  auto exact = Exact(one, 1);
  s = nicc::DecodeIntStack(exact.get(), 1, &out);
  EXPECT_EQ(s.code, StatusCode::kTruncated);
  EXPECT_STREQ(s.field, "int_header");
}

TEST(IntCodec, DecodeTooManyHops) {
  // Enough bytes for the declared count: the count itself is the error.
  for (uint32_t n : {6u, 7u, 255u}) {
    std::vector<uint8_t> wire(2 + 8 * n, 0x20);  // rate code 1 everywhere
    wire[0] = static_cast<uint8_t>(n);
    IntStack out{};
    out.hop_count = 4;
    const nicc::Status s = nicc::DecodeIntStack(wire.data(), wire.size(), &out);
    EXPECT_EQ(s.code, StatusCode::kTooManyHops) << n;
    EXPECT_STREQ(s.field, "hop_count");
    EXPECT_EQ(out.hop_count, 0);
  }
  // Too many hops and too short: hop count is reported first, without
  // reading the records.
  const uint8_t hdr[2] = {9, 0};
  auto exact = Exact(hdr, 2);
  IntStack out{};
  EXPECT_EQ(nicc::DecodeIntStack(exact.get(), 2, &out).code, StatusCode::kTooManyHops);
}

TEST(IntCodec, DecodeTruncatedRecordsAtEveryLength) {
  std::mt19937_64 rng(11);
  for (uint32_t n = 1; n <= nicc::kIntMaxHops; ++n) {
    const std::vector<uint8_t> wire = Encoded(RandomStack(rng, n));
    for (size_t len = 2; len < wire.size(); ++len) {
      auto exact = Exact(wire.data(), len);
      IntStack out{};
      out.hop_count = 1;
      const nicc::Status s = nicc::DecodeIntStack(exact.get(), len, &out);
      EXPECT_EQ(s.code, StatusCode::kTruncated) << n << " hops, " << len << " bytes";
      EXPECT_STREQ(s.field, "int_hops");
      EXPECT_EQ(out.hop_count, 0);
    }
    // Extra bytes after the stack are not the codec's business.
    std::vector<uint8_t> longer = wire;
    longer.push_back(0xAB);
    IntStack out{};
    EXPECT_TRUE(nicc::DecodeIntStack(longer.data(), longer.size(), &out).ok());
    EXPECT_EQ(out.hop_count, n);
  }
}

TEST(IntCodec, DecodeBadRateCodeInAnyHop) {
  std::mt19937_64 rng(13);
  for (uint32_t n = 1; n <= nicc::kIntMaxHops; ++n) {
    for (uint32_t bad = 0; bad < n; ++bad) {
      std::vector<uint8_t> wire = Encoded(RandomStack(rng, n));
      wire[2 + 8 * bad] &= 0x1F;  // rate code bits 63..61 -> 0
      auto exact = Exact(wire.data(), wire.size());
      IntStack out{};
      const nicc::Status s = nicc::DecodeIntStack(exact.get(), wire.size(), &out);
      EXPECT_EQ(s.code, StatusCode::kBadRateCode) << n << " " << bad;
      EXPECT_STREQ(s.field, "rate_code");
      EXPECT_EQ(out.hop_count, 0);
    }
  }
  // A zero-filled buffer claiming one hop is rejected, not read as data.
  const uint8_t zeros[10] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  IntStack out{};
  EXPECT_EQ(nicc::DecodeIntStack(zeros, sizeof zeros, &out).code, StatusCode::kBadRateCode);
}

TEST(IntCodec, DecodeZeroHops) {
  const uint8_t hdr[2] = {0, 3};
  auto exact = Exact(hdr, 2);
  IntStack out{};
  ASSERT_TRUE(nicc::DecodeIntStack(exact.get(), 2, &out).ok());
  EXPECT_EQ(out.hop_count, 0);
  EXPECT_EQ(out.mult_log2, 3);
}

TEST(IntCodec, EncodeErrors) {
  std::mt19937_64 rng(17);
  IntStack st = RandomStack(rng, 3);
  uint8_t buf[64];
  size_t len = 99;

  IntStack many = st;
  many.hop_count = 6;
  nicc::Status s = nicc::EncodeIntStack(many, buf, sizeof buf, &len);
  EXPECT_EQ(s.code, StatusCode::kTooManyHops);
  EXPECT_STREQ(s.field, "hop_count");
  EXPECT_EQ(len, 0u);

  // One byte short: nothing is written.
  std::memset(buf, 0xEE, sizeof buf);
  s = nicc::EncodeIntStack(st, buf, nicc::IntStackBytes(3) - 1, &len);
  EXPECT_EQ(s.code, StatusCode::kTruncated);
  EXPECT_STREQ(s.field, "int_stack");
  EXPECT_EQ(len, 0u);
  for (uint8_t b : buf) ASSERT_EQ(b, 0xEE);

  IntStack mult = st;
  mult.mult_log2 = 8;
  s = nicc::EncodeIntStack(mult, buf, sizeof buf, &len);
  EXPECT_EQ(s.code, StatusCode::kOutOfRange);
  EXPECT_STREQ(s.field, "mult_log2");

  IntStack bad = st;
  bad.hops[2] = IntHop::Make(0, 5, 5, 5);
  s = nicc::EncodeIntStack(bad, buf, sizeof buf, &len);
  EXPECT_EQ(s.code, StatusCode::kBadRateCode);
  EXPECT_STREQ(s.field, "rate_code");
  EXPECT_EQ(len, 0u);
}

// Appending in place gives the bytes of encoding the stack with the hop
// added, at every hop count; a full stack is left alone.
TEST(IntCodec, AppendMatchesEncodeOfTheLongerStack) {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 200; ++trial) {
    for (uint32_t n = 0; n < nicc::kIntMaxHops; ++n) {
      const IntStack st = RandomStack(rng, n);
      IntStack longer = RandomStack(rng, n + 1);
      for (uint32_t i = 0; i < n; ++i) longer.hops[i] = st.hops[i];
      longer.mult_log2 = st.mult_log2;
      std::vector<uint8_t> wire = Encoded(st);
      wire.resize(nicc::IntStackBytes(n + 1), 0xEE);
      auto exact = Exact(wire.data(), wire.size());
      ASSERT_TRUE(nicc::AppendIntHop(exact.get(), wire.size(), longer.hops[n]).ok());
      const std::vector<uint8_t> want = Encoded(longer);
      ASSERT_EQ(0, std::memcmp(exact.get(), want.data(), want.size())) << "n=" << n;
    }
  }
}

TEST(IntCodec, AppendErrorsWriteNothing) {
  std::mt19937_64 rng(29);
  const IntHop hop = IntHop::Make(3, 1, 2, 3);
  uint8_t buf[64];

  std::memset(buf, 0xEE, sizeof buf);
  nicc::Status s = nicc::AppendIntHop(buf, 1, hop);
  EXPECT_EQ(s.code, StatusCode::kTruncated);
  EXPECT_STREQ(s.field, "int_header");

  const std::vector<uint8_t> full = Encoded(RandomStack(rng, nicc::kIntMaxHops));
  std::memcpy(buf, full.data(), full.size());
  s = nicc::AppendIntHop(buf, sizeof buf, hop);
  EXPECT_EQ(s.code, StatusCode::kTooManyHops);
  EXPECT_STREQ(s.field, "hop_count");
  EXPECT_EQ(0, std::memcmp(buf, full.data(), full.size()));
  for (size_t i = full.size(); i < sizeof buf; ++i) ASSERT_EQ(buf[i], 0xEE);

  const std::vector<uint8_t> two = Encoded(RandomStack(rng, 2));
  std::memset(buf, 0xEE, sizeof buf);
  std::memcpy(buf, two.data(), two.size());
  s = nicc::AppendIntHop(buf, nicc::IntStackBytes(3) - 1, hop);
  EXPECT_EQ(s.code, StatusCode::kTruncated);
  EXPECT_STREQ(s.field, "int_hops");
  EXPECT_EQ(buf[0], 2);
  for (size_t i = two.size(); i < sizeof buf; ++i) ASSERT_EQ(buf[i], 0xEE);

  s = nicc::AppendIntHop(buf, sizeof buf, IntHop::Make(0, 1, 2, 3));
  EXPECT_EQ(s.code, StatusCode::kBadRateCode);
  EXPECT_STREQ(s.field, "rate_code");
  EXPECT_EQ(buf[0], 2);
  for (size_t i = two.size(); i < sizeof buf; ++i) ASSERT_EQ(buf[i], 0xEE);
}

// --- PINT utilisation code -------------------------------------------------

TEST(IntPint, DecodeAnchors) {
  EXPECT_EQ(nicc::PintDecodeQ20(0), 0u);
  EXPECT_EQ(nicc::PintDecodeQ20(128), 1u << 20);  // 1.0
  EXPECT_EQ(nicc::PintDecodeQ20(144), 1u << 21);  // 2.0
  EXPECT_EQ(nicc::PintDecodeQ20(112), 1u << 19);  // 0.5
  EXPECT_EQ(nicc::PintDecodeQ20(240), 1u << 27);  // 128.0
  EXPECT_EQ(nicc::PintDecodeQ20(16), 1u << 13);   // 2^-7
  // Every code against 2^((c - 128)/16), to the rounding of Q20.
  for (int c = 1; c < 256; ++c) {
    const double want = std::ldexp(std::pow(2.0, (c - 128) / 16.0), 20);
    EXPECT_NEAR(static_cast<double>(nicc::PintDecodeQ20(static_cast<uint8_t>(c))), want,
                0.5 + want * 1e-8)
        << c;
  }
}

TEST(IntPint, EncodeInvertsDecodeAndRoundsInLogDomain) {
  EXPECT_EQ(nicc::PintEncodeQ20(0), 0);
  for (int c = 1; c < 256; ++c)
    EXPECT_EQ(nicc::PintEncodeQ20(nicc::PintDecodeQ20(static_cast<uint8_t>(c))), c) << c;
  std::mt19937_64 rng(19);
  for (int i = 0; i < 20000; ++i) {
    // log-uniform U over the code's range
    const double u = std::pow(2.0, -7.9 + 15.8 * static_cast<double>(rng() % 1000000) / 1e6);
    const uint32_t q = static_cast<uint32_t>(std::llround(std::ldexp(u, 20)));
    const uint8_t c = nicc::PintEncodeQ20(q);
    const double back = std::pow(2.0, (c - 128) / 16.0);
    // Nearest code: within half a step (2^(1/32) = 2.19%) in the log domain.
    EXPECT_LE(std::fabs(std::log2(back / (static_cast<double>(q) / (1 << 20)))), 1.0 / 32 + 1e-6)
        << u;
  }
}

TEST(IntPint, EncodeSaturates) {
  EXPECT_EQ(nicc::PintEncodeQ20(1), 1);              // 2^-20: below the smallest code
  EXPECT_EQ(nicc::PintEncodeQ20(0xFFFFFFFFu), 255);  // 4096: above the largest
  EXPECT_EQ(nicc::PintEncodeQ20(300u << 20), 255);
}

}  // namespace
