// vector_file.h — parsed form of a conformance vector (docs/vectors.md) and
// its parser. Host code (C++17, standard library only, so the runner also
// builds statically for the cross targets under qemu-user).
#ifndef NICC_TESTVECTORS_VECTOR_FILE_H_
#define NICC_TESTVECTORS_VECTOR_FILE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace nicc_vectors {

enum class Compare { kExact, kTolerance };

struct Expectation {
  std::string field;
  std::string text;     // the value as written (flags, status, numbers)
  int64_t value = 0;    // numeric value when the field is numeric
  bool numeric = false;
  Compare compare = Compare::kExact;
  double rel = 0.0;
  int64_t abs = 0;
  int line = 0;
};

struct Hop {
  uint32_t rate_code = 0;
  uint32_t ts_ns = 0;
  uint32_t tx_bytes = 0;
  uint32_t qlen_bytes = 0;
};

struct Event {
  uint64_t t_ns = 0;
  std::string kind;
  std::map<std::string, std::string> args;  // key=value, as written
  std::vector<Hop> hops;                    // hpcc: INT hops in path order
  std::vector<Expectation> expects;
  int line = 0;
};

struct Tolerance {
  double rel = 0.0;
  int64_t abs = 0;
};

struct VectorFile {
  std::string path;
  std::string algo;
  std::string name;
  std::string profile;
  uint32_t seed = 0;
  std::vector<std::pair<std::string, int64_t>> params;  // in file order
  std::map<std::string, uint64_t> bounds;               // event kind -> instructions
  std::map<std::string, Tolerance> tolerances;
  std::string expect_status_field;                      // expect-status
  std::string expect_status_code;
  std::vector<Event> events;
};

struct ParseError {
  std::string path;
  int line = 0;
  std::string message;
  std::string ToString() const;
};

// Parses `text` (the contents of `path`). Returns false and fills *err on
// the first problem: unknown line, missing field, bad number, event kind not
// valid for the algorithm (or an `algo` line after an event), time going
// backwards, or no `end` (truncated).
bool ParseVector(const std::string& path, const std::string& text, VectorFile* out,
                 ParseError* err);

// Reads and parses a file.
bool LoadVector(const std::string& path, VectorFile* out, ParseError* err);

// The parser's table: each `algo` name and the event kinds (`at T KIND`)
// it accepts.
const std::map<std::string, std::set<std::string>>& KindsByAlgo();

// Helpers shared with the executor: strict integer parsing (decimal or 0x
// hex, whole token, range-checked).
bool ParseInt(const std::string& s, int64_t* out);
bool ParseUint(const std::string& s, uint64_t max, uint64_t* out);

}  // namespace nicc_vectors

#endif  // NICC_TESTVECTORS_VECTOR_FILE_H_
