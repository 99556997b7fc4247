/*
 * nicc-net-device.h — the port of the nicc fabric: a point-to-point
 * NetDevice with per-priority egress queues, strict priority for class 0
 * (control: ACK/NACK/CNP) and round robin among data classes, PFC pause
 * honoured per class on transmit, and PFC frames sent ahead of everything.
 *
 * The same device serves switch ports and host NICs. Two ways to feed it:
 *   - push: Enqueue(p, cls, meta) into the device's own per-class FIFOs
 *     (switch egress queues; host control packets such as ACK/CNP);
 *   - pull: SetTxPullCallback(cb); whenever the wire is free, no pushed packet
 *     is eligible, the device calls cb(dev) and sends what it returns (or
 *     nothing for a null packet). A NIC decides per packet (pacing, QP round
 *     robin) and must only return packets of classes !IsPaused(cls); when it
 *     has work again after returning null it calls TryTransmit().
 *
 *   Ptr<NiccNetDevice> d = CreateObject<NiccNetDevice>();
 *   d->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
 *   node->AddDevice(d); d->Attach(channel);
 *   d->SetNiccReceiveCallback(MakeCallback(&MyNic::Receive, nic));
 *   d->Enqueue(ackPacket, 0);
 *
 * Units: DataRate in bit/s, sizes in bytes, queue lengths in bytes. A packet
 * occupies the wire for (GetSize() + ExtraWireBytes) * 8 / DataRate.
 * The device does no buffer admission: whoever pushes owns accounting (the
 * switch MMU is told of each departure through the egress callback).
 */
#ifndef NICC_NET_DEVICE_H
#define NICC_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/traced-callback.h"

#include "nicc-ring.h"
#include "nicc-scheduler.h"

#include <array>

namespace ns3
{

class NiccChannel;
class NiccScheduler;

/**
 * \ingroup nicc
 * \brief Lossless-fabric port: per-class queues, PFC, point-to-point link.
 */
class NiccNetDevice : public NetDevice
{
  public:
    static constexpr uint32_t MAX_CLASSES = 8; ///< 802.1p priorities
    static constexpr uint8_t CONTROL_CLASS = 0;

    /// Called for each pushed packet as it starts transmission (after it left
    /// its queue): (device, packet, class, meta given to Enqueue). The packet
    /// may be modified (ECN mark, INT stamp) before it goes on the wire.
    using EgressCallback = Callback<void, Ptr<NiccNetDevice>, Ptr<Packet>, uint8_t, uint32_t>;
    /// Called for each received non-PFC packet: (device, packet).
    using NiccReceiveCallback = Callback<void, Ptr<NiccNetDevice>, Ptr<Packet>>;
    /// Asked for the next packet when the wire is free and no pushed packet
    /// is eligible. Returns a packet (header on) or nullptr.
    using TxPullCallback = Callback<Ptr<Packet>, Ptr<NiccNetDevice>>;
    /// Asked as a frame starts (and again on TxSourceChanged): would a pull
    /// at the frame's end, `end`, return nothing and change nothing? A source
    /// that answers true must call TryTransmit or TxSourceChanged whenever
    /// that may stop being so. Without it the device always pulls at the end.
    /// The source may also arm, then, the one event that pull would arm
    /// (ScheduleFromTxEnd); if the device pulls at the end after all, it
    /// calls the TxEndTakenCallback first, and the source takes it back.
    using TxIdleCallback = Callback<bool, Ptr<NiccNetDevice>, Time>;
    using TxEndTakenCallback = Callback<void, Ptr<NiccNetDevice>>;

    /// Signature of the PfcRx / PfcTx trace sources: (class, quanta).
    typedef void (*PfcTracedCallback)(uint8_t cls, uint16_t quanta);

    static TypeId GetTypeId();
    NiccNetDevice();
    ~NiccNetDevice() override;

    bool Attach(Ptr<NiccChannel> ch);

    /// Push a packet (header already on) into class `cls`; never refuses.
    void Enqueue(Ptr<Packet> p, uint8_t cls, uint32_t meta = 0);
    /// Send a PFC frame for `cls` ahead of all queued traffic (0 = resume).
    void SendPfc(uint8_t cls, uint16_t quanta);
    /// Start a transmission if the wire is idle and something is eligible.
    void TryTransmit();

