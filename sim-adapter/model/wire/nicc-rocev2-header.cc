/*
 * nicc-rocev2-header.cc — serialisation of NiccRoceHeader / NiccPfcHeader.
 * The INT stack is written and read with the engine codec (nicc/int_codec.h)
 * so that the bytes a switch stamps are exactly what firmware would parse.
 */
#include "nicc-rocev2-header.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NiccRoceHeader);
NS_OBJECT_ENSURE_REGISTERED(NiccPfcHeader);

namespace
{
constexpr uint8_t FLAG_ECN_MASK = 0x03;
constexpr uint8_t FLAG_INT = 0x04;
constexpr uint8_t FLAG_PINT = 0x08;
constexpr uint8_t FLAG_TRIMMED = 0x10;
constexpr uint8_t FLAG_SACK = 0x20;
constexpr uint8_t FLAG_CREDIT = 0x40;
constexpr size_t MAX_INT_BYTES = nicc::kIntHeaderBytes + nicc::kIntHopBytes * nicc::kIntMaxHops;
} // namespace

NiccRoceHeader::NiccRoceHeader() = default;

TypeId
NiccRoceHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NiccRoceHeader")
                            .SetParent<Header>()
                            .SetGroupName("Nicc")
                            .AddConstructor<NiccRoceHeader>();
    return tid;
}

TypeId
NiccRoceHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

NiccRoceHeader::FastFields
NiccRoceHeader::PeekFast(const Packet& p)
{
    uint8_t b[16];
    p.CopyData(b, sizeof(b));
    const uint8_t ecn = b[1] & FLAG_ECN_MASK;
    auto be32 = [&b](int o) {
        return (uint32_t(b[o]) << 24) | (uint32_t(b[o + 1]) << 16) | (uint32_t(b[o + 2]) << 8) |
               uint32_t(b[o + 3]);
    };
    FastFields f;
    f.type = b[0];
    f.priority = b[2];
    f.ect = ecn == ECT0 || ecn == ECT1;
    f.hasInt = (b[1] & FLAG_INT) != 0;
    f.hasPint = (b[1] & FLAG_PINT) != 0;
    f.trimmed = (b[1] & FLAG_TRIMMED) != 0;
    f.src = be32(4);
    f.dst = be32(8);
    f.sport = static_cast<uint16_t>((b[12] << 8) | b[13]);
    f.dport = static_cast<uint16_t>((b[14] << 8) | b[15]);
    return f;
}

void
NiccRoceHeader::EnableInt(uint8_t multLog2)
{
    m_hasInt = true;
    m_int = nicc::IntStack{};
    m_int.mult_log2 = static_cast<uint8_t>(multLog2 & nicc::kIntMaxMultLog2);
}

void
NiccRoceHeader::SetIntStack(const nicc::IntStack& st)
{
    m_hasInt = true;
    m_int = st;
}

bool
NiccRoceHeader::PushIntHop(nicc::IntHop hop)
{
    if (!m_hasInt || m_int.hop_count >= nicc::kIntMaxHops)
    {
        return false;
    }
    m_int.hops[m_int.hop_count++] = hop;
    return true;
}

uint32_t
NiccRoceHeader::GetSerializedSize() const
{
    return IntOffset((m_hasSack ? FLAG_SACK : 0) | (m_hasCredit ? FLAG_CREDIT : 0)) +
           (m_hasInt ? static_cast<uint32_t>(nicc::IntStackBytes(m_int.hop_count)) : 0u);
}

void
NiccRoceHeader::Serialize(Buffer::Iterator i) const
{
    static_assert(FLAGS_OFFSET == 1 && PINT_OFFSET == 30, "the wire layout written below");
    i.WriteU8(m_type);
    i.WriteU8(static_cast<uint8_t>((m_ecn & FLAG_ECN_MASK) | (m_hasInt ? FLAG_INT : 0) |
                                   (m_hasPint ? FLAG_PINT : 0) | (m_trimmed ? FLAG_TRIMMED : 0) |
                                   (m_hasSack ? FLAG_SACK : 0) | (m_hasCredit ? FLAG_CREDIT : 0)));
    i.WriteU8(m_priority);
    i.WriteU8(m_opFlags);
    i.WriteHtonU32(m_src);
    i.WriteHtonU32(m_dst);
    i.WriteHtonU16(m_sport);
    i.WriteHtonU16(m_dport);
    i.WriteHtonU32(m_qpn);
    i.WriteHtonU32(m_psn);
    i.WriteHtonU32(m_aux);
    i.WriteHtonU16(m_payloadSize);
    i.WriteU8(m_hasPint ? m_pint : 0);
    i.WriteU8(m_cc);
    if (m_hasSack)
    {
        i.WriteHtonU64(m_sack);
    }
    if (m_hasCredit)
    {
        i.WriteHtonU32(m_credit);
    }
    if (m_hasInt)
    {
        uint8_t buf[MAX_INT_BYTES];
        size_t written = 0;
        nicc::Status s = nicc::EncodeIntStack(m_int, buf, sizeof(buf), &written);
        NS_ABORT_MSG_UNLESS(s.ok(), "INT stack encode failed: " << nicc::StatusCodeName(s.code));
        i.Write(buf, static_cast<uint32_t>(written));
    }
}

