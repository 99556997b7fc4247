/*
 * nicc-nic.h — the RoCEv2 NIC of the nicc fabric: queue pairs (QPs) whose
 * congestion control and path selection run in the nicc engine, hosted
 * through the HAL driver (nicc::hal::Driver with separate sender and
 * receiver tables; this class is the driver's backend and implements Apply()
 * for senders and ApplyRx() for receivers).
 *
 * NiccNic is the ns-3 Object (Attributes, trace sources, counters) and the
 * HAL backend: every call into the engine (open/close a flow, deliver an
 * event, pick an entropy value) and every engine action is here. Below it,
 * each job is one class:
 *   NiccNicConfig     nicc-nic-config.h     Attributes -> engine configuration
 *   NiccQpScheduler   nicc-qp-scheduler.h   ready FIFO + paced heap, the pacer
 *   NiccQpSender      nicc-qp-sender.h      DATA, windows, GBN/SR, RTO
 *   NiccQpReceiver    nicc-qp-receiver.h    delivery, placement, ACK/NACK/CNP
 * A sender QP tells the scheduler it became sendable (MakeSendable); the
 * scheduler asks the sender whether a QP can send (CanSend); neither calls
 * back into the NIC except the sender's timeout callback.
 *
 *   Ptr<NiccNic> nic = CreateObject<NiccNic>();
 *   nic->SetAttribute("CongestionControl", StringValue("hpcc"));
 *   nic->Install(hostDevice);                  // takes the device's callbacks
 *   nic->AddFlow(/ *flowId=* /7, dstNodeId, 1000000, MicroSeconds(10));
 *   ... Simulator::Run() ... nic->GetQpFinishTime(0)
 *
 * Wire use of NiccRoceHeader fields: DATA psn = packet number (from 0),
 * aux = send time (ns, low 32 bits), opFlags bit 0 = last packet of the
 * message; ACK/NACK aux = cumulative PSN (all below received; NACK: this one
 * is missing), psn = echoed send time, sport = echoed EV, opFlags bit 0 =
 * ECN echo; CNP qpn = the sender's QP. The engine sees sequence numbers in
 * bytes (psn * payload), the NIC clock as the low 32 bits of ns.
 *
 * Units: bytes, ns, kb/s (engine rates), node ids as addresses.
 */
#ifndef NICC_NIC_H
#define NICC_NIC_H

#include "nicc-net-device.h"
#include "nicc-nic-config.h"
#include "nicc-qp-receiver.h"
#include "nicc-qp-scheduler.h"
#include "nicc-qp-sender.h"
#include "nicc-rocev2-header.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include "nicc/hal/backend.h"
#include "nicc/hal/driver.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief RoCEv2 NIC hosting the nicc engine through the HAL driver.
 */
class NiccNic : public Object
{
  public:
    /// Driver flow-table limit per NIC, for sender QPs and, separately, for
    /// receiver flows (each needs a notification-point slot). Not reserved:
    /// each table starts empty and doubles (from FIRST_SLOTS) as flows open,
    /// up to this limit.
    static constexpr uint32_t MAX_FLOWS = 1024;
    static constexpr uint32_t FIRST_SLOTS = 4;
    /// The sender slot runs any CC and spray policy (chosen by Attribute at
    /// run time); the receiver slot holds DCQCN's notification point.
    using TxSlot = nicc::hal::AnySenderSlot;
    /// The driver over this NIC's own growable slot arrays.
    using Driver = nicc::hal::BorrowedDriver<NiccNic, TxSlot>;
    /// Selective-repeat placement window in packets (bitmap bits per
    /// receiver QP); packets further ahead are dropped and recovered.
    static constexpr uint32_t SR_WINDOW = NiccNicConfig::SR_WINDOW;
    static constexpr uint8_t OP_LAST = NiccNicConfig::OP_LAST;         ///< DATA opFlags: last packet
    static constexpr uint8_t OP_ECN_ECHO = NiccNicConfig::OP_ECN_ECHO; ///< ACK opFlags: CE seen

