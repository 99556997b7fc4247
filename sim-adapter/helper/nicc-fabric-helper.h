/*
 * nicc-fabric-helper.h — builds nicc fabrics: switches, hosts, links, static
 * shortest-path routes with every equal-cost next hop, test endpoints, and
 * stock topologies: N-to-1 incast on one switch; 2-level leaf-spine; 3-tier
 * fat-tree (pods of ToRs + aggregation, a core layer; HPCC's 320-host preset);
 * rail-optimized multi-rail (NIC i of every host on rail switch i; optional
 * per-server NVSwitch joining the server's GPUs); any
 * topology from a file in the HPCC text format (BuildFromFile).
 *
 *   NiccFabricHelper fabric;
 *   fabric.SetMmuAttribute("BufferSize", UintegerValue(4000000));
 *   NiccIncastTopology t = fabric.BuildIncast(16, DataRate("100Gbps"), MicroSeconds(1));
 *   // BuildIncast/BuildLeafSpine install routes; after hand-made links call
 *   // fabric.InstallRoutes().
 *   Ptr<NiccTestEndpoint> rx = fabric.InstallTestEndpoint(t.receiver);
 *
 * Routing: for each host h, a BFS from h over the link graph (hosts other
 * than h are leaves: they never relay) gives each switch its distance to h;
 * a switch port is a next hop towards h iff the node behind it is one step
 * closer. Per-switch ECMP seed = the switch's node id, unless EcmpSeed is set
 * through SetSwitchAttribute (then every switch gets that value).
 */
#ifndef NICC_FABRIC_HELPER_H
#define NICC_FABRIC_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/nicc-channel.h"
#include "ns3/nicc-net-device.h"
#include "ns3/nicc-switch-node.h"
#include "ns3/nicc-test-endpoint.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// One switch, `senders` hosts and one receiver host, all on equal links.
struct NiccIncastTopology
{
    Ptr<NiccSwitchNode> sw;
    std::vector<Ptr<Node>> senders;
    std::vector<Ptr<NiccNetDevice>> senderDevices; ///< host side of each link
    Ptr<Node> receiver;
    Ptr<NiccNetDevice> receiverDevice;
};

/// Leaves with hostsPerLeaf hosts each, every leaf linked to every spine.
/// hosts[l * hostsPerLeaf + k] is host k of leaf l.
struct NiccLeafSpineTopology
{
    std::vector<Ptr<NiccSwitchNode>> leaves;
    std::vector<Ptr<NiccSwitchNode>> spines;
    std::vector<Ptr<Node>> hosts;
    std::vector<Ptr<NiccNetDevice>> hostDevices;
    /// uplinks[l][s] = leaf l's device towards spine s.
    std::vector<std::vector<Ptr<NiccNetDevice>>> uplinks;
};

/// Parameters of a 3-tier fat-tree. Each pod has torsPerPod ToRs and
/// aggsPerPod aggregation switches, every ToR linked to every aggregation
/// switch of its pod. If cores is a multiple of aggsPerPod, aggregation
/// switch j of every pod links to the core group j (cores j*g .. j*g+g-1,
/// g = cores / aggsPerPod, the classic striping); otherwise every
/// aggregation switch links to every core.
struct NiccFatTreeParams
{
    uint32_t pods{5};
    uint32_t torsPerPod{4};
    uint32_t aggsPerPod{4};
    uint32_t cores{16};
    uint32_t hostsPerTor{16};
    DataRate hostRate{"100Gbps"};
    DataRate fabricRate{"400Gbps"}; ///< ToR-agg and agg-core links
    Time delay{MicroSeconds(1)};    ///< every link
    uint64_t bufferBytes{0};        ///< per switch; 0 = keep the MMU attribute as set

    /// HPCC's evaluation fat-tree (Li et al., SIGCOMM 2019): 320 hosts at
    /// 100 Gb/s, 20 ToRs (16 hosts each), 20 aggregation, 16 core switches,
    /// 400 Gb/s fabric links, 1 us links, 32 MB switch buffers; 5 pods of
    /// 4 ToR + 4 agg, agg j of each pod on cores 4j..4j+3 (1:1 at every tier).
    static NiccFatTreeParams Hpcc();
};

