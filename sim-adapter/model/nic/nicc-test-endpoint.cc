/*
 * nicc-test-endpoint.cc — NiccTestEndpoint: pull-driven paced sender and a
 * counting receiver (see header).
 */
#include "nicc-test-endpoint.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccTestEndpoint");
NS_OBJECT_ENSURE_REGISTERED(NiccTestEndpoint);

TypeId
NiccTestEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NiccTestEndpoint")
            .SetParent<Object>()
            .SetGroupName("Nicc")
            .AddConstructor<NiccTestEndpoint>()
            .AddAttribute("Priority",
                          "Priority class of the DATA packets sent.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NiccTestEndpoint::m_priority),
                          MakeUintegerChecker<uint8_t>(0, NiccNetDevice::MAX_CLASSES - 1))
            .AddAttribute("IntEnabled",
                          "Attach an empty INT stack to each DATA packet.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NiccTestEndpoint::m_intEnabled),
                          MakeBooleanChecker())
            .AddAttribute("Ect",
                          "Send DATA as ECN-capable (ECT(0)).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NiccTestEndpoint::m_ect),
                          MakeBooleanChecker())
            .AddAttribute("PayloadSize",
                          "Payload bytes per packet; 0 = the device MTU.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccTestEndpoint::m_payloadSize),
                          MakeUintegerChecker<uint32_t>(0, 9216))
            .AddTraceSource("Rx",
                            "A packet was received: (packet, parsed header).",
                            MakeTraceSourceAccessor(&NiccTestEndpoint::m_rxTrace),
                            "ns3::NiccTestEndpoint::RxTracedCallback");
    return tid;
}

NiccTestEndpoint::NiccTestEndpoint()
    : m_priority(1),
      m_intEnabled(false),
      m_ect(true),
      m_payloadSize(0)
{
}

void
NiccTestEndpoint::DoDispose()
{
    m_wake.Cancel();
    m_dev = nullptr;
    Object::DoDispose();
}

void
NiccTestEndpoint::Install(Ptr<NiccNetDevice> dev)
{
    m_dev = dev;
    dev->SetTxPullCallback(MakeCallback(&NiccTestEndpoint::Pull, this));
    dev->SetNiccReceiveCallback(MakeCallback(&NiccTestEndpoint::Receive, this));
}

uint32_t
NiccTestEndpoint::AddFlow(uint32_t dst, uint64_t bytes, DataRate rate, uint16_t sport, Time start)
{
    m_flows.push_back(Flow{dst, sport, bytes, 0, rate, start});
    ArmWake(start);
    return static_cast<uint32_t>(m_flows.size() - 1);
}

void
NiccTestEndpoint::ArmWake(Time at)
{
    const Time now = Simulator::Now();
    at = std::max(at, now);
    if (m_wake.IsRunning() && TimeStep(m_wake.GetTs()) <= at)
    {
        return;
    }
    m_wake.Cancel();
    m_wake = Simulator::Schedule(at - now, &NiccTestEndpoint::Wake, this);
}

void
NiccTestEndpoint::Wake()
{
    if (m_dev)
    {
        m_dev->TryTransmit();
    }
}

Ptr<Packet>
NiccTestEndpoint::Pull(Ptr<NiccNetDevice> dev)
{
    if (dev->IsPaused(m_priority))
    {
        return nullptr; // the device pulls again when the pause ends
    }
    const Time now = Simulator::Now();
    const uint32_t n = static_cast<uint32_t>(m_flows.size());
    Time earliest = Time::Max();
    for (uint32_t k = 0; k < n; ++k)
    {
        const uint32_t idx = (m_rr + k) % n;
        Flow& f = m_flows[idx];
        if (f.remaining == 0)
        {
            continue;
        }
        if (f.nextTx > now)
        {
            earliest = std::min(earliest, f.nextTx);
            continue;
        }
        const uint32_t mtu = m_payloadSize ? m_payloadSize : dev->GetMtu();
        const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(mtu, f.remaining));
        NiccRoceHeader h;
        h.SetType(NiccRoceHeader::DATA);
        h.SetSrc(dev->GetNode()->GetId());
        h.SetDst(f.dst);
        h.SetSport(f.sport);
        h.SetPriority(m_priority);
        h.SetEcn(m_ect ? NiccRoceHeader::ECT0 : NiccRoceHeader::NOT_ECT);
        h.SetQpn(idx);
        h.SetPsn(f.psn++);
        h.SetPayloadSize(static_cast<uint16_t>(payload));
        if (m_intEnabled)
        {
            h.EnableInt(0);
        }
        Ptr<Packet> p = Create<Packet>(payload);
        p->AddHeader(h);
        f.remaining -= payload;
        if (f.rate.GetBitRate() > 0)
        {
            f.nextTx = std::max(f.nextTx, now) + f.rate.CalculateBytesTxTime(p->GetSize());
        }
        m_rr = (idx + 1) % n;
        m_txBytes += payload;
        ++m_txPackets;
        return p;
    }
    if (earliest != Time::Max())
    {
        ArmWake(earliest);
    }
    return nullptr;
}

void
NiccTestEndpoint::Receive(Ptr<NiccNetDevice> /*dev*/, Ptr<Packet> p)
{
    NiccRoceHeader h;
    p->PeekHeader(h);
    m_rxTrace(p, h);
    if (h.GetType() != NiccRoceHeader::DATA)
    {
        return;
    }
    m_rxBytes += h.GetPayloadSize();
    ++m_rxPackets;
    m_lastRx = Simulator::Now();
    if (h.GetEcn() == NiccRoceHeader::CE)
    {
        ++m_rxCe;
    }
    if (h.HasInt())
    {
        m_lastInt = h.GetIntStack();
        m_sawInt = true;
    }
}

} // namespace ns3
