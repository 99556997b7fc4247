/*
 * nicc-nic.cc — NiccNic: the ns-3 Object and the HAL backend. Every call
 * into the engine (Driver::Open/Close/Deliver/SelectEv) and Apply(), the
 * handler of the engine's actions, are in this file; the sender, receiver,
 * scheduler and configuration are classes of their own (nicc-nic.h); its
 * TypeId (Attributes and trace sources) is in nicc-nic-typeid.cc.
 */
#include "nicc-nic.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include "nicc/hal/clock.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccNic");
NS_OBJECT_ENSURE_REGISTERED(NiccNic);

namespace
{
inline nicc::TimeNs
NicNow()
{
    return nicc::hal::ToNicTime(NiccNowNs());
}

/// The receiver's event for a DATA packet (trimmed: only its header came).
/// With a credit word (nscc+rccc): the sequence after its payload and the
/// sender's backlog end; every packet but the last is full, and the last
/// ends the message, which is the backlog end it carries.
nicc::hal::Event
RxEvent(const NiccRoceHeader& h, bool ce)
{
    if (!h.HasCredit())
    {
        return nicc::hal::Event::RxData(ce);
    }
    const uint32_t payload = h.GetPayloadSize();
    const bool last = (h.GetOpFlags() & NiccNicConfig::OP_LAST) != 0;
    const uint32_t seqEnd =
        last ? h.GetCredit() : static_cast<uint32_t>((uint64_t{h.GetPsn()} + 1) * payload);
    return nicc::hal::Event::RxData(ce, seqEnd, payload, h.GetCredit());
}
} // namespace

NiccNic::NiccNic() = default;

NiccNic::~NiccNic() = default;

void
NiccNic::DoDispose()
{
    m_sched.Dispose();
    m_sender.Dispose();
    m_receiver.Dispose();
    m_dev = nullptr;
    Object::DoDispose();
}

uint32_t
NiccNic::TxQpStateBytes()
{
    return static_cast<uint32_t>(sizeof(NiccQpSender::TxQp) + NiccQpScheduler::QpStateBytes() +
                                 sizeof(TxSlot) + sizeof(uint32_t));
}

uint32_t
NiccNic::RxQpStateBytes()
{
    return static_cast<uint32_t>(NiccQpReceiver::QpStateBytes() + sizeof(nicc::hal::ReceiverSlot) +
                                 sizeof(uint32_t));
}

bool
NiccNic::Install(Ptr<NiccNetDevice> dev, std::string* error)
{
    const uint32_t lineMbps = static_cast<uint32_t>(dev->GetDataRate().GetBitRate() / 1000000);
    const uint32_t node = dev->GetNode()->GetId();
    std::string msg;
    if (!m_config.Compile(lineMbps, node, &m_cfg, &msg))
    {
        NS_ABORT_MSG_IF(error == nullptr, "NiccNic: " << msg);
        *error = msg;
        return false;
    }
    m_dev = dev;
    m_drv = std::make_unique<Driver>();
    // Empty tables; OpenTx/OpenRx grow them as flows open.
    m_tx = SlotArrays<TxSlot>{};
    m_rx = SlotArrays<nicc::hal::ReceiverSlot>{};
    NS_ABORT_MSG_UNLESS(m_drv->BindTx(m_tx.Resize(0)).ok() && m_drv->BindRx(m_rx.Resize(0)).ok(),
                        "NiccNic: driver storage");
    const nicc::Status st = m_drv->Init(&m_cfg, this);
    NS_ABORT_MSG_UNLESS(st.ok(), "NiccNic: the sender slot cannot run this configuration");
    m_sched.Init(&m_sender, dev);
    m_sched.SetPauseClass(m_config.dataPriority);
    m_sender.Init(&m_config,
                  lineMbps,
                  node,
                  m_config.payloadSize ? m_config.payloadSize : dev->GetMtu(),
                  m_cfg.spray.ev_bits,
                  &m_sched,
                  NiccQpSender::Traces{&m_retxTrace, &m_timeoutTrace},
                  MakeCallback(&NiccNic::OnQpTimeout, this));
    m_receiver.Init(&m_config, node, dev, NiccQpReceiver::Traces{&m_deliverTrace, &m_outOfOrderTrace});
    dev->SetTxPullCallback(MakeCallback(&NiccNic::Pull, this));
    dev->SetTxIdleCallback(MakeCallback(&NiccNic::TxIdleAt, this));
    dev->SetTxEndTakenCallback(MakeCallback(&NiccQpScheduler::TxEndTaken, &m_sched));
    dev->SetNiccReceiveCallback(MakeCallback(&NiccNic::Receive, this));
    return true;
}

