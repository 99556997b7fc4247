// The argv pre-pass of nicc-verbs (cli_args.h).
#include "nicc/verbs/cli_args.h"

namespace nicc {
namespace verbs {

bool MapPerftestArgs(const std::vector<std::string>& in, std::vector<std::string>* out,
                     std::string* error) {
  struct Short {
    const char* flag;
    const char* longname;
  };
  static const Short kShort[] = {
      {"-D", "--duration_s"}, {"-s", "--msg_size"}, {"-n", "--messages"}};
  out->clear();
  std::string sets;
  size_t set_at = 0;
  bool rest = false;
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string& a = in[i];
    if (rest || i == 0) {
      out->push_back(a);
      continue;
    }
    if (a == "--") {
      rest = true;
      out->push_back(a);
      continue;
    }
    bool mapped = false;
    for (const Short& s : kShort) {
      const std::string f = s.flag;
      // Exactly "-s", or "-s" glued to a number ("-s4096"); "-sysfs_root" is
      // Abseil's single-dash spelling of a long flag, not -s.
      if (a.compare(0, f.size(), f) != 0) continue;
      if (a.size() > f.size() && !(a[f.size()] >= '0' && a[f.size()] <= '9') && a[f.size()] != '.')
        continue;
      std::string v;
      if (a.size() > f.size()) {
        v = a.substr(f.size());
      } else if (i + 1 < in.size()) {
        v = in[++i];
      } else {
        *error = a + " needs a value (" + s.longname + ")";
        return false;
      }
      out->push_back(std::string(s.longname) + "=" + v);
      mapped = true;
      break;
    }
    if (mapped) continue;
    if (a == "--rdma-cm" || a.compare(0, 10, "--rdma-cm=") == 0) {
      out->push_back("--rdma_cm" + a.substr(9));
      continue;
    }
    if (a == "--set" || a == "-set" || a.compare(0, 6, "--set=") == 0) {
      std::string v;
      if (a == "--set" || a == "-set") {
        if (i + 1 >= in.size()) {
          *error = "--set needs key=value";
          return false;
        }
        v = in[++i];
      } else {
        v = a.substr(6);
      }
      if (sets.empty()) {
        set_at = out->size();
        out->push_back("");
      }
      sets += (sets.empty() ? "" : ",") + v;
      continue;
    }
    out->push_back(a);
  }
  if (!sets.empty()) (*out)[set_at] = "--set=" + sets;
  return true;
}

}  // namespace verbs
}  // namespace nicc