    enum Recovery : uint8_t
    {
        GO_BACK_N = NiccNicConfig::GO_BACK_N,
        SELECTIVE_REPEAT = NiccNicConfig::SELECTIVE_REPEAT,
    };

    typedef void (*FlowCompleteTracedCallback)(uint32_t flowId, uint32_t qpn, uint64_t bytes, Time fct);
    typedef void (*QpValueTracedCallback)(uint32_t qpn, uint32_t value);
    typedef void (*DeliverTracedCallback)(uint32_t src, uint32_t qpn, uint32_t psn, uint32_t bytes);
    /// OutOfOrder: a DATA packet arrived `distance` packets ahead of the expected PSN.
    typedef void (*OutOfOrderTracedCallback)(uint32_t distance);
    /// FlowTableFull: the driver's flow table refused a flow. receiver =
    /// false: a sender QP (peer = its destination, qpn = this NIC's QP);
    /// true: a receiver flow (peer = the source node, qpn = the sender's QP).
    typedef void (*FlowTableFullTracedCallback)(bool receiver, uint32_t peer, uint32_t qpn);

    static TypeId GetTypeId();
    NiccNic();
    ~NiccNic() override;

    /// Take over `dev`'s pull and receive callbacks and compile the engine
    /// configuration from the attributes. On a bad attribute returns false
    /// with a message naming it in *error (aborts when error is null).
    bool Install(Ptr<NiccNetDevice> dev, std::string* error = nullptr);
    Ptr<NiccNetDevice> GetDevice() const { return m_dev; }

    /// A new QP sending one message of `bytes` (> 0) to node `dst`, starting
    /// at absolute time `start`. `flowId` is the caller's tag (traces,
    /// records). Returns the QP number (index on this NIC).
    uint32_t AddFlow(uint32_t flowId, uint32_t dst, uint64_t bytes, Time start);
    /// The same with the QP's own congestion control (the other form: the
    /// CongestionControl attribute's). Every algorithm is compiled in the
    /// NIC's one DriverConfig; the receiver learns the CC from the DATA
    /// header's cc byte (CNPs only to DCQCN senders, INT echoed as stamped).
    uint32_t AddFlow(uint32_t flowId, uint32_t dst, uint64_t bytes, Time start, nicc::hal::CcKind cc);

    /// DCQCN QPs to node `dst` added from now on get a window of `bytes`
    /// (the HPCC simulator's per-pair BDP, GLOBAL_T 0) instead of the
    /// DcqcnWindowBytes Attribute's; 0 = the Attribute's again.
    void SetDcqcnWindow(uint32_t dst, uint32_t bytes);

    /// HAL backend: carry out an engine action for sender flow `flow`.
    void Apply(nicc::hal::FlowId flow, const nicc::Action& action);
    /// HAL backend: carry out an engine action for receiver flow `flow` (a CNP).
    void ApplyRx(nicc::hal::FlowId flow, const nicc::Action& action);

    // Per-QP state (sender side).
    uint32_t GetNQps() const { return m_sender.GetNQps(); }
    uint64_t GetQpAckedBytes(uint32_t qpn) const { return m_sender.AckedBytes(qpn); }
    uint64_t GetQpSize(uint32_t qpn) const { return m_sender.Qp(qpn).sizeBytes; }
    uint32_t GetQpRateKbps(uint32_t qpn) const { return m_sched.GetRateKbps(qpn); }
    uint32_t GetQpWindowBytes(uint32_t qpn) const { return m_sender.Qp(qpn).windowBytes; }
    /// DCQCN's BDP window as set (0 = none) and as in force now (VAR_WIN).
    uint32_t GetQpDcqcnWindowBytes(uint32_t qpn) const { return m_sender.Qp(qpn).dcqcnWindowBytes; }
    uint64_t GetQpDcqcnWindowNow(uint32_t qpn) const { return m_sender.DcqcnWindowNow(qpn); }
    /// Payload bytes sent and not yet acknowledged.
    uint64_t GetQpInflightBytes(uint32_t qpn) const { return m_sender.InflightBytes(qpn); }
    bool IsQpDone(uint32_t qpn) const { return m_sender.Qp(qpn).done; }
    /// Completion time (last byte acknowledged); zero while not done.
    Time GetQpFinishTime(uint32_t qpn) const { return NanoSeconds(m_sender.Qp(qpn).finishNs); }
    Time GetQpStartTime(uint32_t qpn) const { return NanoSeconds(m_sender.Qp(qpn).startNs); }
    uint32_t GetQpFlowId(uint32_t qpn) const { return m_sender.Qp(qpn).flowId; }
    uint32_t GetQpDst(uint32_t qpn) const { return m_sender.Qp(qpn).dst; }
    nicc::hal::CcKind GetQpCc(uint32_t qpn) const { return m_sender.Qp(qpn).cc; }

