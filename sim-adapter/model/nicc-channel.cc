/*
 * nicc-channel.cc — NiccChannel: delivery of frames after txTime + Delay.
 */
#include "nicc-channel.h"

#include "nicc-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccChannel");
NS_OBJECT_ENSURE_REGISTERED(NiccChannel);

TypeId
NiccChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NiccChannel")
            .SetParent<Channel>()
            .SetGroupName("Nicc")
            .AddConstructor<NiccChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay of the link.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&NiccChannel::m_delay),
                          MakeTimeChecker(Time(0)));
    return tid;
}

NiccChannel::NiccChannel() = default;

bool
NiccChannel::Attach(Ptr<NiccNetDevice> dev)
{
    if (m_nDevices >= 2)
    {
        return false;
    }
    m_dev[m_nDevices] = dev;
    ++m_nDevices;
    return true;
}

void
NiccChannel::Transmit(Ptr<Packet> p, Ptr<NiccNetDevice> src, Time txTime) const
{
    const std::size_t dst = (m_dev[0] == src) ? 1 : 0;
    if (m_nDevices < 2)
    {
        return; // dangling link: the frame is lost
    }
    Simulator::ScheduleWithContext(m_dev[dst]->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &NiccNetDevice::Receive,
                                   m_dev[dst],
                                   p);
}

Ptr<NiccNetDevice>
NiccChannel::GetPeer(Ptr<const NiccNetDevice> dev) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return (m_dev[0] == dev) ? m_dev[1] : m_dev[0];
}

std::size_t
NiccChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
NiccChannel::GetDevice(std::size_t i) const
{
    return i < m_nDevices ? m_dev[i] : nullptr;
}

void
NiccChannel::DoDispose()
{
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    m_nDevices = 0;
    Channel::DoDispose();
}

} // namespace ns3
