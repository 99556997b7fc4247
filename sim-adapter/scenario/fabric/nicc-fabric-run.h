/*
 * nicc-fabric-run.h — one run of a fabric scenario (leaf-spine, ai-cluster,
 * any topology), the state its steps and its parts share. NiccScenario::
 * RunFabric makes one and calls Run, which goes:
 *
 *   ReadInputs   keys, CDF, topology file, flow file: refused before anything is built
 *   Build        switches and links (BuildNodes, nicc-scenario-fabric-build.cc),
 *                NICs, the workload engine, fixed random streams
 *   SetUpMeters  queue / goodput sampler, PFC pause time, reordering
 *   parts        every NiccScenarioPart's Install, in registration order
 *                (nicc-scenario-parts.cc: faults, traffic, training, meters)
 *   Simulate     the samplers' first events, Simulator::Run, parts' Finish
 *   Measure      flows and ideal FCTs, counters merged across MPI ranks,
 *                link statistics, then parts' Collect
 *
 * A part reads the keys through Get / U / D and builds on the public
 * members below. Internal to the scenario layer.
 */
#ifndef NICC_FABRIC_RUN_H
#define NICC_FABRIC_RUN_H

#include "nicc-fabric-helper.h"
#include "nicc-flow-file.h"
#include "nicc-scenario-meters.h"
#include "nicc-scenario-part.h"
#include "nicc-scenario.h"
#include "nicc-workload.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// The topology keys of a run, read once (ReadTopology).
struct NiccFabricShape
{
    std::string topo; ///< leaf-spine, fat-tree, rail or file
    uint32_t leaves{0};
    uint32_t spines{0};
    uint32_t hostsPerLeaf{0};
    uint32_t pods{0};
    uint32_t torsPerPod{0};
    uint32_t aggsPerPod{0};
    uint32_t cores{0};
    uint32_t rails{0};
    uint32_t servers{0};
    /// Hosts in `groups` groups of `groupSize` (leaf / ToR / server / the
    /// hosts of one switch of a topology file).
    uint32_t groups{0};
    uint32_t groupSize{0};
    uint32_t uplinksPerEdge{0};
    uint32_t hosts{0};
};

/// One fabric scenario run: its inputs, what it built, its meters.
class NiccFabricRun
{
  public:
    NiccFabricRun(const NiccScenario& s, NiccScenarioResult* r);
    NiccFabricRun(const NiccFabricRun&) = delete;
    NiccFabricRun& operator=(const NiccFabricRun&) = delete;

    /// Build, run and measure into the result; false with *error naming the
    /// key when the configuration is refused. Destroys the simulator.
    bool Run(std::string* error);

    // The scenario's keys.
    std::string Get(const char* key) const { return scenario.Get(key); }
    uint64_t U(const char* key) const { return scenario.U(key); }
    double D(const char* key) const { return scenario.D(key); }
    /// A key in microseconds as a Time, rounded to the nanosecond.
    Time Us(const char* key) const;
    /// The fault keys into `inj` (NiccScenario::SetUpFaults), streams from `stream` on.
    bool SetUpFaults(NiccFaultInjector* inj, std::string* error);
    /// The monitor keys (NiccScenario::MonitorConfig).
    NiccMonitorConfig MonitorConfig() const { return scenario.MonitorConfig(); }

    const NiccScenario& scenario;
    NiccScenarioResult* const r;

    // Inputs (ReadInputs).
    NiccFabricShape shape;
    NiccTopologySpec spec;      ///< topology=file: the file, read and checked
    NiccFlowSizeCdf cdf;        ///< poisson_load > 0: the flow-size CDF
    NiccFlowFile flowFile;      ///< flow_file: its flows, resolved to hosts
    uint32_t mtu{0};
    uint32_t mpiRanks{0};
    double hostBps{0};          ///< the hosts' link rate (topology=file: the slowest)
    double fabricBps{0};        ///< switch-switch links (topology=file: the slowest, once built)
    double nvlinkBps{0};        ///< rail: the servers' NVLink, 0 = none
    bool pxn{false};            ///< all-reduce relayed over NVLink (allreduce_relay=pxn)
    Time stop;                  ///< stop_ms
    Time trafficStop;           ///< traffic_stop_ms, else stop
    Time trafficStart;          ///< 0 with generated traffic, else the flow file's first start

    // What is built (Build).
    NiccFabricHelper fabric;
    NiccNicHelper nics;
    fabric_meters::FabricNodes nodes;
    std::unique_ptr<NiccWorkload> work;
    int64_t stream{0}; ///< next free random stream number

    // Meters (SetUpMeters).
    std::unique_ptr<fabric_meters::FabricSampler> sampler;
    std::vector<Ptr<NiccNetDevice>> allDevices; ///< every switch port, host NIC and GPU device
    std::vector<std::string> switchNames;       ///< per fabric.GetSwitches() entry
    std::vector<std::string> hostNames;         ///< per nodes.hosts entry

  private:
    bool ReadTopology(std::string* error);
    bool ReadFlowFile(std::string* error);
    bool ReadInputs(std::string* error);
    bool Build(std::string* error);
    /// Nodes and links of shape.topo, the switches set up, the nodes named
    /// and given roles (nicc-scenario-fabric-build.cc).
    bool BuildNodes(std::string* error);
    void BuildFatTree(DataRate hostRate, DataRate fabricRate, Time delay);
    void BuildRail(DataRate hostRate, DataRate fabricRate, Time delay);
    bool BuildFromFile(std::string* error);
    void BuildLeafSpine(DataRate hostRate, DataRate fabricRate, Time delay);
    void NameHosts(const std::vector<uint32_t>& fileHostSwitch, const std::vector<uint32_t>& fileHostIds);
    /// dcqcn_window_bdp = max | pair: each host NIC's DCQCN window towards
    /// each other host from the topology file's BDPs (NiccHpccPairs).
    bool SetDcqcnBdpWindows(std::string* error) const;
    /// Key notice_ns into the workload (NiccWorkload::SetNotices).
    bool SetUpNotices(std::string* error);
    void SetUpMeters();
    void Simulate();
    void Measure();
    void CountReordering();

    std::chrono::steady_clock::time_point m_wall0;
    std::vector<std::unique_ptr<NiccScenarioPart>> m_parts;
    std::map<uint32_t, NiccPathsFrom> m_hopPaths; ///< per source node: links to every node
    std::deque<fabric_meters::PauseMeter> m_pauses;
    fabric_meters::ReorderMeter m_reorder;
};

} // namespace ns3

#endif // NICC_FABRIC_RUN_H
