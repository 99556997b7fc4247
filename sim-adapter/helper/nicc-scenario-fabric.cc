/*
 * nicc-scenario-fabric.cc — NiccScenario::RunFabric: the leaf-spine and
 * ai-cluster scenarios (topology: leaf-spine from leaves / spines /
 * hosts_per_leaf / oversubscription, fat-tree from pods / tors_per_pod /
 * aggs_per_pod / cores, rail from servers / rails / spines, or a topology
 * file (topology_file); a workload mix from NiccWorkload, switch and NIC load
 * balancing from switch_mode / spray) and their measurements: queue samples
 * of every switch egress port, PFC pause time, per-link utilization,
 * reordering distance, goodput per traffic kind over time, collective step
 * times, permutation throughput. Flows of a flow file (flow_file,
 * nicc-flow-file.h) run beside the generated workloads.
 *
 * Ideal FCT of a flow on its own path (H links on a shortest path between
 * its hosts, by BFS: 2 under one edge switch, 4 across leaves / ToRs of a
 * pod / rails, 6 across fat-tree pods; any count in a topology file), R_i the
 * rate of link i (the hosts' own links at both ends, the slowest fabric
 * link of the topology in between), R_min the slowest, D the summed one-way
 * delay of the path (H * d with the stock topologies' uniform delay d):
 *   frames * 8 / R_min + 2 * D + sum_i last_frame * 8 / R_i
 *     - last_frame * 8 / R_min + sum_i ack * 8 / R_i
 * (equal rates give the incast formula of nicc-scenario.h). With HPCC the
 * header counts the INT stack as stamped by the last switch of the path.
 */
#include "nicc-fabric-helper.h"
#include "nicc-hpcc-output.h"
#include "nicc-flow-file.h"
#include "nicc-scenario.h"
#include "nicc-scenario-meters.h"
#include "nicc-scenario-mpi.h"
#include "nicc-workload.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nicc-mpi.h"
#include "ns3/node-list.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>

namespace ns3
{

using namespace fabric_meters;

// ---------------------------------------------------------------------------

uint32_t
NiccScenarioResult::OooPercentile(double q) const
{
    uint64_t total = 0;
    for (uint64_t c : oooHistogram)
    {
        total += c;
    }
    if (total == 0)
    {
        return 0;
    }
    const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(total))));
    uint64_t seen = 0;
    for (uint32_t d = 0; d < oooHistogram.size(); ++d)
    {
        seen += oooHistogram[d];
        if (seen >= rank)
        {
            return d;
        }
    }
    return static_cast<uint32_t>(oooHistogram.size() - 1);
}

