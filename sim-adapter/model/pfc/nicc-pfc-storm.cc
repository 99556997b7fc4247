/*
 * nicc-pfc-storm.cc — NiccPfcStorm (stalled receiver sending XOFF) and
 * NiccPfcSpreadSampler (paused ports and hosts over time).
 */
#include "nicc-pfc-storm.h"

#include "ns3/nicc-mpi.h"
#include "ns3/nicc-rocev2-header.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccPfcStorm");
NS_OBJECT_ENSURE_REGISTERED(NiccPfcStorm);

TypeId
NiccPfcStorm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NiccPfcStorm")
                            .SetParent<Object>()
                            .SetGroupName("Nicc")
                            .AddConstructor<NiccPfcStorm>();
    return tid;
}

void
NiccPfcStorm::DoDispose()
{
    m_refresh.Cancel();
    m_begin.Cancel();
    m_finish.Cancel();
    m_held.clear();
    m_dev = nullptr;
    m_saved = NiccNetDevice::NiccReceiveCallback();
    Object::DoDispose();
}

void
NiccPfcStorm::Install(Ptr<NiccNetDevice> dev, Time start, Time end, uint16_t quanta)
{
    m_dev = dev;
    m_start = start;
    m_end = end;
    m_quanta = quanta ? quanta : 1;
    m_begin = Simulator::Schedule(start - Simulator::Now(), &NiccPfcStorm::Begin, this);
    if (!end.IsNegative())
    {
        m_finish = Simulator::Schedule(end - Simulator::Now(), &NiccPfcStorm::Finish, this);
    }
}

void
NiccPfcStorm::Begin()
{
    m_active = true;
    m_saved = m_dev->GetNiccReceiveCallback();
    m_dev->SetNiccReceiveCallback(MakeCallback(&NiccPfcStorm::Hold, this));
    NS_LOG_INFO("PFC storm begins on node " << m_dev->GetNode()->GetId() << " at "
                                            << Simulator::Now().As(Time::US));
    Refresh();
}

void
NiccPfcStorm::Refresh()
{
    for (uint8_t cls = 1; cls < m_dev->GetNumClasses(); ++cls)
    {
        m_dev->SendPfc(cls, m_quanta);
        ++m_xoffSent;
    }
    // Re-send at half the pause time, before the neighbour's timer runs out.
    const Time half = m_dev->GetDataRate().CalculateBytesTxTime(32u * m_quanta);
    m_refresh = Simulator::Schedule(half, &NiccPfcStorm::Refresh, this);
}

void
NiccPfcStorm::Hold(Ptr<NiccNetDevice> /*dev*/, Ptr<Packet> p)
{
    m_held.push_back(p);
    m_heldBytes += p->GetSize();
    m_peakHeld = m_heldBytes > m_peakHeld ? m_heldBytes : m_peakHeld;
}

void
NiccPfcStorm::Finish()
{
    if (!m_active)
    {
        return;
    }
    m_active = false;
    m_refresh.Cancel();
    for (uint8_t cls = 1; cls < m_dev->GetNumClasses(); ++cls)
    {
        m_dev->SendPfc(cls, 0);
    }
    m_dev->SetNiccReceiveCallback(m_saved);
    NS_LOG_INFO("PFC storm ends on node " << m_dev->GetNode()->GetId() << " at "
                                          << Simulator::Now().As(Time::US) << ", "
                                          << m_held.size() << " frames released");
    std::deque<Ptr<Packet>> held;
    held.swap(m_held);
    m_heldBytes = 0;
    if (!m_saved.IsNull())
    {
        for (const Ptr<Packet>& p : held)
        {
            m_saved(m_dev, p);
        }
    }
}

uint32_t
NiccPfcSpreadSampler::CountPausedPorts(const std::vector<Ptr<NiccNetDevice>>& devs)
{
    uint32_t n = 0;
    for (const Ptr<NiccNetDevice>& d : devs)
    {
        for (uint8_t cls = 1; cls < d->GetNumClasses(); ++cls)
        {
            if (d->IsPaused(cls))
            {
                ++n;
                break;
            }
        }
    }
    return n;
}

void
NiccPfcSpreadSampler::Start(const std::vector<Ptr<NiccSwitchNode>>& switches,
                            const std::vector<Ptr<NiccNetDevice>>& hostDevices,
                            Time period,
                            Time start,
                            Time stop)
{
    m_switches = switches;
    m_hosts = hostDevices;
    m_period = period;
    m_stop = stop;
    for (const Ptr<NiccSwitchNode>& sw : switches)
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            m_switchPorts.push_back(sw->GetPort(p));
        }
    }
    for (const Ptr<NiccNetDevice>& d : hostDevices)
    {
        d->TraceConnectWithoutContext("Rx", MakeCallback(&NiccPfcSpreadSampler::OnRx, this));
    }
    Simulator::Schedule(start - Simulator::Now(), &NiccPfcSpreadSampler::Sample, this);
}

void
NiccPfcSpreadSampler::OnRx(Ptr<const Packet> p)
{
    const NiccRoceHeader::FastFields h = NiccRoceHeader::PeekFast(*p);
    if (h.type == NiccRoceHeader::DATA)
    {
        NiccRoceHeader full;
        p->PeekHeader(full);
        m_rxBytes += full.GetPayloadSize();
    }
}

void
NiccPfcSpreadSampler::Sample()
{
    NiccPfcSpreadSample s;
    s.at = Simulator::Now();
    s.pausedSwitchPorts = CountPausedPorts(m_switchPorts);
    s.pausedHosts = CountPausedPorts(m_hosts);
    s.stormedQueues = 0;
    for (const Ptr<NiccSwitchNode>& sw : m_switches)
    {
        s.stormedQueues += sw->GetPfcWatchdog().GetStormedQueues();
    }
    s.rxPayloadBytes = m_rxBytes;
    m_rxBytes = 0;
    // Under MPI a rank's counts are those of its own nodes (the others'
    // are never paused): summed over the ranks, which sample at the same
    // times, they are the fabric's.
    std::vector<uint64_t> sums{s.pausedSwitchPorts, s.pausedHosts, s.stormedQueues, s.rxPayloadBytes};
    NiccMpi::SumAll(&sums);
    s.pausedSwitchPorts = static_cast<uint32_t>(sums[0]);
    s.pausedHosts = static_cast<uint32_t>(sums[1]);
    s.stormedQueues = static_cast<uint32_t>(sums[2]);
    s.rxPayloadBytes = sums[3];
    if (s.pausedSwitchPorts > m_peakPorts)
    {
        m_peakPorts = s.pausedSwitchPorts;
        m_peakPortsAt = s.at;
    }
    if (s.pausedHosts > m_peakHosts)
    {
        m_peakHosts = s.pausedHosts;
        m_peakHostsAt = s.at;
    }
    m_samples.push_back(s);
    if (s.at + m_period <= m_stop)
    {
        Simulator::Schedule(m_period, &NiccPfcSpreadSampler::Sample, this);
    }
}

} // namespace ns3
