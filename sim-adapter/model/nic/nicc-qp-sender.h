/*
 * nicc-qp-sender.h — the sender QPs of a NiccNic: one message per QP, DATA
 * packet construction, the windows (the engine's for HPCC, NSCC and RCCC;
 * the HPCC simulator's BDP window on top of DCQCN's rate), and loss
 * recovery (go-back-N or selective repeat, a lazy retransmission timeout
 * per QP).
 *
 * The sender does not talk to the engine: the HAL backend above it (NiccNic)
 * picks each packet's entropy value, hands the engine the events the sender
 * prepares (Ack/Nack in OnAck, TxDone after BuildData) and is told of a
 * timeout through a callback. The sender tells the scheduler below it that a
 * QP may send (NiccQpScheduler::MakeSendable) and answers its CanSend().
 *
 *   NiccQpSender tx;
 *   tx.Init(&config, lineMbps, node, payloadBytes, evBits, &scheduler, traces, onTimeout);
 *   uint32_t qpn = tx.AddQp(flowId, dst, bytes, nicc::hal::CcKind::kHpcc);
 *   tx.Start(qpn, driverFlow, windowBytes);
 *   Ptr<Packet> p = tx.BuildData(qpn, ev);        // in the device pull
 *   nicc::hal::Event e; if (tx.OnAck(h, nack, &e)) ...deliver e...;
 *
 * Selective repeat keeps the PSNs to resend in a set over the placement
 * window (bit psn % SR_WINDOW, valid for sndUna <= psn < sndMax): a gap
 * NACK adds its cumulative PSN and, with a SACK bitmap (Sack), every hole
 * below the bitmap's highest bit; a trim NACK adds its trimmed PSN only. A PSN resent once is not resent
 * again for a gap or a SACK hole (it may still be in flight), only for a
 * trim NACK (that copy was trimmed) or a timeout.
 *
 * Sequence numbers: PSN = packet number from 0 (32-bit: at most 2^32 - 2
 * packets per message); byte offsets psn * payload, capped at the message
 * size, are 64-bit (messages above 4 GiB); the engine sees their low 32 bits
 * and compares them wrap-safely. Time: ns.
 */
#ifndef NICC_QP_SENDER_H
#define NICC_QP_SENDER_H

#include "nicc-nic-config.h"
#include "nicc-qp-scheduler.h"
#include "nicc-rocev2-header.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include "nicc/hal/driver.h"
#include "nicc/int_codec.h"

#include <deque>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief Sender QPs: DATA packets, window, GBN/SR loss recovery, RTO.
 */
class NiccQpSender : public NiccQpScheduler::Source
{
  public:
    static constexpr uint32_t NO_PSN = 0xFFFFFFFFu;

    struct TxQp
    {
        uint64_t sizeBytes;
        uint64_t startNs;
        uint64_t finishNs;
        uint64_t rtoDeadlineNs; ///< lazy RTO: the event re-arms until this
        uint32_t flowId;
        uint32_t dst;
        uint32_t npkts;   ///< packets in the message
        uint32_t sndUna;  ///< oldest unacknowledged PSN
        uint32_t sndNxt;  ///< next new (or go-back-N) PSN
        uint32_t sndMax;  ///< one past the highest PSN ever sent
        uint64_t retxPending[NiccNicConfig::SR_WINDOW / 64]; ///< SR: PSNs to resend
        uint64_t retxSent[NiccNicConfig::SR_WINDOW / 64];    ///< SR: PSNs resent since the RTO
        uint32_t retxCount; ///< bits set in retxPending
        uint32_t windowBytes; ///< bytes in flight allowed, when windowed
        uint8_t windowed;     ///< the QP's CC sets a window (0 is then closed)
        uint16_t salt;        ///< XORed into the engine's EV: per-QP ports
        uint16_t lastEv;      ///< engine EV of the last packet sent
        uint16_t forcedEv;    ///< kActUseEv for the next packet; 0 = none
        uint16_t intEv;       ///< IntProbeSinglePath: the EV whose ACKs feed HPCC
        uint8_t intEvSet;
        nicc::hal::FlowId drvFlow;
        nicc::hal::CcKind cc; ///< the QP's congestion control (its flow's)
        uint8_t done;
        uint8_t started;
        /// DCQCN's BDP window (the HPCC simulator's HAS_WIN, its m_win);
        /// 0 = none. In the padding before `timer`: TxQp stays 200 bytes.
        uint32_t dcqcnWindowBytes;
        EventId timer; ///< the engine's per-flow timer (armed by the backend)
        EventId rto;
    };

