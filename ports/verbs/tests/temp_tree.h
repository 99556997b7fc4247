// A synthetic file tree in a fresh temp directory, removed on destruction:
// sysfs / procfs / debugfs stand-ins for the verbs tests.
//
//   TempTree t;
//   t.Write("sys/class/net/eth0/mtu", "9000\n");
//   roots.sysfs = t.Path("sys");
#ifndef NICC_VERBS_TESTS_TEMP_TREE_H_
#define NICC_VERBS_TESTS_TEMP_TREE_H_

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace nicc {
namespace verbs {
namespace testing {

class TempTree {
 public:
  TempTree() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "nicc-verbs-XXXXXX").string();
    char* dir = mkdtemp(tmpl.data());
    root_ = dir != nullptr ? dir : "";
  }
  ~TempTree() {
    std::error_code ec;
    if (!root_.empty()) std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  std::string Path(const std::string& rel) const { return root_ + "/" + rel; }
  void Write(const std::string& rel, const std::string& content) const {
    const std::filesystem::path p = Path(rel);
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content;
  }
  void Mkdir(const std::string& rel) const { std::filesystem::create_directories(Path(rel)); }
  void Symlink(const std::string& target_rel, const std::string& link_rel) const {
    const std::filesystem::path link = Path(link_rel);
    std::filesystem::create_directories(link.parent_path());
    std::filesystem::create_directory_symlink(Path(target_rel), link);
  }
  void Remove(const std::string& rel) const {
    std::error_code ec;
    std::filesystem::remove_all(Path(rel), ec);
  }

 private:
  std::string root_;
};

}  // namespace testing
}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_TESTS_TEMP_TREE_H_