    // Counters (payload bytes; packets).
    uint64_t GetTxDataBytes() const { return m_sender.GetTxDataBytes(); } ///< incl. retransmissions
    uint64_t GetTxDataPackets() const { return m_sender.GetTxDataPackets(); }
    uint64_t GetRetxBytes() const { return m_sender.GetRetxBytes(); }
    uint64_t GetRetxPackets() const { return m_sender.GetRetxPackets(); }
    uint64_t GetRxDeliveredBytes() const { return m_receiver.GetRxDeliveredBytes(); } ///< in order, once
    uint64_t GetRxDuplicatePackets() const { return m_receiver.GetRxDuplicatePackets(); }
    uint64_t GetRxOooPlaced() const { return m_receiver.GetRxOooPlaced(); } ///< SR bitmap placements
    uint64_t GetRxOooDiscarded() const { return m_receiver.GetRxOooDiscarded(); } ///< GBN / past the bitmap
    uint64_t GetRxDataPackets() const { return m_receiver.GetRxDataPackets(); } ///< every DATA packet received
    uint64_t GetRxCePackets() const { return m_receiver.GetRxCePackets(); }
    uint64_t GetAcksSent() const { return m_receiver.GetAcksSent(); }
    uint64_t GetNacksSent() const { return m_receiver.GetNacksSent(); } ///< trim NACKs included
    /// Receiver: NACKs that answered a trimmed DATA header (trimmed flag).
    uint64_t GetTrimNacksSent() const { return m_receiver.GetTrimNacksSent(); }
    /// Receiver: trimmed DATA headers that arrived.
    uint64_t GetRxTrimmedPackets() const { return m_receiver.GetRxTrimmedPackets(); }
    /// Sender: NACKs received that answered a trim (handed to the engine as
    /// Event::Nack(ev, /*trimmed=*/true)).
    uint64_t GetTrimNacksReceived() const { return m_sender.GetTrimNacksReceived(); }
    uint64_t GetCnpsSent() const { return m_receiver.GetCnpsSent(); }
    uint64_t GetCnpsReceived() const { return m_cnpsReceived; }
    uint64_t GetTimeouts() const { return m_sender.GetTimeouts(); }
    /// Sender: NSCC change_ev actions (ECN at low delay) the engine asked for.
    uint64_t GetEvChangeActions() const { return m_evChangeActions; }
    /// Sender: change_ev actions that moved a QP to another source port
    /// (spray=ecmp: the NIC's own EV choice; other policies move through
    /// the spray feedback the driver gives).
    uint64_t GetEvMoves() const { return m_evMoves; }
    /// Sender QPs the driver's flow table refused at their start (each
    /// waits for a free slot, FIFO with refused receiver flows, and its FCT
    /// includes the wait).
    uint64_t GetFlowTableFullTx() const { return m_flowTableFullTx; }
    /// Receiver flows the table refused at their first packet: no
    /// notification point (no CNPs) until a slot frees.
    uint64_t GetFlowTableFullRx() const { return m_flowTableFullRx; }
    const nicc::hal::DriverConfig& GetDriverConfig() const { return m_cfg; }

