/*
 * nicc-scheduler.h — the fabric's default event scheduler: ns-3's order
 * (time, then insertion) plus positions taken ahead of time, so that the
 * port model can leave out the events that would do nothing and still run
 * every other event in exactly the order it had (docs/scale.md, "Events per
 * packet-hop").
 *
 * ns-3 runs the events of one time stamp in the order they were inserted.
 * A port that starts a frame used to insert a transmit-complete event then,
 * at the frame's start, even when nothing would be waiting at its end. With
 * this scheduler the port takes a position instead (Mark(): after every
 * event inserted so far, before any inserted later) and inserts the event
 * only if something comes to wait for it, at the position it would have had
 * (ScheduleAt). Until then the port knows whether the frame's end has been
 * passed by comparing the running event's position (CurrentTie) with it.
 *
 * Order: (time, tie), where an inserted event's tie is its ns-3 number
 * (insertion order) shifted left by 20 bits and a marked position's tie sits
 * between the last inserted event and the next: (last << 20) | 2^19 | k, k
 * counting the marks taken since that insertion. An event inserted at a
 * marked position runs under the number of the event before it, so that
 * ns-3's test of whether an event of the same time stamp has run
 * (EventId::IsExpired, which Cancel and IsRunning use) holds for the other
 * events; its own EventId must not be asked (its owner keeps a flag).
 *
 * Two 4-ary heaps over vectors (nicc-event-heap.h): events due within
 * kFarMicroseconds of their insertion, and the others (timers of the far
 * future: retransmission, flow starts); the next event is the earlier of
 * their firsts. The first heap, which nearly every event goes through,
 * stays a few thousand entries deep on a 320-host fabric where the timers
 * alone are ten thousand.
 * Simulator::Remove leaves the event in its heap; it is dropped, unrun and
 * uncounted, when it comes first.
 *
 *   Simulator::SetScheduler(ObjectFactory("ns3::NiccScheduler"));
 *   NiccScheduler* s = NiccScheduler::Active();         // nullptr under another
 *   const uint64_t pos = s->Mark();
 *   ...
 *   s->ScheduleAt(end - Simulator::Now(), pos, MakeEvent(&Port::Done, port));
 */
#ifndef NICC_SCHEDULER_H
#define NICC_SCHEDULER_H

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief Scheduler ordering by (time, insertion) that can insert an event at
 * a position taken earlier.
 */
class NiccScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();
    NiccScheduler();
    ~NiccScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// The running simulation's scheduler if it is a NiccScheduler (the one
    /// that received the last insertion and is not yet destroyed), else nullptr.
    static NiccScheduler* Active() { return s_active; }
    /// The NiccScheduler that gave the simulator the event being run (the
    /// running simulation's, once it has run an event), else nullptr.
    static const NiccScheduler* Running() { return s_running; }
    /// The time stamp of the event being run: the simulator's Now().
    uint64_t CurrentTs() const { return m_currentTs; }

    /// A position in the order of events: after every event inserted so far
    /// and every position marked before, before any event inserted later.
    uint64_t Mark();
    /// The position of the event being run (0 before the first).
    uint64_t CurrentTie() const { return m_currentTie; }
    /// Insert `impl` to run at Now() + delay, at position `tie` (from Mark(),
    /// or the place of an event removed before it ran: InsertedTie).
    EventId ScheduleAt(const Time& delay, uint64_t tie, EventImpl* impl);
    /// Insert `impl` to run at Now() + delay as if it were inserted by an
    /// event at (`at`, `tie`) (a position from Mark(), not yet reached; the
    /// delay must reach past `at`): its place among the events of its time
    /// is settled when the run passes that position. Simulator::Remove
    /// takes it back before then without it counting as an event.
    /// Its place, once settled, is written to *settledTie if given.
    EventId ScheduleFrom(const Time& delay,
                         const Time& at,
                         uint64_t tie,
                         EventImpl* impl,
                         uint64_t* settledTie = nullptr);
    /// The next event inserted will read `p` first (its frame's packet):
    /// when it is next to run, the scheduler asks the CPU to fetch `p` and
    /// the event, while the event before it runs. A hint only: no effect on
    /// order or results. (A frame's packet was last touched a microsecond of
    /// simulated time earlier, thousands of events ago: out of the cache.)
    void SetPrefetchHint(const void* p) { m_hint = p; }
    /// The position of an event inserted the usual way (Simulator::Schedule),
    /// from its EventId's number.
    static uint64_t InsertedTie(uint32_t uid) { return uint64_t{uid} << kShift; }
    /// The run has passed position (`at`, `tie`): the running event comes
    /// after it.
    bool Passed(const Time& at, uint64_t tie) const
    {
        const Time now = s_running == this ? TimeStep(m_currentTs) : Simulator::Now();
        return now > at || (now == at && m_currentTie > tie);
    }

  private:
    static inline NiccScheduler* s_active = nullptr;
    static inline NiccScheduler* s_running = nullptr;
    static constexpr unsigned kShift = 20;
    static constexpr uint64_t kMarkBit = uint64_t{1} << (kShift - 1);
    static constexpr uint64_t kMaxMarks = kMarkBit - 1;

    /// An event: its order (ts, tie) first, then the rest of it (its ns-3
    /// number is tie >> kShift, EventOf).
    struct Entry
    {
        uint64_t ts;
        uint64_t tie;
        EventImpl* impl;
        uint32_t context;
        /// Memory the event will read first besides itself (a frame's
        /// packet: SetPrefetchHint), fetched while the event before it runs.
        const void* hint;
    };

    struct Before
    {
        bool operator()(const Entry& a, const Entry& b) const
        {
            // Bitwise, not short-circuit: no branch (nicc-event-heap.h).
            return (a.ts < b.ts) | ((a.ts == b.ts) & (a.tie < b.tie));
        }
    };
    static Entry MakeEntry(const Event& ev, uint64_t tie)
    {
        return Entry{ev.key.m_ts, tie, ev.impl, ev.key.m_context, nullptr};
    }
    /// An event this far ahead of the running one (or more) goes to m_far.
    static constexpr int kFarMicroseconds = 20;
    bool HeapsEmpty() const { return m_heap.empty() && m_far.empty(); }
    /// m_far's first comes before m_heap's.
    bool FarFirst() const;
    /// The next event of the two heaps (one must hold one).
    const Entry& Front() const;
    Entry PopFront();
    void Push(const Entry& e);
    /// Give the events whose inserting position the run has passed their
    /// place, and move them to the heap.
    void Settle();
    /// The event an entry holds, as the simulator is to run it.
    static Event EventOf(const Entry& e);
    /// Drop the removed events (Remove) that come first.
    void DropRemoved();

    /// An event inserted with ScheduleFrom: its inserting position (ts, tie).
    struct Pending
    {
        uint64_t ts;
        uint64_t tie;
        Event ev;
        uint64_t* settledTie;
    };

    std::vector<Entry> m_heap; ///< events due soon
    std::vector<Entry> m_far;  ///< events kFarMicroseconds or more ahead
    uint64_t m_farSteps;       ///< kFarMicroseconds in time steps
    std::vector<Pending> m_pending; ///< few: one per NIC at most
    std::unordered_set<const EventImpl*> m_removed; ///< removed, still in a heap
    /// Their time stamps, earliest first.
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> m_removedTs;
    uint64_t m_fromTs{0};           ///< ScheduleFrom's position for the next Insert
    uint64_t m_fromTie{0};
    uint64_t* m_fromSettledTie{nullptr};
    uint64_t m_inserted{0};    ///< ns-3 number of the last event inserted
    uint64_t m_marks{0};       ///< positions marked since that insertion
    uint64_t m_currentTie{0};  ///< position of the event being run
    uint64_t m_currentTs{0};   ///< its time stamp
    uint64_t m_forcedTie{0};   ///< the next Insert takes this position (0: none)
    const void* m_hint{nullptr}; ///< the next Insert's prefetch hint
};

/**
 * Simulator::Now(), read from the NiccScheduler when it is the one running
 * the simulation. The simulator's own Now() takes a static lookup and a
 * virtual call; the port model asks for the time several times per frame.
 * (A scheduler set in the middle of a run answers only once it has run an
 * event; until then this asks the simulator.)
 */
inline Time
NiccNow()
{
    const NiccScheduler* s = NiccScheduler::Running();
    return s != nullptr ? TimeStep(s->CurrentTs()) : Simulator::Now();
}

/// NiccNow() in nanoseconds.
inline uint64_t
NiccNowNs()
{
    return static_cast<uint64_t>(NiccNow().GetNanoSeconds());
}

} // namespace ns3

#endif // NICC_SCHEDULER_H