bool
NiccScenario::RunFabric(NiccScenarioResult* r, std::string* error)
{
    const auto wall0 = std::chrono::steady_clock::now();
    *r = NiccScenarioResult{};
    r->scenario = m_label.empty() ? m_name : m_label;
    r->fabric = true;
    const RngScope rng(U("seed"), U("run"));
    r->rngSeed = rng.seed;
    r->rngRun = rng.run;
    if (!CheckMpiKeys(error)) // before the simulator is made: MPI picks its implementation
    {
        return false;
    }
    const uint32_t mpiRanks = static_cast<uint32_t>(U("mpi_ranks"));
    ObjectFactory sched;
    sched.SetTypeId(SchedulerTypeId());
    Simulator::SetScheduler(sched);

    // Workload inputs first: a bad CDF file is a configuration error.
    NiccFlowSizeCdf cdf;
    const double poissonLoad = D("poisson_load");
    const std::string cdfPath = Get("cdf_file").empty() ? CdfPath(Get("cdf")) : Get("cdf_file");
    if (poissonLoad > 0 && !cdf.Load(cdfPath, error))
    {
        *error = "key 'cdf' / 'cdf_file': " + *error;
        return false;
    }

    if (!CheckFaultKeys(error))
    {
        return false;
    }

    // Topology: hosts in groups of groupSize (leaf / ToR / server / the hosts
    // of one switch of a topology file), each host under edge switch edgeOf.
    // Paths (switches crossed, delay) come from a BFS over the links.
    const std::string topo = Get("topology");
    const uint32_t leaves = static_cast<uint32_t>(U("leaves"));
    const uint32_t spines = static_cast<uint32_t>(U("spines"));
    const uint32_t hpl = static_cast<uint32_t>(U("hosts_per_leaf"));
    const uint32_t pods = static_cast<uint32_t>(U("pods"));
    const uint32_t torsPerPod = static_cast<uint32_t>(U("tors_per_pod"));
    const uint32_t aggsPerPod = static_cast<uint32_t>(U("aggs_per_pod"));
    const uint32_t rails = static_cast<uint32_t>(U("rails"));
    const uint32_t servers = static_cast<uint32_t>(U("servers"));
    uint32_t groups = leaves;
    uint32_t groupSize = hpl;
    uint32_t uplinksPerEdge = spines;
    // topology=file: the file is read and checked before anything is built.
    NiccTopologySpec spec;
    uint64_t fileHostBps = 0; // slowest host link of the file
    if (topo == "fat-tree")
    {
        groups = pods * torsPerPod;
        uplinksPerEdge = aggsPerPod;
    }
    else if (topo == "rail")
    {
        groups = servers;
        groupSize = rails;
    }
    else if (topo == "file")
    {
        if (Get("topology_file").empty())
        {
            *error = "key 'topology_file': required with topology=file";
            return false;
        }
        if (!NiccFabricHelper::ParseTopologyFile(Get("topology_file"), &spec, error))
        {
            *error = "key 'topology_file': " + *error;
            return false;
        }
        if (spec.ignoredLines > 0)
        {
            std::fprintf(stderr,
                         "note: %s: %u line(s) after its %zu links are not read (the HPCC simulator "
                         "reads exactly L)\n",
                         spec.path.c_str(), spec.ignoredLines, spec.links.size());
        }
        groupSize = NiccFileHostGroupSize(spec, &fileHostBps);
        groups = static_cast<uint32_t>(spec.hosts.size()) / groupSize;
    }
    const uint32_t nHosts = groups * groupSize;
    // The servers' NVLink (rail only, lossless as the fabric) and PXN relays.
    const double nvlinkBps = D("nvlink_gbps") * 1e9;
    const bool pxn = Get("allreduce_relay") == "pxn";
    if (nvlinkBps > 0 && topo != "rail")
    {
        *error = "key 'nvlink_gbps': the intra-server NVLink needs topology=rail (servers of rails NICs)";
        return false;
    }
    if (nvlinkBps > 0 && (Get("pfc") == "false" || Get("pfc") == "0"))
    {
        *error = "key 'nvlink_gbps': the NVSwitch model is lossless (PFC, as the fabric): not with pfc=false";
        return false;
    }
    if (pxn && nvlinkBps <= 0)
    {
        *error = "key 'allreduce_relay': pxn relays over the servers' NVLink: needs topology=rail and "
                 "nvlink_gbps > 0";
        return false;
    }
    if (nHosts < 2)
    {
        *error = topo == "rail" ? "keys 'servers' x 'rails': need at least two NICs"
                 : topo == "fat-tree"
                     ? "keys 'pods' x 'tors_per_pod' x 'hosts_per_leaf': need at least two hosts"
                     : "keys 'leaves' x 'hosts_per_leaf': need at least two hosts";
        return false;
    }
    const uint32_t mtu = static_cast<uint32_t>(U("mtu"));
    // A flow file is read and checked against the hosts before anything is built.
    NiccFlowFile flowFile;
    if (!Get("flow_file").empty())
    {
        NiccFlowFileHosts ids;
        ids.spec = topo == "file" ? &spec : nullptr;
        ids.count = nHosts;
        if (!NiccReadFlowFile(Get("flow_file"), &flowFile, error) ||
            !NiccResolveFlowFile(&flowFile, ids, mtu, error))
        {
            *error = "key 'flow_file': " + *error;
            return false;
        }
        if (flowFile.ignoredLines > 0)
        {
            std::fprintf(stderr,
                         "note: %s: %u line(s) after the %zu flows of its count are ignored (the HPCC "
                         "simulator reads exactly that many)\n",
                         flowFile.source.c_str(), flowFile.ignoredLines, flowFile.flows.size());
        }
    }
    const double hostBps = topo == "file" ? static_cast<double>(fileHostBps) : D("rate_gbps") * 1e9;
    const double edgeHostBps = hostBps * (topo == "rail" ? servers : hpl);
    double fabricBps = D("fabric_rate_gbps") > 0 ? D("fabric_rate_gbps") * 1e9
                                                 : edgeHostBps / (uplinksPerEdge * D("oversubscription"));
    const Time delay = NanoSeconds(static_cast<int64_t>(U("delay_ns")));
    const std::string mode = Get("switch_mode");

    // Every model Attribute from its key (mtu, buffer_bytes, ecn_*, cc,
    // spray, dcqcn.*, hpcc.*, ...), then the fabric's forwarding mode.
    NiccFabricHelper fabric;
    NiccNicHelper nics;
    if (!ApplyAttributes(&fabric, &nics, error))
    {
        return false;
    }
    fabric.SetSwitchAttribute("ForwardingMode",
                              EnumValue(mode == "spray"      ? NiccSwitchNode::SPRAY
                                        : mode == "adaptive" ? NiccSwitchNode::LEAST_QUEUE
                                                             : NiccSwitchNode::ECMP));
    const DataRate hostDr(static_cast<uint64_t>(hostBps));
    const DataRate fabricDr(static_cast<uint64_t>(fabricBps));
    struct
    {
        std::vector<Ptr<Node>> hosts;
        std::vector<Ptr<NiccNetDevice>> hostDevices;
        std::vector<Ptr<Node>> gpus; ///< rail with NVLink: [h], the GPU of host h
        std::vector<Ptr<NiccNetDevice>> gpuDevices;
    } t;
    // Names and roles of the nodes, for link statistics and ideal FCTs.
    std::vector<std::string> name;
    std::vector<int32_t> edgeOf;
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
        NiccFatTreeTopology ft = fabric.BuildFatTree(p);
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
        NiccRailTopology rt = fabric.BuildRail(p);
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
        NiccFileTopology ft = fabric.BuildFromSpec(spec);
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
                Simulator::Destroy();
                return false;
            }
        }
        fileHostSwitch = ft.hostSwitch;
        fileHostIds = ft.hostFileIds;
        const uint64_t minFabric = ft.minFabricRate.GetBitRate();
        fabricBps = minFabric > 0 ? static_cast<double>(minFabric) : hostBps;
    }
    else
    {
        NiccLeafSpineTopology ls = fabric.BuildLeafSpine(leaves, spines, hpl, hostDr, fabricDr, delay);
        if (mpiRanks > 0)
        {
            NiccPartitionLeafSpine(ls, mpiRanks);
        }
        t.hosts = ls.hosts;
        t.hostDevices = ls.hostDevices;
        nameAll(ls.spines, "spine");
        nameAll(ls.leaves, "leaf");
    }
    if (!SetUpSwitches(fabric, error))
    {
        Simulator::Destroy();
        return false;
    }
    if (mpiRanks > 0 && NiccMpi::Rank() == 0)
    {
        std::fprintf(stderr, "nicc-sim: %u MPI ranks, partition=%s, %u links cross ranks\n", mpiRanks,
                     Get("partition").c_str(), NiccPartitionLinks(fabric));
    }
    else if (mpiRanks > 0)
    {
        NiccPartitionLinks(fabric);
    }
    edgeOf.assign(NodeList::GetNNodes(), -1);
    for (uint32_t h = 0; h < nHosts; ++h)
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
    std::vector<bool> onNvlink(NodeList::GetNNodes(), false);
    std::vector<double> hostBpsOf(NodeList::GetNNodes(), hostBps);
    for (uint32_t h = 0; h < t.gpus.size(); ++h)
    {
        const uint32_t id = t.gpus[h]->GetId();
        name[id] = "server" + std::to_string(h / rails) + "gpu" + std::to_string(h % rails);
        onNvlink[id] = true;
        onNvlink[t.gpuDevices[h]->GetPeer()->GetNode()->GetId()] = true;
        hostBpsOf[id] = nvlinkBps;
    }
    std::string nicError;
    if (!nics.Install(t.hosts, &nicError) || !nics.Install(t.gpus, &nicError))
    {
        *error = "invalid configuration (cc / spray / dcqcn.* / hpcc.* / spray.* / ecn_rule.* keys): " +
                 nicError;
        Simulator::Destroy();
        return false;
    }

    // Workloads.
    const Time stop = NanoSeconds(static_cast<int64_t>(std::llround(D("stop_ms") * 1e6)));
    const Time trafficStop = D("traffic_stop_ms") > 0
                                 ? NanoSeconds(static_cast<int64_t>(std::llround(D("traffic_stop_ms") * 1e6)))
                                 : stop;
    const DataRate hostRate(static_cast<uint64_t>(hostBps));
    NiccWorkload work(&nics, t.hosts);
    work.SetIntraServer(t.gpus, rails, pxn);
    // Fabric switches crossed per collective flow (NVLink flows: 0).
    std::map<uint32_t, NiccPathsFrom> hopPaths;
    work.SetHopCount([&](Ptr<Node> a, Ptr<Node> b) -> uint32_t {
        if (onNvlink[a->GetId()])
        {
            return 0;
        }
        auto it = hopPaths.find(a->GetId());
        if (it == hopPaths.end())
        {
            it = hopPaths.emplace(a->GetId(), fabric.PathsFrom(a)).first;
        }
        const uint32_t links = it->second.links[b->GetId()];
        return links >= 2 && links != UINT32_MAX ? links - 1 : 0;
    });
    // Fixed stream numbers (the workload's, then one per switch): a run
    // depends on RngSeed / RngRun and the keys only, not on what ran before
    // it in the same process.
    int64_t stream = work.AssignStreams(0);
    for (const auto& sw : fabric.GetSwitches())
    {
        stream += sw->AssignStreams(stream);
    }
    NiccFaultInjector faults(&fabric, MicroSeconds(D("fault_detect_us")), MicroSeconds(D("fault_window_us")));
    if (!SetUpFaults(&faults, name, t.hosts, &stream, error))
    {
        Simulator::Destroy();
        return false;
    }
    // Per-workload congestion control (keys <kind>_cc; "cc" = the NICs').
    for (uint32_t k = 0; k < NICC_FLOW_KINDS; ++k)
    {
        const auto kind = static_cast<NiccFlowKind>(k);
        const std::string key = std::string(NiccFlowKindName(kind)) + NICC_WORKLOAD_CC_SUFFIX;
        nicc::hal::CcKind cc;
        if (kind != NiccFlowKind::OTHER && NiccCcKindByName(Get(key), &cc))
        {
            work.SetCc(kind, cc);
        }
    }
    work.StartPoisson(&cdf, poissonLoad, hostRate, Seconds(0), trafficStop);
    work.StartIncast(D("incast_load"), static_cast<uint32_t>(U("incast_fanin")), U("incast_bytes"),
                     hostRate, Seconds(0), trafficStop);
    work.StartPermutation(U("permutation_bytes"), groupSize,
                          NanoSeconds(static_cast<int64_t>(std::llround(D("permutation_start_us") * 1e3))));
    if (U("allreduce_bytes") > 0)
    {
        const std::vector<std::vector<uint32_t>> rings =
            NiccAllReduceRings(Get("allreduce_ring"), groups, groupSize);
        const Time arStart = NanoSeconds(static_cast<int64_t>(std::llround(D("allreduce_start_us") * 1e3)));
        const bool started =
            Get("allreduce_algo") == "tree"
                ? work.StartTreeAllReduce(rings, U("allreduce_bytes"), static_cast<uint32_t>(U("allreduce_chunks")),
                                          arStart, "allreduce", nullptr)
                : work.StartRingAllReduce(rings, U("allreduce_bytes"), arStart);
        if (!started)
        {
            *error = "key 'allreduce_ring': rail-local / rail-crossing rings need at least two groups "
                     "(servers, leaves or ToRs)";
            Simulator::Destroy();
            return false;
        }
    }
    if (U("alltoall_bytes") > 0)
    {
        std::vector<uint32_t> ranks(nHosts);
        for (uint32_t k = 0; k < nHosts; ++k)
        {
            ranks[k] = k;
        }
        work.StartAllToAll(ranks, U("alltoall_bytes"),
                           NanoSeconds(static_cast<int64_t>(std::llround(D("alltoall_start_us") * 1e3))));
    }
    work.StartFlowList(flowFile.List());
    NiccTrainingRun training;
    if (!training.SetUp(*this, &work, groups, groupSize, error))
    {
        Simulator::Destroy();
        return false;
    }
    // Periodic sampling starts with the traffic: at 0 with any generated
    // workload, else at the flow file's first start (HPCC's files start at
    // 2 s; sampling an idle fabric until then would cost millions of events).
    const bool generated = poissonLoad > 0 || D("incast_load") > 0 || U("permutation_bytes") > 0 ||
                           U("allreduce_bytes") > 0 || U("alltoall_bytes") > 0 || training.On();
    const Time trafficStart =
        generated || flowFile.flows.empty() ? Time(0) : NanoSeconds(flowFile.FirstStartNs());

    // Meters.
    std::deque<PauseMeter> pauses;
    std::vector<Ptr<NiccNetDevice>> allDevices;
    FabricSampler s{r,
                    &nics,
                    &work,
                    {},
                    {},
                    NanoSeconds(static_cast<int64_t>(U("sample_ns"))),
                    NanoSeconds(static_cast<int64_t>(std::llround(D("warmup_us") * 1000.0))),
                    NanoSeconds(static_cast<int64_t>(std::llround(D("rate_window_us") * 1000.0))),
                    stop,
                    m_progress && NiccMpi::Rank() == 0,
                    // Under MPI no rank sees every flow end: runs last stop_ms.
                    poissonLoad <= 0 && D("incast_load") <= 0 && mpiRanks == 0,
                    U("permutation_bytes") > 0,
                    std::vector<uint64_t>(NICC_FLOW_KINDS, 0),
                    0,
                    false,
                    wall0,
                    0,
                    0,
                    0,
                    {}};
    for (const auto& sw : fabric.GetSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<NiccNetDevice> dev = sw->GetPort(p);
            allDevices.push_back(dev);
            if (onNvlink[sw->GetId()])
            {
                continue; // NVSwitch ports: no fabric queue samples
            }
            s.ports.push_back(dev);
            if (edgeOf[dev->GetPeer()->GetNode()->GetId()] >= 0)
            {
                s.downPorts.push_back(dev);
            }
        }
    }
    for (const auto& dev : t.hostDevices)
    {
        allDevices.push_back(dev);
    }
    for (const auto& dev : t.gpuDevices)
    {
        allDevices.push_back(dev);
    }
    for (const auto& dev : allDevices)
    {
        pauses.push_back(PauseMeter{dev, &r->pauseTimeNs, false, Time(0), Time(0)});
        dev->TraceConnectWithoutContext("PfcRx", MakeCallback(&PauseMeter::OnPfc, &pauses.back()));
    }
    r->pausableDevices = static_cast<uint32_t>(allDevices.size());
    ReorderMeter reorder;
    for (const auto& h : t.hosts)
    {
        NiccNicHelper::GetNic(h)->TraceConnectWithoutContext(
            "OutOfOrder",
            MakeCallback(&ReorderMeter::OnOoo, &reorder));
    }
    std::vector<std::string> switchNames;
    for (const auto& sw : fabric.GetSwitches())
    {
        switchNames.push_back(name[sw->GetId()]);
    }
    std::unique_ptr<NiccPortMonitor> monitor;
    NiccMonitorConfig monitorConfig = MonitorConfig();
    if (monitorConfig.start == Time(0))
    {
        monitorConfig.start = trafficStart; // as the samplers: not through an idle warm-up
    }
    if (!NiccSetUpPortMonitor(monitorConfig, fabric.GetSwitches(), switchNames, &r->monitoredPorts,
                              &r->qlenMonText, &monitor, error))
    {
        Simulator::Destroy();
        return false;
    }
    for (const auto& dev : allDevices)
    {
        monitor->WatchPfc(dev, &r->pfcEvents);
    }
    monitor->Start();
    std::vector<std::string> hostNames;
    for (const auto& h : t.hosts)
    {
        hostNames.push_back(name[h->GetId()]);
    }
    NiccPfcRun pfcRun;
    if (!pfcRun.SetUp(*this, fabric.GetSwitches(), switchNames, t.hostDevices, hostNames, stop, error))
    {
        Simulator::Destroy();
        return false;
    }
    // Fabric link utilization over time (key link_util_interval_us; off: no event).
    r->linkUtil.intervalUs = D("link_util_interval_us");
    NiccLinkUtilSampler linkUtil(&r->linkUtil.series,
                                 NanoSeconds(static_cast<int64_t>(std::llround(r->linkUtil.intervalUs * 1e3))));
    for (const auto& dev : s.ports)
    {
        if (edgeOf[dev->GetPeer()->GetNode()->GetId()] < 0)
        {
            linkUtil.Add(dev, name[dev->GetNode()->GetId()], name[dev->GetPeer()->GetNode()->GetId()]);
        }
    }
    if (r->linkUtil.intervalUs > 0 &&
        (stop - trafficStart).GetMicroSeconds() / r->linkUtil.intervalUs * r->linkUtil.series.Links() > 1e8)
    {
        *error = "key 'link_util_interval_us': " + Get("link_util_interval_us") + " us over stop_ms with " +
                 std::to_string(r->linkUtil.series.Links()) +
                 " fabric links is more than 1e8 samples; use a longer interval";
        Simulator::Destroy();
        return false;
    }
    linkUtil.Start(trafficStart);
    Simulator::Schedule(trafficStart + s.period, &FabricSampler::Sample, &s);
    Simulator::Schedule(trafficStart + s.window, &FabricSampler::Window, &s);
    if (s.hasPermutation)
    {
        Simulator::Schedule(s.warmup, &FabricSampler::Snapshot, &s);
    }
    Simulator::Stop(stop);
    Simulator::Run();
    monitor->Finish();
    pfcRun.Collect(&r->pfcStorm);
    if (r->linkUtil.intervalUs > 0)
    {
        linkUtil.Finish(Simulator::Now());
        if (U("allreduce_bytes") > 0)
        {
            const auto rings = NiccAllReduceRings(Get("allreduce_ring"), groups, groupSize);
            const uint64_t n = rings.empty() ? 0 : rings[0].size();
            r->linkUtil.allreduceRanks = static_cast<uint32_t>(n);
            r->linkUtil.allreduceRings = static_cast<uint32_t>(rings.size());
            r->linkUtil.allreduceRankBytes =
                n < 2 ? 0 : 2 * (n - 1) * ((U("allreduce_bytes") + rings.size() * n - 1) / (rings.size() * n));
        }
    }

    // Measurements.
    const Time end = Simulator::Now();
    r->simSeconds = end.GetSeconds();
    r->hosts = nHosts;
    r->hostRateGbps = hostBps / 1e9;
    r->flows = nics.GetFlowRecords();
    NiccMergeFlows(&r->flows);
    // Each flow's path: switches crossed and summed link delay of a shortest
    // path (BFS over the links; every stock topology is symmetric, so this is
    // 1 / 3 / 5 switches as its shape says), host link rates at both ends
    // and the slowest fabric link in between.
    if (topo == "file")
    {
        for (const auto& dev : t.hostDevices)
        {
            hostBpsOf[dev->GetNode()->GetId()] = static_cast<double>(dev->GetDataRate().GetBitRate());
        }
    }
    std::map<uint32_t, NiccPathsFrom> pathsFrom;
    for (const auto& f : r->flows)
    {
        auto it = pathsFrom.find(f.src);
        if (it == pathsFrom.end())
        {
            it = pathsFrom.emplace(f.src, fabric.PathsFrom(NodeList::GetNode(f.src))).first;
        }
        const uint32_t links = it->second.links[f.dst];
        const uint32_t switches = links >= 2 && links != UINT32_MAX ? links - 1 : 1;
        const double pathDelayNs = it->second.delayNs[f.dst];
        const bool intOn = NiccQpSender::UsesInt(f.cc); // INT on the flow's data and ACKs
        const uint32_t hdr = NiccRoceHeader::BASE_SIZE + (intOn ? 2 + 8 * switches : 0);
        const uint32_t ack = NiccRoceHeader::BASE_SIZE + (intOn ? 2 + 8 * switches : 0);
        const uint64_t full = f.sizeBytes / mtu;
        const uint64_t rest = f.sizeBytes % mtu;
        const double frames = static_cast<double>(f.sizeBytes + (full + (rest ? 1 : 0)) * hdr);
        const double last = static_cast<double>((rest ? rest : mtu) + hdr);
        std::vector<double> rates(switches + 1, fabricBps);
        rates.front() = hostBpsOf[f.src];
        rates.back() = hostBpsOf[f.dst];
        const double rmin = *std::min_element(rates.begin(), rates.end());
        double ns = frames * 8e9 / rmin + 2.0 * pathDelayNs - last * 8e9 / rmin;
        for (double rate : rates)
        {
            ns += (last + ack) * 8e9 / rate;
        }
        r->idealFctNs.push_back(static_cast<int64_t>(std::ceil(ns)));
        r->standaloneFctNs.push_back(NiccHpccStandaloneFctNs(f.sizeBytes, mtu, NiccRoceHeader::BASE_SIZE,
                                                             NiccHpccBaseRttNs(pathDelayNs, rates, mtu),
                                                             static_cast<uint64_t>(rmin)));
        r->flowKind.push_back(static_cast<uint8_t>(work.GetKind(f.id)));
        r->bytesAcked += f.ackedBytes;
    }
    for (const auto& f : r->flows)
    {
        r->bytesOffered += f.sizeBytes;
    }
    faults.Finish(end, &r->faults, &r->linkLoss, &r->faultThroughput);
    r->flowDport = NiccFlowDports(r->flowKind, r->flows.size(), false);
    for (size_t i = 0; i < r->flows.size(); ++i)
    {
        // A flow file's own dport wins (the analysis script reads it).
        const uint16_t d = work.GetDport(r->flows[i].id);
        r->flowDport[i] = d ? d : r->flowDport[i];
    }
    NiccAddCounters(r, fabric.GetSwitches(), t.hosts);
    for (auto& p : pauses)
    {
        p.Close(end);
    }
    r->events = Simulator::GetEventCount(); // under MPI: summed over the ranks
    NiccMergeCounters(r, &reorder.hist, &reorder.max);
    if (mpiRanks > 0)
    {
        s.MergeWindows();
    }
    uint64_t ooo = 0;
    for (uint64_t c : reorder.hist)
    {
        ooo += c;
    }
    r->oooHistogram = reorder.hist;
    r->oooHistogram[0] = r->rxDataPackets > ooo ? r->rxDataPackets - ooo : 0;
    r->oooMax = reorder.max;
    std::vector<uint64_t> txBytes; // per device; summed over MPI ranks
    for (const auto& dev : allDevices)
    {
        txBytes.push_back(dev->GetTxBytes());
    }
    NiccMpi::SumToRoot(&txBytes);
    for (size_t i = 0; i < allDevices.size(); ++i)
    {
        const Ptr<NiccNetDevice>& dev = allDevices[i];
        const uint32_t from = dev->GetNode()->GetId();
        const uint32_t to = dev->GetPeer()->GetNode()->GetId();
        const double bps = static_cast<double>(dev->GetDataRate().GetBitRate());
        NiccLinkStat l{name[from],
                       name[to],
                       onNvlink[from] || onNvlink[to]
                           ? "nvlink"
                           : (edgeOf[from] >= 0 ? "up" : (edgeOf[to] >= 0 ? "down" : "fabric")),
                       bps / 1e9,
                       txBytes[i],
                       r->simSeconds > 0 ? static_cast<double>(txBytes[i]) * 8.0 / (bps * r->simSeconds)
                                         : 0.0};
        r->links.push_back(l);
        if (l.kind == "fabric")
        {
            r->utilization += l.utilization; // mean over fabric links, below
        }
    }
    const size_t fabricLinks = std::count_if(r->links.begin(), r->links.end(),
                                             [](const NiccLinkStat& l) { return l.kind == "fabric"; });
    r->utilization = fabricLinks ? r->utilization / static_cast<double>(fabricLinks) : 0.0;
    r->collectives = work.GetCollectives();
    training.Collect(&r->training);
    if (s.hasPermutation && s.permSnapshot && end > s.warmup)
    {
        const double acked = static_cast<double>(s.PermutationAcked(r->flows) - s.permAckedAtWarmup);
        const uint32_t hops = 3;
        // The permutation's flows share one cc (permutation_cc or cc).
        const auto perm = std::find_if(r->flows.begin(), r->flows.end(), [&](const NiccFlowRecord& f) {
            return work.GetKind(f.id) == NiccFlowKind::PERMUTATION;
        });
        const bool intOn = perm != r->flows.end() && NiccQpSender::UsesInt(perm->cc);
        const double hdr = NiccRoceHeader::BASE_SIZE + (intOn ? 2 + 8 * hops : 0);
        const double ack = (NiccRoceHeader::BASE_SIZE + (intOn ? 2 + 8 * hops : 0)) /
                           static_cast<double>(U("ack_interval"));
        const double goodputPerHost = hostBps * mtu / (mtu + hdr + ack);
        r->permutationThroughput =
            acked * 8.0 / (goodputPerHost * nHosts * (end - s.warmup).GetSeconds());
    }
    r->txQpStateBytes = NiccNic::TxQpStateBytes();
    r->rxQpStateBytes = NiccNic::RxQpStateBytes();
    Simulator::Destroy();
    r->wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return true;
}

} // namespace ns3
