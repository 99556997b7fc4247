/*
 * nicc-qp-receiver.cc — NiccQpReceiver: delivery, placement, ACK/NACK, CNP.
 */
#include "nicc-qp-receiver.h"

#include "ns3/packet.h"

namespace ns3
{

void
NiccQpReceiver::Init(const NiccNicConfig* cfg, uint32_t node, Ptr<NiccNetDevice> dev, Traces traces)
{
    m_cfg = cfg;
    m_node = node;
    m_dev = dev;
    m_traces = traces;
}

uint32_t
NiccQpReceiver::QpStateBytes()
{
    // Unordered-map node: key, value, next pointer, cached hash.
    const uint32_t mapNode = sizeof(uint64_t) + sizeof(uint32_t) + 2 * sizeof(void*);
    return static_cast<uint32_t>(sizeof(RxQp) + mapNode);
}

uint32_t
NiccQpReceiver::Find(uint32_t src, uint32_t qpn, bool* isNew)
{
    const uint64_t key = (static_cast<uint64_t>(src) << 32) | qpn;
    auto it = m_index.find(key);
    if (it != m_index.end())
    {
        *isNew = false;
        return it->second;
    }
    const uint32_t idx = static_cast<uint32_t>(m_rx.size());
    RxQp rx{};
    rx.src = src;
    rx.qpn = qpn;
    rx.nackedPsn = NO_PSN;
    rx.lastPsn = NO_PSN;
    rx.trimHole = NO_PSN;
    rx.drvFlow = nicc::hal::kNoFlow;
    m_rx.push_back(rx);
    m_index.emplace(key, idx);
    *isNew = true;
    return idx;
}

bool
NiccQpReceiver::Arrive(uint32_t idx, const NiccRoceHeader& h)
{
    ++m_rxDataPackets;
    const bool ce = h.GetEcn() == NiccRoceHeader::CE;
    if (ce)
    {
        ++m_rxCe;
        m_rx[idx].ceSinceAck = 1;
    }
    return ce;
}

void
NiccQpReceiver::DeliverInOrder(RxQp& rx, uint32_t psn, uint32_t bytes)
{
    rx.deliveredBytes += bytes;
    m_rxDeliveredBytes += bytes;
    (*m_traces.deliver)(rx.src, rx.qpn, psn, bytes);
    if (psn == rx.lastPsn)
    {
        rx.done = 1; // the backend closes its engine flow
    }
}

void
NiccQpReceiver::Place(uint32_t idx, const NiccRoceHeader& h)
{
    RxQp* rx = &m_rx[idx];
    const bool sr = m_cfg->recovery == NiccNicConfig::SELECTIVE_REPEAT;
    const uint32_t nackThreshold = m_cfg->srNackThreshold;
    const uint32_t psn = h.GetPsn();
    const uint16_t payload = h.GetPayloadSize();
    const bool last = (h.GetOpFlags() & NiccNicConfig::OP_LAST) != 0;
    if (last)
    {
        rx->lastPsn = psn;
        rx->lastPayload = payload;
    }
    else
    {
        rx->segPayload = payload;
    }

    if (static_cast<int32_t>(psn + 1 - rx->rcvHigh) > 0)
    {
        rx->rcvHigh = psn + 1;
    }
    if (psn == rx->rcvNxt)
    {
        DeliverInOrder(*rx, psn, payload);
        ++rx->rcvNxt;
        bool gap = false;
        if (sr)
        {
            // Drain placed packets that are now in order; bounded by the window.
            for (uint32_t k = 0; k < SR_WINDOW; ++k)
            {
                const uint32_t bit = rx->rcvNxt % SR_WINDOW;
                uint64_t& word = rx->bitmap[bit / 64];
                if (!(word & (1ULL << (bit % 64))))
                {
                    break;
                }
                word &= ~(1ULL << (bit % 64));
                const uint32_t q = rx->rcvNxt;
                DeliverInOrder(*rx, q, q == rx->lastPsn ? rx->lastPayload : rx->segPayload);
                ++rx->rcvNxt;
            }
            for (uint64_t w : rx->bitmap)
            {
                gap = gap || w != 0;
            }
        }
        if (rx->trimHole != NO_PSN && static_cast<int32_t>(rx->rcvNxt - rx->trimHole) >= 0)
        {
            // Go-back-N: the packet now expected was trimmed and not NACKed.
            const bool due = rx->trimHole == rx->rcvNxt && rx->nackedPsn != rx->rcvNxt;
            rx->trimHole = NO_PSN;
            if (due)
            {
                rx->nackedPsn = rx->rcvNxt;
                SendAck(*rx, h, true);
                return;
            }
        }
        // The next hole, once packets this far past it have arrived (or the
        // message's last one has): in a lossless fabric a short hole is
        // reordering by spraying, not loss, and fills by itself.
        if (gap && !HoleReported(*rx) &&
            (rx->rcvHigh - rx->rcvNxt > nackThreshold ||
             (rx->lastPsn != NO_PSN && nackThreshold > 1)))
        {
            rx->nackedPsn = rx->rcvNxt;
            SendAck(*rx, h, true);
            return;
        }
        if (++rx->unacked >= m_cfg->ackInterval || last || rx->done)
        {
            SendAck(*rx, h, false);
        }
        return;
    }
    if (static_cast<int32_t>(psn - rx->rcvNxt) < 0)
    {
        ++m_rxDup;
        SendAck(*rx, h, false); // duplicate: repeat the cumulative ACK
        return;
    }
    // Ahead of the expected packet: a gap.
    const uint32_t ahead = psn - rx->rcvNxt;
    (*m_traces.outOfOrder)(ahead);
    if (sr && ahead < SR_WINDOW)
    {
        const uint32_t bit = psn % SR_WINDOW;
        uint64_t& word = rx->bitmap[bit / 64];
        if (word & (1ULL << (bit % 64)))
        {
            ++m_rxDup;
        }
        else
        {
            word |= 1ULL << (bit % 64);
            ++m_rxOooPlaced;
        }
    }
    else
    {
        ++m_rxOooDiscarded;
    }
    const bool nackDue = !sr || ahead >= nackThreshold || (last && nackThreshold > 1);
    if (!HoleReported(*rx) && nackDue)
    {
        rx->nackedPsn = rx->rcvNxt;
        SendAck(*rx, h, true);
    }
    else if (++rx->unacked >= m_cfg->ackInterval)
    {
        SendAck(*rx, h, false); // keeps INT feedback flowing during recovery
    }
}

bool
NiccQpReceiver::HoleReported(const RxQp& rx) const
{
    return rx.nackedPsn == rx.rcvNxt ||
           (m_cfg->sack && static_cast<int32_t>(rx.rcvNxt - rx.sackCover) < 0);
}

bool
NiccQpReceiver::IsPlaced(const RxQp& rx, uint32_t psn)
{
    const uint32_t ahead = psn - rx.rcvNxt;
    if (ahead == 0 || ahead >= SR_WINDOW)
    {
        return false;
    }
    const uint32_t bit = psn % SR_WINDOW;
    return (rx.bitmap[bit / 64] >> (bit % 64)) & 1u;
}

uint64_t
NiccQpReceiver::SackBitmap(const RxQp& rx)
{
    uint64_t sack = 0;
    for (uint32_t i = 0; i < 64; ++i)
    {
        sack |= IsPlaced(rx, rx.rcvNxt + 1 + i) ? (uint64_t{1} << i) : 0;
    }
    return sack;
}

void
NiccQpReceiver::OnTrimmed(uint32_t idx, const NiccRoceHeader& h)
{
    RxQp& rx = m_rx[idx];
    ++m_rxTrimmed;
    const uint32_t psn = h.GetPsn();
    if (static_cast<int32_t>(psn - rx.rcvNxt) < 0 || IsPlaced(rx, psn))
    {
        return; // a trimmed copy of a packet already here: nothing is missing
    }
    if (m_cfg->recovery == NiccNicConfig::GO_BACK_N)
    {
        // The NACK rewinds the sender to rcvNxt, which resends this PSN too:
        // one per gap, but always when the expected packet itself was trimmed.
        if (psn != rx.rcvNxt && rx.nackedPsn == rx.rcvNxt)
        {
            // Its header may have overtaken the resent rcvNxt: NACK it when
            // rcvNxt reaches it (Place), unless a rewind resends it first.
            if (rx.trimHole == NO_PSN || static_cast<int32_t>(psn - rx.trimHole) < 0)
            {
                rx.trimHole = psn;
            }
            return;
        }
        rx.nackedPsn = rx.rcvNxt;
    }
    else if (psn == rx.rcvNxt)
    {
        rx.nackedPsn = psn; // the gap NACK of this hole would only repeat it
    }
    SendAck(rx, h, true, true);
}

void
NiccQpReceiver::SendAck(RxQp& rx, const NiccRoceHeader& data, bool nack, bool trimmed)
{
    NiccRoceHeader h;
    h.SetType(nack ? NiccRoceHeader::NACK : NiccRoceHeader::ACK);
    h.SetSrc(m_node);
    h.SetDst(rx.src);
    h.SetSport(data.GetSport());
    const uint8_t cls = m_cfg->ackHighPriority ? NiccNetDevice::CONTROL_CLASS : m_cfg->dataPriority;
    h.SetPriority(cls);
    h.SetQpn(rx.qpn);
    // ACK: echo of the send time; trim NACK: the trimmed PSN.
    h.SetPsn(trimmed ? data.GetPsn() : data.GetAux());
    h.SetAux(rx.rcvNxt);
    h.SetTrimmed(trimmed);
    if (nack && m_cfg->sack && m_cfg->recovery == NiccNicConfig::SELECTIVE_REPEAT)
    {
        h.SetSack(SackBitmap(rx));
        // The bitmap reports every hole from rcvNxt up to the highest PSN
        // it covers: no gap NACK for those until a timeout.
        const uint32_t top = rx.rcvNxt + 65;
        rx.sackCover = static_cast<int32_t>(rx.rcvHigh - top) < 0 ? rx.rcvHigh : top;
    }
    h.SetOpFlags(rx.ceSinceAck ? NiccNicConfig::OP_ECN_ECHO : 0);
    if (rx.hasCredit)
    {
        h.SetCredit(rx.creditLimit); // RCCC: the grant (nscc+rccc senders only)
    }
    if (data.HasInt())
    {
        h.SetIntStack(data.GetIntStack());
    }
    if (data.HasPint())
    {
        h.SetPint(data.GetPint());
    }
    rx.unacked = 0;
    rx.ceSinceAck = 0;
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    if (nack)
    {
        ++m_nacksSent;
        m_trimNacksSent += trimmed ? 1 : 0;
    }
    else
    {
        ++m_acksSent;
    }
    m_dev->Enqueue(p, cls);
}

void
NiccQpReceiver::SendCnp(uint32_t idx)
{
    // The engine's notification point paces CNPs (np_min_time_between_cnps);
    // every request becomes one CNP to the sender's QP.
    const RxQp& rx = m_rx[idx];
    NiccRoceHeader h;
    h.SetType(NiccRoceHeader::CNP);
    h.SetSrc(m_node);
    h.SetDst(rx.src);
    h.SetSport(static_cast<uint16_t>(0xC000u | (rx.qpn & 0x3FFFu)));
    h.SetPriority(NiccNetDevice::CONTROL_CLASS);
    h.SetQpn(rx.qpn);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    ++m_cnpsSent;
    m_dev->Enqueue(p, NiccNetDevice::CONTROL_CLASS);
}

} // namespace ns3
