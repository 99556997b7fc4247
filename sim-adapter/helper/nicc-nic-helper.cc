/*
 * nicc-nic-helper.cc — NiccNicHelper: NIC installation, flows, FCT records.
 */
#include "nicc-nic-helper.h"

#include "ns3/nicc-mpi.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

NiccNicHelper::NiccNicHelper()
{
    m_factory.SetTypeId("ns3::NiccNic");
}

void
NiccNicHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<NiccNic>
NiccNicHelper::Install(Ptr<Node> host, std::string* error)
{
    for (uint32_t i = 0; i < host->GetNDevices(); ++i)
    {
        Ptr<NiccNetDevice> dev = DynamicCast<NiccNetDevice>(host->GetDevice(i));
        if (!dev)
        {
            continue;
        }
        Ptr<NiccNic> nic = m_factory.Create<NiccNic>();
        if (!nic->Install(dev, error))
        {
            return nullptr;
        }
        nic->TraceConnectWithoutContext("FlowComplete", MakeCallback(&NiccNicHelper::FlowDone, this));
        host->AggregateObject(nic);
        return nic;
    }
    NS_ABORT_MSG("host " << host->GetId() << " has no NiccNetDevice");
    return nullptr;
}

bool
NiccNicHelper::Install(const std::vector<Ptr<Node>>& hosts, std::string* error)
{
    for (const auto& h : hosts)
    {
        if (!Install(h, error))
        {
            return false;
        }
    }
    return true;
}

Ptr<NiccNic>
NiccNicHelper::GetNic(Ptr<Node> host)
{
    return host->GetObject<NiccNic>();
}

uint32_t
NiccNicHelper::AddFlow(Ptr<Node> src, Ptr<Node> dst, uint64_t bytes, Time start)
{
    Ptr<NiccNic> nic = GetNic(src);
    NS_ABORT_MSG_UNLESS(nic && GetNic(dst), "both hosts of a flow need a NiccNic");
    return AddFlow(src, dst, bytes, start, nic->GetDriverConfig().cc);
}

uint32_t
NiccNicHelper::AddFlow(Ptr<Node> src, Ptr<Node> dst, uint64_t bytes, Time start, nicc::hal::CcKind cc)
{
    Ptr<NiccNic> nic = GetNic(src);
    NS_ABORT_MSG_UNLESS(nic && GetNic(dst), "both hosts of a flow need a NiccNic");
    const uint32_t id = static_cast<uint32_t>(m_flows.size());
    if (src->GetSystemId() != NiccMpi::Rank())
    {
        // Another MPI rank runs this flow: keep its id and static fields so
        // that flow ids and the merged fct.csv match a one-process run.
        m_flows.push_back(
            NiccFlowRecord{id, src->GetId(), dst->GetId(), bytes, start.GetNanoSeconds(), -1, 0, nullptr, 0, cc});
        return id;
    }
    const uint32_t qpn = nic->AddFlow(id, dst->GetId(), bytes, start, cc);
    m_flows.push_back(NiccFlowRecord{id,
                                     src->GetId(),
                                     dst->GetId(),
                                     bytes,
                                     start.GetNanoSeconds(),
                                     -1,
                                     0,
                                     nic,
                                     qpn,
                                     cc});
    return id;
}

void
NiccNicHelper::StopWhenAllComplete()
{
    m_stopWhenDone = true;
}

void
NiccNicHelper::FlowDone(uint32_t /*flowId*/, uint32_t /*qpn*/, uint64_t /*bytes*/, Time /*fct*/)
{
    ++m_completed;
    if (m_stopWhenDone && m_completed == m_flows.size())
    {
        Simulator::Stop();
    }
}

std::vector<NiccFlowRecord>
NiccNicHelper::GetFlowRecords() const
{
    std::vector<NiccFlowRecord> out = m_flows;
    for (NiccFlowRecord& r : out)
    {
        if (!r.nic)
        {
            continue; // run by another MPI rank
        }
        r.ackedBytes = r.nic->GetQpAckedBytes(r.qpn);
        if (r.nic->IsQpDone(r.qpn))
        {
            r.fctNs = (r.nic->GetQpFinishTime(r.qpn) - r.nic->GetQpStartTime(r.qpn)).GetNanoSeconds();
        }
    }
    return out;
}

} // namespace ns3
