/*
 * nicc-qp-receiver.h — the receiver side of a NiccNic: one receiver QP per
 * (source node, sender qpn), in-order delivery, out-of-order placement in a
 * bounded bitmap (selective repeat), and the control packets a receiver
 * sends: ACK, NACK and CNP (on the control class, strict priority).
 *
 * CNPs are generated here (SendCnp) when the engine's notification point
 * asks for one: the HAL backend (NiccNic) hands each DATA packet to the
 * engine (Event::RxData) between Arrive() and Place(), and its Apply() calls
 * SendCnp() on kActSendCnp. ACKs echo the INT stack (HPCC), the entropy
 * value (UDP source port) of the acknowledged packet, its ECN mark and its
 * send timestamp (RTT sample).
 *
 *   uint32_t idx = rx.Find(src, qpn, &isNew);  // new: the backend opens its engine flow
 *   bool ce = rx.Arrive(idx, h);               // counts; CE -> ECN echo of the next ACK
 *   ... engine notification point (may SendCnp(idx)) ...
 *   rx.Place(idx, h);                          // deliver / place, ACK or NACK
 *   rx.OnTrimmed(idx, h);                      // instead, for a trimmed DATA header
 *
 * A trimmed DATA packet (a switch cut its payload) is answered at once with
 * a trim NACK: type NACK, trimmed flag, psn = the trimmed PSN, aux = the
 * cumulative PSN. With selective repeat and Sack every NACK also carries
 * the 64-bit SACK bitmap of the placement window (bit i = PSN aux + 1 + i).
 *
 * Units: PSN = packet number; bytes of payload.
 */
#ifndef NICC_QP_RECEIVER_H
#define NICC_QP_RECEIVER_H

#include "nicc-net-device.h"
#include "nicc-nic-config.h"
#include "nicc-rocev2-header.h"

#include "ns3/traced-callback.h"

#include "nicc/hal/driver.h"

#include <deque>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief Receiver QPs: ACK/NACK/CNP generation, in-order delivery, placement.
 */
class NiccQpReceiver
{
  public:
    static constexpr uint32_t NO_PSN = 0xFFFFFFFFu;
    static constexpr uint32_t SR_WINDOW = NiccNicConfig::SR_WINDOW;

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
        uint32_t trimHole;  ///< go-back-N: lowest trimmed PSN not NACKed yet (NO_PSN: none)
        uint32_t sackCover; ///< Sack: holes below this PSN were reported by a NACK's bitmap
        uint32_t unacked;   ///< packets since the last ACK
        uint16_t lastPayload;
        uint16_t segPayload;
        nicc::hal::FlowId drvFlow; ///< engine flow (notification point); set by the backend
        nicc::hal::CcKind senderCc; ///< the sender's CC (DATA cc byte); set by the backend
        uint32_t creditLimit;       ///< RCCC: the grant every ACK/NACK echoes; set by the backend
        uint8_t hasCredit;          ///< creditLimit is set
        uint8_t ceSinceAck;
        uint8_t done;
    };

    /// Trace sources (owned by the NIC) the receiver fires.
    struct Traces
    {
        TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t>* deliver; ///< (src, qpn, psn, bytes)
        TracedCallback<uint32_t>* outOfOrder;                              ///< (distance)
    };

    void Init(const NiccNicConfig* cfg, uint32_t node, Ptr<NiccNetDevice> dev, Traces traces);
    void Dispose() { m_dev = nullptr; }

    /// The receiver QP of (src, qpn), made on first use (*isNew set).
    uint32_t Find(uint32_t src, uint32_t qpn, bool* isNew);
    RxQp& Qp(uint32_t idx) { return m_rx[idx]; }
    uint32_t GetNQps() const { return static_cast<uint32_t>(m_rx.size()); }

    /// A DATA packet (header removed) arrived for QP `idx`: counts it and
    /// notes a CE mark for the next ACK. Returns whether it was CE-marked.
    bool Arrive(uint32_t idx, const NiccRoceHeader& h);
    /// In-order delivery or placement of that packet, then ACK or NACK.
    void Place(uint32_t idx, const NiccRoceHeader& h);
    /// A trimmed DATA header (header removed) arrived for QP `idx`: NACK its
    /// PSN unless it is no longer missing (go-back-N: unless the gap it is
    /// part of is already NACKed and it is not the expected PSN).
    void OnTrimmed(uint32_t idx, const NiccRoceHeader& h);
    /// The engine asked for a CNP to the sender of QP `idx`.
    void SendCnp(uint32_t idx);

    /// Bytes per receiver QP: the struct and its index entry (map node).
    static uint32_t QpStateBytes();

    uint64_t GetRxDeliveredBytes() const { return m_rxDeliveredBytes; }
    uint64_t GetRxDuplicatePackets() const { return m_rxDup; }
    uint64_t GetRxOooPlaced() const { return m_rxOooPlaced; }
    uint64_t GetRxOooDiscarded() const { return m_rxOooDiscarded; }
    uint64_t GetRxDataPackets() const { return m_rxDataPackets; }
    uint64_t GetRxCePackets() const { return m_rxCe; }
    uint64_t GetAcksSent() const { return m_acksSent; }
    uint64_t GetNacksSent() const { return m_nacksSent; } ///< trim NACKs included
    uint64_t GetTrimNacksSent() const { return m_trimNacksSent; }
    uint64_t GetRxTrimmedPackets() const { return m_rxTrimmed; }
    uint64_t GetCnpsSent() const { return m_cnpsSent; }

  private:
    void DeliverInOrder(RxQp& rx, uint32_t psn, uint32_t bytes);
    /// ACK, or NACK of rcvNxt; `trimmed`: the trim NACK of data's PSN.
    void SendAck(RxQp& rx, const NiccRoceHeader& data, bool nack, bool trimmed = false);
    /// SACK bitmap of the placement window: bit i = PSN rcvNxt + 1 + i placed.
    static uint64_t SackBitmap(const RxQp& rx);
    static bool IsPlaced(const RxQp& rx, uint32_t psn);
    /// The hole at rcvNxt was NACKed already (by itself or in a SACK bitmap).
    bool HoleReported(const RxQp& rx) const;

    const NiccNicConfig* m_cfg{nullptr};
    uint32_t m_node{0};
    Ptr<NiccNetDevice> m_dev;
    Traces m_traces{};
    std::deque<RxQp> m_rx; ///< deque: references survive Find
    std::unordered_map<uint64_t, uint32_t> m_index; ///< (src << 32 | qpn) -> m_rx

    uint64_t m_rxDeliveredBytes{0};
    uint64_t m_rxDup{0};
    uint64_t m_rxOooPlaced{0};
    uint64_t m_rxOooDiscarded{0};
    uint64_t m_rxDataPackets{0};
    uint64_t m_rxCe{0};
    uint64_t m_acksSent{0};
    uint64_t m_nacksSent{0};
    uint64_t m_cnpsSent{0};
    uint64_t m_trimNacksSent{0};
    uint64_t m_rxTrimmed{0};
};

} // namespace ns3

#endif // NICC_QP_RECEIVER_H