    /// True while a PFC pause received for `cls` is in force (and not
    /// ignored: SetIgnorePause).
    bool IsPaused(uint8_t cls) const
    {
        return !m_class[cls].ignorePause && NiccNow() < m_class[cls].pausedUntil;
    }
    /// True while a received pause for `cls` would be in force, ignored or not.
    bool IsPauseReceived(uint8_t cls) const { return NiccNow() < m_class[cls].pausedUntil; }
    /// PFC watchdog: transmit `cls` regardless of received pauses (they are
    /// still recorded: IsPauseReceived, GetLastPauseRxTime).
    void SetIgnorePause(uint8_t cls, bool ignore);
    bool GetIgnorePause(uint8_t cls) const { return m_class[cls].ignorePause; }
    /// When the last received pause for `cls` ends or ended (a resume frame
    /// sets it to its arrival; Time::Max while PauseUntilResume holds it).
    Time GetPausedUntil(uint8_t cls) const { return m_class[cls].pausedUntil; }
    /// Arrival time of the last XOFF (quanta > 0) for `cls`; negative if none.
    Time GetLastPauseRxTime(uint8_t cls) const { return m_pfc[cls].lastRx; }
    /// Start of the pause in force for `cls` (the XOFF that paused it).
    Time GetPauseStart(uint8_t cls) const { return m_pfc[cls].start; }
    /// Last time a pushed packet of `cls` started transmission (negative: never).
    Time GetLastClassTxTime(uint8_t cls) const { return m_tx[cls].last; }
    /// Packets of `cls` that started transmission (pushed queues only).
    uint64_t GetClassTxPackets(uint8_t cls) const { return m_tx[cls].packets; }
    /// Remove every queued packet of `cls` and hand each (packet, meta) to
    /// `cb` (PFC watchdog drop). Returns the packets removed.
    uint32_t FlushQueue(uint8_t cls, Callback<void, Ptr<Packet>, uint32_t> cb);
    /// Ingress port (meta & mask) of up to `max` queued packets of `cls`
    /// from the head, for dependency scans; returns how many were written.
    uint32_t PeekQueueMeta(uint8_t cls, uint32_t* metas, uint32_t max) const;
    /// Attribute PauseUntilResume: an XOFF holds until XON, its quanta ignored.
    bool GetPauseUntilResume() const { return m_pauseUntilResume; }
    uint64_t GetQueueBytes(uint8_t cls) const { return m_class[cls].queueBytes; }
    uint64_t GetTotalQueueBytes() const { return m_totalQueueBytes; }
    uint32_t GetQueuePackets(uint8_t cls) const
    {
        return static_cast<uint32_t>(m_class[cls].queue.Size());
    }
    /// Bytes put on the wire so far (packets only, no ExtraWireBytes).
    uint64_t GetTxBytes() const { return m_txBytes; }
    uint64_t GetPfcPauseReceived() const { return m_pfcPauseRx; }
    uint64_t GetPfcPauseSent() const { return m_pfcPauseTx; }
    DataRate GetDataRate() const { return m_bps; }
    uint32_t GetNumClasses() const { return m_numClasses; }
    /// Propagation delay of the attached channel (zero if none).
    Time GetPropagationDelay() const;
    /// The device at the other end of the link (nullptr if none).
    Ptr<NiccNetDevice> GetPeer() const;
    /// A frame is on the wire (or is being chosen) at this point of the
    /// event order.
    bool IsTxBusy() const;
    /// Frames started so far.
    uint64_t GetTxFrames() const { return m_txFrames; }
    /// Frame `frame` (a GetTxFrames value) is on the wire, its end has no
    /// event, and the run has not reached that end.
    bool BeforeTxEnd(uint64_t frame) const;
    /// The wire will be free before `t`, as things stand: no frame on it, or
    /// the one on it (not being chosen) ends before `t`.
    bool TxFreeBefore(const Time& t) const
    {
        return !IsTxBusy() || (m_lazy != nullptr && !m_choosing && m_txEnd < t);
    }
    /// The frame on the wire (not being chosen) is still on it at position
    /// (`t`, `tie`) of the event order (NiccScheduler).
    bool TxBusyBeyond(const Time& t, uint64_t tie) const
    {
        return IsTxBusy() && m_lazy != nullptr && !m_choosing &&
               (t < m_txEnd || (t == m_txEnd && tie < m_txTie));
    }
    /// The end of the frame on the wire has its TransmitComplete event.
    bool TxEndHasEvent() const { return m_txDoneScheduled; }
    /// The pull source's answer to the TxIdleCallback may have changed.
    void TxSourceChanged();

