/*
 * nicc-scenario-fabric.cc — NiccScenario::RunFabric: the leaf-spine and
 * ai-cluster scenarios as one NiccFabricRun (nicc-fabric-run.h): topology
 * (leaf-spine from leaves / spines / hosts_per_leaf / oversubscription,
 * fat-tree from pods / tors_per_pod / aggs_per_pod / cores, rail from
 * servers / rails / spines, or a topology file (topology_file)), switch and
 * NIC load balancing from switch_mode / spray, the parts (faults, workloads,
 * training, monitors: nicc-scenario-parts.cc) and the core measurements:
 * queue samples of every switch egress port, PFC pause time, per-link
 * utilization, reordering distance, goodput per traffic kind over time,
 * permutation throughput. Flows of a flow file (flow_file,
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
#include "nicc-fabric-run.h"
#include "nicc-scenario-mpi.h"

#include "ns3/enum.h"
#include "ns3/nicc-mpi.h"
#include "ns3/simulator.h"

#include <cmath>
#include <cstdio>

namespace ns3
{

using namespace fabric_meters;

bool
NiccScenario::RunFabric(NiccScenarioResult* r, std::string* error)
{
    NiccFabricRun run(*this, r);
    return run.Run(error);
}

NiccFabricRun::NiccFabricRun(const NiccScenario& s, NiccScenarioResult* result)
    : scenario(s),
      r(result),
      m_wall0(std::chrono::steady_clock::now())
{
}

Time
NiccFabricRun::Us(const char* key) const
{
    return NanoSeconds(static_cast<int64_t>(std::llround(D(key) * 1e3)));
}

bool
NiccFabricRun::SetUpFaults(NiccFaultInjector* inj, std::string* error)
{
    return scenario.SetUpFaults(inj, nodes.name, nodes.hosts, &stream, error);
}

bool
NiccFabricRun::Run(std::string* error)
{
    *r = NiccScenarioResult{};
    r->scenario = scenario.m_label.empty() ? scenario.m_name : scenario.m_label;
    r->fabric = true;
    const NiccScenario::RngScope rng(U("seed"), U("run"));
    r->rngSeed = rng.seed;
    r->rngRun = rng.run;
    if (!scenario.CheckMpiKeys(error) || // before the simulator is made: MPI picks its implementation
        !scenario.OpenSpool(r, error))
    {
        return false;
    }
    ObjectFactory sched;
    sched.SetTypeId(scenario.SchedulerTypeId());
    Simulator::SetScheduler(sched);
    if (!ReadInputs(error))
    {
        return false;
    }
    bool ok = Build(error);
    if (ok)
    {
        SetUpMeters();
        m_parts = NiccScenarioParts();
        for (size_t k = 0; ok && k < m_parts.size(); ++k)
        {
            ok = m_parts[k]->Install(*this, error);
        }
    }
    if (!ok)
    {
        Simulator::Destroy();
        return false;
    }
    Simulate();
    Measure();
    Simulator::Destroy();
    r->wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wall0).count();
    return r->spool->CloseAll(error); // the streamed files complete on disk
}

// The topology keys into `shape`; topology=file: the file, read and checked.
bool
NiccFabricRun::ReadTopology(std::string* error)
{
    NiccFabricShape& t = shape;
    t.topo = Get("topology");
    t.leaves = static_cast<uint32_t>(U("leaves"));
    t.spines = static_cast<uint32_t>(U("spines"));
    t.hostsPerLeaf = static_cast<uint32_t>(U("hosts_per_leaf"));
    t.pods = static_cast<uint32_t>(U("pods"));
    t.torsPerPod = static_cast<uint32_t>(U("tors_per_pod"));
    t.aggsPerPod = static_cast<uint32_t>(U("aggs_per_pod"));
    t.cores = static_cast<uint32_t>(U("cores"));
    t.rails = static_cast<uint32_t>(U("rails"));
    t.servers = static_cast<uint32_t>(U("servers"));
    t.groups = t.leaves;
    t.groupSize = t.hostsPerLeaf;
    t.uplinksPerEdge = t.spines;
    uint64_t fileHostBps = 0; // slowest host link of the file
    if (t.topo == "fat-tree")
    {
        t.groups = t.pods * t.torsPerPod;
        t.uplinksPerEdge = t.aggsPerPod;
    }
    else if (t.topo == "rail")
    {
        t.groups = t.servers;
        t.groupSize = t.rails;
    }
    else if (t.topo == "file")
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
        t.groupSize = NiccFileHostGroupSize(spec, &fileHostBps);
        t.groups = static_cast<uint32_t>(spec.hosts.size()) / t.groupSize;
    }
    t.hosts = t.groups * t.groupSize;
    hostBps = t.topo == "file" ? static_cast<double>(fileHostBps) : D("rate_gbps") * 1e9;
    if (t.hosts < 2)
    {
        *error = t.topo == "rail" ? "keys 'servers' x 'rails': need at least two NICs"
                 : t.topo == "fat-tree"
                     ? "keys 'pods' x 'tors_per_pod' x 'hosts_per_leaf': need at least two hosts"
                     : "keys 'leaves' x 'hosts_per_leaf': need at least two hosts";
        return false;
    }
    return true;
}

// A flow file is read and checked against the hosts before anything is built.
bool
NiccFabricRun::ReadFlowFile(std::string* error)
{
    if (Get("flow_file").empty())
    {
        return true;
    }
    NiccFlowFileHosts ids;
    ids.spec = shape.topo == "file" ? &spec : nullptr;
    ids.count = shape.hosts;
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
    return true;
}

bool
NiccFabricRun::ReadInputs(std::string* error)
{
    mpiRanks = static_cast<uint32_t>(U("mpi_ranks"));
    mtu = static_cast<uint32_t>(U("mtu"));
    // Workload inputs first: a bad CDF file is a configuration error.
    const std::string cdfPath = Get("cdf_file").empty() ? CdfPath(Get("cdf")) : Get("cdf_file");
    if (D("poisson_load") > 0 && !cdf.Load(cdfPath, error))
    {
        *error = "key 'cdf' / 'cdf_file': " + *error;
        return false;
    }
    if (!scenario.CheckFaultKeys(error) || !ReadTopology(error))
    {
        return false;
    }
    // The servers' NVLink (rail only, lossless as the fabric) and PXN relays.
    nvlinkBps = D("nvlink_gbps") * 1e9;
    pxn = Get("allreduce_relay") == "pxn";
    if (nvlinkBps > 0 && shape.topo != "rail")
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
    if (!ReadFlowFile(error))
    {
        return false;
    }
    const double edgeHostBps = hostBps * (shape.topo == "rail" ? shape.servers : shape.hostsPerLeaf);
    fabricBps = D("fabric_rate_gbps") > 0 ? D("fabric_rate_gbps") * 1e9
                                          : edgeHostBps / (shape.uplinksPerEdge * D("oversubscription"));
    stop = NanoSeconds(static_cast<int64_t>(std::llround(D("stop_ms") * 1e6)));
    trafficStop = D("traffic_stop_ms") > 0
                      ? NanoSeconds(static_cast<int64_t>(std::llround(D("traffic_stop_ms") * 1e6)))
                      : stop;
    // Periodic sampling starts with the traffic: at 0 with any generated
    // workload, else at the flow file's first start (HPCC's files start at
    // 2 s; sampling an idle fabric until then would cost millions of events).
    const bool generated = D("poisson_load") > 0 || D("incast_load") > 0 || U("permutation_bytes") > 0 ||
                           U("allreduce_bytes") > 0 || U("alltoall_bytes") > 0 || Get("training") != "off";
    trafficStart = generated || flowFile.flows.empty() ? Time(0) : NanoSeconds(flowFile.FirstStartNs());
    return true;
}

// The fabric, its NICs and the workload engine, with fixed stream numbers.
bool
NiccFabricRun::Build(std::string* error)
{
    // Every model Attribute from its key (mtu, buffer_bytes, ecn_*, cc,
    // spray, dcqcn.*, hpcc.*, ...), then the fabric's forwarding mode.
    if (!scenario.ApplyAttributes(&fabric, &nics, error))
    {
        return false;
    }
    const std::string mode = Get("switch_mode");
    fabric.SetSwitchAttribute("ForwardingMode",
                              EnumValue(mode == "spray"      ? NiccSwitchNode::SPRAY
                                        : mode == "adaptive" ? NiccSwitchNode::LEAST_QUEUE
                                                             : NiccSwitchNode::ECMP));
    if (!BuildNodes(error))
    {
        return false;
    }
    std::string nicError;
    if (!nics.Install(nodes.hosts, &nicError) || !nics.Install(nodes.gpus, &nicError))
    {
        *error = "invalid configuration (cc / spray / dcqcn.* / hpcc.* / spray.* / ecn_rule.* keys): " +
                 nicError;
        return false;
    }
    if (!SetDcqcnBdpWindows(error))
    {
        return false;
    }
    work = std::make_unique<NiccWorkload>(&nics, nodes.hosts);
    work->SetIntraServer(nodes.gpus, shape.rails, pxn);
    // Fabric switches crossed per collective flow (NVLink flows: 0).
    work->SetHopCount([this](Ptr<Node> a, Ptr<Node> b) -> uint32_t {
        if (nodes.onNvlink[a->GetId()])
        {
            return 0;
        }
        auto it = m_hopPaths.find(a->GetId());
        if (it == m_hopPaths.end())
        {
            if (m_hopPaths.size() >= 64)
            {
                m_hopPaths.clear(); // bounded: a search per node id is 12 B per node
            }
            it = m_hopPaths.emplace(a->GetId(), fabric.PathsFrom(a)).first;
        }
        const uint32_t links = it->second.links[b->GetId()];
        return links >= 2 && links != UINT32_MAX ? links - 1 : 0;
    });
    if (!SetUpNotices(error))
    {
        return false;
    }
    // Fixed stream numbers (the workload's, then one per switch, then the
    // parts'): a run depends on RngSeed / RngRun and the keys only, not on
    // what ran before it in the same process.
    stream = work->AssignStreams(0);
    for (const auto& sw : fabric.GetSwitches())
    {
        stream += sw->AssignStreams(stream);
    }
    return true;
}

// How late a collective flow's end moves its collective on (key notice_ns):
// under MPI at least the shortest link delay, and the ranks' time window
// no longer than that less 1 ns, whichever links cross ranks.
bool
NiccFabricRun::SetUpNotices(std::string* error)
{
    Time shortest = Time::Max();
    for (const auto& ch : fabric.GetChannels())
    {
        shortest = std::min(shortest, ch->GetDelay());
    }
    const int64_t key = scenario.I("notice_ns");
    const Time delay = key >= 0 ? NanoSeconds(key) : mpiRanks > 0 ? shortest : Time(0);
    if (mpiRanks > 0)
    {
        if (delay < NanoSeconds(2))
        {
            *error = "key 'notice_ns': at least 2 with mpi_ranks (a notice crosses ranks after the ranks' "
                     "time window, 1 ns shorter)";
            return false;
        }
        NiccMpi::BoundLookAhead(delay - NanoSeconds(1));
    }
    return work->SetNotices(delay, error);
}

// The core meters: queue and goodput sampler, pause time, reordering.
void
NiccFabricRun::SetUpMeters()
{
    sampler = std::make_unique<FabricSampler>(FabricSampler{
        r,
        &nics,
        work.get(),
        {},
        {},
        NanoSeconds(static_cast<int64_t>(U("sample_ns"))),
        NanoSeconds(static_cast<int64_t>(std::llround(D("warmup_us") * 1000.0))),
        NanoSeconds(static_cast<int64_t>(std::llround(D("rate_window_us") * 1000.0))),
        stop,
        scenario.m_progress && NiccMpi::Rank() == 0,
        D("poisson_load") <= 0 && D("incast_load") <= 0,
        U("permutation_bytes") > 0,
        std::vector<uint64_t>(NICC_FLOW_KINDS, 0),
        0,
        false,
        m_wall0,
        0,
        0,
        0,
        {}});
    if (NiccMpi::Rank() == 0)
    {
        std::string error; // a spool that cannot be written fails at CloseAll
        if ((sampler->seriesOut = r->spool->Open(NICC_TIMESERIES_CSV, &error)))
        {
            NiccWriteTimeseriesHeader(*sampler->seriesOut);
        }
    }
    for (const auto& sw : fabric.GetSwitches())
    {
        switchNames.push_back(nodes.name[sw->GetId()]);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<NiccNetDevice> dev = sw->GetPort(p);
            allDevices.push_back(dev);
            if (nodes.onNvlink[sw->GetId()] || sw->GetSystemId() != NiccMpi::Rank())
            {
                continue; // NVSwitch ports: no fabric queue samples; other ranks sample their own
            }
            sampler->ports.push_back(dev);
            if (nodes.edgeOf[dev->GetPeer()->GetNode()->GetId()] >= 0)
            {
                sampler->downPorts.push_back(dev);
            }
        }
    }
    allDevices.insert(allDevices.end(), nodes.hostDevices.begin(), nodes.hostDevices.end());
    allDevices.insert(allDevices.end(), nodes.gpuDevices.begin(), nodes.gpuDevices.end());
    for (const auto& dev : allDevices)
    {
        m_pauses.push_back(PauseMeter{dev, &r->pauseTimeNs, false, Time(0), Time(0)});
        dev->TraceConnectWithoutContext("PfcRx", MakeCallback(&PauseMeter::OnPfc, &m_pauses.back()));
    }
    r->pausableDevices = static_cast<uint32_t>(allDevices.size());
    for (const auto& h : nodes.hosts)
    {
        hostNames.push_back(nodes.name[h->GetId()]);
        NiccNicHelper::GetNic(h)->TraceConnectWithoutContext("OutOfOrder",
                                                             MakeCallback(&ReorderMeter::OnOoo, &m_reorder));
    }
}

// The samplers' first events (after every part's), the run, parts' Finish.
void
NiccFabricRun::Simulate()
{
    FabricSampler* s = sampler.get();
    Simulator::Schedule(trafficStart + s->period, &FabricSampler::Sample, s);
    Simulator::Schedule(trafficStart + s->window, &FabricSampler::Window, s);
    if (s->hasPermutation)
    {
        Simulator::Schedule(s->warmup, &FabricSampler::Snapshot, s);
    }
    Simulator::Stop(stop);
    Simulator::Run();
    for (const auto& part : m_parts)
    {
        part->Finish(*this);
    }
}

// The reordering histogram (merged across ranks) with in-order packets at 0.
void
NiccFabricRun::CountReordering()
{
    uint64_t ooo = 0;
    for (uint64_t c : m_reorder.hist)
    {
        ooo += c;
    }
    r->oooHistogram = m_reorder.hist;
    r->oooHistogram[0] = r->rxDataPackets > ooo ? r->rxDataPackets - ooo : 0;
    r->oooMax = m_reorder.max;
}

void
NiccFabricRun::Measure()
{
    const Time end = Simulator::Now();
    r->simSeconds = end.GetSeconds();
    r->hosts = shape.hosts;
    r->hostRateGbps = hostBps / 1e9;
    r->flows = nics.GetFlowRecords();
    NiccMergeFlows(&r->flows);
    if (shape.topo == "file")
    {
        for (const auto& dev : nodes.hostDevices)
        {
            nodes.hostBpsOf[dev->GetNode()->GetId()] = static_cast<double>(dev->GetDataRate().GetBitRate());
        }
    }
    FlowIdeals(r, fabric, nodes.hostBpsOf, fabricBps, mtu, *work);
    r->flowDport = NiccFlowDports(r->flowKind, r->flows.size(), false);
    for (size_t i = 0; i < r->flows.size(); ++i)
    {
        // A flow file's own dport wins (the analysis script reads it).
        const uint16_t d = work->GetDport(r->flows[i].id);
        r->flowDport[i] = d ? d : r->flowDport[i];
    }
    NiccAddCounters(r, fabric.GetSwitches(), nodes.hosts);
    for (auto& p : m_pauses)
    {
        p.Close(end);
    }
    r->events = Simulator::GetEventCount(); // under MPI: summed over the ranks
    NiccMergeCounters(r, &m_reorder.hist, &m_reorder.max);
    CountReordering();
    LinkStats(r, allDevices, nodes);
    for (const auto& part : m_parts)
    {
        part->Collect(*this);
    }
    r->permutationThroughput = PermutationThroughput(*r, *sampler, *work, end, hostBps, mtu,
                                                     static_cast<uint32_t>(U("ack_interval")), shape.hosts);
    r->txQpStateBytes = NiccNic::TxQpStateBytes();
    r->rxQpStateBytes = NiccNic::RxQpStateBytes();
}

} // namespace ns3