// ---------------------------------------------------------------------------
// Sender side.
// ---------------------------------------------------------------------------

uint32_t
NiccNic::AddFlow(uint32_t flowId, uint32_t dst, uint64_t bytes, Time start)
{
    NS_ABORT_MSG_UNLESS(m_dev, "NiccNic::AddFlow before Install");
    return AddFlow(flowId, dst, bytes, start, m_cfg.cc);
}

uint32_t
NiccNic::AddFlow(uint32_t flowId, uint32_t dst, uint64_t bytes, Time start, nicc::hal::CcKind cc)
{
    NS_ABORT_MSG_UNLESS(m_dev, "NiccNic::AddFlow before Install");
    NS_ABORT_MSG_UNLESS(static_cast<uint32_t>(cc) < nicc::hal::kCcKindCount,
                        "NiccNic::AddFlow: unknown cc code " << +static_cast<uint8_t>(cc));
    const uint32_t qpn = m_sender.AddQp(flowId, dst, bytes, cc);
    if (cc == nicc::hal::CcKind::kDcqcn)
    {
        const uint32_t own = dst < m_dcqcnWindowTo.size() ? m_dcqcnWindowTo[dst] : 0;
        m_sender.Qp(qpn).dcqcnWindowBytes = own ? own : m_config.dcqcnWindowBytes;
    }
    m_sched.AddQp();
    const Time now = NiccNow();
    Simulator::Schedule(start > now ? start - now : Time(0), &NiccNic::StartQp, this, qpn);
    return qpn;
}

void
NiccNic::SetDcqcnWindow(uint32_t dst, uint32_t bytes)
{
    if (dst >= m_dcqcnWindowTo.size())
    {
        m_dcqcnWindowTo.resize(dst + 1, 0);
    }
    m_dcqcnWindowTo[dst] = bytes;
}

void
NiccNic::StartQp(uint32_t qpn)
{
    NiccQpSender::TxQp& qp = m_sender.Qp(qpn);
    qp.startNs = NiccNowNs();
    if (!OpenTx(qpn))
    {
        ++m_flowTableFullTx;
        NS_LOG_WARN("driver table full (" << MAX_FLOWS << " flows): QP " << qpn
                                          << " waits for a slot");
        m_flowTableFullTrace(false, qp.dst, qpn);
        m_waitingTx.push_back(qpn);
    }
}

template <class Slot>
nicc::hal::SlotStorage<Slot>
NiccNic::SlotArrays<Slot>::Resize(uint32_t n)
{
    slots.resize(n);
    ids.resize(n);
    used.resize((n + 31) / 32, 0);
    owner.resize(n, 0);
    return nicc::hal::SlotStorage<Slot>{slots.data(), ids.data(), used.data(), n};
}

static uint32_t
NextCapacity(uint32_t cap)
{
    return std::min(NiccNic::MAX_FLOWS, std::max(NiccNic::FIRST_SLOTS, 2 * cap));
}

bool
NiccNic::GrowTx()
{
    const uint32_t cap = m_drv->tx_capacity();
    if (cap >= MAX_FLOWS)
    {
        return false;
    }
    return m_drv->GrowTx(m_tx.Resize(NextCapacity(cap))).ok();
}

bool
NiccNic::GrowRx()
{
    const uint32_t cap = m_drv->rx_capacity();
    if (cap >= MAX_FLOWS)
    {
        return false;
    }
    return m_drv->GrowRx(m_rx.Resize(NextCapacity(cap))).ok();
}

bool
NiccNic::OpenTx(uint32_t qpn)
{
    if (m_drv->tx_size() == m_drv->tx_capacity() && !GrowTx())
    {
        return false; // at MAX_FLOWS: refused (counted by the caller)
    }
    nicc::hal::FlowId f;
    if (!m_drv->OpenTx(qpn, m_sender.Seed(qpn), &f, 0, m_sender.Qp(qpn).cc).ok())
    {
        return false;
    }
    m_tx.owner[f] = qpn;
    m_sender.Start(qpn, f, m_drv->WindowBytes(f));
    m_sched.Start(qpn, m_drv->RateKbps(f));
    m_sched.MakeSendable(qpn);
    return true;
}

