/*
 * nicc-scenario-fabric-build.cc — NiccFabricRun::BuildNodes: the
 * fabric of a leaf-spine / ai-cluster / fat-tree / rail / topology-file
 * scenario built from its keys (nodes, links, switch set-up, MPI partition),
 * and the names and roles of its nodes that the measurements use (link
 * kinds, edge switches, NVLink endpoints, host link rates). NiccFabricRun::
 * Build (nicc-scenario-fabric.cc) calls it once the inputs are checked; on
 * false the run destroys the simulator. SetDcqcnBdpWindows gives the NICs the
 * HPCC simulator's DCQCN windows once they are installed.
 */
#include "nicc-hpcc-config.h"
#include "nicc-nic-helper.h"
#include "nicc-fabric-run.h"
#include "nicc-scenario-mpi.h"

#include <algorithm>

namespace ns3
{

namespace
{

// Names switches prefix0, prefix1, ... in their order.
void
NameSwitches(const std::vector<Ptr<NiccSwitchNode>>& sws, const std::string& prefix, std::vector<std::string>* name)
{
    name->resize(NodeList::GetNNodes());
    for (size_t k = 0; k < sws.size(); ++k)
    {
        (*name)[sws[k]->GetId()] = prefix + std::to_string(k);
    }
}

} // namespace

void
NiccFabricRun::BuildFatTree(DataRate hostRate, DataRate fabricRate, Time delay)
{
    NiccFatTreeParams p;
    p.pods = shape.pods;
    p.torsPerPod = shape.torsPerPod;
    p.aggsPerPod = shape.aggsPerPod;
    p.cores = shape.cores;
    p.hostsPerTor = shape.hostsPerLeaf;
    p.hostRate = hostRate;
    p.fabricRate = fabricRate;
    p.delay = delay;
    NiccFatTreeTopology ft = fabric.BuildFatTree(p);
    if (mpiRanks > 0)
    {
        NiccPartitionFatTree(ft, p, mpiRanks, Get("partition") == "pod");
    }
    nodes.hosts = ft.hosts;
    nodes.hostDevices = ft.hostDevices;
    NameSwitches(ft.cores, "core", &nodes.name);
    NameSwitches(ft.aggs, "agg", &nodes.name);
    NameSwitches(ft.tors, "tor", &nodes.name);
}

void
NiccFabricRun::BuildRail(DataRate hostRate, DataRate fabricRate, Time delay)
{
    NiccRailParams p;
    p.hosts = shape.servers;
    p.rails = shape.rails;
    p.spines = shape.spines;
    p.hostRate = hostRate;
    p.fabricRate = fabricRate;
    p.delay = delay;
    p.nvlinkRate = DataRate(static_cast<uint64_t>(nvlinkBps));
    p.nvlinkDelay = NanoSeconds(static_cast<int64_t>(U("nvlink_delay_ns")));
    NiccRailTopology rt = fabric.BuildRail(p);
    nodes.hosts = rt.nics;
    nodes.hostDevices = rt.nicDevices;
    nodes.gpus = rt.gpus;
    nodes.gpuDevices = rt.gpuDevices;
    NameSwitches(rt.spines, "spine", &nodes.name);
    NameSwitches(rt.railSwitches, "rail", &nodes.name);
    NameSwitches(rt.nvSwitches, "nvswitch", &nodes.name);
}

// topology=file: the file's nodes with its ids, its hosts named and placed.
bool
NiccFabricRun::BuildFromFile(std::string* error)
{
    NiccFileTopology ft = fabric.BuildFromSpec(spec);
    nodes.hosts = ft.hosts;
    nodes.hostDevices = ft.hostDevices;
    nodes.name.resize(NodeList::GetNNodes());
    for (size_t k = 0; k < ft.switches.size(); ++k)
    {
        nodes.name[ft.switches[k]->GetId()] = "sw" + std::to_string(spec.switches[k]);
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
    const uint64_t minFabric = ft.minFabricRate.GetBitRate();
    fabricBps = minFabric > 0 ? static_cast<double>(minFabric) : hostBps;
    NameHosts(ft.hostSwitch, ft.hostFileIds);
    return true;
}

void
NiccFabricRun::BuildLeafSpine(DataRate hostRate, DataRate fabricRate, Time delay)
{
    NiccLeafSpineTopology ls =
        fabric.BuildLeafSpine(shape.leaves, shape.spines, shape.hostsPerLeaf, hostRate, fabricRate, delay);
    if (mpiRanks > 0)
    {
        NiccPartitionLeafSpine(ls, mpiRanks);
    }
    nodes.hosts = ls.hosts;
    nodes.hostDevices = ls.hostDevices;
    NameSwitches(ls.spines, "spine", &nodes.name);
    NameSwitches(ls.leaves, "leaf", &nodes.name);
}

// Hosts' names and edge switches (topology=file: from the file), GPUs' and
// NVSwitches' NVLink role, every endpoint's link rate.
void
NiccFabricRun::NameHosts(const std::vector<uint32_t>& fileHostSwitch, const std::vector<uint32_t>& fileHostIds)
{
    const uint32_t rails = shape.rails;
    nodes.edgeOf.assign(NodeList::GetNNodes(), -1);
    for (uint32_t h = 0; h < nodes.hosts.size(); ++h)
    {
        const uint32_t id = nodes.hosts[h]->GetId();
        if (shape.topo == "file")
        {
            nodes.name[id] = "host" + std::to_string(fileHostIds[h]);
            nodes.edgeOf[id] = static_cast<int32_t>(fileHostSwitch[h]);
        }
        else if (shape.topo == "rail")
        {
            nodes.name[id] = "server" + std::to_string(h / rails) + "nic" + std::to_string(h % rails);
            nodes.edgeOf[id] = static_cast<int32_t>(h % rails);
        }
        else
        {
            nodes.name[id] = "host" + std::to_string(h);
            nodes.edgeOf[id] = static_cast<int32_t>(h / shape.hostsPerLeaf);
        }
    }
    nodes.onNvlink.assign(NodeList::GetNNodes(), false);
    nodes.hostBpsOf.assign(NodeList::GetNNodes(), hostBps);
    for (uint32_t h = 0; h < nodes.gpus.size(); ++h)
    {
        const uint32_t id = nodes.gpus[h]->GetId();
        nodes.name[id] = "server" + std::to_string(h / rails) + "gpu" + std::to_string(h % rails);
        nodes.onNvlink[id] = true;
        nodes.onNvlink[nodes.gpuDevices[h]->GetPeer()->GetNode()->GetId()] = true;
        nodes.hostBpsOf[id] = nvlinkBps;
    }
}

bool
NiccFabricRun::BuildNodes(std::string* error)
{
    const Time delay = NanoSeconds(static_cast<int64_t>(U("delay_ns")));
    const DataRate hostRate(static_cast<uint64_t>(hostBps));
    const DataRate fabricRate(static_cast<uint64_t>(fabricBps));
    if (shape.topo == "fat-tree")
    {
        BuildFatTree(hostRate, fabricRate, delay);
    }
    else if (shape.topo == "rail")
    {
        BuildRail(hostRate, fabricRate, delay);
    }
    else if (shape.topo == "file")
    {
        if (!BuildFromFile(error))
        {
            return false;
        }
    }
    else
    {
        BuildLeafSpine(hostRate, fabricRate, delay);
    }
    if (!scenario.SetUpSwitches(fabric, error))
    {
        return false;
    }
    if (mpiRanks > 0 && (shape.topo == "rail" || shape.topo == "file"))
    {
        const std::vector<Ptr<NetDevice>> nicDevs(nodes.hostDevices.begin(), nodes.hostDevices.end());
        const std::vector<Ptr<NetDevice>> gpuDevs(nodes.gpuDevices.begin(), nodes.gpuDevices.end());
        if (!NiccPartitionByEdge(nicDevs, gpuDevs, fabric.GetSwitches(), mpiRanks, error))
        {
            return false;
        }
    }
    uint32_t crossing = 0;
    if (mpiRanks > 0 && !NiccPartitionLinks(fabric, &crossing, error))
    {
        return false;
    }
    if (mpiRanks > 0 && NiccMpi::Rank() == 0)
    {
        std::fprintf(stderr, "nicc-sim: %u MPI ranks, partition=%s, %u links cross ranks\n", mpiRanks,
                     shape.topo == "rail" || shape.topo == "file" ? "edge" : Get("partition").c_str(), crossing);
    }
    if (shape.topo != "file")
    {
        NameHosts({}, {});
    }
    return true;
}

bool
NiccFabricRun::SetDcqcnBdpWindows(std::string* error) const
{
    const std::vector<Ptr<Node>>& hosts = nodes.hosts;
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
