// replay_main.cc — runs a fuzz target's LLVMFuzzerTestOneInput once on each
// input, without libFuzzer: the replay binaries (nicc-fuzz-NAME-replay) of
// the normal and sanitizer builds, and the fuzz-replay-NAME ctests.
//
//   nicc-fuzz-vectors-replay fuzz/corpus/vectors fuzz/regress/vectors
//   nicc-fuzz-vectors-replay crash-1234abcd
//
// Each argument is a file or a folder (its regular files, sorted, not
// recursive); a missing path is skipped with a note, so a target without
// regressions yet needs no empty folder. A target that finds an invariant
// broken traps, which ends this program abnormally: the test fails. Exit 0
// after every input ran, 2 on a usage error or an unreadable file.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool IsDir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsFile(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    const std::string p = dir + "/" + e->d_name;
    if (e->d_name[0] != '.' && IsFile(p)) out.push_back(p);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", argv[0]);
    return 2;
  }
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string p = argv[i];
    if (IsDir(p)) {
      const std::vector<std::string> files = FilesIn(p);
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (IsFile(p)) {
      inputs.push_back(p);
    } else {
      std::printf("replay: %s: absent, skipped\n", p.c_str());
    }
  }
  for (const std::string& p : inputs) {
    std::ifstream f(p, std::ios::binary);
    if (!f) {
      std::fprintf(stderr, "replay: %s: cannot read\n", p.c_str());
      return 2;
    }
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                     std::istreambuf_iterator<char>());
    std::printf("replay: %s (%zu bytes)\n", p.c_str(), bytes.size());
    std::fflush(stdout);
    // An exact-size copy, so that a read past the end is a sanitizer report.
    uint8_t* copy = new uint8_t[bytes.size()];
    std::copy(bytes.begin(), bytes.end(), copy);
    LLVMFuzzerTestOneInput(copy, bytes.size());
    delete[] copy;
  }
  std::printf("replay: %zu inputs, no finding\n", inputs.size());
  return 0;
}
