/*
 * nicc-qp-sender.cc — NiccQpSender: DATA packets, window, go-back-N and
 * selective repeat, retransmission timeout.
 */
#include "nicc-qp-sender.h"
#include "nicc-hash.h"
#include "nicc-scheduler.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include "nicc/hal/clock.h"

#include <algorithm>

namespace ns3
{

// The per-QP state the summary reports (memory.tx_qp_state_bytes): a new
// field takes padding or is a visible change.
static_assert(sizeof(void*) != 8 || sizeof(NiccQpSender::TxQp) == 200, "TxQp grew past 200 bytes");

namespace
{

inline uint64_t
NowNs()
{
    return NiccNowNs();
}
} // namespace

void
NiccQpSender::Init(const NiccNicConfig* cfg,
                   uint32_t lineMbps,
                   uint32_t node,
                   uint32_t seg,
                   uint32_t evBits,
                   NiccQpScheduler* sched,
                   Traces traces,
                   TimeoutCallback onTimeout)
{
    m_cfg = cfg;
    m_lineMbps = lineMbps;
    m_node = node;
    m_seg = seg;
    m_evBits = evBits;
    m_sched = sched;
    m_traces = traces;
    m_onTimeout = onTimeout;
}

void
NiccQpSender::Dispose()
{
    for (auto& qp : m_tx)
    {
        qp.timer.Cancel();
        qp.rto.Cancel();
    }
    m_onTimeout = TimeoutCallback();
}

uint32_t
NiccQpSender::AddQp(uint32_t flowId, uint32_t dst, uint64_t bytes, nicc::hal::CcKind cc)
{
    NS_ABORT_MSG_UNLESS(bytes > 0, "a flow needs at least one byte");
    // PSNs are 32-bit and NO_PSN is reserved: at most 2^32 - 2 packets.
    // Byte offsets are 64-bit here; the engine sees their low 32 bits.
    const uint64_t npkts = (bytes + m_seg - 1) / m_seg;
    NS_ABORT_MSG_UNLESS(npkts < NO_PSN,
                        "message of " << bytes << " B exceeds the 32-bit PSN space at " << m_seg
                                      << " B per packet");
    const uint32_t qpn = static_cast<uint32_t>(m_tx.size());
    TxQp qp{};
    qp.sizeBytes = bytes;
    qp.flowId = flowId;
    qp.dst = dst;
    qp.npkts = static_cast<uint32_t>(npkts);
    qp.drvFlow = nicc::hal::kNoFlow;
    qp.cc = cc;
    // Per-QP entropy: bits above the engine's EV index and below bit 14, so
    // ports stay in RoCEv2's 0xC000..0xFFFF and EV indices survive the XOR.
    const uint32_t evMask = (1u << m_evBits) - 1u;
    qp.salt = static_cast<uint16_t>(NiccMix64((static_cast<uint64_t>(m_node) << 32) | qpn) & 0x3FFFu &
                                    ~evMask);
    m_tx.push_back(qp);
    return qpn;
}

void
NiccQpSender::Resalt(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    const uint32_t evMask = (1u << m_evBits) - 1u;
    // Same bit range as AddQp's salt (above the EV index, below bit 14); if
    // the mix gives the old salt back, its lowest bit flips instead.
    const uint16_t next = static_cast<uint16_t>(
        NiccMix64((static_cast<uint64_t>(m_node) << 32) ^ (uint64_t{qp.salt} << 16) ^ qpn ^ 0x5A17u) &
        0x3FFFu & ~evMask);
    qp.salt = next != qp.salt ? next : static_cast<uint16_t>((qp.salt ^ (evMask + 1u)) & 0x3FFFu);
}

uint32_t
NiccQpSender::Seed(uint32_t qpn) const
{
    return static_cast<uint32_t>(NiccMix64((static_cast<uint64_t>(m_node) << 32) | qpn));
}

void
NiccQpSender::Start(uint32_t qpn, nicc::hal::FlowId f, uint32_t windowBytes)
{
    TxQp& qp = m_tx[qpn];
    qp.drvFlow = f;
    qp.started = 1;
    qp.windowBytes = windowBytes;
    qp.windowed = nicc::hal::KindHasWindow(qp.cc) ? 1 : 0;
}

bool
NiccQpSender::HasData(const TxQp& qp) const
{
    return !qp.done && qp.started && (qp.retxCount > 0 || qp.sndNxt < qp.npkts);
}

uint32_t
NiccQpSender::Payload(const TxQp& qp, uint32_t psn) const
{
    return psn + 1 == qp.npkts ? static_cast<uint32_t>(qp.sizeBytes - uint64_t{psn} * m_seg) : m_seg;
}

uint64_t
NiccQpSender::SeqBytes(const TxQp& qp, uint32_t psn) const
{
    // psn < 2^32 and m_seg < 2^16: the product is below 2^48.
    return std::min<uint64_t>(uint64_t{psn} * m_seg, qp.sizeBytes);
}

uint32_t
NiccQpSender::EngineSeq(const TxQp& qp, uint32_t psn) const
{
    // The engine's sequence numbers are wrap-safe 32-bit byte counts: the
    // low 32 bits of the 64-bit offset (it compares them modulo 2^32).
    return static_cast<uint32_t>(SeqBytes(qp, psn));
}

uint64_t
NiccQpSender::DcqcnWindowNow(uint32_t qpn) const
{
    const TxQp& qp = m_tx[qpn];
    if (qp.dcqcnWindowBytes == 0 || !m_cfg->dcqcnVarWindow || m_lineMbps == 0)
    {
        return qp.dcqcnWindowBytes;
    }
    // VAR_WIN: window x rate / line rate, in the simulator's integer steps
    // (rdma-queue-pair.cc GetWin). < 2^32 B x < 2^32 kb/s: below 2^64.
    const uint64_t w = uint64_t{qp.dcqcnWindowBytes} * m_sched->GetRateKbps(qpn) / (uint64_t{m_lineMbps} * 1000);
    return std::max<uint64_t>(w, 1);
}

bool
NiccQpSender::WindowOpen(uint32_t qpn, uint32_t payload) const
{
    const TxQp& qp = m_tx[qpn];
    if (qp.retxCount > 0)
    {
        return true; // a selective resend adds nothing in flight
    }
    if (m_cfg->recovery == NiccNicConfig::SELECTIVE_REPEAT &&
        qp.sndNxt - qp.sndUna >= NiccNicConfig::SR_WINDOW)
    {
        return false; // the receiver places at most SR_WINDOW packets ahead
    }
    if (!qp.windowed)
    {
        // DCQCN's BDP window: a packet leaves while fewer bytes than the
        // window are in flight, so it may pass the window by up to one
        // packet (the HPCC simulator's IsWinBound).
        return qp.dcqcnWindowBytes == 0 || InflightBytes(qpn) < DcqcnWindowNow(qpn);
    }
    const uint64_t inflight = InflightBytes(qpn);
    // One packet is always allowed: a window below the MTU still moves, and
    // an RCCC sender without credit (window 0) sends one packet per round
    // trip, which asks its receiver for credit (its DATA carries the backlog).
    return inflight == 0 || inflight + payload <= qp.windowBytes;
}

bool
NiccQpSender::CanSend(uint32_t qpn) const
{
    const TxQp& qp = m_tx[qpn];
    return HasData(qp) && WindowOpen(qpn, Payload(qp, qp.sndNxt < qp.npkts ? qp.sndNxt : 0));
}

uint16_t
NiccQpSender::TakeForcedEv(uint32_t qpn)
{
    const uint16_t ev = m_tx[qpn].forcedEv;
    m_tx[qpn].forcedEv = 0;
    return ev;
}

Ptr<Packet>
NiccQpSender::BuildData(uint32_t qpn, uint16_t ev)
{
    TxQp& qp = m_tx[qpn];
    const uint64_t now = NowNs();
    uint32_t psn;
    if (qp.retxCount > 0)
    {
        psn = TakeRetx(qp);
    }
    else
    {
        psn = qp.sndNxt++;
    }
    const uint32_t payload = Payload(qp, psn);
    qp.lastEv = ev;
    if (!qp.intEvSet)
    {
        qp.intEv = ev;
        qp.intEvSet = 1;
    }

    NiccRoceHeader h;
    h.SetType(NiccRoceHeader::DATA);
    h.SetSrc(m_node);
    h.SetDst(qp.dst);
    h.SetSport(static_cast<uint16_t>(ev ^ qp.salt));
    h.SetPriority(m_cfg->dataPriority);
    h.SetEcn(m_cfg->ect ? NiccRoceHeader::ECT0 : NiccRoceHeader::NOT_ECT);
    h.SetQpn(qpn);
    h.SetPsn(psn);
    h.SetAux(nicc::hal::ToNicTime(now));
    h.SetPayloadSize(static_cast<uint16_t>(payload));
    h.SetOpFlags(psn + 1 == qp.npkts ? NiccNicConfig::OP_LAST : 0);
    h.SetCc(static_cast<uint8_t>(qp.cc));
    if (qp.cc == nicc::hal::CcKind::kNsccRccc)
    {
        // RCCC: the backlog end (one message per QP: its end), at most
        // 2^30 bytes past this packet's (the engine's wrap-safe range).
        const uint64_t end = std::min<uint64_t>(qp.sizeBytes, SeqBytes(qp, psn) + payload + (uint64_t{1} << 30));
        h.SetCredit(static_cast<uint32_t>(end));
    }
    if (UsesInt(qp.cc))
    {
        h.EnableInt(m_cfg->intMultLog2);
    }
    if (UsesPint(qp.cc))
    {
        h.SetPint(0); // each switch raises it to its own utilisation code
    }
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddHeader(h);

    ++m_txDataPackets;
    m_txDataBytes += payload;
    if (psn < qp.sndMax)
    {
        ++m_retxPackets;
        m_retxBytes += payload;
        (*m_traces.retx)(qpn, psn);
    }
    else
    {
        qp.sndMax = psn + 1;
    }
    ArmRto(qp, qpn);
    return p;
}

void
NiccQpSender::ArmRto(TxQp& qp, uint32_t qpn)
{
    // Lazy timer: the deadline moves on progress; the event re-arms itself
    // when it fires early, so a steady flow costs one event per RTO.
    qp.rtoDeadlineNs = NowNs() + static_cast<uint64_t>(m_cfg->rto.GetNanoSeconds());
    if (!qp.rto.IsRunning())
    {
        qp.rto = Simulator::Schedule(m_cfg->rto, &NiccQpSender::OnRto, this, qpn);
    }
}

void
NiccQpSender::OnRto(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    if (qp.done || qp.sndUna >= qp.sndMax)
    {
        return; // nothing in flight; the next send re-arms
    }
    const uint64_t now = NowNs();
    if (now < qp.rtoDeadlineNs)
    {
        qp.rto = Simulator::Schedule(NanoSeconds(qp.rtoDeadlineNs - now), &NiccQpSender::OnRto, this, qpn);
        return;
    }
    ++m_timeouts;
    (*m_traces.timeout)(qpn, qp.sndUna);
    m_onTimeout(qpn, qp.lastEv);
    // Both recovery modes go back to the oldest unacknowledged packet.
    qp.sndNxt = qp.sndUna;
    ClearRetx(qp);
    ArmRto(qp, qpn);
    m_sched->MakeSendable(qpn);
}

bool
NiccQpSender::OnAck(const NiccRoceHeader& h, bool nack, nicc::hal::Event* e)
{
    const uint32_t qpn = h.GetQpn();
    if (!IsRunning(qpn))
    {
        return false;
    }
    TxQp& qp = m_tx[qpn];
    const uint64_t now = NowNs();
    const nicc::TimeNs nowNic = nicc::hal::ToNicTime(now);
    uint32_t cum = std::min(h.GetAux(), qp.sndMax);
    uint32_t newlyAcked = 0;
    if (cum > qp.sndUna)
    {
        // At most the bytes in flight; the event's count is 32-bit.
        newlyAcked = static_cast<uint32_t>(
            std::min<uint64_t>(SeqBytes(qp, cum) - SeqBytes(qp, qp.sndUna), UINT32_MAX));
        const uint32_t from = qp.sndUna;
        qp.sndUna = cum;
        qp.rtoDeadlineNs = now + static_cast<uint64_t>(m_cfg->rto.GetNanoSeconds());
        ForgetBelow(qp, from);
    }
    if (qp.sndNxt < qp.sndUna)
    {
        qp.sndNxt = qp.sndUna;
    }
    const uint16_t ev = static_cast<uint16_t>(h.GetSport() ^ qp.salt);
    if (nack)
    {
        // A trim NACK names its PSN in `psn`; a gap NACK means `cum` is missing.
        // Event::bytes = the payload this NACK reports lost (NSCC: W -= bytes
        // unless it quick-adapts); snd_nxt = one past the highest PSN sent
        // (the packets in flight now, whatever go-back-N rewound).
        const bool trimmed = h.IsTrimmed();
        m_trimNacksRx += trimmed ? 1 : 0;
        *e = nicc::hal::Event::Nack(ev, trimmed);
        e->snd_nxt = EngineSeq(qp, qp.sndMax);
        if (m_cfg->recovery == NiccNicConfig::GO_BACK_N)
        {
            const uint32_t lost = trimmed ? h.GetPsn() : cum;
            e->bytes = lost < qp.npkts ? Payload(qp, lost) : 0;
            if (cum < qp.sndMax)
            {
                qp.sndNxt = cum; // a trim NACK rewinds as any NACK does
            }
            return true;
        }
        if (trimmed)
        {
            // Exactly the trimmed PSN: packets below it may still be on their
            // way (the header overtook them in its high-priority class).
            const uint32_t psn = h.GetPsn();
            e->bytes = psn < qp.npkts ? Payload(qp, psn) : 0;
            MarkRetx(qp, psn, true);
            return true;
        }
        uint64_t lostBytes = MarkRetx(qp, cum, false) ? Payload(qp, cum) : 0;
        if (h.HasSack())
        {
            // Gap NACK: every hole below the highest arrived PSN; <= 64 steps.
            const uint64_t sack = h.GetSack();
            for (uint32_t i = 0; i < 64 && (sack >> i) != 0; ++i)
            {
                if (!((sack >> i) & 1u) && MarkRetx(qp, cum + 1 + i, false))
                {
                    lostBytes += Payload(qp, cum + 1 + i);
                }
            }
        }
        e->bytes = static_cast<uint32_t>(lostBytes); // <= 65 x 9216
        return true;
    }
    *e = nicc::hal::Event::Ack(EngineSeq(qp, qp.sndUna),
                               EngineSeq(qp, qp.sndNxt),
                               (h.GetOpFlags() & NiccNicConfig::OP_ECN_ECHO) != 0,
                               ev);
    e->bytes = newlyAcked;
    e->rtt_ns = nowNic - h.GetPsn(); // wraps: the echo is the NIC clock
    if (h.HasCredit())
    {
        e->credit = h.GetCredit(); // RCCC: the receiver's credit limit
    }
    // The stack is already decoded (the header holds it as records); the
    // event points at it for the duration of the engine call.
    if (UsesInt(qp.cc) && h.HasInt() &&
        (IntPerEntropy(qp.cc) || !m_cfg->intProbeSinglePath || ev == qp.intEv))
    {
        e->int_stack = &h.GetIntStack();
    }
    if (UsesPint(qp.cc) && h.HasPint())
    {
        e->has_pint = 1;
        e->pint_code = h.GetPint();
    }
    return true;
}

bool
NiccQpSender::MarkRetx(TxQp& qp, uint32_t psn, bool trimmed)
{
    if (psn < qp.sndUna || psn >= qp.sndMax)
    {
        return false; // acknowledged already, or never sent
    }
    const uint32_t bit = psn % NiccNicConfig::SR_WINDOW;
    const uint64_t mask = uint64_t{1} << (bit % 64);
    if ((qp.retxPending[bit / 64] & mask) || (!trimmed && (qp.retxSent[bit / 64] & mask)))
    {
        return false; // queued already, or resent and maybe still on its way
    }
    qp.retxPending[bit / 64] |= mask;
    ++qp.retxCount;
    return true;
}

uint32_t
NiccQpSender::TakeRetx(TxQp& qp)
{
    // sndMax - sndUna <= SR_WINDOW: each queued PSN has its own bit.
    const uint32_t span = std::min(qp.sndMax - qp.sndUna, NiccNicConfig::SR_WINDOW);
    for (uint32_t k = 0; k < span; ++k)
    {
        const uint32_t psn = qp.sndUna + k;
        const uint32_t bit = psn % NiccNicConfig::SR_WINDOW;
        const uint64_t mask = uint64_t{1} << (bit % 64);
        if (qp.retxPending[bit / 64] & mask)
        {
            qp.retxPending[bit / 64] &= ~mask;
            qp.retxSent[bit / 64] |= mask;
            --qp.retxCount;
            return psn;
        }
    }
    // Unreachable while retxCount counts the bits in [sndUna, sndMax).
    NS_ABORT_MSG("selective repeat: retransmission set out of step");
    return qp.sndUna;
}

void
NiccQpSender::ForgetBelow(TxQp& qp, uint32_t from)
{
    if (qp.sndUna - from >= NiccNicConfig::SR_WINDOW)
    {
        ClearRetx(qp);
        return;
    }
    for (uint32_t psn = from; psn != qp.sndUna; ++psn)
    {
        const uint32_t bit = psn % NiccNicConfig::SR_WINDOW;
        const uint64_t mask = uint64_t{1} << (bit % 64);
        if (qp.retxPending[bit / 64] & mask)
        {
            --qp.retxCount;
        }
        qp.retxPending[bit / 64] &= ~mask;
        qp.retxSent[bit / 64] &= ~mask;
    }
}

void
NiccQpSender::ClearRetx(TxQp& qp)
{
    for (uint32_t w = 0; w < NiccNicConfig::SR_WINDOW / 64; ++w)
    {
        qp.retxPending[w] = 0;
        qp.retxSent[w] = 0;
    }
    qp.retxCount = 0;
}

void
NiccQpSender::Complete(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    qp.done = 1;
    qp.finishNs = NowNs();
    qp.timer.Cancel();
    qp.rto.Cancel();
}

} // namespace ns3
