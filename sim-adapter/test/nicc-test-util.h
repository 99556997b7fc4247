/*
 * nicc-test-util.h — helpers the ns-3 suites share (test code only):
 * run a built-in scenario with key=value overrides, and the latest
 * completion time of a run.
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
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

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

} // namespace ns3

#endif // NICC_TEST_UTIL_H
