/*
 * nicc-nic.h — the RoCEv2 NIC of the nicc fabric: queue pairs (QPs) whose
 * congestion control and path selection run in the nicc engine, hosted
 * through the HAL driver (nicc::hal::Driver<NiccNic, MAX_FLOWS>; this class
 * is the driver's backend and implements Apply()).
 *
 * Sender: one QP per flow (one message of `bytes`). Per-QP pacing at the
 * engine's rate, window enforcement for HPCC (bytes in flight <= window),
 * fair round robin among ready QPs (a FIFO of ready QPs plus a min-heap of
 * paced QPs keyed by their next send time: O(log n) per packet, no scan),
 * retransmission timeout, go-back-N or selective repeat.
 * Receiver: ACK every AckInterval packets (and on the last packet, a gap or a
 * duplicate), NACK on a gap, out-of-order placement in a bounded bitmap
 * (selective repeat), CNPs from the engine's notification point; ACK, NACK
 * and CNP go out on the control class (strict priority). ACKs echo the INT
 * stack (HPCC), the entropy value (UDP source port) of the acknowledged
 * packet, its ECN mark and its send timestamp (RTT sample).
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
#include "nicc-rocev2-header.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include "nicc/hal/backend.h"
#include "nicc/hal/driver.h"

#include <deque>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
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
    /// Driver flow-table capacity per NIC: sender QPs plus receiver flows
    /// (each needs a notification-point slot). 144 B per slot.
    static constexpr uint32_t MAX_FLOWS = 1024;
    /// Selective-repeat placement window in packets (bitmap bits per
    /// receiver QP); packets further ahead are dropped and recovered.
    static constexpr uint32_t SR_WINDOW = 256;
    static constexpr uint8_t OP_LAST = 1;     ///< DATA opFlags: last packet
    static constexpr uint8_t OP_ECN_ECHO = 1; ///< ACK opFlags: CE seen

    enum Recovery : uint8_t
    {
        GO_BACK_N = 0,
        SELECTIVE_REPEAT = 1,
    };

    typedef void (*FlowCompleteTracedCallback)(uint32_t flowId, uint32_t qpn, uint64_t bytes, Time fct);
    typedef void (*QpValueTracedCallback)(uint32_t qpn, uint32_t value);
    typedef void (*DeliverTracedCallback)(uint32_t src, uint32_t qpn, uint32_t psn, uint32_t bytes);
    /// OutOfOrder: a DATA packet arrived `distance` packets ahead of the expected PSN.
    typedef void (*OutOfOrderTracedCallback)(uint32_t distance);

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

    /// HAL backend: carry out an engine action for driver flow `flow`.
    void Apply(nicc::hal::FlowId flow, const nicc::Action& action);

    // Per-QP state (sender side).
    uint32_t GetNQps() const { return static_cast<uint32_t>(m_tx.size()); }
    uint64_t GetQpAckedBytes(uint32_t qpn) const;
    uint64_t GetQpSize(uint32_t qpn) const { return m_tx[qpn].sizeBytes; }
    uint32_t GetQpRateKbps(uint32_t qpn) const { return m_tx[qpn].rateKbps; }
    uint32_t GetQpWindowBytes(uint32_t qpn) const { return m_tx[qpn].windowBytes; }
    bool IsQpDone(uint32_t qpn) const { return m_tx[qpn].done; }
    /// Completion time (last byte acknowledged); zero while not done.
    Time GetQpFinishTime(uint32_t qpn) const { return NanoSeconds(m_tx[qpn].finishNs); }
    Time GetQpStartTime(uint32_t qpn) const { return NanoSeconds(m_tx[qpn].startNs); }
    uint32_t GetQpFlowId(uint32_t qpn) const { return m_tx[qpn].flowId; }
    uint32_t GetQpDst(uint32_t qpn) const { return m_tx[qpn].dst; }

    // Counters (payload bytes; packets).
    uint64_t GetTxDataBytes() const { return m_txDataBytes; }   ///< incl. retransmissions
    uint64_t GetTxDataPackets() const { return m_txDataPackets; }
    uint64_t GetRetxBytes() const { return m_retxBytes; }
    uint64_t GetRetxPackets() const { return m_retxPackets; }
    uint64_t GetRxDeliveredBytes() const { return m_rxDeliveredBytes; } ///< in order, once
    uint64_t GetRxDuplicatePackets() const { return m_rxDup; }
    uint64_t GetRxOooPlaced() const { return m_rxOooPlaced; }     ///< SR bitmap placements
    uint64_t GetRxOooDiscarded() const { return m_rxOooDiscarded; } ///< GBN / past the bitmap
    uint64_t GetRxDataPackets() const { return m_rxDataPackets; } ///< every DATA packet received
    uint64_t GetRxCePackets() const { return m_rxCe; }
    uint64_t GetAcksSent() const { return m_acksSent; }
    uint64_t GetNacksSent() const { return m_nacksSent; }
    uint64_t GetCnpsSent() const { return m_cnpsSent; }
    uint64_t GetCnpsReceived() const { return m_cnpsReceived; }
    uint64_t GetTimeouts() const { return m_timeouts; }
    const nicc::hal::DriverConfig& GetDriverConfig() const { return m_cfg; }

    /// Bytes of NIC state per sender QP and per receiver flow (struct sizes,
    /// driver slot included; the receiver map entry is counted as its node).
    static uint32_t TxQpStateBytes();
    static uint32_t RxQpStateBytes();

  protected:
    void DoDispose() override;

  private:
    static constexpr uint32_t NO_PSN = 0xFFFFFFFFu;
    static constexpr uint32_t RX_FLAG = 0x80000000u; ///< m_flowOwner: receiver flow

    enum Where : uint8_t
    {
        IDLE = 0,   ///< in no queue (no data, window closed, or done)
        READY = 1,  ///< in m_ready
        PACED = 2,  ///< in m_paced (waiting for its send time)
        SENDING = 3 ///< being built by Pull (not re-queued by actions)
    };

    struct TxQp
    {
        uint64_t sizeBytes;
        uint64_t startNs;
        uint64_t finishNs;
        uint64_t nextTxPs;     ///< pacing: earliest start of the next packet
        uint64_t lastTxPs;     ///< pacing reference of the last packet sent
        uint64_t rtoDeadlineNs; ///< lazy RTO: the event re-arms until this
        uint32_t flowId;
        uint32_t dst;
        uint32_t npkts;   ///< packets in the message
        uint32_t sndUna;  ///< oldest unacknowledged PSN
        uint32_t sndNxt;  ///< next new (or go-back-N) PSN
        uint32_t sndMax;  ///< one past the highest PSN ever sent
        uint32_t retxPsn; ///< selective repeat: PSN to resend first
        uint32_t rateKbps;
        uint32_t windowBytes; ///< 0 = no window
        uint32_t lastTxBytes; ///< wire bytes of the last packet sent
        uint16_t salt;        ///< XORed into the engine's EV: per-QP ports
        uint16_t lastEv;      ///< engine EV of the last packet sent
        uint16_t forcedEv;    ///< kActUseEv for the next packet; 0 = none
        uint16_t intEv;       ///< IntProbeSinglePath: the EV whose ACKs feed HPCC
        uint8_t intEvSet;
        nicc::hal::FlowId drvFlow;
        uint8_t where;
        uint8_t done;
        uint8_t started;
        EventId timer; ///< the engine's per-flow timer
        EventId rto;
    };

    struct RxQp
    {
        uint64_t deliveredBytes;
        uint64_t bitmap[SR_WINDOW / 64]; ///< bit (psn % SR_WINDOW): placed
        uint32_t src;
        uint32_t qpn;
        uint32_t rcvNxt;    ///< next in-order PSN expected
        uint32_t rcvHigh;   ///< one past the highest PSN received
        uint32_t nackedPsn; ///< rcvNxt already NACKed (NO_PSN: none)
        uint32_t lastPsn;   ///< PSN of the message's last packet (NO_PSN: unknown)
        uint32_t unacked;   ///< packets since the last ACK
        uint16_t lastPayload;
        uint16_t segPayload;
        nicc::hal::FlowId drvFlow;
        uint8_t ceSinceAck;
        uint8_t done;
    };

    // Sender.
    void StartQp(uint32_t qpn);
    Ptr<Packet> Pull(Ptr<NiccNetDevice> dev);
    Ptr<Packet> BuildData(uint32_t qpn);
    bool HasData(const TxQp& qp) const;
    bool WindowOpen(const TxQp& qp, uint32_t payload) const;
    uint32_t Payload(const TxQp& qp, uint32_t psn) const;
    uint32_t SeqBytes(const TxQp& qp, uint32_t psn) const;
    void Requeue(uint32_t qpn);
    void MakeSendable(uint32_t qpn);
    void Kick();
    void ArmWake(uint64_t atPs);
    void Wake();
    void OnAck(const NiccRoceHeader& h, bool nack);
    void OnCnp(const NiccRoceHeader& h);
    void OnQpTimer(uint32_t qpn);
    void ArmRto(TxQp& qp, uint32_t qpn);
    void OnRto(uint32_t qpn);
    void Complete(uint32_t qpn);
    // Receiver.
    void Receive(Ptr<NiccNetDevice> dev, Ptr<Packet> p);
    void OnData(Ptr<Packet> p);
    RxQp* FindOrOpenRx(uint32_t src, uint32_t qpn, uint32_t* index);
    void DeliverInOrder(RxQp& rx, uint32_t psn, uint32_t bytes);
    void SendAck(RxQp& rx, const NiccRoceHeader& data, bool nack);
    void SendCnp(const RxQp& rx, uint16_t sport);

    uint64_t NowNs() const { return static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()); }

    // Attributes.
    std::string m_ccName;
    std::string m_sprayName;
    uint32_t m_evBits;
    std::string m_dcqcnProfile;
    int64_t m_dcqcnTimeResetUs;
    int64_t m_dcqcnByteReset;
    int64_t m_dcqcnAiMbps;
    int64_t m_dcqcnHaiMbps;
    int64_t m_dcqcnThreshold;
    int64_t m_dcqcnCnpIntervalUs;
    int64_t m_dcqcnMonitorUs;
    int64_t m_dcqcnG1024;
    std::string m_hpccProfile;
    Time m_hpccBaseRtt;
    int64_t m_hpccEtaPpm;
    int64_t m_hpccMaxStage;
    int64_t m_hpccWaiBytes;
    bool m_ecnRule;
    Time m_ecnRuleLowDelay;
    uint32_t m_ackInterval;
    Recovery m_recovery;
    Time m_rto;
    uint8_t m_dataPriority;
    bool m_ect;
    uint8_t m_intMultLog2;
    uint32_t m_payloadAttr;
    bool m_intProbeSinglePath;
    uint32_t m_srNackThreshold;

    // Engine.
    nicc::hal::DriverConfig m_cfg{};
    std::unique_ptr<nicc::hal::Driver<NiccNic, MAX_FLOWS>> m_drv;
    std::vector<uint32_t> m_flowOwner; ///< driver FlowId -> qpn or RX_FLAG|rx index
    bool m_intOn{false};

    // Sender state.
    Ptr<NiccNetDevice> m_dev;
    uint32_t m_node{0};
    uint32_t m_seg{1024}; ///< payload bytes per full packet
    std::deque<TxQp> m_tx; ///< deque: references survive AddFlow
    std::deque<uint32_t> m_ready;
    using PacedEntry = std::pair<uint64_t, uint32_t>; ///< (nextTxPs, qpn)
    std::priority_queue<PacedEntry, std::vector<PacedEntry>, std::greater<PacedEntry>> m_paced;
    EventId m_wake;
    uint64_t m_wakeNs{0};
    bool m_inPull{false};

    // Receiver state.
    std::deque<RxQp> m_rx;
    std::unordered_map<uint64_t, uint32_t> m_rxIndex; ///< (src << 32 | qpn) -> m_rx

    // Counters.
    uint64_t m_txDataBytes{0};
    uint64_t m_txDataPackets{0};
    uint64_t m_retxBytes{0};
    uint64_t m_retxPackets{0};
    uint64_t m_rxDeliveredBytes{0};
    uint64_t m_rxDup{0};
    uint64_t m_rxOooPlaced{0};
    uint64_t m_rxOooDiscarded{0};
    uint64_t m_rxDataPackets{0};
    uint64_t m_rxCe{0};
    uint64_t m_acksSent{0};
    uint64_t m_nacksSent{0};
    uint64_t m_cnpsSent{0};
    uint64_t m_cnpsReceived{0};
    uint64_t m_timeouts{0};

    // Trace sources.
    TracedCallback<uint32_t, uint32_t, uint64_t, Time> m_flowCompleteTrace;
    TracedCallback<uint32_t, uint32_t> m_rateTrace;
    TracedCallback<uint32_t, uint32_t> m_windowTrace;
    TracedCallback<uint32_t, uint32_t> m_retxTrace;
    TracedCallback<uint32_t, uint32_t> m_timeoutTrace;
    TracedCallback<uint32_t, uint32_t> m_cnpRxTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t> m_deliverTrace;
    TracedCallback<uint32_t> m_outOfOrderTrace;
};

} // namespace ns3

#endif // NICC_NIC_H