    /// Bytes of NIC state per sender QP and per receiver flow (struct sizes,
    /// driver slot included; the receiver map entry is counted as its node).
    static uint32_t TxQpStateBytes();
    static uint32_t RxQpStateBytes();

  protected:
    void DoDispose() override;

  private:
    static NiccNicConfig* ConfigOf(const ObjectBase* object);

    void StartQp(uint32_t qpn);
    void CloseTx(uint32_t qpn);
    Ptr<Packet> Pull(Ptr<NiccNetDevice> dev);
    /// The device's TxIdleCallback: would Pull at `end` send nothing and
    /// change nothing?
    bool TxIdleAt(Ptr<NiccNetDevice> dev, Time end);
    void Receive(Ptr<NiccNetDevice> dev, Ptr<Packet> p);
    void OnAck(const NiccRoceHeader& h, bool nack);
    void OnCnp(const NiccRoceHeader& h);
    /// A congestion signal for one of our QPs: a CNP packet, or (CnpOnAck)
    /// an ACK/NACK echoing CE.
    void DeliverCnp(uint32_t qpn);
    void OnData(Ptr<Packet> p);
    void OnQpTimer(uint32_t qpn);
    void OnQpTimeout(uint32_t qpn, uint16_t ev);
    /// NSCC change_ev: move QP `qpn` off entropy value `ev` (engine index space).
    void ChangeEv(uint32_t qpn, uint16_t ev);
    bool OpenTx(uint32_t qpn);
    bool OpenRx(uint32_t idx);
    void ServeWaiting();

    NiccNicConfig m_config; ///< Attribute values

    // Engine.
    nicc::hal::DriverConfig m_cfg{};
    /// A driver table's arrays (nicc::hal::SlotStorage), grown by use.
    template <class Slot>
    struct SlotArrays
    {
        std::vector<Slot> slots;
        std::vector<nicc::hal::FlowId> ids;
        std::vector<uint32_t> used;
        std::vector<uint32_t> owner; ///< FlowId -> qpn (sender) / receiver QP index

        /// Resizes to `n` slots (contents kept) and returns the storage.
        nicc::hal::SlotStorage<Slot> Resize(uint32_t n);
    };
    /// Room for one more flow in a full table below MAX_FLOWS: doubles it
    /// (false at the limit).
    bool GrowTx();
    bool GrowRx();

    std::unique_ptr<Driver> m_drv;
    SlotArrays<TxSlot> m_tx;
    SlotArrays<nicc::hal::ReceiverSlot> m_rx;

    Ptr<NiccNetDevice> m_dev;
    NiccQpScheduler m_sched;
    NiccQpSender m_sender;
    NiccQpReceiver m_receiver;
    uint64_t m_cnpsReceived{0};
    uint64_t m_flowTableFullTx{0};
    uint64_t m_flowTableFullRx{0};
    uint64_t m_evChangeActions{0};
    uint64_t m_evMoves{0};
    std::deque<uint32_t> m_waitingTx; ///< refused sender QPs, FIFO
    std::deque<uint32_t> m_waitingRx; ///< refused receiver flows (receiver QP index), FIFO
    std::vector<uint32_t> m_dcqcnWindowTo; ///< SetDcqcnWindow, by destination node id (0 = unset)

    // Trace sources.
    TracedCallback<uint32_t, uint32_t, uint64_t, Time> m_flowCompleteTrace;
    TracedCallback<uint32_t, uint32_t> m_rateTrace;
    TracedCallback<uint32_t, uint32_t> m_windowTrace;
    TracedCallback<uint32_t, uint32_t> m_retxTrace;
    TracedCallback<uint32_t, uint32_t> m_timeoutTrace;
    TracedCallback<uint32_t, uint32_t> m_cnpRxTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t> m_deliverTrace;
    TracedCallback<uint32_t> m_outOfOrderTrace;
    TracedCallback<bool, uint32_t, uint32_t> m_flowTableFullTrace;
};

} // namespace ns3

#endif // NICC_NIC_H
