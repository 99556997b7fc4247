/*
 * nicc-qp-scheduler.cc — NiccQpScheduler: ready FIFO, paced heap, wake event.
 */
#include "nicc-qp-scheduler.h"

#include "nicc-scheduler.h"

#include "ns3/make-event.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

namespace
{
uint64_t
NowPs()
{
    return NiccNowNs() * 1000;
}

// Ceiling of ps in ns: a paced QP is never woken before its time.
uint64_t
CeilNs(uint64_t ps)
{
    return (ps + 999) / 1000;
}

// One packet time of `wireBytes` at `rateKbps`, in ps.
uint64_t
PacketPs(uint32_t wireBytes, uint32_t rateKbps)
{
    return uint64_t{wireBytes} * 8ULL * 1000000000ULL / std::max<uint32_t>(rateKbps, 1);
}
} // namespace

void
NiccQpScheduler::Init(Source* source, Ptr<NiccNetDevice> dev)
{
    m_source = source;
    m_dev = dev;
}

void
NiccQpScheduler::Dispose()
{
    CancelWake();
    m_dev = nullptr;
}

void
NiccQpScheduler::AddQp()
{
    m_qp.push_back(Pace{});
}

void
NiccQpScheduler::Start(uint32_t qpn, uint32_t rateKbps)
{
    m_qp[qpn].nextTxPs = NowPs();
    m_qp[qpn].rateKbps = rateKbps;
}

void
NiccQpScheduler::Requeue(uint32_t qpn)
{
    Pace& q = m_qp[qpn];
    if (!m_source->CanSend(qpn))
    {
        q.where = IDLE; // an ACK, NACK, timeout or action wakes it
        return;
    }
    // Due within the current ns counts as due: the device's wire time keeps
    // picosecond carry, so a line-rate QP is due exactly when the wire frees.
    if (q.nextTxPs <= NowPs() + 999)
    {
        q.where = READY;
        m_ready.push_back(qpn);
    }
    else
    {
        q.where = PACED;
        m_paced.emplace(q.nextTxPs, qpn);
    }
}

void
NiccQpScheduler::MakeSendable(uint32_t qpn)
{
    if (m_qp[qpn].where != IDLE)
    {
        return;
    }
    Rewind();
    Requeue(qpn);
    Kick();
}

void
NiccQpScheduler::SetRate(uint32_t qpn, uint32_t rateKbps)
{
    Pace& q = m_qp[qpn];
    const uint32_t old = q.rateKbps;
    q.rateKbps = std::max<uint32_t>(rateKbps, 1);
    if (q.rateKbps == old || q.where == SENDING || q.lastTxBytes == 0)
    {
        return; // Sent() paces at the new rate; a QP that never sent is due at its start
    }
    // Re-key on every change: the next packet may start one packet time at
    // the new rate after the last one (a rise moves it up, a cut back), and
    // not before now. A paced QP's old heap entry goes stale; a ready QP
    // that is no longer due moves to the heap when NextToSend pops it; an
    // idle QP is queued by its new time when it becomes sendable.
    const uint64_t next = std::max(q.lastTxPs + PacketPs(q.lastTxBytes, q.rateKbps), NowPs());
    if (next == q.nextTxPs)
    {
        return;
    }
    q.nextTxPs = next;
    if (q.where == PACED)
    {
        Rewind();
        m_paced.emplace(q.nextTxPs, qpn);
        Kick();
        RunStaleWakeAhead();
        RunBusyWakeAhead(false);
    }
}

void
NiccQpScheduler::Kick()
{
    if (m_inPull)
    {
        return; // the device pulls again when this packet is on the wire
    }
    if (!m_ready.empty())
    {
        m_dev->TryTransmit();
    }
    else if (!m_paced.empty())
    {
        ArmWake(m_paced.top().first);
        m_dev->TxSourceChanged();
    }
}

