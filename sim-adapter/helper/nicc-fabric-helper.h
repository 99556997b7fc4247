/*
 * nicc-fabric-helper.h — builds nicc fabrics: switches, hosts, links, static
 * shortest-path routes with every equal-cost next hop, test endpoints, and
 * two stock topologies (N-to-1 incast on one switch; 2-level leaf-spine).
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
#include "ns3/nicc-net-device.h"
#include "ns3/nicc-switch-node.h"
#include "ns3/nicc-test-endpoint.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

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
    /// (Re)build every switch's routes towards every host made here.
    void InstallRoutes();
    /// A test endpoint on the host's first NiccNetDevice.
    Ptr<NiccTestEndpoint> InstallTestEndpoint(Ptr<Node> host);

    NiccIncastTopology BuildIncast(uint32_t senders, DataRate rate, Time delay);
    NiccLeafSpineTopology BuildLeafSpine(uint32_t leaves,
                                         uint32_t spines,
                                         uint32_t hostsPerLeaf,
                                         DataRate hostRate,
                                         DataRate fabricRate,
                                         Time delay);

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
};

} // namespace ns3

#endif // NICC_FABRIC_HELPER_H
