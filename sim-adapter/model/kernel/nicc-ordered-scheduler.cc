/*
 * nicc-ordered-scheduler.cc — NiccOrderedScheduler and NiccArrivalEvent.
 */
#include "nicc-ordered-scheduler.h"

#include "nicc-channel.h"
#include "nicc-mpi.h"

#include "nicc-event-heap.h"

#include "ns3/log.h"

#include <typeinfo>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccOrderedScheduler");
NS_OBJECT_ENSURE_REGISTERED(NiccOrderedScheduler);

namespace
{
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kReuseArrivals = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kReuseArrivals = false;
#else
constexpr bool kReuseArrivals = true;
#endif
#else
constexpr bool kReuseArrivals = true;
#endif

/// A freed arrival event's memory, waiting for the next one.
struct FreeArrival
{
    FreeArrival* next;
};
FreeArrival* g_freeArrivals = nullptr;
} // namespace

void*
NiccArrivalEvent::operator new(std::size_t size)
{
    if (kReuseArrivals && size == sizeof(NiccArrivalEvent) && g_freeArrivals != nullptr)
    {
        FreeArrival* f = g_freeArrivals;
        g_freeArrivals = f->next;
        return f;
    }
    return ::operator new(size);
}

void
NiccArrivalEvent::operator delete(void* p, std::size_t size)
{
    if (kReuseArrivals && size == sizeof(NiccArrivalEvent))
    {
        auto* f = static_cast<FreeArrival*>(p);
        f->next = g_freeArrivals;
        g_freeArrivals = f;
        return;
    }
    ::operator delete(p);
}

void
NiccArrivalEvent::Notify()
{
    if (m_chained)
    {
        m_ch->ArmNextArrival(m_dst);
    }
    m_ch->Arrive(std::move(m_p), m_dst, m_downs); // runs once: the frame moves on
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
    return 16;
}

void
NiccSeqTag::Serialize(TagBuffer i) const
{
    i.WriteU64(seq);
    i.WriteU64(downs);
}

void
NiccSeqTag::Deserialize(TagBuffer i)
{
    seq = i.ReadU64();
    downs = i.ReadU64();
}

void
NiccSeqTag::Print(std::ostream& os) const
{
    os << "seq=" << seq << " downs=" << downs;
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
    constexpr uint64_t kNotice = 2;
    constexpr uint64_t kOther = 3;
    if (const auto* a = dynamic_cast<const NiccArrivalEvent*>(ev.impl))
    {
        return Entry{ev.key.m_ts, kArrival << 32 | a->GetKey(), a->GetSeq(), ev};
    }
    const std::type_info* delivery = NiccMpi::DeliveryEventType();
    if (delivery && typeid(*ev.impl) == *delivery)
    {
        return Entry{ev.key.m_ts, kDelivery << 32, ev.key.m_uid, ev};
    }
    if (typeid(*ev.impl) == typeid(NiccNoticeEvent)) // final: no cast search
    {
        return Entry{ev.key.m_ts, kNotice << 32, static_cast<const NiccNoticeEvent*>(ev.impl)->GetKey(), ev};
    }
    return Entry{ev.key.m_ts, kOther << 32, ev.key.m_uid, ev};
}

void
NiccOrderedScheduler::Insert(const Event& ev)
{
    NiccHeapPush(m_heap, Make(ev), Before{});
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
    return NiccHeapPop(m_heap, Before{}).ev;
}

void
NiccOrderedScheduler::Remove(const Event& ev)
{
    const bool found = NiccHeapRemove(
        m_heap,
        [&ev](const Entry& e) { return e.ev.key.m_uid == ev.key.m_uid && e.ev.impl == ev.impl; },
        Before{});
    NS_ASSERT_MSG(found, "NiccOrderedScheduler::Remove: event not found");
    (void)found;
}

} // namespace ns3
