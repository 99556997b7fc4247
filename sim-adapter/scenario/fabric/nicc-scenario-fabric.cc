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
    FabricNodes t;
    if (!BuildFabricNodes(&fabric, spec, hostBps, nvlinkBps, &fabricBps, &t, error))
    {
        Simulator::Destroy();
        return false;
    }
    const std::vector<std::string>& name = t.name;
    const std::vector<int32_t>& edgeOf = t.edgeOf;
    const std::vector<bool>& onNvlink = t.onNvlink;
    std::vector<double>& hostBpsOf = t.hostBpsOf;
    std::string nicError;
    if (!nics.Install(t.hosts, &nicError) || !nics.Install(t.gpus, &nicError))
    {
        *error = "invalid configuration (cc / spray / dcqcn.* / hpcc.* / spray.* / ecn_rule.* keys): " +
                 nicError;
        Simulator::Destroy();
        return false;
    }
    if (!SetDcqcnBdpWindows(spec, t.hosts, error))
    {
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
    if (topo == "file")
    {
        for (const auto& dev : t.hostDevices)
        {
            hostBpsOf[dev->GetNode()->GetId()] = static_cast<double>(dev->GetDataRate().GetBitRate());
        }
    }
    FlowIdeals(r, fabric, hostBpsOf, fabricBps, mtu, work);
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
    LinkStats(r, allDevices, t);
    r->collectives = work.GetCollectives();
    training.Collect(&r->training);
    r->permutationThroughput = PermutationThroughput(*r, s, work, end, hostBps, mtu,
                                                     static_cast<uint32_t>(U("ack_interval")), nHosts);
    r->txQpStateBytes = NiccNic::TxQpStateBytes();
    r->rxQpStateBytes = NiccNic::RxQpStateBytes();
    Simulator::Destroy();
    r->wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return true;
}

} // namespace ns3
