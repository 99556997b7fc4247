// nicc-params — prints the parameter reference generated from the engine's
// tables (engine/nicc/param_tables.h).
//
//   nicc-params                 the Markdown reference (docs/params.md)
//   nicc-params --check FILE    exit 0 if FILE equals it, 1 (with a hint) if stale
//   nicc-params --list          one line per field: key, unit, range, doc
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "nicc/host/param_registry.h"

namespace {

int Usage(std::FILE* out, int code) {
  std::fprintf(out,
               "usage: nicc-params [--markdown | --list | --check FILE]\n"
               "  --markdown    print the parameter reference (default; docs/params.md)\n"
               "  --list        one line per parameter: scenario key, unit, range, profiles, doc\n"
               "  --check FILE  exit 0 if FILE is the current reference, 1 if it is stale\n");
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string text = nicc::host::ParamsMarkdown();
  if (argc == 1 || (argc == 2 && std::strcmp(argv[1], "--markdown") == 0)) {
    std::cout << text;
    return 0;
  }
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0))
    return Usage(stdout, 0);
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    nicc::host::ForEachTable([](const auto& t) {
      for (uint32_t i = 0; i < t.count; ++i) {
        const auto& row = t.rows[i];
        std::cout << nicc::host::ScenarioKey(t, row) << (row.backend() ? " (backend)" : "") << "  "
                  << nicc::host::HelpText(t, row) << "\n";
      }
    });
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--check") == 0) {
    std::ifstream in(argv[2], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "nicc-params: %s: cannot read\n", argv[2]);
      return 2;
    }
    std::ostringstream have;
    have << in.rdbuf();
    if (have.str() == text) return 0;
    std::fprintf(stderr,
                 "nicc-params: %s is stale: regenerate it with\n"
                 "  nicc-params --markdown > %s\n",
                 argv[2], argv[2]);
    return 1;
  }
  return Usage(stderr, 2);
}
