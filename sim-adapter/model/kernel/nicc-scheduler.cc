/*
 * nicc-scheduler.cc — NiccScheduler: (time, insertion) order with marked
 * positions.
 */
#include "nicc-scheduler.h"

#include "ns3/abort.h"
#include "nicc-event-heap.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccScheduler");
NS_OBJECT_ENSURE_REGISTERED(NiccScheduler);

TypeId
NiccScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NiccScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Nicc")
                            .AddConstructor<NiccScheduler>();
    return tid;
}

NiccScheduler::NiccScheduler()
    : m_farSteps(static_cast<uint64_t>(MicroSeconds(kFarMicroseconds).GetTimeStep()))
{
}

bool
NiccScheduler::FarFirst() const
{
    return !m_far.empty() && (m_heap.empty() || Before{}(m_far.front(), m_heap.front()));
}

const NiccScheduler::Entry&
NiccScheduler::Front() const
{
    return FarFirst() ? m_far.front() : m_heap.front();
}

NiccScheduler::Entry
NiccScheduler::PopFront()
{
    return FarFirst() ? NiccHeapPop(m_far, Before{}) : NiccHeapPop(m_heap, Before{});
}

void
NiccScheduler::Push(const Entry& e)
{
    // Events of the far future (timers: retransmission, flow starts) wait in
    // their own heap, so that the one every event goes through stays small.
    NiccHeapPush(e.ts - m_currentTs >= m_farSteps ? m_far : m_heap, e, Before{});
}

NiccScheduler::~NiccScheduler()
{
    if (s_active == this)
    {
        s_active = nullptr;
    }
    if (s_running == this)
    {
        s_running = nullptr;
    }
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
    NS_ABORT_MSG_UNLESS(tie != 0, "NiccScheduler::ScheduleAt: no position");
    NS_ABORT_MSG_UNLESS(!delay.IsStrictlyNegative(), "NiccScheduler::ScheduleAt: negative delay");
    m_forcedTie = tie;
    EventId id = Simulator::Schedule(delay, Ptr<EventImpl>(impl, false));
    NS_ABORT_MSG_UNLESS(m_forcedTie == 0, "NiccScheduler::ScheduleAt: the event was not inserted here");
    return id;
}

EventId
NiccScheduler::ScheduleFrom(const Time& delay,
                            const Time& at,
                            uint64_t tie,
                            EventImpl* impl,
                            uint64_t* settledTie)
{
    NS_ABORT_MSG_UNLESS(tie != 0, "NiccScheduler::ScheduleFrom: no position");
    NS_ABORT_MSG_UNLESS(Simulator::Now() + delay > at,
                        "NiccScheduler::ScheduleFrom: the event must come after its position");
    m_fromTs = static_cast<uint64_t>(at.GetTimeStep());
    m_fromTie = tie;
    m_fromSettledTie = settledTie;
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
        if (!HeapsEmpty() && !Later(Front(), p))
        {
            return; // the run has not passed its position
        }
        const Event ev = p.ev;
        uint64_t* out = p.settledTie;
        std::pop_heap(m_pending.begin(), m_pending.end(), Later<Pending, Pending>);
        m_pending.pop_back();
        const uint64_t tie = Mark();
        if (out != nullptr && !ev.impl->IsCancelled())
        {
            *out = tie;
        }
        Push(MakeEntry(ev, tie));
    }
}

void
NiccScheduler::Insert(const Event& ev)
{
    if (m_fromTie != 0)
    {
        m_pending.push_back(Pending{m_fromTs, m_fromTie, ev, m_fromSettledTie});
        m_fromSettledTie = nullptr;
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
    s_active = this; // in use: the simulator inserts into it
    Entry e = MakeEntry(ev, tie);
    e.hint = m_hint;
    m_hint = nullptr;
    Push(e);
}

void
NiccScheduler::DropRemoved()
{
    // Only an event of the earliest removed time stamp can be a removed one.
    while (!m_removedTs.empty() && !HeapsEmpty() && Front().ts >= m_removedTs.top())
    {
        EventImpl* impl = Front().impl;
        if (!impl->IsCancelled() || m_removed.erase(impl) == 0)
        {
            return; // not removed (a cancelled one runs, as a no-op, and counts)
        }
        m_removedTs.pop();
        PopFront();
        impl->Unref();
    }
}

Scheduler::Event
NiccScheduler::EventOf(const Entry& e)
{
    Event ev;
    ev.impl = e.impl;
    ev.key.m_ts = e.ts;
    ev.key.m_context = e.context;
    // An event run from a marked position runs under the number of the last
    // event inserted before that position: ns-3 takes an event of this time
    // stamp with a number up to the running one's for run already
    // (EventId::IsExpired, used by Cancel and IsRunning).
    // (An event inserted the usual way has its own number there.)
    ev.key.m_uid = static_cast<uint32_t>(e.tie >> kShift);
    return ev;
}

bool
NiccScheduler::IsEmpty() const
{
    auto* self = const_cast<NiccScheduler*>(this);
    self->DropRemoved();
    return HeapsEmpty() && m_pending.empty();
}

Scheduler::Event
NiccScheduler::PeekNext() const
{
    auto* self = const_cast<NiccScheduler*>(this);
    self->DropRemoved();
    self->Settle();
    NS_ASSERT(!HeapsEmpty());
    return EventOf(Front());
}

Scheduler::Event
NiccScheduler::RemoveNext()
{
    DropRemoved();
    Settle();
    NS_ASSERT(!HeapsEmpty());
    const Entry top = PopFront();
    m_currentTie = top.tie;
    m_currentTs = top.ts;
    s_running = this;
    if (!HeapsEmpty())
    {
        // A prefetch never faults: a null or stale hint costs nothing.
        const Entry& next = Front();
        __builtin_prefetch(next.impl);
        __builtin_prefetch(next.hint);
    }
    return EventOf(top);
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
    // In the heap: left there and dropped when it comes first, without
    // being run or counted (a search here would cost the heap's size). The
    // simulator cancels and releases the event after this; the scheduler
    // keeps it alive until then.
    ev.impl->Ref();
    m_removed.insert(ev.impl);
    m_removedTs.push(ev.key.m_ts);
}

} // namespace ns3
