// executor.h — runs a parsed conformance vector against the engine and
// reports every mismatch. Standard library only (builds for the cross
// targets too).
#ifndef NICC_TESTVECTORS_EXECUTOR_H_
#define NICC_TESTVECTORS_EXECUTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "vector_file.h"

namespace nicc_vectors {

struct Failure {
  int event = 0;         // 1-based event number; 0 = setup (parameters)
  uint64_t t_ns = 0;
  std::string kind;
  std::string field;
  std::string expected;
  std::string got;
  int line = 0;
  std::string ToString(const std::string& path) const;
};

// One engine call's cost, recorded when instruction counting is on.
struct EventCost {
  int event = 0;
  std::string kind;
  uint64_t bound = 0;  // 0 = no bound for this kind
};

struct RunOptions {
  // Wraps each engine call in callgrind client requests (zero, dump), so a
  // run under `valgrind --tool=callgrind --combine-dumps=yes` leaves one
  // dump per event, named "nicc-vec FILE_INDEX EVENT KIND".
  bool icount = false;
  int file_index = 0;
  // When set, every event's outputs are appended as one line, so that runs
  // on two machines (x86-64, RV64 and ARM under qemu-user) can be compared
  // bit for bit.
  std::string* trace = nullptr;
};

// Runs `v`; appends mismatches to *failures (empty = pass). Returns false
// when the vector cannot be run at all (unknown profile or parameter); the
// reason is then the single failure added, with field "setup".
bool RunVector(const VectorFile& v, const RunOptions& opt, std::vector<Failure>* failures,
               std::vector<EventCost>* costs);

}  // namespace nicc_vectors

#endif  // NICC_TESTVECTORS_EXECUTOR_H_