bool
NiccQpScheduler::IdleAt(Time end)
{
    Rewind();
    if (!m_ready.empty())
    {
        return false;
    }
    if (m_paced.empty())
    {
        return true;
    }
    // Nothing due within `end`'s nanosecond: NextToSend there would only
    // arm the wake at the earliest entry, or find it armed no later.
    const uint64_t top = m_paced.top().first;
    const uint64_t endPs = static_cast<uint64_t>(end.GetNanoSeconds()) * 1000;
    if (top <= endPs + 999)
    {
        return false;
    }
    const uint64_t at = CeilNs(top);
    if (m_wakeArmed)
    {
        // A wake due while this frame is on the wire asks for its end's
        // event then anyway: have it now (TxEndTaken runs the wake ahead).
        return m_wakeNs <= at &&
               !(m_wakeTie != 0 && m_dev->TxBusyBeyond(NanoSeconds(m_wakeNs), m_wakeTie));
    }
    // Arm it now, in the place the pull at the frame's end would give it;
    // taken back (Unarm) if anything changes before that end.
    m_preArmed = true;
    m_preArmFrame = m_dev->GetTxFrames();
    m_preArmWakeNs = m_wakeNs;
    m_wakeArmed = true;
    m_wakeNormal = false;
    m_wakeNs = at;
    m_wakeTie = 0;
    m_wake = m_dev->ScheduleFromTxEnd(NanoSeconds(at) - NiccNow(),
                                      MakeEvent(&NiccQpScheduler::Wake, this),
                                      &m_wakeTie);
    return true;
}

void
NiccQpScheduler::Unarm()
{
    if (!m_preArmed)
    {
        return;
    }
    m_preArmed = false;
    if (!m_dev->BeforeTxEnd(m_preArmFrame))
    {
        return; // the frame's end has passed: the wake stands where the pull would have armed it
    }
    Simulator::Remove(m_wake);
    m_wake = EventId();
    m_wakeArmed = false;
    m_wakeTie = 0;
    m_wakeNs = m_preArmWakeNs;
}

void
NiccQpScheduler::TxEndTaken(Ptr<NiccNetDevice> /*dev*/)
{
    Rewind();
    RunBusyWakeAhead(true); // the end's event is being scheduled
}

void
NiccQpScheduler::RunBusyWakeAhead(bool endHasEvent)
{
    // A wake due while the frame on the wire is still on it only finds the
    // wire busy and asks for the frame's end event: if the end has that
    // event, the wake's work is done now (remove it; put back by Rewind if
    // anything reads or changes the pacer before its place).
    NiccScheduler* s = NiccScheduler::Active();
    if (s == nullptr || m_inPull || m_ahead || m_preArmed || !m_wakeArmed || m_wakeTie == 0 ||
        (!m_wakeNormal && m_wakeNs <= NowPs() / 1000) ||
        !m_dev->TxBusyBeyond(NanoSeconds(m_wakeNs), m_wakeTie))
    {
        return;
    }
    if (!endHasEvent && !m_dev->TxEndHasEvent())
    {
        m_dev->TryTransmit(); // the end gets its event, then TxEndTaken comes back here
        return;
    }
    m_ahead = true;
    m_aheadNs = m_wakeNs;
    m_aheadTie = m_wakeTie;
    m_aheadStale.clear();
    CancelWake();
    m_wakeTie = 0;
}

void
NiccQpScheduler::Rewind()
{
    Unarm();
    if (!m_ahead)
    {
        return;
    }
    m_ahead = false;
    NiccScheduler* s = NiccScheduler::Active();
    if (s->Passed(NanoSeconds(m_aheadNs), m_aheadTie))
    {
        m_aheadStale.clear(); // its place has passed: what it did stands
        return;
    }
    // Before the stale wake's place: put back the wake and the entries.
    CancelWake();
    for (const PacedEntry& e : m_aheadStale)
    {
        m_paced.push(e);
    }
    m_aheadStale.clear();
    m_wakeArmed = true;
    m_wakeNormal = false;
    m_wakeNs = m_aheadNs;
    m_wakeTie = m_aheadTie;
    m_wake = s->ScheduleAt(NanoSeconds(m_aheadNs) - NiccNow(),
                           m_aheadTie,
                           MakeEvent(&NiccQpScheduler::Wake, this));
}

