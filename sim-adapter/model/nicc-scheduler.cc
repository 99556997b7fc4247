/*
 * nicc-scheduler.cc — NiccScheduler: (time, insertion) order with marked
 * positions.
 */
#include "nicc-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
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

EventId
NiccScheduler::ScheduleFrom(const Time& delay, const Time& at, uint64_t tie, EventImpl* impl)
{
    NS_ABORT_MSG_UNLESS(tie & kMarkBit, "NiccScheduler::ScheduleFrom: not a marked position");
    NS_ABORT_MSG_UNLESS(Simulator::Now() + delay > at,
                        "NiccScheduler::ScheduleFrom: the event must come after its position");
    m_fromTs = static_cast<uint64_t>(at.GetTimeStep());
    m_fromTie = tie;
    EventId id = Simulator::Schedule(delay, Ptr<EventImpl>(impl, false));
    NS_ABORT_MSG_UNLESS(m_fromTie == 0, "NiccScheduler::ScheduleFrom: the event was not inserted here");
    return id;
}

namespace
{
// std::*_heap keep the largest first: a pending event is "less" when later.
template <class A, class B>
bool
Later(const A& a, const B& b)
{
    return a.ts != b.ts ? a.ts > b.ts : a.tie > b.tie;
}
} // namespace

void
NiccScheduler::Settle()
{
    // A pending event settles once the next event to run comes after its
    // inserting position: it takes the place an insertion there would have
    // had (after everything inserted so far, before anything inserted later).
    while (!m_pending.empty())
    {
        const Pending& p = m_pending.front();
        if (!m_heap.empty() && !Later(m_heap.front(), p))
        {
            return; // the run has not passed its position
        }
        const Event ev = p.ev;
        std::pop_heap(m_pending.begin(), m_pending.end(), Later<Pending, Pending>);
        m_pending.pop_back();
        m_heap.push_back(Entry{ev.key.m_ts, Mark(), ev});
        Up(m_heap.size() - 1);
    }
}

void
NiccScheduler::Insert(const Event& ev)
{
    if (m_fromTie != 0)
    {
        m_pending.push_back(Pending{m_fromTs, m_fromTie, ev});
        std::push_heap(m_pending.begin(), m_pending.end(), Later<Pending, Pending>);
        m_fromTie = 0;
        return;
    }
    uint64_t tie = m_forcedTie;
    if (tie == 0)
    {
        m_inserted = ev.key.m_uid; // ns-3 numbers insertions in order
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
    return m_heap.empty() && m_pending.empty();
}

Scheduler::Event
NiccScheduler::PeekNext() const
{
    const_cast<NiccScheduler*>(this)->Settle();
    NS_ASSERT(!m_heap.empty());
    return m_heap.front().ev;
}

Scheduler::Event
NiccScheduler::RemoveNext()
{
    Settle();
    NS_ASSERT(!m_heap.empty());
    Event ev = m_heap.front().ev;
    m_currentTie = m_heap.front().tie;
    if (m_currentTie & kMarkBit)
    {
        // Run under the number of the last event inserted before its
        // position: ns-3 takes an event of this time stamp with a number up
        // to the running one's for run already (EventId::IsExpired, Cancel).
        ev.key.m_uid = static_cast<uint32_t>(m_currentTie >> kShift);
    }
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
    for (std::size_t i = 0; i < m_pending.size(); ++i)
    {
        if (m_pending[i].ev.key.m_uid == ev.key.m_uid && m_pending[i].ev.impl == ev.impl)
        {
            m_pending[i] = m_pending.back();
            m_pending.pop_back();
            std::make_heap(m_pending.begin(), m_pending.end(), Later<Pending, Pending>);
            return;
        }
    }
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
