/*
 * nicc-routes-test-suite.cc — the switches' routing tables ("nicc-routes"):
 * NiccFabricHelper::InstallRoutes (one search per edge switch) gives every
 * switch, towards every host, the next hops a breadth-first search from
 * that host gives, in the same order, on the HPCC fat-tree, a leaf-spine and
 * a leaf-spine with a host on two leaves; the tables hold distinct next-hop
 * sets, not one per host.
 *
 *   ./nicc-sim-test-runner --suite=nicc-routes --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <deque>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

// (peer, port of n) for every linked device of node n; a switch's port
// numbers are its port indices.
std::vector<std::pair<Ptr<Node>, uint32_t>>
Peers(Ptr<Node> n)
{
    std::vector<std::pair<Ptr<Node>, uint32_t>> v;
    Ptr<NiccSwitchNode> s = DynamicCast<NiccSwitchNode>(n);
    const uint32_t ports = s ? s->GetNPorts() : n->GetNDevices();
    for (uint32_t p = 0; p < ports; ++p)
    {
        Ptr<NiccNetDevice> d = s ? s->GetPort(p) : DynamicCast<NiccNetDevice>(n->GetDevice(p));
        if (d && d->GetPeer())
        {
            v.emplace_back(d->GetPeer()->GetNode(), p);
        }
    }
    return v;
}

// Next hops of sw towards host h by a breadth-first search from h (hosts
// do not relay): the ports towards neighbours one hop closer to h.
std::vector<uint32_t>
ReferenceRoute(Ptr<NiccSwitchNode> sw, Ptr<Node> h)
{
    std::map<uint32_t, uint32_t> dist{{h->GetId(), 0}};
    std::deque<Ptr<Node>> frontier{h};
    while (!frontier.empty())
    {
        Ptr<Node> u = frontier.front();
        frontier.pop_front();
        if (u != h && !DynamicCast<NiccSwitchNode>(u))
        {
            continue;
        }
        const uint32_t du = dist[u->GetId()];
        for (const auto& [v, port] : Peers(u))
        {
            if (dist.emplace(v->GetId(), du + 1).second)
            {
                frontier.push_back(v);
            }
        }
    }
    std::vector<uint32_t> ports;
    const auto self = dist.find(sw->GetId());
    for (const auto& [v, port] : Peers(sw))
    {
        const auto d = dist.find(v->GetId());
        if (self != dist.end() && d != dist.end() && d->second + 1 == self->second)
        {
            ports.push_back(port);
        }
    }
    return ports;
}

class RoutesTest : public TestCase
{
  public:
    RoutesTest()
        : TestCase("InstallRoutes: every switch-host pair as a search from the host; distinct next-hop sets")
    {
    }

  private:
    void Check(const std::vector<Ptr<NiccSwitchNode>>& switches, const std::vector<Ptr<Node>>& hosts,
               const std::string& name)
    {
        for (const auto& sw : switches)
        {
            for (const auto& h : hosts)
            {
                NS_TEST_ASSERT_MSG_EQ((sw->GetRoute(h->GetId()) == ReferenceRoute(sw, h)), true,
                                      name << ": switch " << sw->GetId() << " to host " << h->GetId());
            }
        }
    }

    void DoRun() override
    {
        {
            NiccFabricHelper fabric;
            NiccFatTreeTopology t = fabric.BuildHpccFatTree();
            std::vector<Ptr<NiccSwitchNode>> all = t.tors;
            all.insert(all.end(), t.aggs.begin(), t.aggs.end());
            all.insert(all.end(), t.cores.begin(), t.cores.end());
            Check(all, t.hosts, "HPCC fat-tree");
            // A ToR: its 16 hosts' ports and one "any agg" set; an agg: its
            // 4 ToRs and "any core"; a core: one per pod (and the empty set 0).
            NS_TEST_EXPECT_MSG_EQ(t.tors[0]->GetNRouteGroups(), 1u + 16u + 1u, "ToR route groups");
            NS_TEST_EXPECT_MSG_EQ(t.aggs[0]->GetNRouteGroups(), 1u + 4u + 1u, "agg route groups");
            NS_TEST_EXPECT_MSG_EQ(t.cores[0]->GetNRouteGroups(), 1u + 5u, "core route groups");
            Simulator::Destroy();
        }
        {
            // A leaf-spine, then host 0 also linked to leaf 1 (on two
            // switches: routed by a search of its own) and routes again.
            NiccFabricHelper fabric;
            NiccLeafSpineTopology t =
                fabric.BuildLeafSpine(3, 2, 2, DataRate("100Gbps"), DataRate("100Gbps"), MicroSeconds(1));
            std::vector<Ptr<NiccSwitchNode>> all = t.leaves;
            all.insert(all.end(), t.spines.begin(), t.spines.end());
            Check(all, t.hosts, "leaf-spine");
            fabric.Connect(t.hosts[0], t.leaves[1], DataRate("100Gbps"), MicroSeconds(1));
            fabric.InstallRoutes();
            Check(all, t.hosts, "leaf-spine, host 0 on two leaves");
            NS_TEST_EXPECT_MSG_EQ(t.leaves[1]->GetRoute(t.hosts[0]->GetId()).size(), 1u,
                                  "leaf 1 reaches host 0 directly");
            Simulator::Destroy();
        }
    }
};

class NiccRoutesTestSuite : public TestSuite
{
  public:
    NiccRoutesTestSuite()
        : TestSuite("nicc-routes", UNIT)
    {
        AddTestCase(new RoutesTest, TestCase::QUICK);
    }
};

NiccRoutesTestSuite g_niccRoutesTestSuite; //!< static registration

} // namespace
