/*
 * nicc-qp-scheduler.h — the NIC's transmit scheduler and pacer: which sender
 * QP sends the next DATA packet, and when.
 *
 * A FIFO of ready QPs plus a min-heap of paced QPs keyed by their next send
 * time (picoseconds): round robin among ready QPs, O(log n) per packet, no
 * scan. One wake event is armed at the heap's earliest time when a pull finds
 * nothing due. The scheduler knows nothing of sequence numbers or the
 * engine: it asks its Source whether a QP can send, and a QP that may have
 * become sendable says so with MakeSendable().
 *
 *   NiccQpScheduler s;
 *   s.Init(&sender, device);          // sender implements NiccQpScheduler::Source
 *   s.AddQp(); s.Start(qpn, rateKbps); s.MakeSendable(qpn);
 *   // device pull:
 *   uint32_t qpn = s.NextToSend();    // NONE: nothing due (a wake is armed)
 *   ... build the packet ...; s.Sent(qpn, wireBytes);
 *
 * Units: picoseconds (send times), kb/s (rates), wire bytes.
 */
#ifndef NICC_QP_SCHEDULER_H
#define NICC_QP_SCHEDULER_H

#include "nicc-net-device.h"

#include "ns3/event-id.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief Round robin among ready QPs with per-QP pacing at the engine's rate.
 */
class NiccQpScheduler
{
  public:
    static constexpr uint32_t NONE = 0xFFFFFFFFu;

    /// What the scheduler asks of the QPs it serves (the sender answers).
    class Source
    {
      public:
        virtual ~Source() = default;
        /// The QP has a packet to send and its window lets it out.
        virtual bool CanSend(uint32_t qpn) const = 0;
    };

    void Init(Source* source, Ptr<NiccNetDevice> dev);
    void Dispose();

    /// One more QP (numbered in order from 0), idle.
    void AddQp();
    /// The QP starts now at `rateKbps`; its first packet is due at once.
    void Start(uint32_t qpn, uint32_t rateKbps);
    /// A QP that may have become sendable (data, window, a resend): queue it
    /// if it is idle and kick the device. No effect on a queued QP.
    void MakeSendable(uint32_t qpn);
    /// The engine set a QP's rate: its next send time is re-keyed to one
    /// packet time at the new rate after its last packet (never before now).
    void SetRate(uint32_t qpn, uint32_t rateKbps);
    uint32_t GetRateKbps(uint32_t qpn) const { return m_qp[qpn].rateKbps; }
    /// Earliest start of the QP's next packet (ps).
    uint64_t GetNextTxPs(uint32_t qpn) const { return m_qp[qpn].nextTxPs; }

    /// Device pull: the QP that sends now (held until Sent()), or NONE when
    /// nothing is due (the wake is armed at the earliest paced QP).
    uint32_t NextToSend();
    /// The packet of NextToSend()'s QP is built: pace the QP's next packet
    /// `wireBytes` at its rate after this one and queue it again.
    void Sent(uint32_t qpn, uint32_t wireBytes);

    /// Would NextToSend() at `end` (a time not before now) return NONE and
    /// change nothing, as things stand? (The device then lets the end of
    /// its frame go without a pull; every change that could alter the
    /// answer goes through Kick, which tells the device.)
    /// If the answer is yes and no wake is armed, arms the wake that pull
    /// would arm (NiccNetDevice::ScheduleFromTxEnd), taken back by any change
    /// before the frame's end or by TxEndTaken.
    bool IdleAt(Time end);
    /// The device pulls at its frame's end after all: take back the wake
    /// IdleAt armed for it.
    void TxEndTaken(Ptr<NiccNetDevice> dev);
    /// Anything about to read or change the pacer's state calls this first:
    /// what was done ahead of its place (a wake armed for a frame's end, a
    /// stale wake's work) is taken back if that place is still to come.
    void Rewind();
    /// The device class whose received pause stops the pull (default 1).
    void SetPauseClass(uint8_t cls) { m_pauseClass = cls; }

    /// Bytes of scheduler state per QP.
    static uint32_t QpStateBytes() { return sizeof(Pace); }

  private:
    enum Where : uint8_t
    {
        IDLE = 0,   ///< in no queue (no data, window closed, or done)
        READY = 1,  ///< in m_ready
        PACED = 2,  ///< in m_paced (waiting for its send time)
        SENDING = 3 ///< between NextToSend and Sent (not re-queued meanwhile)
    };

    struct Pace
    {
        uint64_t nextTxPs; ///< earliest start of the next packet
        uint64_t lastTxPs; ///< pacing reference of the last packet sent
        uint32_t rateKbps;
        uint32_t lastTxBytes; ///< wire bytes of the last packet sent
        uint8_t where;
    };

    void Requeue(uint32_t qpn);
    void Kick();
    void ArmWake(uint64_t atPs);
    void CancelWake();
    void Unarm();
    void RunStaleWakeAhead();
    void RunBusyWakeAhead(bool endHasEvent);
    void Wake();

    Source* m_source{nullptr};
    Ptr<NiccNetDevice> m_dev;
    std::deque<Pace> m_qp;
    std::deque<uint32_t> m_ready;
    using PacedEntry = std::pair<uint64_t, uint32_t>; ///< (nextTxPs, qpn)
    std::priority_queue<PacedEntry, std::vector<PacedEntry>, std::greater<PacedEntry>> m_paced;
    EventId m_wake;
    bool m_wakeArmed{false}; ///< m_wake is pending (not asked of the EventId: see CancelWake)
    uint64_t m_wakeTie{0};   ///< its place when inserted the usual way or put back (else 0)
    bool m_wakeNormal{false}; ///< inserted the usual way: its ns-3 number is its place
    uint8_t m_pauseClass{1};
    bool m_ahead{false};      ///< a stale wake's work was done ahead (RunStaleWakeAhead)
    uint64_t m_aheadNs{0};    ///< that wake's time
    uint64_t m_aheadTie{0};   ///< and place
    std::vector<std::pair<uint64_t, uint32_t>> m_aheadStale; ///< the stale entries it dropped
    uint64_t m_wakeNs{0};
    bool m_preArmed{false};      ///< m_wake was armed by IdleAt, ahead of the frame's end
    uint64_t m_preArmFrame{0};   ///< the device's frame it was armed for
    uint64_t m_preArmWakeNs{0};  ///< m_wakeNs before
    bool m_inPull{false};
};

} // namespace ns3

#endif // NICC_QP_SCHEDULER_H