/// A built fat-tree. hosts[t * hostsPerTor + k] is host k of ToR t;
/// tors[p * torsPerPod + i] and aggs[p * aggsPerPod + j] belong to pod p.
struct NiccFatTreeTopology
{
    std::vector<Ptr<NiccSwitchNode>> tors;
    std::vector<Ptr<NiccSwitchNode>> aggs;
    std::vector<Ptr<NiccSwitchNode>> cores;
    std::vector<Ptr<Node>> hosts;
    std::vector<Ptr<NiccNetDevice>> hostDevices;
};

/// Parameters of a rail-optimized multi-rail fabric: `hosts` servers with
/// `rails` NICs each; NIC i of every server is on rail switch i. With
/// spines > 0 every rail switch is linked to every spine (cross-rail paths:
/// rail, spine, rail); with 0 the rails are disjoint networks.
struct NiccRailParams
{
    uint32_t hosts{4};
    uint32_t rails{8};
    uint32_t spines{0};
    DataRate hostRate{"400Gbps"};
    DataRate fabricRate{"400Gbps"}; ///< rail-spine links
    Time delay{MicroSeconds(1)};
    uint64_t bufferBytes{0}; ///< per switch; 0 = keep the MMU attribute as set
    /// Intra-server interconnect (NVLink-class): 0 = none. Otherwise each
    /// server gets an NVSwitch node and each of its GPUs an endpoint node
    /// linked to it at this rate (per direction) and nvlinkDelay; the
    /// NVSwitch has no fabric link, so fabric routes never cross it.
    DataRate nvlinkRate{uint64_t{0}};
    Time nvlinkDelay{NanoSeconds(100)};
};

/// A built multi-rail fabric. Addresses are node ids and a node has one
/// port, so each NIC is modelled as its own endpoint node: nics[h * rails + i]
/// is NIC i of server h (its node id is that NIC's address). Without
/// NVLink (nvlinkRate 0) the NICs of one server share nothing in the model;
/// with it, gpus[h * rails + i] is GPU i of server h (the NVLink side of
/// NIC i's GPU, its own endpoint node) on the server's NVSwitch
/// nvSwitches[h]. These nodes are made after every fabric node, so the
/// fabric's node ids do not change.
struct NiccRailTopology
{
    uint32_t rails{0};
    std::vector<Ptr<NiccSwitchNode>> railSwitches; ///< [i] = rail i
    std::vector<Ptr<NiccSwitchNode>> spines;
    std::vector<Ptr<Node>> nics;                   ///< [h * rails + i]
    std::vector<Ptr<NiccNetDevice>> nicDevices;    ///< same index, host side
    std::vector<Ptr<NiccSwitchNode>> nvSwitches;   ///< [h]; empty without NVLink
    std::vector<Ptr<Node>> gpus;                   ///< [h * rails + i]; empty without NVLink
    std::vector<Ptr<NiccNetDevice>> gpuDevices;    ///< same index, GPU side

    Ptr<Node> Nic(uint32_t host, uint32_t rail) const { return nics[host * rails + rail]; }
};

