/*
 * nicc-hpcc-config.cc — run an HPCC-simulator config file from C++.
 *
 * Researchers who used the HPCC simulator (the ns-3 fork of the HPCC paper)
 * have experiments as its config.txt, topology.txt and flow.txt files.
 * NiccLoadHpccConfig reads such a config (every key mapped or refused with
 * its line; docs/hpcc-compat.md lists them), NiccApplyHpccConfig turns it
 * into scenario keys on a NiccScenario, and Run runs the topology file's
 * fabric with the flow file's flows. Overrides (--set) come after the
 * config, as nicc-sim --hpcc-config CONFIG --set ... does.
 *
 * Prints each flow in the HPCC simulator's FCT terms (source, destination,
 * size, start, FCT, the standalone FCT on its path, slowdown) and the p99
 * queue; exits 1 if a flow did not complete, 2 on a bad config.
 *
 *   ./nicc-hpcc-config                                     # examples/hpcc-config/config.txt
 *   ./nicc-hpcc-config --set=cc=dcqcn                      # the same flows with DCQCN
 *   ./nicc-hpcc-config --config=mix/config.txt             # the simulator's own example
 */
#include "ns3/command-line.h"
#include "ns3/nicc-module.h"

#include <cstdio>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string config = std::string(NICC_SIM_SOURCE_DIR) + "/examples/hpcc-config/config.txt";
    std::string set;
    CommandLine cmd(__FILE__);
    cmd.AddValue("config", "HPCC-simulator config file", config);
    cmd.AddValue("set", "Overrides KEY=VALUE[,KEY=VALUE...], applied after the config", set);
    cmd.Parse(argc, argv);

    NiccHpccConfig cfg;
    NiccScenario s;
    NiccScenarioResult r;
    std::string error;
    if (!NiccLoadHpccConfig(config, false, &cfg, &error) || !NiccApplyHpccConfig(cfg, &s, &error) ||
        (!set.empty() && !s.SetPair(set, &error)))
    {
        std::fprintf(stderr, "nicc-hpcc-config: %s\n", error.c_str());
        return 2;
    }
    if (!s.Run(&r, &error))
    {
        std::fprintf(stderr, "nicc-hpcc-config: %s\n", error.c_str());
        return 2;
    }

    std::printf("nicc-hpcc-config: %s, cc %s, %u hosts\n", config.c_str(), s.Get("cc").c_str(), r.hosts);
    std::printf("  %-4s %-8s %10s %12s %10s %12s %8s\n",
                "flow", "src->dst", "bytes", "start s", "fct us", "ideal us", "slowdown");
    bool ok = true;
    for (size_t i = 0; i < r.flows.size(); ++i)
    {
        const NiccFlowRecord& f = r.flows[i];
        std::printf("  %-4u %3u->%-4u %10llu %12.6f %10.1f %12.1f %8.2f\n",
                    f.id,
                    f.src,
                    f.dst,
                    static_cast<unsigned long long>(f.sizeBytes),
                    f.startNs / 1e9,
                    f.fctNs / 1e3,
                    r.idealFctNs[i] / 1e3,
                    f.fctNs >= 0 ? static_cast<double>(f.fctNs) / r.idealFctNs[i] : -1.0);
        ok = ok && f.fctNs >= 0;
    }
    std::printf("  queue p99 %llu B, pause frames %llu\n",
                static_cast<unsigned long long>(r.QueuePercentile(0.99)),
                static_cast<unsigned long long>(r.pauseFrames));
    return ok ? 0 : 1;
}
