/*
 * nicc-channel.cc — NiccChannel: delivery of frames after txTime + Delay.
 */
#include "nicc-channel.h"

#include "nicc-mpi.h"
#include "nicc-net-device.h"
#include "nicc-ordered-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>

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
                          "drawn per frame from the stream of its direction (AssignStreams).",
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
    for (int64_t k = 0; k < 2; ++k)
    {
        if (!m_rng[k])
        {
            m_rng[k] = CreateObject<UniformRandomVariable>();
        }
        m_rng[k]->SetStream(stream + k);
    }
    return 2;
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
NiccChannel::Transmit(const Ptr<Packet>& p, const NiccNetDevice* src, Time txTime)
{
    const std::size_t dst = (m_dev[0] == src) ? 1 : 0;
    if (m_nDevices < 2)
    {
        return; // dangling link: the frame is lost
    }
    // No draw while the loss rate is 0: fault-free runs use no random numbers.
    if (m_up && m_lossRate > 0 && !m_rng[dst])
    {
        m_rng[dst] = CreateObject<UniformRandomVariable>();
    }
    if (!m_up || (m_lossRate > 0 && m_rng[dst]->GetValue() < m_lossRate))
    {
        Lose(p, src->GetNode()->GetId(), m_up ? LOST_CORRUPTION : LOST_LINK_DOWN);
        return;
    }
    const uint64_t seq = m_sent[dst]++;
    if (m_remote[dst])
    {
        // The far end belongs to another MPI rank: it gets the frame at the
        // same time through Deliver() there, with its send number.
        NiccSeqTag tag;
        tag.seq = seq;
        tag.downs = m_downs; // lost at its arrival if the link goes down meanwhile
        p->AddPacketTag(tag);
        NiccMpi::Send(p, NiccNow() + txTime + m_delay, m_dev[dst]->GetNode()->GetId(),
                      m_dev[dst]->GetIfIndex());
        return;
    }
    // A frame on the wire when the link goes down is lost at its arrival.
    if (m_context[dst] == UINT32_MAX)
    {
        m_context[dst] = m_dev[dst]->GetNode()->GetId();
    }
    const Time delay = txTime + m_delay;
    bool chained = false;
    if (NiccScheduler* s = NiccScheduler::Active())
    {
        const uint64_t at = static_cast<uint64_t>((NiccNow() + delay).GetTimeStep());
        // Behind the frame before it, unless it would overtake it (the
        // delay was lowered): then it gets an event of its own.
        const bool inOrder = at >= m_lastAt[dst];
        m_lastAt[dst] = std::max(m_lastAt[dst], at);
        if (m_arriving[dst] && inOrder)
        {
            p->Ref(); // the FIFO's reference, handed to the arrival event
            m_flight[dst].PushBack(InFlight{PeekPointer(p), at, s->Mark(), m_downs, seq});
            return;
        }
        if (!m_arriving[dst])
        {
            m_arriving[dst] = true;
            chained = true;
        }
        s->SetPrefetchHint(PeekPointer(p));
    }
    Simulator::ScheduleWithContext(
        m_context[dst],
        delay,
        new NiccArrivalEvent(this, p, static_cast<uint8_t>(dst), m_downs,
                             NiccOrderedScheduler::ArrivalKey(GetId(), static_cast<uint8_t>(dst)), seq,
                             chained));
}

void
NiccChannel::ArmNextArrival(std::size_t dst)
{
    if (m_flight[dst].Empty())
    {
        m_arriving[dst] = false;
        return;
    }
    InFlight f = m_flight[dst].PopFront();
    // Run from the arrival of end dst: the context is that end's node.
    NiccScheduler* s = NiccScheduler::Active();
    s->SetPrefetchHint(f.p);
    s->ScheduleAt(
        TimeStep(f.at) - NiccNow(),
        f.tie,
        new NiccArrivalEvent(this, NiccArrivalEvent::Adopt{f.p}, static_cast<uint8_t>(dst), f.downs,
                             NiccOrderedScheduler::ArrivalKey(GetId(), static_cast<uint8_t>(dst)), f.seq,
                             true));
}

void
NiccChannel::Partition(uint32_t rank)
{
    if (m_nDevices < 2)
    {
        return;
    }
    for (std::size_t k = 0; k < 2; ++k)
    {
        m_remote[k] = m_dev[k]->GetNode()->GetSystemId() != rank;
    }
    for (std::size_t k = 0; k < 2; ++k)
    {
        if (!m_remote[k] && m_remote[1 - k])
        {
            NiccMpi::Listen(m_dev[k], MakeCallback(&NiccChannel::Deliver, this));
        }
    }
}

bool
NiccChannel::CrossesRanks() const
{
    return m_remote[0] != m_remote[1];
}

void
NiccChannel::Deliver(Ptr<Packet> p)
{
    // Called at the frame's arrival time on the rank of the local end; the
    // arrival event orders it among this nanosecond's arrivals by link, as a
    // frame sent on this rank would be (NiccOrderedScheduler).
    const uint8_t dst = m_remote[0] ? 1 : 0; // the local end
    NiccSeqTag tag;
    p->RemovePacketTag(tag);
    Simulator::ScheduleWithContext(m_dev[dst]->GetNode()->GetId(),
                                   Time(0),
                                   new NiccArrivalEvent(this, p, dst, tag.downs,
                                                        NiccOrderedScheduler::ArrivalKey(GetId(), dst), tag.seq));
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
    for (auto& fifo : m_flight)
    {
        while (!fifo.Empty())
        {
            fifo.PopFront().p->Unref(); // frames on the wire when the run ended
        }
        fifo.Clear();
    }
    m_rng[0] = nullptr;
    m_rng[1] = nullptr;
    Channel::DoDispose();
}

} // namespace ns3
