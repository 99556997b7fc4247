/*
 * nicc-scenario-meters.h — what RunFabric (nicc-scenario-fabric.cc) measures
 * with while a fabric scenario runs: PFC pause time per device (PauseMeter),
 * the reordering distance of DATA at receivers (ReorderMeter), the periodic
 * sampler of queues, link bytes and goodput per traffic kind (FabricSampler),
 * the path of a named flow-size CDF (CdfPath), the built fabric's nodes and
 * roles (FabricNodes, nicc-scenario-fabric-build.cc) and what is computed
 * after the run (FlowIdeals, LinkStats, PermutationThroughput:
 * nicc-scenario-fabric-measure.cc). Internal to the scenario layer: included
 * by nicc-scenario-fabric*.cc only.
 */
#ifndef NICC_SCENARIO_METERS_H
#define NICC_SCENARIO_METERS_H

#include "nicc-fabric-helper.h"
#include "nicc-hpcc-output.h"
#include "nicc-scenario-output.h"
#include "nicc-flow-file.h"
#include "nicc-scenario.h"
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
namespace fabric_meters
{

constexpr uint32_t OOO_BUCKETS = 4096; ///< reordering histogram cap (last bucket: >= cap - 1)

// Time a device's data classes spend paused by received PFC frames.
struct PauseMeter
{
    Ptr<NiccNetDevice> dev;
    double* totalNs;
    bool paused{false};
    Time since;
    Time until;

    void Settle(Time now)
    {
        if (paused && now >= until)
        {
            *totalNs += static_cast<double>((until - since).GetNanoSeconds());
            paused = false;
        }
    }

    void OnPfc(uint8_t cls, uint16_t quanta)
    {
        if (cls == 0)
        {
            return;
        }
        const Time now = Simulator::Now();
        Settle(now);
        if (quanta > 0)
        {
            if (!paused)
            {
                paused = true;
                since = now;
            }
            until = dev->GetPauseUntilResume()
                        ? Time::Max()
                        : now + PicoSeconds(static_cast<int64_t>(
                                    static_cast<double>(quanta) * 512.0 * 1e12 /
                                    static_cast<double>(dev->GetDataRate().GetBitRate())));
        }
        else if (paused)
        {
            *totalNs += static_cast<double>((now - since).GetNanoSeconds());
            paused = false;
        }
    }

    void Close(Time now)
    {
        if (paused)
        {
            *totalNs += static_cast<double>((std::min(now, until) - since).GetNanoSeconds());
            paused = false;
        }
    }
};

struct FabricSampler;

// The nodes of a built fabric and their roles (NiccScenario::BuildFabricNodes).
struct FabricNodes
{
    std::vector<Ptr<Node>> hosts; ///< the NICs, in host order
    std::vector<Ptr<NiccNetDevice>> hostDevices;
    std::vector<Ptr<Node>> gpus;  ///< rail with NVLink: [h], the GPU of host h
    std::vector<Ptr<NiccNetDevice>> gpuDevices;
    std::vector<std::string> name;  ///< per ns-3 node id
    std::vector<int32_t> edgeOf;    ///< per node id: a host's edge switch index, else -1
    std::vector<bool> onNvlink;     ///< per node id: GPU endpoint or NVSwitch
    std::vector<double> hostBpsOf;  ///< per node id: the endpoint's link rate
};

// Each flow's ideal FCT on its own path and its standalone FCT (HPCC's
// definition), its kind and the byte totals into *r
// (nicc-scenario-fabric-measure.cc; the formula is in nicc-scenario-fabric.cc).
void FlowIdeals(NiccScenarioResult* r,
                NiccFabricHelper& fabric,
                const std::vector<double>& hostBpsOf,
                double fabricBps,
                uint32_t mtu,
                const NiccWorkload& work);

// Bytes sent and utilization of every device's link (summed over MPI ranks),
// kinds up / down / fabric / nvlink, and the mean fabric utilization.
void LinkStats(NiccScenarioResult* r,
               const std::vector<Ptr<NiccNetDevice>>& devices,
               const FabricNodes& nodes);

// The permutation's goodput after warm-up as a share of the hosts' line rate
// less the headers (3 switches crossed).
double PermutationThroughput(const NiccScenarioResult& r,
                             const FabricSampler& s,
                             const NiccWorkload& work,
                             Time end,
                             double hostBps,
                             uint32_t mtu,
                             uint32_t ackInterval,
                             uint32_t hosts);

// Reordering distances reported by the NICs' OutOfOrder trace.
struct ReorderMeter
{
    std::vector<uint64_t> hist = std::vector<uint64_t>(OOO_BUCKETS, 0);
    uint32_t max{0};

