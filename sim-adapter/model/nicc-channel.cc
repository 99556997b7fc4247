/*
 * nicc-channel.cc — NiccChannel: delivery of frames after txTime + Delay.
 */
#include "nicc-channel.h"

#include "nicc-net-device.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
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
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Up",
                          "The link carries frames; false = link down, every frame sent "
                          "on it (both directions, PFC included) is lost.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NiccChannel::SetUp, &NiccChannel::IsUp),
                          MakeBooleanChecker())
            .AddAttribute("LossRate",
                          "Probability that a frame is lost on the link (corruption), "
                          "drawn per frame from the channel's stream (AssignStreams).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NiccChannel::m_lossRate),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddTraceSource("Drop",
                            "A frame was lost on the link: (frame, sender's node id, cause "
                            "0 = link down, 1 = corruption).",
                            MakeTraceSourceAccessor(&NiccChannel::m_dropTrace),
                            "ns3::NiccChannel::DropTracedCallback");
    return tid;
}

NiccChannel::NiccChannel() = default;

int64_t
NiccChannel::AssignStreams(int64_t stream)
{
    // Made on first use: a channel without losses takes no stream number.
    if (!m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    m_rng->SetStream(stream);
    return 1;
}

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
NiccChannel::Transmit(Ptr<Packet> p, Ptr<NiccNetDevice> src, Time txTime)
{
    const std::size_t dst = (m_dev[0] == src) ? 1 : 0;
    if (m_nDevices < 2)
    {
        return; // dangling link: the frame is lost
    }
    // No draw while the loss rate is 0: fault-free runs use no random numbers.
    if (m_up && m_lossRate > 0 && !m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    if (!m_up || (m_lossRate > 0 && m_rng->GetValue() < m_lossRate))
    {
        Lose(p, src->GetNode()->GetId(), m_up ? LOST_CORRUPTION : LOST_LINK_DOWN);
        return;
    }
    // A frame on the wire when the link goes down is lost at its arrival.
    Simulator::ScheduleWithContext(m_dev[dst]->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &NiccChannel::Arrive,
                                   this,
                                   p,
                                   dst,
                                   m_downs);
}

void
NiccChannel::SetUp(bool up)
{
    if (m_up && !up)
    {
        ++m_downs;
    }
    m_up = up;
}

void
NiccChannel::Arrive(Ptr<Packet> p, std::size_t dst, uint64_t downs)
{
    if (downs != m_downs)
    {
        Lose(p, m_dev[1 - dst]->GetNode()->GetId(), LOST_LINK_DOWN);
        return;
    }
    m_dev[dst]->Receive(p);
}

void
NiccChannel::Lose(Ptr<Packet> p, uint32_t fromNode, LossCause c)
{
    ++m_lostPackets[c];
    m_lostBytes[c] += p->GetSize();
    m_dropTrace(p, fromNode, static_cast<uint8_t>(c));
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
    m_rng = nullptr;
    Channel::DoDispose();
}

} // namespace ns3
