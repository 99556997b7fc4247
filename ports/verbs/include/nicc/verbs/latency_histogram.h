// nicc/verbs/latency_histogram.h — completion latency percentiles from a
// fixed-bucket histogram: no allocation and no search on the record path.
//
// Buckets are log-linear: values below 2^kSubBits ns have one bucket each;
// above, every power of two [2^e, 2^(e+1)) is split into 2^kSubBits equal
// buckets, so a bucket is at most 1/2^kSubBits (3.1 %) of its value wide.
// 32-bit ns values (up to 4.29 s) fit; larger ones land in the last bucket.
// A percentile is the upper edge of the bucket holding that rank, so it
// over-states by at most one bucket width.
//
//   LatencyHistogram h;
//   h.Record(12345);            // ns
//   uint64_t p99 = h.Percentile(99.0);
#ifndef NICC_VERBS_LATENCY_HISTOGRAM_H_
#define NICC_VERBS_LATENCY_HISTOGRAM_H_

#include <stdint.h>

#include <array>

namespace nicc {
namespace verbs {

class LatencyHistogram {
 public:
  static constexpr uint32_t kSubBits = 5;
  static constexpr uint32_t kSub = 1u << kSubBits;
  // Exponents kSubBits..31 each take kSub buckets; below 2^kSubBits, one per value.
  static constexpr uint32_t kBuckets = kSub + (32 - kSubBits) * kSub;

  void Record(uint64_t ns) {
    ++counts_[Index(ns)];
    ++total_;
    if (ns > max_) max_ = ns;
  }
  void Clear() {
    counts_.fill(0);
    total_ = 0;
    max_ = 0;
  }
  uint64_t count() const { return total_; }
  uint64_t max() const { return max_; }

  static uint32_t Index(uint64_t ns) {
    if (ns >= (1ull << 32)) return kBuckets - 1;
    const uint32_t v = static_cast<uint32_t>(ns);
    if (v < kSub) return v;
    const uint32_t e = 31u - static_cast<uint32_t>(__builtin_clz(v));  // 2^e <= v
    const uint32_t sub = (v >> (e - kSubBits)) & (kSub - 1);
    return kSub + (e - kSubBits) * kSub + sub;
  }
  // Largest value that maps to bucket i.
  static uint64_t UpperEdge(uint32_t i) {
    if (i < kSub) return i;
    const uint32_t e = (i - kSub) / kSub + kSubBits;
    const uint32_t sub = (i - kSub) % kSub;
    const uint64_t width = 1ull << (e - kSubBits);
    return (1ull << e) + (sub + 1) * width - 1;
  }

  // The value at percentile q (0 < q <= 100); 0 if nothing was recorded.
  uint64_t Percentile(double q) const {
    if (total_ == 0) return 0;
    uint64_t rank = static_cast<uint64_t>(q / 100.0 * static_cast<double>(total_) + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > total_) rank = total_;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < kBuckets; ++i) {
      seen += counts_[i];
      if (seen >= rank) {
        const uint64_t edge = UpperEdge(i);
        return edge < max_ ? edge : max_;
      }
    }
    return max_;
  }

 private:
  std::array<uint64_t, kBuckets> counts_{};
  uint64_t total_ = 0;
  uint64_t max_ = 0;
};

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_LATENCY_HISTOGRAM_H_