/// A topology file as parsed (nothing built yet). Format (the text format
/// of the HPCC simulator, alibaba-edu/High-Precision-Congestion-Control
/// simulation/mix/topology.txt, and of ns3-datacenter; '#' lines and blank
/// lines ignored):
///   N S L                       nodes, switches, links (HPCC)
///   N S T L                     ns3-datacenter: T (ToRs) is read and ignored,
///                               as there (it overwrites T with S)
///   s_1 s_2 ... s_S             the switch node ids (0 .. N-1)
///   a b rate delay error_rate   L lines, e.g. "0 4 100Gbps 1us 0"
/// Every other node is a host with exactly one link, to a switch. Rates:
/// a number with bps, Kbps, Mbps, Gbps or Tbps (b/s, Kb/s, ...; Bps, KBps,
/// ... = bytes/s; KiB/s, ... binary), or unit-less bit/s read up to the '.'
/// as ns-3's DataRate does ("25000000000.0" = 25 Gb/s); delays: a number
/// with s, ms, us, ns or ps, or unit-less seconds (1 ns .. 1000 s);
/// error_rate: a number in [0, 1], the link's frame loss probability
/// (NiccChannel LossRate, both directions; docs/faults.md).
struct NiccTopologySpec
{
    struct Link
    {
        uint32_t a;
        uint32_t b;
        uint64_t bps;
        int64_t delayPs;
        uint32_t line; ///< line number in the file (1-based)
        double errorRate{0}; ///< frame loss probability of the link (NiccChannel LossRate)
    };

    std::string path;
    uint32_t nodes{0};
    std::vector<bool> isSwitch;     ///< [file node id]
    std::vector<uint32_t> switches; ///< file ids, in the order of the switch line
    std::vector<uint32_t> hosts;    ///< file ids of the hosts, ascending
    std::vector<Link> links;        ///< in file order
    /// Non-blank lines after the L links: not read, as the HPCC simulator
    /// reads exactly L (its own mix/topology.txt lists more, and a note).
    uint32_t ignoredLines{0};
};

/// A topology built from a NiccTopologySpec. hosts[i] is the i-th host in
/// file node-id order; node[fileId] is the node of that file id.
struct NiccFileTopology
{
    std::vector<Ptr<NiccSwitchNode>> switches; ///< same order as spec.switches
    std::vector<Ptr<Node>> hosts;
    std::vector<Ptr<NiccNetDevice>> hostDevices; ///< host side of each host's link
    std::vector<uint32_t> hostFileIds;           ///< file id of hosts[i]
    std::vector<uint32_t> hostSwitch;            ///< index into switches of hosts[i]'s switch
    std::vector<Ptr<Node>> node;                 ///< [file id]
    DataRate minFabricRate;                      ///< slowest switch-switch link (0 if none)
};

/// Hosts per group of a topology file: the length of the runs of
/// consecutive host ids under one switch when every switch's hosts form one
/// equal run, else 1 (every host its own group). *slowestHostBps: the
/// slowest host link of the file.
uint32_t NiccFileHostGroupSize(const NiccTopologySpec& spec, uint64_t* slowestHostBps);

/// Shortest paths from one node over the links made by a helper (hosts
/// other than the source do not relay): per node id, links on a shortest
/// path (UINT32_MAX if unreachable) and the summed one-way delay of the first
/// shortest path found (ns).
struct NiccPathsFrom
{
    std::vector<uint32_t> links;
    std::vector<double> delayNs;
};

/**
 * \ingroup nicc
 * \brief Topology and routing helper of the nicc fabric.
 */
class NiccFabricHelper
{
  public:
    NiccFabricHelper();

    /// Attributes of every NiccNetDevice made (NumClasses also goes to MMUs).
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    void SetEndpointAttribute(const std::string& name, const AttributeValue& value);

    Ptr<NiccSwitchNode> CreateSwitch();
    Ptr<Node> CreateHost();
    /// A link of `rate` and one-way `delay` between a and b. Switch ends
    /// become switch ports. Returns (a's device, b's device).
    std::pair<Ptr<NiccNetDevice>, Ptr<NiccNetDevice>> Connect(Ptr<Node> a,
                                                              Ptr<Node> b,
                                                              DataRate rate,
                                                              Time delay);
    /// (Re)build every switch's routes towards every host made here, over
    /// the links not removed by SetLinkRouted(ch, false).
    void InstallRoutes();
    /// Keep (true) or remove (false) the link of `ch` from the routing graph
    /// of the next InstallRoutes (a failed link, docs/faults.md).
    void SetLinkRouted(Ptr<NiccChannel> ch, bool routed);
    /// The channels of every link between a and b (either order).
    std::vector<Ptr<NiccChannel>> FindLinks(Ptr<Node> a, Ptr<Node> b) const;
    /// Every link's channel, in creation order.
    std::vector<Ptr<NiccChannel>> GetChannels() const;
    /// A test endpoint on the host's first NiccNetDevice.
    Ptr<NiccTestEndpoint> InstallTestEndpoint(Ptr<Node> host);