void
NiccNic::ServeWaiting()
{
    // Refused flows take freed slots in the order they were refused.
    while (!m_waitingTx.empty() && m_drv->tx_size() < MAX_FLOWS)
    {
        const uint32_t qpn = m_waitingTx.front();
        m_waitingTx.pop_front();
        (void)OpenTx(qpn);
    }
    while (!m_waitingRx.empty() && m_drv->rx_size() < MAX_FLOWS)
    {
        const uint32_t idx = m_waitingRx.front();
        m_waitingRx.pop_front();
        if (!m_receiver.Qp(idx).done)
        {
            (void)OpenRx(idx);
        }
    }
}

Ptr<Packet>
NiccNic::Pull(Ptr<NiccNetDevice> dev)
{
    m_sched.Rewind();
    if (dev->IsPaused(m_config.dataPriority))
    {
        return nullptr; // the device pulls again when the pause ends
    }
    const uint32_t qpn = m_sched.NextToSend();
    if (qpn == NiccQpScheduler::NONE)
    {
        return nullptr;
    }
    const nicc::hal::FlowId f = m_sender.Qp(qpn).drvFlow;
    uint16_t ev = m_sender.TakeForcedEv(qpn);
    if (ev == 0)
    {
        ev = m_drv->SelectEv(f, NicNow());
    }
    Ptr<Packet> p = m_sender.BuildData(qpn, ev);
    // May call Apply (DCQCN byte counter): the QP is being sent, so the
    // action only updates its rate and the packet goes out regardless.
    (void)m_drv->Deliver(f, nicc::hal::Event::TxDone(p->GetSize()), NicNow());
    m_sched.Sent(qpn, p->GetSize());
    return p;
}

bool
NiccNic::TxIdleAt(Ptr<NiccNetDevice> dev, Time end)
{
    m_sched.Rewind();
    const uint8_t cls = m_config.dataPriority;
    if (end < dev->GetPausedUntil(cls) && !dev->GetIgnorePause(cls))
    {
        return true; // Pull returns at once; the pause's end or a resume kicks the device
    }
    return m_sched.IdleAt(end);
}

void
NiccNic::OnAck(const NiccRoceHeader& h, bool nack)
{
    nicc::hal::Event e;
    const uint32_t qpn = h.GetQpn();
    const uint64_t ackedBefore = qpn < m_sender.GetNQps() ? m_sender.AckedBytes(qpn) : 0;
    if (!m_sender.OnAck(h, nack, &e))
    {
        return;
    }
    const nicc::hal::FlowId f = m_sender.Qp(qpn).drvFlow;
    const nicc::hal::CcKind cc = m_sender.Qp(qpn).cc;
    const bool nscc = cc == nicc::hal::CcKind::kNscc || cc == nicc::hal::CcKind::kNsccRccc;
    if (nack && nscc && m_sender.AckedBytes(qpn) > ackedBefore)
    {
        // NSCC counts delivered bytes (quick adapt cuts W to them): the
        // cumulative part of a NACK is an ACK without RTT sample or mark.
        nicc::hal::Event a = nicc::hal::Event::Ack(static_cast<uint32_t>(m_sender.AckedBytes(qpn)),
                                                   e.snd_nxt,
                                                   false,
                                                   e.ev);
        a.bytes = static_cast<uint32_t>(
            std::min<uint64_t>(m_sender.AckedBytes(qpn) - ackedBefore, UINT32_MAX));
        a.credit = h.HasCredit() ? h.GetCredit() : 0; // RCCC: the grant the NACK carries
        (void)m_drv->Deliver(f, a, NicNow());
    }
    (void)m_drv->Deliver(f, e, NicNow());
    if (m_config.cnpOnAck && nicc::hal::KindTakesCnp(cc) &&
        (h.GetOpFlags() & NiccNicConfig::OP_ECN_ECHO) != 0)
    {
        DeliverCnp(qpn); // the ACK's CE echo is the CNP (CnpOnAck)
    }
    if (m_sender.AllAcked(qpn))
    {
        CloseTx(qpn);
        return;
    }
    m_sched.MakeSendable(qpn);
}

void
NiccNic::CloseTx(uint32_t qpn)
{
    m_sender.Complete(qpn);
    NiccQpSender::TxQp& qp = m_sender.Qp(qpn);
    (void)m_drv->CloseTx(qp.drvFlow);
    qp.drvFlow = nicc::hal::kNoFlow;
    m_flowCompleteTrace(qp.flowId, qpn, qp.sizeBytes, NanoSeconds(qp.finishNs - qp.startNs));
    ServeWaiting();
}

