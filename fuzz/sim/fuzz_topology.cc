// fuzz/sim/fuzz_topology.cc — target `topology`: the input is a topology
// file (HPCC 'N S L' or ns3-datacenter 'N S T L' header, the switch ids, L
// links 'a b rate delay error_rate'), parsed and validated by
// NiccFabricHelper::ParseTopology as nicc-sim reads topology_file. A refused
// file must come with a message naming the file and a line; an accepted one
// must satisfy what the fabric builder relies on.
#include "fuzz_util.h"

#include "ns3/nicc-fabric-helper.h"

#include <algorithm>
#include <set>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using ns3::NiccTopologySpec;
    const std::string text(reinterpret_cast<const char*>(data), size);
    NiccTopologySpec spec;
    std::string error;
    if (!ns3::NiccFabricHelper::ParseTopology(text, "fuzz.topo", &spec, &error))
    {
        NICC_FUZZ_CHECK(error.rfind("fuzz.topo:", 0) == 0, "error without file:line: " << error);
        return 0;
    }
    NICC_FUZZ_CHECK(spec.nodes >= 3, "nodes " << spec.nodes);
    NICC_FUZZ_CHECK(spec.isSwitch.size() == spec.nodes, "isSwitch size " << spec.isSwitch.size());
    NICC_FUZZ_CHECK(!spec.switches.empty(), "no switch");
    NICC_FUZZ_CHECK(spec.hosts.size() >= 2, "hosts " << spec.hosts.size());
    NICC_FUZZ_CHECK(spec.switches.size() + spec.hosts.size() == spec.nodes,
                    spec.switches.size() << " switches + " << spec.hosts.size() << " hosts != " << spec.nodes);
    std::set<uint32_t> switches(spec.switches.begin(), spec.switches.end());
    NICC_FUZZ_CHECK(switches.size() == spec.switches.size(), "duplicate switch id accepted");
    for (uint32_t s : spec.switches)
    {
        NICC_FUZZ_CHECK(s < spec.nodes && spec.isSwitch[s], "switch id " << s);
    }
    std::vector<uint32_t> degree(spec.nodes, 0);
    for (size_t i = 0; i < spec.hosts.size(); ++i)
    {
        NICC_FUZZ_CHECK(spec.hosts[i] < spec.nodes && !spec.isSwitch[spec.hosts[i]], "host id " << spec.hosts[i]);
        NICC_FUZZ_CHECK(i == 0 || spec.hosts[i - 1] < spec.hosts[i], "hosts not ascending");
    }
    for (const auto& l : spec.links)
    {
        NICC_FUZZ_CHECK(l.a < spec.nodes && l.b < spec.nodes && l.a != l.b, "link " << l.a << "-" << l.b);
        NICC_FUZZ_CHECK(spec.isSwitch[l.a] || spec.isSwitch[l.b], "host-host link on line " << l.line);
        NICC_FUZZ_CHECK(l.bps >= 1, "rate " << l.bps << " bit/s on line " << l.line);
        NICC_FUZZ_CHECK(l.delayPs >= 1000 && l.delayPs <= 1000LL * 1000 * 1000 * 1000 * 1000,
                        "delay " << l.delayPs << " ps on line " << l.line);
        NICC_FUZZ_CHECK(l.errorRate >= 0.0 && l.errorRate <= 1.0, "error rate " << l.errorRate);
        NICC_FUZZ_CHECK(l.line >= 1 && l.line <= 1 + std::count(text.begin(), text.end(), '\n'),
                        "link line " << l.line);
        ++degree[l.a];
        ++degree[l.b];
    }
    for (uint32_t h : spec.hosts)
    {
        NICC_FUZZ_CHECK(degree[h] == 1, "host " << h << " has " << degree[h] << " links");
    }
    uint64_t slowest = 0;
    const uint32_t group = ns3::NiccFileHostGroupSize(spec, &slowest);
    NICC_FUZZ_CHECK(group >= 1 && spec.hosts.size() % group == 0,
                    "host group " << group << " of " << spec.hosts.size() << " hosts");
    NICC_FUZZ_CHECK(slowest >= 1, "slowest host link " << slowest);
    return 0;
}
