// fuzz_vectors.cc — fuzz target `vectors`: the input is a conformance vector
// file (docs/vectors.md), read by the parser nicc-vectors uses.
//
// A file the parser refuses must come with a message and a line inside the
// file. A file it accepts must:
//   - print back to text that parses to the same vector (vector_printer.h);
//   - run through the executor (at most kMaxEvents events) twice with the
//     same trace and the same failures, each failure's line inside the file;
//   - emit C (emit_c.h) the same way twice; when it emits, the C is
//     well-formed (c_lexer.h: literals end, brackets balance, no stray
//     token), and a one-vector suite emits as well.
// The C is not compiled here; the firmware suites compile what the
// checked-in vectors emit.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "c_lexer.h"
#include "emit_c.h"
#include "executor.h"
#include "fuzz_check.h"
#include "vector_file.h"
#include "vector_printer.h"

namespace {

using nicc_vectors::Failure;
using nicc_vectors::ParseError;
using nicc_vectors::VectorFile;

constexpr size_t kMaxEvents = 2000;  // bounds one run (an event is a few engine calls)
constexpr size_t kMaxInputBytes = 1 << 20;

int Lines(const std::string& text) {
  int n = 1;
  for (char c : text) n += c == '\n';
  return n;
}

std::string RunTrace(const VectorFile& v, std::vector<Failure>* failures) {
  std::string trace;
  nicc_vectors::RunOptions opt;
  opt.trace = &trace;
  std::vector<nicc_vectors::EventCost> costs;
  nicc_vectors::RunVector(v, opt, failures, &costs);
  NICC_FUZZ_CHECK(costs.empty(), "%zu instruction costs recorded without --icount", costs.size());
  return trace;
}

std::string FailureText(const std::vector<Failure>& fs) {
  std::string s;
  for (const Failure& f : fs) s += f.ToString("fuzz.vec") + "\n";
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInputBytes) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const int lines = Lines(text);
  VectorFile v;
  ParseError err;
  if (!nicc_vectors::ParseVector("fuzz.vec", text, &v, &err)) {
    NICC_FUZZ_CHECK(!err.message.empty(), "parse error without a message");
    NICC_FUZZ_CHECK(err.line >= 0 && err.line <= lines, "parse error at line %d of %d", err.line,
                    lines);
    NICC_FUZZ_CHECK(err.path == "fuzz.vec", "parse error names '%s'", err.path.c_str());
    return 0;
  }
  NICC_FUZZ_CHECK(!v.algo.empty() && !v.name.empty() && !v.profile.empty(),
                  "accepted without algo/name/profile");

  // parse -> print -> parse.
  const std::string printed = nicc_fuzz::PrintVector(v);
  VectorFile again;
  ParseError err2;
  NICC_FUZZ_CHECK(nicc_vectors::ParseVector("fuzz.vec", printed, &again, &err2),
                  "printed vector does not parse: %s\n%s", err2.ToString().c_str(),
                  printed.c_str());
  std::string what;
  NICC_FUZZ_CHECK(nicc_fuzz::SameVector(v, again, &what), "printed vector parses to another %s\n%s",
                  what.c_str(), printed.c_str());

  if (v.events.size() > kMaxEvents) v.events.resize(kMaxEvents);

  // The executor: deterministic, failures inside the file.
  std::vector<Failure> f1, f2;
  const std::string t1 = RunTrace(v, &f1);
  const std::string t2 = RunTrace(v, &f2);
  NICC_FUZZ_CHECK(t1 == t2, "two runs traced differently");
  NICC_FUZZ_CHECK(FailureText(f1) == FailureText(f2), "two runs failed differently");
  for (const Failure& f : f1) {
    NICC_FUZZ_CHECK(f.line >= 0 && f.line <= lines, "failure at line %d of %d", f.line, lines);
    NICC_FUZZ_CHECK(f.event >= 0 && static_cast<size_t>(f.event) <= v.events.size(),
                    "failure at event %d of %zu", f.event, v.events.size());
  }

  // The C emitter: deterministic, well-formed C.
  std::string c1, c2, why1, why2;
  const bool ok1 = nicc_vectors::EmitC(v, &c1, &why1);
  const bool ok2 = nicc_vectors::EmitC(v, &c2, &why2);
  NICC_FUZZ_CHECK(ok1 == ok2 && c1 == c2 && why1 == why2, "two emits differ");
  if (!ok1) {
    NICC_FUZZ_CHECK(!why1.empty(), "emit refused without a reason");
    return 0;
  }
  std::string bad;
  NICC_FUZZ_CHECK(nicc_fuzz::CheckEmittedC(c1, &bad), "emitted C is malformed: %s\n%s", bad.c_str(),
                  c1.c_str());
  std::string suite, why3;
  NICC_FUZZ_CHECK(nicc_vectors::EmitCSuite({v}, &suite, &why3), "one-vector suite refused: %s",
                  why3.c_str());
  NICC_FUZZ_CHECK(nicc_fuzz::CheckEmittedC(suite, &bad), "emitted suite is malformed: %s\n%s",
                  bad.c_str(), suite.c_str());
  return 0;
}