    /// Trace sources (owned by the NIC) the sender fires.
    struct Traces
    {
        TracedCallback<uint32_t, uint32_t>* retx;    ///< (qpn, psn)
        TracedCallback<uint32_t, uint32_t>* timeout; ///< (qpn, snd_una)
    };

    /// A QP's retransmission timer expired: (qpn, EV of its last packet).
    /// The backend hands the engine Event::Timeout before the QP goes back.
    typedef Callback<void, uint32_t, uint16_t> TimeoutCallback;

    /// `lineMbps`: the port's rate (the DCQCN window's VAR_WIN scale).
    void Init(const NiccNicConfig* cfg,
              uint32_t lineMbps,
              uint32_t node,
              uint32_t seg,
              uint32_t evBits,
              NiccQpScheduler* sched,
              Traces traces,
              TimeoutCallback onTimeout);
    void Dispose();
    /// What a QP's CC needs on the wire: its DATA packets carry an empty
    /// INT stack for the switches to stamp (hpcc, hpcc-spray), or a PINT
    /// code (hpcc-pint). Sprayed HPCC keeps one INT history per entropy
    /// value, so every ACK's stack goes to the engine with its EV and
    /// IntProbeSinglePath does not apply to it.
    static bool UsesInt(nicc::hal::CcKind cc)
    {
        return cc == nicc::hal::CcKind::kHpcc || cc == nicc::hal::CcKind::kHpccSpray;
    }
    static bool UsesPint(nicc::hal::CcKind cc) { return cc == nicc::hal::CcKind::kHpccPint; }
    static bool IntPerEntropy(nicc::hal::CcKind cc) { return cc == nicc::hal::CcKind::kHpccSpray; }

    /// A new QP with a message of `bytes` to `dst` under CC `cc`; not
    /// started. Returns its qpn.
    uint32_t AddQp(uint32_t flowId, uint32_t dst, uint64_t bytes, nicc::hal::CcKind cc);
    /// Spray seed of the QP's engine flow: a hash of (node, qpn).
    uint32_t Seed(uint32_t qpn) const;
    /// The QP starts sending now with engine flow `f` and window
    /// `windowBytes` (its start time, TxQp::startNs, is the backend's: the
    /// flow's start, even when it waited for an engine flow).
    void Start(uint32_t qpn, nicc::hal::FlowId f, uint32_t windowBytes);

    /// NiccQpScheduler::Source: data to send and an open window.
    bool CanSend(uint32_t qpn) const override;

    /// A new per-QP salt (another source port for every engine EV): the
    /// NIC's own path move for NSCC's change_ev under ECMP. ACKs of packets
    /// sent before it map to EVs the engine does not use.
    void Resalt(uint32_t qpn);
    /// The EV the engine asked for with kActUseEv (0 = none), cleared.
    uint16_t TakeForcedEv(uint32_t qpn);
    /// The QP's next DATA packet on entropy value `ev` (engine index space;
    /// the QP's salt is applied here). Arms the RTO.
    Ptr<Packet> BuildData(uint32_t qpn, uint16_t ev);

