/*
 * nicc-ordered-scheduler.h — an event order that does not depend on when an
 * event was inserted, so that a fabric split across MPI ranks runs exactly
 * as the same fabric in one process (docs/scale.md, "One simulation across
 * ranks").
 *
 * ns-3's schedulers order events by (time, insertion number). Under the
 * distributed simulator a frame that crosses ranks is inserted at the
 * receiving rank when the time window closes, not when it was sent, so two
 * events of the same nanosecond can swap and the runs drift apart. This
 * scheduler orders by
 *
 *   (time, class, link key, insertion number)
 *
 *   class 0  an MPI delivery (ns3::MpiReceiver's event): it only turns the
 *            frame into a class-1 arrival with its link key, at the same time;
 *   class 1  a frame's arrival at the end of a NiccChannel (NiccArrivalEvent),
 *            keyed by (channel id, direction); two arrivals of one link
 *            direction in the same nanosecond keep their send order;
 *   class 2  every other event, by insertion number.
 *
 * Arrivals thus run before anything else of their nanosecond, in link order,
 * whichever rank sent them and whenever they were inserted; every other event
 * is scheduled by a node's own events, whose order is the same in both runs.
 * With a single process the order differs from ns3::PriorityQueueScheduler's
 * only among events of the same nanosecond, which is why `scheduler=ordered`
 * (implied by mpi_ranks) is a key and not the default.
 *
 * A binary heap over a vector; Remove (a cancelled event removed by
 * Simulator::Remove) is a linear search.
 */
#ifndef NICC_ORDERED_SCHEDULER_H
#define NICC_ORDERED_SCHEDULER_H

#include "ns3/event-impl.h"
#include "ns3/packet.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class NiccChannel;

/// A frame's arrival at one end of a NiccChannel; its key orders it among
/// the arrivals of the same nanosecond under NiccOrderedScheduler.
class NiccArrivalEvent : public EventImpl
{
  public:
    NiccArrivalEvent(NiccChannel* ch, Ptr<Packet> p, uint8_t dst, uint64_t downs, uint32_t key)
        : m_ch(ch),
          m_p(p),
          m_downs(downs),
          m_key(key),
          m_dst(dst)
    {
    }

    uint32_t GetKey() const { return m_key; }

  private:
    void Notify() override;

    NiccChannel* m_ch;
    Ptr<Packet> m_p;
    uint64_t m_downs;
    uint32_t m_key;
    uint8_t m_dst;
};

/**
 * \ingroup nicc
 * \brief Scheduler ordering events by (time, class, link key, insertion).
 */
class NiccOrderedScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();
    NiccOrderedScheduler();
    ~NiccOrderedScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// The arrival key of one direction of a channel.
    static uint32_t ArrivalKey(uint32_t channelId, uint8_t dst) { return channelId * 2 + dst; }

  private:
    struct Entry
    {
        uint64_t ts;
        uint64_t order; ///< class << 32 | link key (Order())
        uint32_t uid;
        Event ev;
    };

    static bool Before(const Entry& a, const Entry& b)
    {
        if (a.ts != b.ts)
        {
            return a.ts < b.ts;
        }
        if (a.order != b.order)
        {
            return a.order < b.order;
        }
        return a.uid < b.uid;
    }
    uint64_t Order(const Event& ev) const;
    void Up(std::size_t i);
    void Down(std::size_t i);

    std::vector<Entry> m_heap;
};

} // namespace ns3

#endif // NICC_ORDERED_SCHEDULER_H
