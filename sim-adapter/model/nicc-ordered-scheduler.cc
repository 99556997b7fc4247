/*
 * nicc-ordered-scheduler.cc — NiccOrderedScheduler and NiccArrivalEvent.
 */
#include "nicc-ordered-scheduler.h"

#include "nicc-channel.h"
#include "nicc-mpi.h"

#include "ns3/log.h"

#include <typeinfo>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccOrderedScheduler");
NS_OBJECT_ENSURE_REGISTERED(NiccOrderedScheduler);

void
NiccArrivalEvent::Notify()
{
    m_ch->Arrive(m_p, m_dst, m_downs);
}

NS_OBJECT_ENSURE_REGISTERED(NiccSeqTag);

TypeId
NiccSeqTag::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NiccSeqTag").SetParent<Tag>().SetGroupName("Nicc").AddConstructor<NiccSeqTag>();
    return tid;
}

TypeId
NiccSeqTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
NiccSeqTag::GetSerializedSize() const
{
    return 8;
}

void
NiccSeqTag::Serialize(TagBuffer i) const
{
    i.WriteU64(seq);
}

void
NiccSeqTag::Deserialize(TagBuffer i)
{
    seq = i.ReadU64();
}

void
NiccSeqTag::Print(std::ostream& os) const
{
    os << "seq=" << seq;
}

TypeId
NiccOrderedScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NiccOrderedScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Nicc")
                            .AddConstructor<NiccOrderedScheduler>();
    return tid;
}

NiccOrderedScheduler::NiccOrderedScheduler() = default;
NiccOrderedScheduler::~NiccOrderedScheduler() = default;

NiccOrderedScheduler::Entry
NiccOrderedScheduler::Make(const Event& ev) const
{
    constexpr uint64_t kDelivery = 0;
    constexpr uint64_t kArrival = 1;
    constexpr uint64_t kOther = 2;
    if (const auto* a = dynamic_cast<const NiccArrivalEvent*>(ev.impl))
    {
        return Entry{ev.key.m_ts, kArrival << 32 | a->GetKey(), a->GetSeq(), ev};
    }
    const std::type_info* delivery = NiccMpi::DeliveryEventType();
    if (delivery && typeid(*ev.impl) == *delivery)
    {
        return Entry{ev.key.m_ts, kDelivery << 32, ev.key.m_uid, ev};
    }
    return Entry{ev.key.m_ts, kOther << 32, ev.key.m_uid, ev};
}

void
NiccOrderedScheduler::Insert(const Event& ev)
{
    m_heap.push_back(Make(ev));
    Up(m_heap.size() - 1);
}

bool
NiccOrderedScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
NiccOrderedScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front().ev;
}

Scheduler::Event
NiccOrderedScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    const Event ev = m_heap.front().ev;
    m_heap.front() = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        Down(0);
    }
    return ev;
}

void
NiccOrderedScheduler::Remove(const Event& ev)
{
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].ev.key.m_uid == ev.key.m_uid && m_heap[i].ev.impl == ev.impl)
        {
            m_heap[i] = m_heap.back();
            m_heap.pop_back();
            if (i < m_heap.size())
            {
                Up(i);
                Down(i);
            }
            return;
        }
    }
    NS_ASSERT_MSG(false, "NiccOrderedScheduler::Remove: event not found");
}

void
NiccOrderedScheduler::Up(std::size_t i)
{
    Entry e = std::move(m_heap[i]);
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / 2;
        if (!Before(e, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = std::move(m_heap[parent]);
        i = parent;
    }
    m_heap[i] = std::move(e);
}

void
NiccOrderedScheduler::Down(std::size_t i)
{
    const std::size_t n = m_heap.size();
    Entry e = std::move(m_heap[i]);
    for (;;)
    {
        std::size_t child = 2 * i + 1;
        if (child >= n)
        {
            break;
        }
        if (child + 1 < n && Before(m_heap[child + 1], m_heap[child]))
        {
            ++child;
        }
        if (!Before(m_heap[child], e))
        {
            break;
        }
        m_heap[i] = std::move(m_heap[child]);
        i = child;
    }
    m_heap[i] = std::move(e);
}

} // namespace ns3