    /// An ACK or NACK for one of this NIC's QPs. Returns false when it is
    /// for no running QP; else fills *e with the engine event (its INT
    /// bytes point into this object until the next call) and applies the
    /// recovery a NACK asks for.
    bool OnAck(const NiccRoceHeader& h, bool nack, nicc::hal::Event* e);
    /// Every byte acknowledged: the QP is done (timers cancelled).
    bool AllAcked(uint32_t qpn) const { return m_tx[qpn].sndUna >= m_tx[qpn].npkts; }
    void Complete(uint32_t qpn);

    bool IsRunning(uint32_t qpn) const
    {
        return qpn < m_tx.size() && !m_tx[qpn].done && m_tx[qpn].started;
    }
    uint32_t GetNQps() const { return static_cast<uint32_t>(m_tx.size()); }
    TxQp& Qp(uint32_t qpn) { return m_tx[qpn]; }
    const TxQp& Qp(uint32_t qpn) const { return m_tx[qpn]; }
    uint64_t AckedBytes(uint32_t qpn) const { return SeqBytes(m_tx[qpn], m_tx[qpn].sndUna); }
    /// Bytes sent and not yet acknowledged (go-back-N: from the rewound PSN).
    uint64_t InflightBytes(uint32_t qpn) const
    {
        return SeqBytes(m_tx[qpn], m_tx[qpn].sndNxt) - SeqBytes(m_tx[qpn], m_tx[qpn].sndUna);
    }
    /// The DCQCN window in force now: TxQp::dcqcnWindowBytes, scaled by
    /// rate / line rate with DcqcnVarWindow (at least 1); 0 = none.
    uint64_t DcqcnWindowNow(uint32_t qpn) const;

    uint64_t GetTxDataBytes() const { return m_txDataBytes; }
    uint64_t GetTxDataPackets() const { return m_txDataPackets; }
    uint64_t GetRetxBytes() const { return m_retxBytes; }
    uint64_t GetRetxPackets() const { return m_retxPackets; }
    uint64_t GetTimeouts() const { return m_timeouts; }
    uint64_t GetTrimNacksReceived() const { return m_trimNacksRx; }

  private:
    /// Selective repeat: queue `psn` for resending (if in flight; a PSN
    /// resent since the last timeout only when `trimmed`). True when queued now.
    bool MarkRetx(TxQp& qp, uint32_t psn, bool trimmed);
    /// The lowest PSN queued for resending, removed from the set.
    uint32_t TakeRetx(TxQp& qp);
    /// sndUna moved from `from`: forget the bits of PSNs now acknowledged.
    static void ForgetBelow(TxQp& qp, uint32_t from);
    static void ClearRetx(TxQp& qp);
    bool HasData(const TxQp& qp) const;
    bool WindowOpen(uint32_t qpn, uint32_t payload) const;
    uint32_t Payload(const TxQp& qp, uint32_t psn) const;
    /// Byte offset of `psn` in the message (64-bit: messages may exceed 4 GiB).
    uint64_t SeqBytes(const TxQp& qp, uint32_t psn) const;
    /// SeqBytes as the engine's wrap-safe 32-bit sequence (low 32 bits).
    uint32_t EngineSeq(const TxQp& qp, uint32_t psn) const;
    void ArmRto(TxQp& qp, uint32_t qpn);
    void OnRto(uint32_t qpn);

    const NiccNicConfig* m_cfg{nullptr};
    uint32_t m_lineMbps{0};
    uint32_t m_node{0};
    uint32_t m_seg{1024}; ///< payload bytes per full packet
    uint32_t m_evBits{0};
    NiccQpScheduler* m_sched{nullptr};
    Traces m_traces{};
    TimeoutCallback m_onTimeout;
    std::deque<TxQp> m_tx; ///< deque: references survive AddQp

    uint64_t m_txDataBytes{0};
    uint64_t m_txDataPackets{0};
    uint64_t m_retxBytes{0};
    uint64_t m_retxPackets{0};
    uint64_t m_timeouts{0};
    uint64_t m_trimNacksRx{0};
};

} // namespace ns3

#endif // NICC_QP_SENDER_H
