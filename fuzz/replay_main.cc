// fuzz/replay_main.cc — a standalone main for a fuzz target: feeds each file
// named on the command line (each regular file of a named directory, in name
// order) to LLVMFuzzerTestOneInput once. A target that aborts or traps ends
// the process with a non-zero status, so a ctest over the corpus and the
// regression inputs fails on any finding; a missing path is an error (2).
//
//   nicc-fuzz-scenario-replay fuzz/corpus/scenario fuzz/regress/scenario
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int RunFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    fprintf(stderr, "replay: %s: cannot open\n", p.c_str());
    return 2;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fprintf(stderr, "replay: %s (%zu bytes)\n", p.c_str(), bytes.size());
  // A copy of exactly size bytes, so reads past the end are caught under ASan.
  std::vector<uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  size_t files = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg = argv[i];
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> entries;
      for (const auto& e : std::filesystem::directory_iterator(arg, ec)) {
        if (e.is_regular_file(ec)) entries.push_back(e.path());
      }
      std::sort(entries.begin(), entries.end());
      for (const auto& p : entries) {
        if (RunFile(p) != 0) return 2;
        ++files;
      }
    } else if (std::filesystem::is_regular_file(arg, ec)) {
      if (RunFile(arg) != 0) return 2;
      ++files;
    } else if (std::filesystem::exists(arg, ec)) {
      fprintf(stderr, "replay: %s: not a file or directory\n", argv[i]);
      return 2;
    }
    // An absent directory (no regression inputs yet) replays nothing.
  }
  fprintf(stderr, "replay: %zu input(s), no finding\n", files);
  return 0;
}