void
NiccNic::OnCnp(const NiccRoceHeader& h)
{
    DeliverCnp(h.GetQpn());
}

void
NiccNic::DeliverCnp(uint32_t qpn)
{
    ++m_cnpsReceived;
    if (!m_sender.IsRunning(qpn))
    {
        return;
    }
    m_cnpRxTrace(qpn, 0);
    (void)m_drv->Deliver(m_sender.Qp(qpn).drvFlow, nicc::hal::Event::Cnp(), NicNow());
}

void
NiccNic::OnQpTimer(uint32_t qpn)
{
    const NiccQpSender::TxQp& qp = m_sender.Qp(qpn);
    if (!qp.done)
    {
        (void)m_drv->Deliver(qp.drvFlow, nicc::hal::Event::Timer(), NicNow());
    }
}

void
NiccNic::OnQpTimeout(uint32_t qpn, uint16_t ev)
{
    (void)m_drv->Deliver(m_sender.Qp(qpn).drvFlow, nicc::hal::Event::Timeout(ev), NicNow());
}

// ---------------------------------------------------------------------------
// Receiver side.
// ---------------------------------------------------------------------------

void
NiccNic::Receive(Ptr<NiccNetDevice> /*dev*/, Ptr<Packet> p)
{
    uint8_t type = 0;
    p->CopyData(&type, 1);
    if (type == NiccRoceHeader::DATA)
    {
        OnData(p);
        return;
    }
    NiccRoceHeader h;
    p->PeekHeader(h);
    switch (h.GetType())
    {
    case NiccRoceHeader::ACK:
        OnAck(h, false);
        break;
    case NiccRoceHeader::NACK:
        OnAck(h, true);
        break;
    case NiccRoceHeader::CNP:
        OnCnp(h);
        break;
    default:
        break;
    }
}

bool
NiccNic::OpenRx(uint32_t idx)
{
    NiccQpReceiver::RxQp& rx = m_receiver.Qp(idx);
    const uint32_t key = static_cast<uint32_t>((static_cast<uint64_t>(rx.src) << 32) | rx.qpn);
    if (m_drv->rx_size() == m_drv->rx_capacity() && !GrowRx())
    {
        return false; // at MAX_FLOWS: refused (counted by the caller)
    }
    nicc::hal::FlowId f;
    if (!m_drv->OpenRx(key, &f, rx.senderCc).ok())
    {
        return false;
    }
    rx.drvFlow = f;
    m_rx.owner[f] = idx;
    return true;
}

void
NiccNic::OnData(Ptr<Packet> p)
{
    NiccRoceHeader h;
    p->RemoveHeader(h);
    bool isNew = false;
    const uint32_t idx = m_receiver.Find(h.GetSrc(), h.GetQpn(), &isNew);
    if (isNew)
    {
        // The sender's CC (DATA cc byte) decides what the flow is served:
        // CNPs only for a sender that takes them. An unknown code gets none.
        m_receiver.Qp(idx).senderCc = h.GetCc() < nicc::hal::kCcKindCount
                                          ? static_cast<nicc::hal::CcKind>(h.GetCc())
                                          : nicc::hal::CcKind::kNone;
    }
    if (isNew && !OpenRx(idx))
    {
        ++m_flowTableFullRx;
        NS_LOG_WARN("driver table full (" << MAX_FLOWS << " flows): no notification point for flow "
                                          << h.GetSrc() << "/" << h.GetQpn() << " yet");
        m_flowTableFullTrace(true, h.GetSrc(), h.GetQpn());
        m_waitingRx.push_back(idx);
    }
    if (h.IsTrimmed())
    {
        // Only the header came: nothing to place; the trim NACK goes out at
        // once. A trim is congestion: the notification point sees it as a
        // CE mark (DCQCN's CNP, paced by the engine, cuts the sender's rate).
        const nicc::hal::FlowId tf = m_receiver.Qp(idx).drvFlow;
        if (tf != nicc::hal::kNoFlow)
        {
            (void)m_drv->DeliverRx(tf, RxEvent(h, true), NicNow());
        }
        m_receiver.OnTrimmed(idx, h);
        return;
    }
    const bool ce = m_receiver.Arrive(idx, h);
    const nicc::hal::FlowId f = m_receiver.Qp(idx).drvFlow;
    if (f != nicc::hal::kNoFlow)
    {
        // Notification point; may Apply(kActSendCnp).
        (void)m_drv->DeliverRx(f, RxEvent(h, ce), NicNow());
    }
    else if (h.HasCredit())
    {
        // An nscc+rccc sender whose flow has no receiver slot (table full):
        // no credit control for it until a slot frees; its ACKs grant up to
        // its backlog end, so it runs on NSCC alone instead of waiting at
        // its initial credit with nothing in flight to bring a later grant.
        NiccQpReceiver::RxQp& q = m_receiver.Qp(idx);
        q.creditLimit = h.GetCredit();
        q.hasCredit = 1;
    }
    m_receiver.Place(idx, h);
    NiccQpReceiver::RxQp& rx = m_receiver.Qp(idx);
    if (rx.done && rx.drvFlow != nicc::hal::kNoFlow)
    {
        (void)m_drv->CloseRx(rx.drvFlow);
        rx.drvFlow = nicc::hal::kNoFlow;
        ServeWaiting();
    }
}

