// fuzz/sim/fuzz_flow_file.cc — target `flow-file`: a flow file (HPCC count
// + 'src dst pg dport size start_s' lines, or CSV with a header), parsed by
// NiccParseFlowFile and checked against a run by NiccResolveFlowFile, as the
// fabric scenarios read key flow_file. Input: the flow file; optionally,
// after a line "%%%", a topology file whose node ids the flows then name
// (topology=file), else the flows name host indices of a generated fabric
// of kHosts hosts. Resolution is tried at the smallest, the default and the
// largest mtu. Invariants: errors name file:line; accepted flows keep the
// documented bounds; the parser's memory stays proportional to the text.
#include "fuzz_util.h"

#include "ns3/nicc-fabric-helper.h"
#include "ns3/nicc-flow-file.h"

#include <algorithm>

namespace
{

constexpr uint32_t kHosts = 16;

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<std::string> parts = nicc_fuzz::Split(data, size, 2);
    ns3::NiccFlowFile f;
    std::string error;
    const bool parsed = ns3::NiccParseFlowFile(parts[0], "fuzz.flows", &f, &error);
    // Memory follows the text: a flow line has at least 8 characters, the
    // vector at most doubles past what it holds.
    NICC_FUZZ_CHECK(f.flows.capacity() * sizeof(ns3::NiccFileFlow) <= 32 * parts[0].size() + 1024,
                    "a " << parts[0].size() << "-byte file reserved " << f.flows.capacity() << " flows");
    if (!parsed)
    {
        NICC_FUZZ_CHECK(error.rfind("fuzz.flows:", 0) == 0, "error without file:line: " << error);
        return 0;
    }
    const size_t lines = 1 + std::count(parts[0].begin(), parts[0].end(), '\n');
    int64_t first = -1;
    for (const auto& fl : f.flows)
    {
        NICC_FUZZ_CHECK(fl.src != fl.dst, "flow to itself on line " << fl.line);
        NICC_FUZZ_CHECK(fl.sizeBytes >= 1, "size 0 on line " << fl.line);
        NICC_FUZZ_CHECK(fl.startNs >= 0 && fl.startNs <= 1000000LL * 1000000000LL,
                        "start " << fl.startNs << " ns on line " << fl.line);
        NICC_FUZZ_CHECK(fl.pg <= 7, "pg " << unsigned(fl.pg));
        NICC_FUZZ_CHECK(fl.line >= 1 && fl.line <= lines, "line " << fl.line << " of " << lines);
        first = first < 0 ? fl.startNs : std::min(first, fl.startNs);
    }
    NICC_FUZZ_CHECK(f.FirstStartNs() == first, "FirstStartNs " << f.FirstStartNs() << " != " << first);
    NICC_FUZZ_CHECK(f.List().size() == f.flows.size(), "List() size");

    ns3::NiccTopologySpec spec;
    ns3::NiccFlowFileHosts hosts;
    hosts.count = kHosts;
    if (parts.size() > 1)
    {
        if (!ns3::NiccFabricHelper::ParseTopology(parts[1], "fuzz.topo", &spec, &error))
        {
            return 0;
        }
        hosts.spec = &spec;
    }
    const uint32_t nHosts = hosts.spec ? static_cast<uint32_t>(spec.hosts.size()) : kHosts;
    for (uint32_t mtu : {256u, 1024u, 9216u})
    {
        ns3::NiccFlowFile resolved = f;
        if (!ns3::NiccResolveFlowFile(&resolved, hosts, mtu, &error))
        {
            NICC_FUZZ_CHECK(error.rfind("fuzz.flows:", 0) == 0, "error without file:line: " << error);
            continue;
        }
        for (const auto& fl : resolved.flows)
        {
            NICC_FUZZ_CHECK(fl.src < nHosts && fl.dst < nHosts && fl.src != fl.dst,
                            "resolved " << fl.src << " -> " << fl.dst << " of " << nHosts << " hosts");
            NICC_FUZZ_CHECK((fl.sizeBytes - 1) / mtu + 1 <= 0xfffffffeULL, "packets over 2^32 - 2");
        }
    }
    return 0;
}
