// nicc-vectors — runs conformance vectors against the engine.
//
//   nicc-vectors [--verbose] PATH...          run files / folders of *.vec
//   nicc-vectors --trace PATH...              also print every event's outputs (for
//                                            comparing ports bit for bit)
//   nicc-vectors --icount PATH...             same, with a callgrind dump per event
//                                            (run under valgrind; scripts/vectors-icount.sh)
//   nicc-vectors --check-icount=FILE PATH...  compare the dumps in FILE (callgrind,
//                                            --combine-dumps=yes) with the vectors' bounds
//   nicc-vectors --emit-c PATH...             print the vector as C arrays (firmware harness);
//                                            several files or a folder: all of them and
//                                            a table nicc_vecs[]
//
// Prints one line per failure and a closing "N passed, N failed" (files).
// Exit status: 0 all passed, 1 a vector failed, 2 a file is malformed or the
// command line is wrong. Standard library only, so it also links statically
// for the cross targets and runs under qemu-user.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "emit_c.h"
#include "executor.h"
#include "vector_file.h"

using namespace nicc_vectors;

namespace {

const char kUsage[] =
    "usage: nicc-vectors [--verbose] [--trace] [--icount] PATH...\n"
    "       nicc-vectors --check-icount=CALLGRIND_OUT PATH...\n"
    "       nicc-vectors --emit-c PATH...\n"
    "Runs nicc conformance vectors (docs/vectors.md). PATH is a .vec file or a folder\n"
    "searched recursively for *.vec. One line per failure, then 'N passed, N failed'.\n"
    "--trace prints every event's outputs; --icount adds a callgrind dump per event.\n"
    "--emit-c writes C data for nicc/fw_vector.h: one file as nicc_vec, several (or a\n"
    "folder) as nicc_vecs[NICC_VEC_COUNT].\n"
    "Exit: 0 all passed, 1 failures, 2 malformed file or usage error.\n";

bool IsDir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool EndsWith(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// Collects *.vec below `dir` (sorted, depth-bounded).
void Collect(const std::string& dir, int depth, std::vector<std::string>* out) {
  if (depth > 8) return;
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    names.push_back(e->d_name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    const std::string p = dir + "/" + n;
    if (IsDir(p)) Collect(p, depth + 1, out);
    else if (EndsWith(n, ".vec")) out->push_back(p);
  }
}

// Reads a callgrind output with combined dumps: for every part triggered by
// "nicc-vec F E KIND", its instruction total.
bool ReadDumps(const std::string& path, std::map<std::pair<int, int>, uint64_t>* cost) {
  std::ifstream f(path);
  if (!f) return false;
  std::string line;
  int file = -1, event = -1;
  const std::string trig = "desc: Trigger: Client Request: nicc-vec ";
  while (std::getline(f, line)) {
    if (line.compare(0, trig.size(), trig) == 0) {
      std::istringstream in(line.substr(trig.size()));
      in >> file >> event;
      if (!in) file = event = -1;
    } else if ((line.compare(0, 9, "summary: ") == 0 || line.compare(0, 8, "totals: ") == 0) && file >= 0) {
      const uint64_t ir = std::strtoull(line.substr(line.find(':') + 1).c_str(), nullptr, 10);
      (*cost)[{file, event}] = ir;
      file = event = -1;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool verbose = false, icount = false, emit_c = false, trace = false;
  std::string check_icount;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--verbose" || a == "-v") {
      verbose = true;
    } else if (a == "--trace") {
      trace = true;
    } else if (a == "--icount") {
      icount = true;
    } else if (a == "--emit-c") {
      emit_c = true;
    } else if (a.compare(0, 15, "--check-icount=") == 0) {
      check_icount = a.substr(15);
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "nicc-vectors: unknown option '%s'\n%s", a.c_str(), kUsage);
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "nicc-vectors: no vector files or folders given\n%s", kUsage);
    return 2;
  }

  std::vector<std::string> files;
  for (const std::string& p : paths) {
    if (IsDir(p)) {
      const size_t before = files.size();
      Collect(p, 0, &files);
      if (files.size() == before) {
        std::fprintf(stderr, "nicc-vectors: %s: no *.vec files in this folder\n", p.c_str());
        return 2;
      }
    } else {
      files.push_back(p);
    }
  }

  if (emit_c) {
    std::vector<VectorFile> vs(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      ParseError err;
      if (!LoadVector(files[i], &vs[i], &err)) {
        std::fprintf(stderr, "%s\n", err.ToString().c_str());
        return 2;
      }
    }
    std::string out, why;
    const bool single = paths.size() == 1 && !IsDir(paths[0]);
    if (single ? !EmitC(vs[0], &out, &why) : !EmitCSuite(vs, &out, &why)) {
      std::fprintf(stderr, "nicc-vectors: %s%s\n", single ? (files[0] + ": ").c_str() : "", why.c_str());
      return 2;
    }
    std::fputs(out.c_str(), stdout);
    return 0;
  }

  std::map<std::pair<int, int>, uint64_t> dumps;
  if (!check_icount.empty() && !ReadDumps(check_icount, &dumps)) {
    std::fprintf(stderr, "nicc-vectors: cannot read callgrind output '%s'\n", check_icount.c_str());
    return 2;
  }

  int passed = 0, failed = 0, malformed = 0;
  uint64_t events = 0, over = 0, unmeasured = 0;
  std::map<std::string, uint64_t> worst;  // kind -> max instructions seen
  for (size_t i = 0; i < files.size(); ++i) {
    VectorFile v;
    ParseError err;
    if (!LoadVector(files[i], &v, &err)) {
      std::printf("%s\n", err.ToString().c_str());
      ++malformed;
      ++failed;
      continue;
    }
    std::vector<Failure> failures;
    std::vector<EventCost> costs;
    RunOptions opt;
    opt.icount = icount || !check_icount.empty();
    opt.file_index = static_cast<int>(i);
    std::string trace_text;
    if (trace) opt.trace = &trace_text;
    RunVector(v, opt, &failures, &costs);
    if (trace) std::fputs(trace_text.c_str(), stdout);
    events += v.events.size();
    if (!check_icount.empty()) {
      failures.clear();  // behaviour is checked by the plain run
      for (const EventCost& c : costs) {
        auto it = dumps.find({static_cast<int>(i), c.event});
        if (it == dumps.end()) {
          ++unmeasured;
          continue;
        }
        worst[c.kind] = std::max(worst[c.kind], it->second);
        if (c.bound != 0 && it->second > c.bound) {
          ++over;
          Failure f;
          f.event = c.event;
          f.kind = c.kind;
          f.field = "instructions";
          f.expected = "<= " + std::to_string(c.bound);
          f.got = std::to_string(it->second);
          failures.push_back(f);
        }
      }
    }
    if (failures.empty()) {
      ++passed;
      if (verbose) std::printf("ok   %s (%zu events)\n", files[i].c_str(), v.events.size());
    } else {
      ++failed;
      for (const Failure& f : failures) std::printf("%s\n", f.ToString(files[i]).c_str());
    }
  }
  if (!check_icount.empty()) {
    std::printf("instruction counts (x86-64), worst per event kind:\n");
    for (const auto& kv : worst) std::printf("  %-10s %8llu\n", kv.first.c_str(), static_cast<unsigned long long>(kv.second));
    if (unmeasured) {
      std::printf("%llu events had no callgrind dump (was the run made under valgrind --combine-dumps=yes?)\n",
                  static_cast<unsigned long long>(unmeasured));
      ++failed;
    }
    std::printf("%llu events checked, %llu over their bound\n", static_cast<unsigned long long>(events - unmeasured),
                static_cast<unsigned long long>(over));
  } else if (verbose) {
    std::printf("%llu events\n", static_cast<unsigned long long>(events));
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  if (malformed) return 2;
  return failed ? 1 : 0;
}
