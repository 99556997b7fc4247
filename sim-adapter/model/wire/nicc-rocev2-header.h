/*
 * nicc-rocev2-header.h — the packet headers of the nicc ns-3 fabric: a lean
 * RoCEv2-like transport header (NiccRoceHeader) optionally followed by an
 * HPCC INT stack in the engine's wire format (nicc/int_codec.h), and the PFC
 * pause frame (NiccPfcHeader).
 *
 *   NiccRoceHeader h;
 *   h.SetType(NiccRoceHeader::DATA);
 *   h.SetSrc(1); h.SetDst(7); h.SetSport(0xC123); h.SetPriority(1);
 *   h.SetEcn(NiccRoceHeader::ECT0); h.SetPsn(42); h.SetPayloadSize(1024);
 *   h.EnableInt(0);                   // empty INT stack, multiplier 2^0
 *   Ptr<Packet> p = Create<Packet>(1024); p->AddHeader(h);
 *
 * Units: addresses are ns-3 node ids; sizes are bytes; PFC quanta are
 * 512-bit times of the link that carries the frame.
 *
 * Wire layout of NiccRoceHeader (big-endian), 32 bytes + INT stack:
 *   0 type | 1 flags (bits 1..0 ECN, bit 2 INT present, bit 3 PINT present,
 *   bit 4 trimmed, bit 5 SACK bitmap present, bit 6 credit word present) |
 *   2 priority | 3 opFlags (free for the NIC) | 4 src | 8 dst |
 *   12 sport (entropy) | 14 dport (4791) | 16 qpn | 20 psn |
 *   24 aux (ACK/NACK PSN, CNP qpn, ...) | 28 payloadSize |
 *   30 PINT utilisation code (HPCC-PINT: the largest of the hops', one byte,
 *   nicc/int_codec.h) | 31 cc (DATA: the sender's congestion control, a
 *   nicc::hal::CcKind code, so the receiver serves the flow as its CC needs;
 *   0 otherwise) | [32 SACK bitmap: 8 bytes, with flag
 *   bit 5] | [credit word: 4 bytes, with flag bit 6: RCCC (cc = nscc+rccc);
 *   DATA: the sender's backlog end, ACK/NACK: the credit limit the receiver
 *   grants, both absolute byte sequences, low 32 bits] | [then the INT
 *   stack: 2 + 8 * hops bytes]
 * HPCC-PINT's code and the cc byte ride in what was reserved: no wire bytes.
 * Trimmed flag: on DATA, a switch cut the payload off (payloadSize keeps
 * the original length, the packet is the header only); on NACK, the NACK
 * answers a trimmed packet whose PSN is in `psn`. SACK bitmap (NACK, with
 * selective repeat): bit i = PSN aux + 1 + i has arrived (aux, the
 * cumulative PSN, is the base and is itself missing).
 * The first byte of every fabric frame is its type, so a device can tell a
 * PFC frame (NiccPfcHeader, 18 bytes) from a transport packet by one byte.
 */
#ifndef NICC_ROCEV2_HEADER_H
#define NICC_ROCEV2_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"

#include "nicc/int_codec.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief RoCEv2-like transport header with an optional HPCC INT stack.
 */
class NiccRoceHeader : public Header
{
  public:
    /// Packet type; also the first byte on the wire.
    enum Type : uint8_t
    {
        DATA = 0,
        ACK = 1,
        NACK = 2,
        CNP = 3,
        PFC = 4, ///< never carried by this header: see NiccPfcHeader
    };

    /// ECN codepoint (two bits, as in the IP header).
    enum Ecn : uint8_t
    {
        NOT_ECT = 0,
        ECT1 = 1,
        ECT0 = 2,
        CE = 3,
    };

    static constexpr uint16_t ROCEV2_UDP_PORT = 4791; ///< IANA RoCEv2 port
    static constexpr uint32_t BASE_SIZE = 32;         ///< bytes without INT
    static constexpr uint32_t SACK_SIZE = 8;          ///< the optional SACK bitmap
    /// Wire bytes of an INT stack of `hops` records (the engine's IntStackBytes).
    static constexpr uint32_t IntBytes(uint32_t hops)
    {
        return static_cast<uint32_t>(nicc::IntStackBytes(hops));
    }
    static constexpr uint32_t CREDIT_SIZE = 4;        ///< the optional RCCC credit word
    static constexpr uint32_t FLAGS_OFFSET = 1;       ///< wire offset of the flags byte
    static constexpr uint32_t PINT_OFFSET = 30;       ///< wire offset of the PINT code

    NiccRoceHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetType(Type t) { m_type = t; }
    Type GetType() const { return m_type; }
    void SetEcn(Ecn e) { m_ecn = e; }
    Ecn GetEcn() const { return m_ecn; }
    /// True for ECT(0), ECT(1): a switch may mark the packet CE.
    bool IsEct() const { return m_ecn == ECT0 || m_ecn == ECT1; }
    void SetPriority(uint8_t p) { m_priority = p; }
    uint8_t GetPriority() const { return m_priority; }
    void SetOpFlags(uint8_t f) { m_opFlags = f; }
    uint8_t GetOpFlags() const { return m_opFlags; }
    void SetSrc(uint32_t nodeId) { m_src = nodeId; }
    uint32_t GetSrc() const { return m_src; }
    void SetDst(uint32_t nodeId) { m_dst = nodeId; }
    uint32_t GetDst() const { return m_dst; }
    /// UDP source port: the entropy value (EV) switches hash for ECMP.
    void SetSport(uint16_t ev) { m_sport = ev; }
    uint16_t GetSport() const { return m_sport; }
    void SetDport(uint16_t port) { m_dport = port; }
    uint16_t GetDport() const { return m_dport; }
    void SetQpn(uint32_t qpn) { m_qpn = qpn; }
    uint32_t GetQpn() const { return m_qpn; }
    void SetPsn(uint32_t psn) { m_psn = psn; }
    uint32_t GetPsn() const { return m_psn; }
    /// Type-specific word: acked/expected PSN for ACK/NACK, free otherwise.
    void SetAux(uint32_t aux) { m_aux = aux; }
    uint32_t GetAux() const { return m_aux; }
    void SetPayloadSize(uint16_t bytes) { m_payloadSize = bytes; }
    uint16_t GetPayloadSize() const { return m_payloadSize; }
    /// DATA: the sender's congestion control (a nicc::hal::CcKind code).
    void SetCc(uint8_t code) { m_cc = code; }
    uint8_t GetCc() const { return m_cc; }

    /// Trimmed flag (DATA: payload cut by a switch; NACK: answers a trim).
    void SetTrimmed(bool trimmed) { m_trimmed = trimmed; }
    bool IsTrimmed() const { return m_trimmed; }
    /// SACK bitmap: bit i = PSN GetAux() + 1 + i has arrived.
    void SetSack(uint64_t bitmap)
    {
        m_hasSack = true;
        m_sack = bitmap;
    }
    bool HasSack() const { return m_hasSack; }
    uint64_t GetSack() const { return m_sack; }
    /// RCCC credit word: DATA, the sender's backlog end; ACK/NACK, the
    /// credit limit granted (absolute byte sequences, low 32 bits).
    void SetCredit(uint32_t seq)
    {
        m_hasCredit = true;
        m_credit = seq;
    }
    bool HasCredit() const { return m_hasCredit; }
    uint32_t GetCredit() const { return m_credit; }

    /// The fields a switch needs to forward, read from the first 16 bytes of
    /// a packet without deserialising the header (one copy, no INT decode).
    struct FastFields
    {
        uint8_t type;
        uint8_t priority;
        bool ect;
        bool hasInt;
        bool hasPint;
        bool trimmed;
        uint32_t src;
        uint32_t dst;
        uint16_t sport;
        uint16_t dport;
    };
    static FastFields PeekFast(const Packet& p);
    /// Wire offset of the INT stack for a header with these flags (the
    /// optional SACK bitmap and credit word come before it).
    static uint32_t IntOffset(uint8_t flags);

    /// Attach an empty INT stack (switches will stamp hops into it).
    void EnableInt(uint8_t multLog2);
    void DisableInt() { m_hasInt = false; }
    bool HasInt() const { return m_hasInt; }
    /// The stack in engine form (hops in path order); valid if HasInt().
    const nicc::IntStack& GetIntStack() const { return m_int; }
    /// Replace the whole stack (e.g. a receiver echoing it into an ACK).
    void SetIntStack(const nicc::IntStack& st);
    /// Append one record; false (and no change) if the stack is full.
    bool PushIntHop(nicc::IntHop hop);

    /// HPCC-PINT: carry a utilisation code (switches raise it to theirs).
    void SetPint(uint8_t code)
    {
        m_hasPint = true;
        m_pint = code;
    }
    bool HasPint() const { return m_hasPint; }
    uint8_t GetPint() const { return m_pint; }
    void ClearPint()
    {
        m_hasPint = false;
        m_pint = 0;
    }

