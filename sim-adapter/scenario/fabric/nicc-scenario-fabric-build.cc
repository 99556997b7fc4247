/*
 * nicc-scenario-fabric-build.cc — NiccScenario::BuildFabricNodes: the
 * fabric of a leaf-spine / ai-cluster / fat-tree / rail / topology-file
 * scenario built from its keys (nodes, links, switch set-up, MPI partition),
 * and the names and roles of its nodes that the measurements use (link
 * kinds, edge switches, NVLink endpoints, host link rates). RunFabric
 * (nicc-scenario-fabric.cc) calls it once the inputs are checked; on false
 * the caller destroys the simulator. SetDcqcnBdpWindows gives the NICs the
 * HPCC simulator's DCQCN windows once they are installed.
 */
#include "nicc-hpcc-config.h"
#include "nicc-nic-helper.h"
#include "nicc-scenario-meters.h"
#include "nicc-scenario-mpi.h"

#include <algorithm>

namespace ns3
{

using namespace fabric_meters;

bool
NiccScenario::BuildFabricNodes(NiccFabricHelper* fabric,
                               const NiccTopologySpec& spec,
                               double hostBps,
                               double nvlinkBps,
                               double* fabricBps,
                               FabricNodes* out,
                               std::string* error) const
{
    FabricNodes& t = *out;
    std::vector<std::string>& name = t.name;
    std::vector<int32_t>& edgeOf = t.edgeOf;
    std::vector<bool>& onNvlink = t.onNvlink;
    std::vector<double>& hostBpsOf = t.hostBpsOf;
    const std::string topo = Get("topology");
    const uint32_t leaves = static_cast<uint32_t>(U("leaves"));
    const uint32_t spines = static_cast<uint32_t>(U("spines"));
    const uint32_t hpl = static_cast<uint32_t>(U("hosts_per_leaf"));
    const uint32_t pods = static_cast<uint32_t>(U("pods"));
    const uint32_t torsPerPod = static_cast<uint32_t>(U("tors_per_pod"));
    const uint32_t aggsPerPod = static_cast<uint32_t>(U("aggs_per_pod"));
    const uint32_t rails = static_cast<uint32_t>(U("rails"));
    const uint32_t servers = static_cast<uint32_t>(U("servers"));
    const uint32_t mpiRanks = static_cast<uint32_t>(U("mpi_ranks"));
    const Time delay = NanoSeconds(static_cast<int64_t>(U("delay_ns")));
    const DataRate hostDr(static_cast<uint64_t>(hostBps));
    const DataRate fabricDr(static_cast<uint64_t>(*fabricBps));
    // Names and roles of the nodes, for link statistics and ideal FCTs.
    std::vector<uint32_t> fileHostSwitch; // topology=file: index of host i's switch
    std::vector<uint32_t> fileHostIds;    // topology=file: file node id of host i
    auto nameAll = [&](const std::vector<Ptr<NiccSwitchNode>>& sws, const std::string& prefix) {
        name.resize(NodeList::GetNNodes());
        for (size_t k = 0; k < sws.size(); ++k)
        {
            name[sws[k]->GetId()] = prefix + std::to_string(k);
        }
    };
    if (topo == "fat-tree")
    {
        NiccFatTreeParams p;
        p.pods = pods;
        p.torsPerPod = torsPerPod;
        p.aggsPerPod = aggsPerPod;
        p.cores = static_cast<uint32_t>(U("cores"));
        p.hostsPerTor = hpl;
        p.hostRate = hostDr;
        p.fabricRate = fabricDr;
        p.delay = delay;
        NiccFatTreeTopology ft = fabric->BuildFatTree(p);
        if (mpiRanks > 0)
        {
            NiccPartitionFatTree(ft, p, mpiRanks, Get("partition") == "pod");
        }
        t.hosts = ft.hosts;
        t.hostDevices = ft.hostDevices;
        nameAll(ft.cores, "core");
        nameAll(ft.aggs, "agg");
        nameAll(ft.tors, "tor");
    }
    else if (topo == "rail")
    {
        NiccRailParams p;
        p.hosts = servers;
        p.rails = rails;
        p.spines = spines;
        p.hostRate = hostDr;
        p.fabricRate = fabricDr;
        p.delay = delay;
        p.nvlinkRate = DataRate(static_cast<uint64_t>(nvlinkBps));
        p.nvlinkDelay = NanoSeconds(static_cast<int64_t>(U("nvlink_delay_ns")));
        NiccRailTopology rt = fabric->BuildRail(p);
        t.hosts = rt.nics;
        t.hostDevices = rt.nicDevices;
        t.gpus = rt.gpus;
        t.gpuDevices = rt.gpuDevices;
        nameAll(rt.spines, "spine");
        nameAll(rt.railSwitches, "rail");
        nameAll(rt.nvSwitches, "nvswitch");
    }
    else if (topo == "file")
    {
        NiccFileTopology ft = fabric->BuildFromSpec(spec);
        t.hosts = ft.hosts;
        t.hostDevices = ft.hostDevices;
        name.resize(NodeList::GetNNodes());
        for (size_t k = 0; k < ft.switches.size(); ++k)
        {
            name[ft.switches[k]->GetId()] = "sw" + std::to_string(spec.switches[k]);
        }
        // fct.txt and pfc.txt name nodes by ns-3 id: the file's ids, as
        // BuildFromSpec creates the nodes in file order into an empty list.
        for (uint32_t n = 0; n < spec.nodes; ++n)
        {
            if (ft.node[n]->GetId() != n)
            {
                *error = "key 'topology_file': node " + std::to_string(n) + " got ns-3 id " +
                         std::to_string(ft.node[n]->GetId()) + " (nodes existed before the run)";
                return false;
            }
        }
        fileHostSwitch = ft.hostSwitch;
        fileHostIds = ft.hostFileIds;
        const uint64_t minFabric = ft.minFabricRate.GetBitRate();
        *fabricBps = minFabric > 0 ? static_cast<double>(minFabric) : hostBps;
    }
    else
    {
        NiccLeafSpineTopology ls = fabric->BuildLeafSpine(leaves, spines, hpl, hostDr, fabricDr, delay);
        if (mpiRanks > 0)
        {
            NiccPartitionLeafSpine(ls, mpiRanks);
        }
        t.hosts = ls.hosts;
        t.hostDevices = ls.hostDevices;
        nameAll(ls.spines, "spine");
        nameAll(ls.leaves, "leaf");
    }
    if (!SetUpSwitches(*fabric, error))
    {
        return false;
    }
    if (mpiRanks > 0 && NiccMpi::Rank() == 0)
    {
        std::fprintf(stderr, "nicc-sim: %u MPI ranks, partition=%s, %u links cross ranks\n", mpiRanks,
                     Get("partition").c_str(), NiccPartitionLinks(*fabric));
    }
    else if (mpiRanks > 0)
    {
        NiccPartitionLinks(*fabric);
    }
    edgeOf.assign(NodeList::GetNNodes(), -1);
    for (uint32_t h = 0; h < t.hosts.size(); ++h)
    {
        const uint32_t id = t.hosts[h]->GetId();
        if (topo == "file")
        {
            name[id] = "host" + std::to_string(fileHostIds[h]);
            edgeOf[id] = static_cast<int32_t>(fileHostSwitch[h]);
        }
        else if (topo == "rail")
        {
            name[id] = "server" + std::to_string(h / rails) + "nic" + std::to_string(h % rails);
            edgeOf[id] = static_cast<int32_t>(h % rails);
        }
        else
        {
            name[id] = "host" + std::to_string(h);
            edgeOf[id] = static_cast<int32_t>(h / hpl);
        }
    }
    // NVLink nodes: GPU endpoints and NVSwitches (link kind "nvlink").
    onNvlink.assign(NodeList::GetNNodes(), false);
    hostBpsOf.assign(NodeList::GetNNodes(), hostBps);
    for (uint32_t h = 0; h < t.gpus.size(); ++h)
    {
        const uint32_t id = t.gpus[h]->GetId();
        name[id] = "server" + std::to_string(h / rails) + "gpu" + std::to_string(h % rails);
        onNvlink[id] = true;
        onNvlink[t.gpuDevices[h]->GetPeer()->GetNode()->GetId()] = true;
        hostBpsOf[id] = nvlinkBps;
    }
    return true;
}

bool
NiccScenario::SetDcqcnBdpWindows(const NiccTopologySpec& spec,
                                 const std::vector<Ptr<Node>>& hosts,
                                 std::string* error) const
{
    const std::string mode = Get("dcqcn_window_bdp");
    if (mode == "off")
    {
        return true;
    }
    if (Get("topology") != "file" || hosts.size() != spec.hosts.size())
    {
        *error = "key 'dcqcn_window_bdp': needs topology=file (the BDPs come from the topology file's links)";
        return false;
    }
    const std::vector<std::vector<NiccHpccPair>> pairs =
        NiccHpccPairs(spec, static_cast<uint32_t>(U("mtu")));
    uint64_t maxBdp = 0;
    for (const auto& row : pairs)
    {
        for (const NiccHpccPair& p : row)
        {
            maxBdp = std::max(maxBdp, p.bdpBytes);
        }
    }
    for (size_t i = 0; i < hosts.size(); ++i)
    {
        const Ptr<NiccNic> nic = NiccNicHelper::GetNic(hosts[i]);
        for (size_t j = 0; j < hosts.size() && nic; ++j)
        {
            const uint64_t w = mode == "max" ? maxBdp : pairs[i][j].bdpBytes;
            if (w > UINT32_MAX)
            {
                *error = "key 'dcqcn_window_bdp': a BDP of " + std::to_string(w) +
                         " B (hosts " + std::to_string(spec.hosts[i]) + " -> " + std::to_string(spec.hosts[j]) +
                         ") exceeds the NIC's 32-bit window";
                return false;
            }
            // 0 (i == j) leaves the Attribute's window, which no flow uses.
            nic->SetDcqcnWindow(hosts[j]->GetId(), static_cast<uint32_t>(w));
        }
    }
    return true;
}

} // namespace ns3
