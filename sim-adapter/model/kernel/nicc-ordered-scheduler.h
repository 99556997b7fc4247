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
 *   (time, class, link key, send number or insertion number)
 *
 *   class 0  an MPI delivery (ns3::MpiReceiver's event): it only turns the
 *            frame into a class-1 arrival with its link key, at the same time;
 *   class 1  a frame's arrival at the end of a NiccChannel (NiccArrivalEvent),
 *            keyed by (channel id, direction), then by the frame's send
 *            number on that direction (two frames can land in the same
 *            nanosecond: a 32-byte ACK takes 0.64 ns at 400 Gb/s, rounded
 *            to 0; MPI may hand them over in either order);
 *   class 2  a notice (NiccNoticeEvent): a model's own message to every
 *            rank, e.g. a collective flow's end, keyed by its number (the
 *            flow id), so that notices of one nanosecond run in one order
 *            whichever rank posted them;
 *   class 3  every other event, by insertion number.
 *
 * Arrivals thus run before anything else of their nanosecond, in link order,
 * whichever rank sent them and whenever they were inserted; every other event
 * is scheduled by a node's own events, whose order is the same in both runs.
 * With a single process the order differs from ns3::PriorityQueueScheduler's
 * only among events of the same nanosecond, which is why `scheduler=ordered`
 * (implied by mpi_ranks) is a key and not the default.
 *
 * A 4-ary heap over a vector (nicc-event-heap.h); Remove (a cancelled
 * event removed by Simulator::Remove) is a linear search.
 */
#ifndef NICC_ORDERED_SCHEDULER_H
#define NICC_ORDERED_SCHEDULER_H

#include "ns3/event-impl.h"
#include "ns3/packet.h"
#include "ns3/scheduler.h"
#include "ns3/tag.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ns3
{

class NiccChannel;

/// A frame's arrival at one end of a NiccChannel; its key orders it among
/// the arrivals of the same nanosecond under NiccOrderedScheduler.
class NiccArrivalEvent : public EventImpl
{
  public:
    /// `chained`: this event holds the link direction's place in the
    /// scheduler (NiccChannel's FIFO under NiccScheduler); when it runs, the
    /// next frame waiting there takes it.
    NiccArrivalEvent(NiccChannel* ch,
                     const Ptr<Packet>& p,
                     uint8_t dst,
                     uint64_t downs,
                     uint32_t key,
                     uint64_t seq,
                     bool chained = false)
        : NiccArrivalEvent(ch, Adopt{Acquire(p)}, dst, downs, key, seq, chained)
    {
    }
    /// The same, taking over a reference the caller holds on `p` (no
    /// reference-count change: the packet's memory is not touched).
    struct Adopt
    {
        Packet* p;
    };
    NiccArrivalEvent(NiccChannel* ch,
                     Adopt p,
                     uint8_t dst,
                     uint64_t downs,
                     uint32_t key,
                     uint64_t seq,
                     bool chained)
        : m_ch(ch),
          m_p(p.p, false),
          m_downs(downs),
          m_seq(seq),
          m_key(key),
          m_dst(dst),
          m_chained(chained)
    {
    }

    uint32_t GetKey() const { return m_key; }
    uint64_t GetSeq() const { return m_seq; }

    /// One is made and freed per frame and hop: freed ones are kept for
    /// reuse instead of going back to malloc (not under AddressSanitizer,
    /// which must see every allocation).
    static void* operator new(std::size_t size);
    static void operator delete(void* p, std::size_t size);

  private:
    /// A reference of the event's own on `p` (none for a null packet).
    static Packet* Acquire(const Ptr<Packet>& p)
    {
        if (p)
        {
            p->Ref();
        }
        return PeekPointer(p);
    }

    void Notify() override;

    NiccChannel* m_ch;
    Ptr<Packet> m_p;
    uint64_t m_downs;
    uint64_t m_seq;
    uint32_t m_key;
    uint8_t m_dst;
    bool m_chained;
};

/// A model's notice to every rank (NiccMpi::Post): runs `fn` at its time,
/// ordered among the notices of that nanosecond by `key`.
class NiccNoticeEvent final : public EventImpl
{
  public:
    NiccNoticeEvent(uint64_t key, std::function<void()> fn)
        : m_key(key),
          m_fn(std::move(fn))
    {
    }

    uint64_t GetKey() const { return m_key; }

  private:
    void Notify() override { m_fn(); }

    uint64_t m_key;
    std::function<void()> m_fn;
};

/// A frame's send number on its link direction and the link's down count
/// when it was sent, carried to another MPI rank with the frame (a packet
/// tag: no wire bytes).
class NiccSeqTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint64_t seq{0};
    uint64_t downs{0};
};

/**
 * \ingroup nicc
 * \brief Scheduler ordering events by (time, class, link key, send number
 * or insertion).
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
        uint64_t tie;   ///< arrivals: send number on the link; others: insertion number
        Event ev;
    };

    struct Before
    {
        bool operator()(const Entry& a, const Entry& b) const
        {
            if (a.ts != b.ts)
            {
                return a.ts < b.ts;
            }
            if (a.order != b.order)
            {
                return a.order < b.order;
            }
            return a.tie < b.tie;
        }
    };
    Entry Make(const Event& ev) const;

    std::vector<Entry> m_heap;
};

} // namespace ns3

#endif // NICC_ORDERED_SCHEDULER_H