uint32_t
NiccRoceHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_type = static_cast<Type>(i.ReadU8());
    const uint8_t flags = i.ReadU8();
    m_ecn = static_cast<Ecn>(flags & FLAG_ECN_MASK);
    m_hasInt = (flags & FLAG_INT) != 0;
    m_hasPint = (flags & FLAG_PINT) != 0;
    m_trimmed = (flags & FLAG_TRIMMED) != 0;
    m_hasSack = (flags & FLAG_SACK) != 0;
    m_hasCredit = (flags & FLAG_CREDIT) != 0;
    m_priority = i.ReadU8();
    m_opFlags = i.ReadU8();
    m_src = i.ReadNtohU32();
    m_dst = i.ReadNtohU32();
    m_sport = i.ReadNtohU16();
    m_dport = i.ReadNtohU16();
    m_qpn = i.ReadNtohU32();
    m_psn = i.ReadNtohU32();
    m_aux = i.ReadNtohU32();
    m_payloadSize = i.ReadNtohU16();
    m_pint = i.ReadU8();
    m_cc = i.ReadU8();
    m_sack = m_hasSack ? i.ReadNtohU64() : 0;
    m_credit = m_hasCredit ? i.ReadNtohU32() : 0;
    if (m_hasInt)
    {
        uint8_t buf[MAX_INT_BYTES];
        buf[0] = i.ReadU8();
        buf[1] = i.ReadU8();
        const uint32_t hops = buf[0] <= nicc::kIntMaxHops ? buf[0] : 0u;
        // A record is one 64-bit word: two 32-bit reads (inline in ns-3,
        // where Read(buffer, n) goes a byte at a time), put back in wire order.
        for (uint32_t k = 0; k < hops; ++k)
        {
            uint8_t* rec = buf + nicc::kIntHeaderBytes + nicc::kIntHopBytes * k;
            for (uint32_t half = 0; half < 2; ++half)
            {
                const uint32_t w = i.ReadNtohU32();
                rec[4 * half] = static_cast<uint8_t>(w >> 24);
                rec[4 * half + 1] = static_cast<uint8_t>(w >> 16);
                rec[4 * half + 2] = static_cast<uint8_t>(w >> 8);
                rec[4 * half + 3] = static_cast<uint8_t>(w);
            }
        }
        nicc::Status s = nicc::DecodeIntStack(buf, nicc::IntStackBytes(hops), &m_int);
        NS_ABORT_MSG_UNLESS(s.ok(), "INT stack decode failed: " << nicc::StatusCodeName(s.code));
    }
    return i.GetDistanceFrom(start);
}

// The optional parts after the base header, in wire order.
uint32_t
NiccRoceHeader::IntOffset(uint8_t flags)
{
    return BASE_SIZE + ((flags & FLAG_SACK) ? SACK_SIZE : 0u) +
           ((flags & FLAG_CREDIT) ? CREDIT_SIZE : 0u);
}

void
NiccRoceHeader::Print(std::ostream& os) const
{
    static const char* const names[] = {"DATA", "ACK", "NACK", "CNP", "PFC"};
    os << (m_type <= PFC ? names[m_type] : "?") << " " << m_src << "->" << m_dst
       << " sport=" << m_sport << " prio=" << +m_priority << " ecn=" << +m_ecn
       << " qpn=" << m_qpn << " psn=" << m_psn << " aux=" << m_aux
       << " len=" << m_payloadSize;
    if (m_trimmed)
    {
        os << " trimmed";
    }
    if (m_hasSack)
    {
        os << " sack=0x" << std::hex << m_sack << std::dec;
    }
    if (m_hasInt)
    {
        os << " int=" << +m_int.hop_count << "hops";
    }
}

// ---------------------------------------------------------------------------

NiccRoceWire::NiccRoceWire(const Packet& p)
{
    const uint32_t n = p.CopyData(m_bytes, std::min(p.GetSize(), MAX_SIZE));
    Measure(n);
    m_onPacket = m_size;
}