    NiccIncastTopology BuildIncast(uint32_t senders, DataRate rate, Time delay);
    NiccLeafSpineTopology BuildLeafSpine(uint32_t leaves,
                                         uint32_t spines,
                                         uint32_t hostsPerLeaf,
                                         DataRate hostRate,
                                         DataRate fabricRate,
                                         Time delay);
    /// 3-tier fat-tree; installs routes. Applies bufferBytes to the MMU
    /// factory (it stays set for later switches).
    NiccFatTreeTopology BuildFatTree(const NiccFatTreeParams& p);
    /// BuildFatTree(NiccFatTreeParams::Hpcc()).
    NiccFatTreeTopology BuildHpccFatTree();
    /// Rail-optimized multi-rail; installs routes.
    NiccRailTopology BuildRail(const NiccRailParams& p);

    /// Read and check a topology file (format: NiccTopologySpec). False with
    /// "path:line: message" naming the field on any error (bad count, id out
    /// of range, duplicate switch id, self link, host without exactly one
    /// link or linked to a host, unreachable host, bad rate or delay,
    /// error_rate not in [0, 1], fewer links than L; lines after the L links are
    /// counted in ignoredLines, not read). Creates no nodes
    /// (nicc-topology-file.cc).
    static bool ParseTopologyFile(const std::string& path, NiccTopologySpec* spec, std::string* error);
    /// ParseTopologyFile on the text of a file; `path` names it in errors.
    static bool ParseTopology(const std::string& text,
                              const std::string& path,
                              NiccTopologySpec* spec,
                              std::string* error);
    /// Nodes and links of a checked spec, in file id order; installs routes.
    NiccFileTopology BuildFromSpec(const NiccTopologySpec& spec);
    /// ParseTopologyFile + BuildFromSpec.
    bool BuildFromFile(const std::string& path, NiccFileTopology* topo, std::string* error);

    /// BFS from `src` over the links made here (see NiccPathsFrom).
    NiccPathsFrom PathsFrom(Ptr<Node> src) const;
    /// Switches on a shortest path between hosts a and b (1 = same switch);
    /// 0 if b is unreachable.
    uint32_t SwitchHops(Ptr<Node> a, Ptr<Node> b) const;

    const std::vector<Ptr<NiccSwitchNode>>& GetSwitches() const { return m_switches; }
    const std::vector<Ptr<Node>>& GetHosts() const { return m_hosts; }

    /// Switch the simulator to ns3::PriorityQueueScheduler (the fastest
    /// core scheduler measured for this fabric's event mix).
    static void UsePriorityQueueScheduler();

  private:
    struct Link
    {
        Ptr<Node> a;
        Ptr<Node> b;
        uint32_t portA; ///< switch port index if a is a switch
        uint32_t portB;
        Time delay;
        Ptr<NiccChannel> channel;
    };

    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
    ObjectFactory m_switchFactory;
    ObjectFactory m_mmuFactory;
    ObjectFactory m_endpointFactory;
    bool m_seedSet{false};
    std::vector<Ptr<NiccSwitchNode>> m_switches;
    std::vector<Ptr<Node>> m_hosts;
    std::vector<Link> m_links;
    std::set<const NiccChannel*> m_unrouted; ///< links left out of routing
    /// PathsFrom's adjacency (node id -> (neighbour, delay ns)), built once
    /// for the first m_pathAdjLinks links and again when links were added.
    mutable std::vector<std::vector<std::pair<uint32_t, double>>> m_pathAdj;
    mutable std::vector<bool> m_pathIsSwitch;
    mutable size_t m_pathAdjLinks{0};
};

} // namespace ns3

#endif // NICC_FABRIC_HELPER_H
