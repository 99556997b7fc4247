/*
 * nicc-toml-scenario.cc — run a TOML scenario file from C++.
 *
 * The scenario layer (libns3-nicc-scenario) turns a file of keys into a
 * fabric, workloads and meters: NiccLoadScenarioFile reads the file (its
 * `base` built-in scenario first, then every key it sets; errors name the
 * file, line and key), SetPair applies command-line overrides the way
 * nicc-sim's --set does, and Run builds, runs and measures. The result is a
 * NiccScenarioResult: per-flow records and ideal FCTs, queue samples, PFC,
 * ECN and loss counters.
 *
 * Prints the run's flow completions, FCT slowdown percentiles (FCT over the
 * flow's ideal FCT on its own path), the p99 queue and the pause frames;
 * exits 1 if no flow completed, 2 on a bad file or key.
 *
 *   ./nicc-toml-scenario                                   # scenarios/small-clos.toml
 *   ./nicc-toml-scenario --file=my.toml --set=cc=hpcc,stop_ms=1
 *
 * Key reference: nicc-sim --help, docs/experiments.md.
 */
#include "ns3/command-line.h"
#include "ns3/nicc-module.h"

#include <cstdio>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string file = std::string(NICC_SIM_SOURCE_DIR) + "/scenarios/small-clos.toml";
    std::string set;
    CommandLine cmd(__FILE__);
    cmd.AddValue("file", "TOML scenario file", file);
    cmd.AddValue("set", "Overrides KEY=VALUE[,KEY=VALUE...], applied after the file", set);
    cmd.Parse(argc, argv);

    NiccScenario s;
    std::string error;
    if (!NiccLoadScenarioFile(file, &s, &error))
    {
        std::fprintf(stderr, "nicc-toml-scenario: %s\n", error.c_str());
        return 2;
    }
    if (!set.empty() && !s.SetPair(set, &error))
    {
        std::fprintf(stderr, "nicc-toml-scenario: --set: %s\n", error.c_str());
        return 2;
    }
    NiccScenarioResult r;
    if (!s.Run(&r, &error))
    {
        std::fprintf(stderr, "nicc-toml-scenario: %s\n", error.c_str());
        return 2;
    }

    uint32_t done = 0;
    for (const NiccFlowRecord& f : r.flows)
    {
        done += f.fctNs >= 0 ? 1 : 0;
    }
    std::printf("nicc-toml-scenario: %s, %u hosts, %.3f ms simulated\n",
                r.scenario.c_str(),
                r.hosts,
                r.simSeconds * 1e3);
    std::printf("  flows completed      %u of %zu\n", done, r.flows.size());
    std::printf("  slowdown p50 / p99   %.2f / %.2f\n", r.SlowdownPercentile(0.5), r.SlowdownPercentile(0.99));
    std::printf("  queue p99            %llu B\n", static_cast<unsigned long long>(r.QueuePercentile(0.99)));
    std::printf("  pause frames         %llu\n", static_cast<unsigned long long>(r.pauseFrames));
    std::printf("  ECN-marked packets   %llu, drops %llu\n",
                static_cast<unsigned long long>(r.ecnMarked),
                static_cast<unsigned long long>(r.drops));
    return done > 0 ? 0 : 1;
}