// ---------------------------------------------------------------------------
// HAL backend: the engine's actions.
// ---------------------------------------------------------------------------

void
NiccNic::ChangeEv(uint32_t qpn, uint16_t ev)
{
    // NSCC's change_ev (ECN at low delay: the path is congested, not the
    // flow). The driver has already handed the spray policy kEcn for that
    // EV (every marked ACK is spray feedback): bitmap/DLB/PLB weigh it and
    // REPS does not recycle it. ECMP has one EV that feedback never moves:
    // the NIC moves the flow itself, to another per-QP salt (another UDP
    // source port, so another ECMP path where the fabric has one). A mark
    // from before the move names the old port (its EV no longer matches
    // the one in use) and moves nothing.
    ++m_evChangeActions;
    NiccQpSender::TxQp& qp = m_sender.Qp(qpn);
    if (m_cfg.spray.policy != nicc::spray::Policy::kEcmp || ev != qp.lastEv)
    {
        return;
    }
    m_sender.Resalt(qpn);
    ++m_evMoves;
}

void
NiccNic::ApplyRx(nicc::hal::FlowId flow, const nicc::Action& a)
{
    // The driver asks only for DCQCN senders; with CnpOnAck their ACKs'
    // ECN echoes are the CNPs.
    if (a.Has(nicc::kActSendCnp) && !m_config.cnpOnAck)
    {
        m_receiver.SendCnp(m_rx.owner[flow]);
    }
    if (a.Has(nicc::kActGrantCredit))
    {
        // RCCC (nscc+rccc senders): the credit limit the flow's ACKs echo.
        NiccQpReceiver::RxQp& rx = m_receiver.Qp(m_rx.owner[flow]);
        rx.creditLimit = a.window_bytes;
        rx.hasCredit = 1;
    }
}

void
NiccNic::Apply(nicc::hal::FlowId flow, const nicc::Action& a)
{
    const uint32_t owner = m_tx.owner[flow];
    NiccQpSender::TxQp& qp = m_sender.Qp(owner);
    if (a.Has(nicc::kActSetRate))
    {
        m_sched.SetRate(owner, a.rate_kbps);
        m_rateTrace(owner, m_sched.GetRateKbps(owner));
    }
    if (a.Has(nicc::kActSetWindow))
    {
        qp.windowBytes = a.window_bytes;
        m_windowTrace(owner, qp.windowBytes);
    }
    if (a.Has(nicc::kActUseEv))
    {
        qp.forcedEv = a.ev;
    }
    if (a.Has(nicc::kActChangeEv))
    {
        ChangeEv(owner, a.ev);
    }
    if (a.Has(nicc::kActCancelTimer))
    {
        qp.timer.Cancel();
    }
    if (a.Has(nicc::kActArmTimer))
    {
        const uint64_t now = NiccNowNs();
        const uint64_t due = nicc::hal::Unwrap(a.timer_ns, now);
        qp.timer.Cancel();
        qp.timer = Simulator::Schedule(NanoSeconds(due > now ? due - now : 0),
                                       &NiccNic::OnQpTimer,
                                       this,
                                       owner);
    }
    if (a.Has(nicc::kActSetWindow))
    {
        m_sched.MakeSendable(owner); // a wider window may unblock the QP
    }
}

} // namespace ns3