void
NiccRoceWire::Measure(uint32_t n)
{
    NS_ABORT_MSG_UNLESS(n >= NiccRoceHeader::BASE_SIZE && m_bytes[0] < NiccRoceHeader::PFC,
                        "NiccRoceWire: the packet does not start with a NiccRoceHeader");
    const uint8_t flags = m_bytes[NiccRoceHeader::FLAGS_OFFSET];
    m_intAt = NiccRoceHeader::IntOffset(flags);
    m_size = m_intAt;
    if (flags & FLAG_INT)
    {
        NS_ABORT_MSG_UNLESS(n >= m_intAt + nicc::kIntHeaderBytes && m_bytes[m_intAt] <= nicc::kIntMaxHops,
                            "NiccRoceWire: malformed INT stack");
        m_size += static_cast<uint32_t>(nicc::IntStackBytes(m_bytes[m_intAt]));
    }
    NS_ABORT_MSG_UNLESS(n >= m_size, "NiccRoceWire: the header is cut short");
}

TypeId
NiccRoceWire::GetInstanceTypeId() const
{
    return NiccRoceHeader::GetTypeId(); // what the bytes are
}

void
NiccRoceWire::Serialize(Buffer::Iterator i) const
{
    i.Write(m_bytes, m_size);
}

uint32_t
NiccRoceWire::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    const uint32_t n = std::min(i.GetRemainingSize(), MAX_SIZE);
    i.Read(m_bytes, n);
    Measure(n);
    m_onPacket = m_size;
    return m_size;
}

void
NiccRoceWire::Print(std::ostream& os) const
{
    Buffer b;
    b.AddAtStart(m_size);
    b.Begin().Write(m_bytes, m_size);
    NiccRoceHeader h;
    h.Deserialize(b.Begin());
    h.Print(os);
}

void
NiccRoceWire::SetEcn(NiccRoceHeader::Ecn e)
{
    uint8_t& flags = m_bytes[NiccRoceHeader::FLAGS_OFFSET];
    flags = static_cast<uint8_t>((flags & ~FLAG_ECN_MASK) | (e & FLAG_ECN_MASK));
}

bool
NiccRoceWire::HasInt() const
{
    return (m_bytes[NiccRoceHeader::FLAGS_OFFSET] & FLAG_INT) != 0;
}

uint8_t
NiccRoceWire::GetIntMultLog2() const
{
    return HasInt() ? static_cast<uint8_t>(m_bytes[m_intAt + 1] & nicc::kIntMaxMultLog2) : 0;
}

bool
NiccRoceWire::PushIntHop(nicc::IntHop hop)
{
    if (!HasInt())
    {
        return false;
    }
    const nicc::Status s = nicc::AppendIntHop(m_bytes + m_intAt, MAX_SIZE - m_intAt, hop);
    if (s.code == nicc::StatusCode::kTooManyHops)
    {
        return false;
    }
    NS_ABORT_MSG_UNLESS(s.ok(), "INT hop append failed: " << nicc::StatusCodeName(s.code));
    m_size += static_cast<uint32_t>(nicc::kIntHopBytes);
    return true;
}

uint8_t
NiccRoceWire::GetPint() const
{
    return m_bytes[NiccRoceHeader::PINT_OFFSET];
}

void
NiccRoceWire::SetPint(uint8_t code)
{
    m_bytes[NiccRoceHeader::FLAGS_OFFSET] |= FLAG_PINT;
    m_bytes[NiccRoceHeader::PINT_OFFSET] = code;
}

void
NiccRoceWire::Replace(Packet& p)
{
    p.RemoveAtStart(m_onPacket);
    p.AddHeader(*this);
    m_onPacket = m_size;
}

// ---------------------------------------------------------------------------

TypeId
NiccPfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NiccPfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Nicc")
                            .AddConstructor<NiccPfcHeader>();
    return tid;
}

TypeId
NiccPfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
NiccPfcHeader::SetQuanta(uint8_t cls, uint16_t quanta)
{
    NS_ABORT_MSG_UNLESS(cls < NUM_CLASSES, "PFC class out of range");
    m_classEnable = static_cast<uint8_t>(m_classEnable | (1u << cls));
    m_quanta[cls] = quanta;
}

uint32_t
NiccPfcHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
NiccPfcHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(NiccRoceHeader::PFC);
    i.WriteU8(m_classEnable);
    for (uint32_t c = 0; c < NUM_CLASSES; ++c)
    {
        i.WriteHtonU16(m_quanta[c]);
    }
}

uint32_t
NiccPfcHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    i.ReadU8(); // type
    m_classEnable = i.ReadU8();
    for (uint32_t c = 0; c < NUM_CLASSES; ++c)
    {
        m_quanta[c] = i.ReadNtohU16();
    }
    return i.GetDistanceFrom(start);
}

void
NiccPfcHeader::Print(std::ostream& os) const
{
    os << "PFC";
    for (uint32_t c = 0; c < NUM_CLASSES; ++c)
    {
        if (IsClassEnabled(static_cast<uint8_t>(c)))
        {
            os << " c" << c << "=" << m_quanta[c];
        }
    }
}

} // namespace ns3
