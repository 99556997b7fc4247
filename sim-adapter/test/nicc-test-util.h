/*
 * nicc-test-util.h — helpers the ns-3 suites share (test code only):
 * run a built-in scenario with key=value overrides, and the latest
 * completion time of a run; a fresh temporary directory per test case, a
 * file written into it and a file read whole, a substring test, a shipped
 * scenario's path; the text of a small Clos topology file.
 *
 *   NiccScenarioResult r;
 *   std::string err;
 *   if (!NiccRunWith("incast", {"cc=hpcc", "senders=8"}, &r, &err)) ... err
 *   NiccLastCompletionNs(r)   // ns
 */
#ifndef NICC_TEST_UTIL_H
#define NICC_TEST_UTIL_H

#include "ns3/nicc-module.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// The whole content of a file ("" when it cannot be read).
inline std::string
ReadAll(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

/// Select(scenario), SetPair each pair, Run; false with the reason in *err.
inline bool
NiccRunWith(const std::string& scenario,
            const std::vector<std::string>& sets,
            NiccScenarioResult* r,
            std::string* err)
{
    NiccScenario s;
    bool ok = s.Select(scenario, err);
    for (const auto& kv : sets)
    {
        ok = ok && s.SetPair(kv, err);
    }
    return ok && s.Run(r, err);
}

/// Latest completion (start + FCT) over the completed flows, ns.
inline int64_t
NiccLastCompletionNs(const NiccScenarioResult& r)
{
    int64_t last = 0;
    for (const auto& f : r.flows)
    {
        if (f.fctNs >= 0)
        {
            last = std::max<int64_t>(last, f.startNs + f.fctNs);
        }
    }
    return last;
}

// A fresh directory under the system temp directory, one per test case.
inline std::filesystem::path
NiccTestDir(const std::string& tag)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                         ("nicc-test-" + std::to_string(::getpid()) + "-" + tag);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

inline std::string
NiccWriteFile(const std::filesystem::path& dir, const std::string& name, const std::string& text)
{
    const std::filesystem::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
}

inline bool
NiccContains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

// The shipped examples (sim-adapter/scenarios/, next to the data directory).
inline std::string
NiccShipped(const std::string& name)
{
    return (std::filesystem::path(NiccScenario::DataDir()) / ".." / "scenarios" / name).lexically_normal().string();
}

// A topology file (nicc-input-files, nicc-input-files-flow): 2 leaves (8, 9)
// x 4 hosts (0-7), 2 spines (10, 11); the shipped example's shape.
inline const char* const kNiccClosTopo = "# comment line\n"
                                         "12 4 12\n"
                                         "\n"
                                         "8 9 10 11\n"
                                         "0 8 100Gbps 1us 0\n"
                                         "1 8 100Gbps 1us 0\n"
                                         "2 8 100Gbps 1us 0\n"
                                         "3 8 100Gbps 1us 0\n"
                                         "4 9 100Gbps 1000ns 0\n"
                                         "5 9 100Gbps 1000ns 0\n"
                                         "6 9 100Gbps 1000ns 0\n"
                                         "7 9 100Gbps 1000ns 0\n"
                                         "8 10 400Gbps 1us 0\n"
                                         "8 11 400Gbps 1us 0\n"
                                         "9 10 400Gbps 1us 0\n"
                                         "9 11 400Gbps 1us 0\n";

} // namespace ns3

#endif // NICC_TEST_UTIL_H
