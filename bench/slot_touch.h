// Which bytes of a per-flow slot an event touches, found from the slot's
// bytes rather than from a hand-kept field list (so it follows the engine's
// layout as it changes). For one slot state and one event:
//   written    bytes whose value the event changes (before/after compare);
//   read       bytes the outcome depends on: the event is run again on
//              copies with one bit of one byte flipped (each bit of each
//              byte in turn); if the returned actions or any other byte of
//              the resulting state differ, the byte was read.
// touched = written | read. This is a lower bound on what the code loads
// (a byte read whose every bit is irrelevant to the outcome, or written
// with the value it had, is not seen) and counts bytes, not the wider
// loads a compiler may issue. The flow-independent config is not counted.
//
// A flipped bit can put a slot in a state the engine never produces (an
// index out of range); the copies sit inside a buffer with 1024 spare bytes
// after the slot, and the engine's per-flow indices are 8-bit or masked, so
// such a run stays inside that buffer.
#ifndef NICC_BENCH_SLOT_TOUCH_H_
#define NICC_BENCH_SLOT_TOUCH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "nicc/common.h"

namespace slot_touch {

// What an event (or a sequence of events) returns: up to three actions.
struct Outcome {
  nicc::Action a[3];
  bool operator==(const Outcome& o) const {
    for (int i = 0; i < 3; ++i) {
      const nicc::Action& x = a[i];
      const nicc::Action& y = o.a[i];
      if (x.rate_kbps != y.rate_kbps || x.window_bytes != y.window_bytes || x.timer_ns != y.timer_ns ||
          x.ev != y.ev || x.flags != y.flags)
        return false;
    }
    return true;
  }
};

template <class Slot>
struct Padded {
  Slot slot;
  unsigned char spare[1024];
};

// Bytes of `before` that `apply(Slot*) -> Outcome` touches; out[b] |= touched.
// Returns the number of bytes touched by this one event.
template <class Slot, class Apply>
size_t Touched(const Slot& before, Apply&& apply, std::vector<bool>* out) {
  constexpr size_t n = sizeof(Slot);
  out->resize(n, false);
  static Padded<Slot> ref, alt;  // static: large spare areas off the stack
  std::memset(&ref, 0, sizeof ref);
  std::memcpy(&ref.slot, &before, n);
  const Outcome o = apply(&ref.slot);
  const unsigned char* b0 = reinterpret_cast<const unsigned char*>(&before);
  const unsigned char* b1 = reinterpret_cast<const unsigned char*>(&ref.slot);
  std::vector<bool> mine(n, false);
  for (size_t i = 0; i < n; ++i)
    if (b0[i] != b1[i]) mine[i] = true;
  for (size_t i = 0; i < n; ++i) {
    if (mine[i]) continue;
    for (int bit = 0; bit < 8 && !mine[i]; ++bit) {
      std::memset(&alt, 0, sizeof alt);
      std::memcpy(&alt.slot, &before, n);
      reinterpret_cast<unsigned char*>(&alt.slot)[i] ^= static_cast<unsigned char>(1u << bit);
      const Outcome p = apply(&alt.slot);
      if (!(p == o)) {
        mine[i] = true;
        break;
      }
      const unsigned char* b2 = reinterpret_cast<const unsigned char*>(&alt.slot);
      for (size_t j = 0; j < n; ++j) {
        if (j != i && b2[j] != b1[j]) {
          mine[i] = true;
          break;
        }
      }
    }
  }
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    if (mine[i]) {
      (*out)[i] = true;
      ++count;
    }
  }
  return count;
}

// Cache lines of `line` bytes holding the touched bytes of a slot at byte
// offset `start` of a line-aligned array.
inline uint32_t Lines(const std::vector<bool>& touched, size_t start, size_t line = 64) {
  uint32_t lines = 0;
  size_t last = static_cast<size_t>(-1);
  for (size_t i = 0; i < touched.size(); ++i) {
    if (!touched[i]) continue;
    const size_t l = (start + i) / line;
    if (l != last) {
      ++lines;
      last = l;
    }
  }
  return lines;
}

// The mean of Lines() over the slot positions of an array with `stride`
// byte slots (slot k starts at k * stride).
inline double MeanLines(const std::vector<bool>& touched, size_t stride, size_t line = 64) {
  double sum = 0;
  size_t positions = 0;
  size_t start = 0;
  do {
    sum += Lines(touched, start, line);
    ++positions;
    start = (start + stride) % line;
  } while (start != 0 && positions < line);
  return sum / static_cast<double>(positions);
}

// Bytes of the aligned 4-byte words holding touched bytes: what 32-bit
// loads and stores of the touched fields move (a field of a few bytes read
// for a comparison near a threshold only is still loaded whole).
inline size_t WordBytes(const std::vector<bool>& touched) {
  size_t n = 0;
  for (size_t w = 0; w < touched.size(); w += 4) {
    bool any = false;
    for (size_t i = w; i < w + 4 && i < touched.size(); ++i) any = any || touched[i];
    if (any) n += 4;
  }
  return n;
}

// "a-b,c-d": the touched byte ranges (for the report).
inline std::string Ranges(const std::vector<bool>& touched) {
  std::string out;
  for (size_t i = 0; i < touched.size();) {
    if (!touched[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < touched.size() && touched[j]) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(i) + (j - i > 1 ? "-" + std::to_string(j - 1) : "");
    i = j;
  }
  return out;
}

// First and one-past-last touched byte (0, 0 when none).
inline void Span(const std::vector<bool>& touched, size_t* lo, size_t* hi) {
  *lo = *hi = 0;
  bool any = false;
  for (size_t i = 0; i < touched.size(); ++i) {
    if (!touched[i]) continue;
    if (!any) *lo = i;
    any = true;
    *hi = i + 1;
  }
}

}  // namespace slot_touch

#endif  // NICC_BENCH_SLOT_TOUCH_H_