    void SetEgressCallback(EgressCallback cb) { m_egressCb = cb; }
    void SetNiccReceiveCallback(NiccReceiveCallback cb) { m_niccRxCb = cb; }
    NiccReceiveCallback GetNiccReceiveCallback() const { return m_niccRxCb; }
    void SetTxPullCallback(TxPullCallback cb) { m_pullCb = cb; }
    void SetTxIdleCallback(TxIdleCallback cb) { m_txIdleCb = cb; }
    void SetTxEndTakenCallback(TxEndTakenCallback cb) { m_txEndTakenCb = cb; }
    /// For a TxIdleCallback answering true: schedule `impl` `delay` from now
    /// (past the frame's end) as the pull at the frame's end would have.
    /// Its place, once settled, is written to *settledTie if given.
    EventId ScheduleFromTxEnd(const Time& delay, EventImpl* impl, uint64_t* settledTie = nullptr);

    /// Called by the channel when a frame has fully arrived.
    void Receive(const Ptr<Packet>& p);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    /// Generic entry point: pushes into the class named by the packet's
    /// NiccRoceHeader priority (dest and protocol are ignored).
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    struct Item
    {
        Ptr<Packet> packet;
        uint32_t meta;
    };

    void StartTransmission(const Ptr<Packet>& p);
    Time WireTime(uint32_t bytes);
    void TransmitComplete();
    bool SomethingWaits();
    void ScheduleTransmitComplete();
    void HandlePfc(Ptr<Packet> p);
    void PauseExpired(uint8_t cls);

    // Laid out by use: what a frame's hop reads and writes comes first, in
    // two cache lines (then one line per class it uses); counters and
    // the rest follow (docs/scale.md, "Cost per packet-hop").
    // Hot: every frame sent.
    Ptr<NiccChannel> m_channel;
    /// The scheduler that lets a frame's end go without an event
    /// (NiccScheduler; nullptr: every frame schedules TransmitComplete).
    NiccScheduler* m_lazy{nullptr};
    Time m_txEnd;           ///< end of the frame on the wire
    uint64_t m_txTie{0};    ///< its TransmitComplete's position (NiccScheduler::Mark)
    uint64_t m_txFrames{0}; ///< frames started
    uint64_t m_txBytes{0};
    uint64_t m_totalQueueBytes{0};
    DataRate m_bps;        ///< Attribute DataRate
    uint64_t m_stepPs{0};  ///< picoseconds per simulator time step
    uint64_t m_carryPs{0}; ///< wire time not yet accounted (< one step)
    uint32_t m_numClasses;     ///< Attribute NumClasses
    uint32_t m_extraWireBytes; ///< Attribute ExtraWireBytes
    uint32_t m_rrNext{1};      ///< next data class to try first (round robin)
    bool m_txBusy{false};          ///< a frame was started and its end not yet handled
    bool m_choosing{false};        ///< the egress or pull callback is running
    bool m_txDoneScheduled{false}; ///< a TransmitComplete event is in the scheduler
    bool m_kickAfterPull{false};   ///< TryTransmit asked while a frame was being chosen
    NiccRing<Ptr<Packet>> m_pfcQueue;
    EgressCallback m_egressCb;
    NiccReceiveCallback m_niccRxCb;
    TxPullCallback m_pullCb;
    TxIdleCallback m_txIdleCb;
    TxEndTakenCallback m_txEndTakenCb;
    TracedCallback<Ptr<const Packet>> m_txTrace;
    TracedCallback<Ptr<const Packet>> m_rxTrace;
    /// One class's queue and pause state, together (64 bytes).
    struct ClassState
    {
        NiccRing<Item> queue; ///< no memory until the class is used
        uint64_t queueBytes{0};
        Time pausedUntil;
        bool ignorePause{false};
    };
    std::array<ClassState, MAX_CLASSES> m_class;
    static_assert(sizeof(ClassState) <= 64, "a class's hot state in one cache line");
    /// Per class: frames sent and the last one's time (16 bytes: four classes a line).
    struct ClassTx
    {
        uint64_t packets{0};
        Time last;
    };
    std::array<ClassTx, MAX_CLASSES> m_tx;

    // Cold: PFC frames, set-up.
    struct ClassPfc
    {
        EventId event; ///< the pause's expiry
        Time lastRx;   ///< last PAUSE received
        Time start;    ///< start of the pause in force
    };
    std::array<ClassPfc, MAX_CLASSES> m_pfc;
    uint64_t m_pfcPauseRx{0};
    uint64_t m_pfcPauseTx{0};
    bool m_pauseUntilResume{false}; ///< Attribute PauseUntilResume
    uint16_t m_mtu; ///< Attribute Mtu
    Ptr<Node> m_node;
    uint32_t m_ifIndex{0};
    Mac48Address m_address;
    NetDevice::ReceiveCallback m_rxCb;

    // Trace sources (Tx and Rx with the hot state: checked per frame).
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;
};

} // namespace ns3

#endif // NICC_NET_DEVICE_H