  private:
    Type m_type{DATA};
    Ecn m_ecn{NOT_ECT};
    bool m_hasInt{false};
    bool m_hasPint{false};
    bool m_trimmed{false};
    bool m_hasSack{false};
    bool m_hasCredit{false};
    uint64_t m_sack{0};
    uint32_t m_credit{0};
    uint8_t m_pint{0};
    uint8_t m_cc{0};
    uint8_t m_priority{0};
    uint8_t m_opFlags{0};
    uint32_t m_src{0};
    uint32_t m_dst{0};
    uint16_t m_sport{0};
    uint16_t m_dport{ROCEV2_UDP_PORT};
    uint32_t m_qpn{0};
    uint32_t m_psn{0};
    uint32_t m_aux{0};
    uint16_t m_payloadSize{0};
    nicc::IntStack m_int{};
};

/**
 * \ingroup nicc
 * \brief A packet's NiccRoceHeader as its wire bytes, edited where they are:
 * the switch's egress stamps (ECN CE, an INT hop, the PINT code) without
 * parsing and re-writing every field. The result is byte for byte what
 * RemoveHeader, the same edits on the NiccRoceHeader and AddHeader give (the
 * fabric suite checks it on random headers); in packet metadata it is a
 * NiccRoceHeader.
 *
 *   NiccRoceWire w(*p);                      // copies the header's bytes
 *   w.SetEcn(NiccRoceHeader::CE);
 *   w.PushIntHop(hop);                       // false if there is no room
 *   w.Replace(*p);                           // the edited bytes in its place
 */
class NiccRoceWire : public Header
{
  public:
    /// The largest header: base, SACK bitmap, credit word, full INT stack.
    static constexpr uint32_t MAX_SIZE = NiccRoceHeader::BASE_SIZE + NiccRoceHeader::SACK_SIZE +
                                         NiccRoceHeader::CREDIT_SIZE +
                                         static_cast<uint32_t>(nicc::IntStackBytes(nicc::kIntMaxHops));

    NiccRoceWire() = default;
    /// The header at the start of `p` (aborts if `p` does not start with a
    /// well-formed one).
    explicit NiccRoceWire(const Packet& p);

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override { return m_size; }
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetEcn(NiccRoceHeader::Ecn e);
    bool HasInt() const;
    /// The INT stack's multiplier (2^mult_log2); 0 without a stack.
    uint8_t GetIntMultLog2() const;
    /// Append one INT record; false (and no change) without a stack or if
    /// it is full (as NiccRoceHeader::PushIntHop).
    bool PushIntHop(nicc::IntHop hop);
    uint8_t GetPint() const;
    /// As NiccRoceHeader::SetPint: the code, and the flag that it is there.
    void SetPint(uint8_t code);
    /// Put the bytes in place of the header the packet carries (the one
    /// they were read from, whose size they remember).
    void Replace(Packet& p);

  private:
    /// Size and INT offset from the flags and hop count in m_bytes[0..n).
    void Measure(uint32_t n);

    uint8_t m_bytes[MAX_SIZE]{};
    uint32_t m_size{0};   ///< bytes now
    uint32_t m_onPacket{0}; ///< bytes of the header the packet carries
    uint32_t m_intAt{0};  ///< offset of the INT stack (if the flag is set)
};

/**
 * \ingroup nicc
 * \brief Priority flow control frame (802.1Qbb-like): a class-enable vector
 * and one pause time per class, in quanta of 512 bit times. Quanta 0 with the
 * class bit set means "resume now".
 *
 * Wire layout: 0 type (= NiccRoceHeader::PFC) | 1 class-enable vector |
 * 2..17 quanta[8] (16 bits each).
 */
class NiccPfcHeader : public Header
{
  public:
    static constexpr uint32_t NUM_CLASSES = 8;
    static constexpr uint32_t SERIALIZED_SIZE = 18;
    static constexpr uint32_t MIN_FRAME_BYTES = 64; ///< padded on the wire

    NiccPfcHeader() = default;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// Set class `cls` enabled with pause time `quanta` (0 = resume).
    void SetQuanta(uint8_t cls, uint16_t quanta);
    bool IsClassEnabled(uint8_t cls) const { return (m_classEnable >> cls) & 1u; }
    uint16_t GetQuanta(uint8_t cls) const { return m_quanta[cls]; }

  private:
    uint8_t m_classEnable{0};
    uint16_t m_quanta[NUM_CLASSES]{};
};

} // namespace ns3

#endif // NICC_ROCEV2_HEADER_H