void
NiccQpScheduler::RunStaleWakeAhead()
{
    // The wake armed for the earliest paced entry finds, when it fires,
    // only entries a re-key has made stale: its pull would drop them and arm
    // the wake for the next entry, nothing else, if nothing changes before
    // then (the wire free by then and not paused, no QP due, no re-key; any
    // of these calls Rewind first: a frame's end that pulls does). Do it now, the new wake in the place the
    // old one's pull would have given it, and remove the old one.
    NiccScheduler* s = NiccScheduler::Active();
    const uint64_t nowNs = NowPs() / 1000;
    if (s == nullptr || m_inPull || !m_wakeArmed || m_wakeTie == 0 || m_wakeNs <= nowNs ||
        m_preArmed || !m_ready.empty() || !m_dev->TxFreeBefore(NanoSeconds(m_wakeNs)) ||
        m_dev->IsPaused(m_pauseClass) || m_paced.empty())
    {
        return;
    }
    const uint64_t dueBy = m_wakeNs * 1000 + 999;
    std::vector<PacedEntry> stale;
    while (!m_paced.empty() && m_paced.top().first <= dueBy)
    {
        const PacedEntry e = m_paced.top();
        const Pace& q = m_qp[e.second];
        if (q.where == PACED && q.nextTxPs == e.first)
        {
            break; // a QP due then: the wake sends
        }
        stale.push_back(e);
        m_paced.pop();
    }
    if (stale.empty() || (!m_paced.empty() && m_paced.top().first <= dueBy))
    {
        for (const PacedEntry& e : stale)
        {
            m_paced.push(e);
        }
        return;
    }
    m_ahead = true;
    m_aheadNs = m_wakeNs;
    m_aheadTie = m_wakeTie;
    m_aheadStale = std::move(stale);
    CancelWake();
    m_wakeTie = 0;
    if (m_paced.empty())
    {
        return;
    }
    const uint64_t at = CeilNs(m_paced.top().first);
    m_wakeArmed = true;
    m_wakeNormal = false;
    m_wakeNs = at;
    m_wake = s->ScheduleFrom(NanoSeconds(std::max(at, m_aheadNs)) - NiccNow(),
                             NanoSeconds(m_aheadNs),
                             m_aheadTie,
                             MakeEvent(&NiccQpScheduler::Wake, this),
                             &m_wakeTie);
}

void
NiccQpScheduler::CancelWake()
{
    if (!m_wakeArmed)
    {
        return;
    }
    m_wakeArmed = false;
    const bool normal = m_wakeNormal;
    m_wakeNormal = false;
    if (NiccScheduler::Active() != nullptr && (normal || m_wakeNs > NowPs() / 1000))
    {
        // NiccScheduler: removed, neither run nor counted. A wake not
        // inserted the usual way (armed ahead, or put back) has an ns-3
        // number later than its place, which Remove's expiry test
        // (EventId::IsExpired) would misread within its own nanosecond.
        Simulator::Remove(m_wake);
        return;
    }
    // Cancelled: it runs as a no-op (other schedulers remove by a search
    // through every pending event).
    m_wake.PeekEventImpl()->Cancel();
}

void
NiccQpScheduler::ArmWake(uint64_t atPs)
{
    const uint64_t at = CeilNs(atPs);
    const uint64_t now = NowPs() / 1000;
    if (m_wakeArmed && m_wakeNs <= at)
    {
        return;
    }
    CancelWake();
    m_wakeArmed = true;
    m_wakeNs = at;
    m_wake = Simulator::Schedule(NanoSeconds(at - std::min(at, now)), &NiccQpScheduler::Wake, this);
    m_wakeTie = NiccScheduler::InsertedTie(m_wake.GetUid());
    m_wakeNormal = true;
}

void
NiccQpScheduler::Wake()
{
    m_wakeArmed = false;
    m_wakeNormal = false;
    m_dev->TryTransmit();
}

uint32_t
NiccQpScheduler::NextToSend()
{
    Rewind();
    const uint64_t nowPs = NowPs();
    while (!m_paced.empty() && m_paced.top().first <= nowPs + 999)
    {
        const auto [atPs, qpn] = m_paced.top();
        m_paced.pop();
        Pace& q = m_qp[qpn];
        if (q.where == PACED && q.nextTxPs == atPs) // else superseded by a re-key
        {
            q.where = READY;
            m_ready.push_back(qpn);
        }
    }
    while (!m_ready.empty())
    {
        const uint32_t qpn = m_ready.front();
        m_ready.pop_front();
        Pace& q = m_qp[qpn];
        q.where = IDLE;
        if (!m_source->CanSend(qpn))
        {
            continue; // stays idle until something opens it
        }
        if (q.nextTxPs > nowPs + 999)
        {
            q.where = PACED; // re-keyed by a rate cut while it waited here
            m_paced.emplace(q.nextTxPs, qpn);
            continue;
        }
        q.where = SENDING;
        m_inPull = true;
        return qpn;
    }
    if (!m_paced.empty())
    {
        ArmWake(m_paced.top().first);
    }
    return NONE;
}

void
NiccQpScheduler::Sent(uint32_t qpn, uint32_t wireBytes)
{
    m_inPull = false;
    // Pace: the next packet may start one packet time at the QP's rate
    // after this one (or after its due time, if the wire made it late).
    Pace& q = m_qp[qpn];
    q.lastTxPs = std::max(q.nextTxPs, NowPs());
    q.lastTxBytes = wireBytes;
    q.nextTxPs = q.lastTxPs + PacketPs(wireBytes, q.rateKbps);
    Requeue(qpn);
}

} // namespace ns3