    void OnOoo(uint32_t distance)
    {
        hist[std::min(distance, OOO_BUCKETS - 1)]++;
        max = std::max(max, distance);
    }
};

// Periodic sampling: queues, goodput per kind, progress, early stop.
struct FabricSampler
{
    NiccScenarioResult* out;
    const NiccNicHelper* nics;
    const NiccWorkload* work;
    std::vector<Ptr<NiccNetDevice>> ports;     ///< every switch egress port of this rank
    std::vector<Ptr<NiccNetDevice>> downPorts; ///< leaf ports towards hosts (of this rank)
    Time period;
    Time warmup;
    Time window;
    Time stop;
    bool progress;
    bool finite; ///< no open-ended traffic: stop once everything is done
    bool hasPermutation;
    std::vector<uint64_t> lastByKind = std::vector<uint64_t>(NICC_FLOW_KINDS, 0);
    uint64_t permAckedAtWarmup{0};
    bool permSnapshot{false};
    std::chrono::steady_clock::time_point wall0;
    double lastPrint{0};
    uint64_t lastEvents{0};
    uint32_t tick{0};
    std::vector<uint64_t> windowBytes; ///< [window * NICC_FLOW_KINDS + kind] bytes acknowledged
    /// timeseries.csv in the spool: each window's row written as it ends
    /// (nothing kept); nullptr on MPI ranks other than 0.
    std::ostream* seriesOut{nullptr};

    void Sample()
    {
        if (Simulator::Now() >= warmup)
        {
            for (const auto& p : ports)
            {
                out->queueHist.Add(p->GetTotalQueueBytes());
            }
            for (const auto& p : downPorts)
            {
                out->hostDownQueueHist.Add(p->GetTotalQueueBytes());
            }
        }
        if (progress && (++tick & 255) == 0)
        {
            Progress();
        }
        Simulator::Schedule(period, &FabricSampler::Sample, this);
    }

    uint64_t PermutationAcked(const std::vector<NiccFlowRecord>& recs) const
    {
        uint64_t sum = 0;
        for (const auto& f : recs)
        {
            sum += work->GetKind(f.id) == NiccFlowKind::PERMUTATION ? f.ackedBytes : 0;
        }
        return sum;
    }

    void Window()
    {
        const std::vector<NiccFlowRecord> recs = nics->GetFlowRecords();
        std::vector<uint64_t> now(NICC_FLOW_KINDS, 0);
        for (const auto& f : recs)
        {
            now[static_cast<uint32_t>(work->GetKind(f.id))] += f.ackedBytes;
        }
        // This window's bytes per kind and the flows done, of every rank:
        // each acknowledges its own flows' bytes (every rank runs this
        // window at the same time; NiccMpi::SumAll).
        std::vector<uint64_t> sums(NICC_FLOW_KINDS + 1, 0);
        for (uint32_t k = 0; k < NICC_FLOW_KINDS; ++k)
        {
            sums[k] = now[k] - lastByKind[k];
        }
        sums[NICC_FLOW_KINDS] = nics->GetNCompleted();
        NiccMpi::SumAll(&sums);
        lastByKind = now;
        windowBytes.assign(sums.begin(), sums.begin() + NICC_FLOW_KINDS);
        if (seriesOut)
        {
            NiccWriteTimeseriesRow(*seriesOut, Simulator::Now().GetSeconds() * 1e6, Gbps(0));
        }
        windowBytes.clear(); // streamed (ranks other than 0 under MPI: rank 0 writes the rows)
        const bool allDone = sums[NICC_FLOW_KINDS] == nics->GetNFlows() && work->CollectivesDone() &&
                             (!hasPermutation || !work->GetPermutation().empty()) && nics->GetNFlows() > 0;
        if (finite && allDone)
        {
            Simulator::Stop();
        }
        Simulator::Schedule(window, &FabricSampler::Window, this);
    }

    /// Goodput per kind of window w, from windowBytes.
    std::vector<double> Gbps(std::size_t w) const
    {
        std::vector<double> gbps(NICC_FLOW_KINDS, 0.0);
        for (uint32_t k = 0; k < NICC_FLOW_KINDS; ++k)
        {
            gbps[k] = static_cast<double>(windowBytes[w * NICC_FLOW_KINDS + k]) * 8.0 / window.GetSeconds() / 1e9;
        }
        return gbps;
    }

    void Snapshot()
    {
        std::vector<uint64_t> acked{PermutationAcked(nics->GetFlowRecords())};
        NiccMpi::SumAll(&acked); // each rank's own flows (every rank snapshots at this time)
        permAckedAtWarmup = acked[0];
        permSnapshot = true;
    }

    void Progress()
    {
        NiccPrintProgress(wall0, stop, nics->GetNCompleted(), nics->GetNFlows(), &lastPrint, &lastEvents);
    }
};

inline std::string
CdfPath(const std::string& name)
{
    const std::string dir = NiccScenario::DataDir() + "/";
    if (name == "fbhdp")
    {
        return dir + "FbHdp_distribution.txt";
    }
    if (name == "alistorage")
    {
        return dir + "AliStorage2019.txt";
    }
    if (name == "googlerpc")
    {
        return dir + "GoogleRPC2008.txt";
    }
    return dir + "WebSearch_distribution.txt";
}

} // namespace fabric_meters
} // namespace ns3

#endif // NICC_SCENARIO_METERS_H
