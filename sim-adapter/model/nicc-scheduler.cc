/*
 * nicc-scheduler.cc — NiccScheduler: (time, insertion) order with marked
 * positions.
 */
#include "nicc-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccScheduler");
NS_OBJECT_ENSURE_REGISTERED(NiccScheduler);

namespace
{
NiccScheduler* g_active = nullptr;
} // namespace

TypeId
NiccScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NiccScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Nicc")
                            .AddConstructor<NiccScheduler>();
    return tid;
}

NiccScheduler::NiccScheduler() = default;

NiccScheduler::~NiccScheduler()
{
    if (g_active == this)
    {
        g_active = nullptr;
    }
}

NiccScheduler*
NiccScheduler::Active()
{
    return g_active;
}

uint64_t
NiccScheduler::Mark()
{
    // Past 2^19 - 1 marks without an insertion the marks share the last
    // position; the port model never takes more than one per insertion.
    if (m_marks < kMaxMarks)
    {
        ++m_marks;
    }
    return (m_inserted << kShift) | kMarkBit | m_marks;
}

EventId
NiccScheduler::ScheduleAt(const Time& delay, uint64_t tie, EventImpl* impl)
{
    NS_ABORT_MSG_UNLESS(tie & kMarkBit, "NiccScheduler::ScheduleAt: not a marked position");
    NS_ABORT_MSG_UNLESS(!delay.IsStrictlyNegative(), "NiccScheduler::ScheduleAt: negative delay");
    m_forcedTie = tie;
    EventId id = Simulator::Schedule(delay, Ptr<EventImpl>(impl, false));
    NS_ABORT_MSG_UNLESS(m_forcedTie == 0, "NiccScheduler::ScheduleAt: the event was not inserted here");
    return id;
}

void
NiccScheduler::Insert(const Event& ev)
{
    uint64_t tie = m_forcedTie;
    if (tie == 0)
    {
        ++m_inserted;
        m_marks = 0;
        tie = m_inserted << kShift;
    }
    m_forcedTie = 0;
    g_active = this; // in use: the simulator inserts into it
    m_heap.push_back(Entry{ev.key.m_ts, tie, ev});
    Up(m_heap.size() - 1);
}

bool
NiccScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
NiccScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front().ev;
}

Scheduler::Event
NiccScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    const Event ev = m_heap.front().ev;
    m_currentTie = m_heap.front().tie;
    m_heap.front() = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        Down(0);
    }
    return ev;
}

void
NiccScheduler::Remove(const Event& ev)
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
    NS_ASSERT_MSG(false, "NiccScheduler::Remove: event not found");
}

void
NiccScheduler::Up(std::size_t i)
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
NiccScheduler::Down(std::size_t i)
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
