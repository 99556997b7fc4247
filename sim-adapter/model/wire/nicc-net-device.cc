/*
 * nicc-net-device.cc — NiccNetDevice: per-class egress queues, transmit
 * scheduling (PFC frames > class 0 > round robin over data classes > pull
 * callback), PFC pause honoured per class. A frame costs its arrival at the
 * peer, plus a transmit-complete event here only when something waits for
 * its end (under NiccScheduler; under any other scheduler, always). The
 * rest of ns-3's NetDevice interface is nicc-net-device-ns3.cc.
 */
#include "nicc-net-device.h"

#include "nicc-channel.h"
#include "nicc-rocev2-header.h"
#include "nicc-scheduler.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccNetDevice");
NS_OBJECT_ENSURE_REGISTERED(NiccNetDevice);

TypeId
NiccNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NiccNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Nicc")
            .AddConstructor<NiccNetDevice>()
            .AddAttribute("DataRate",
                          "Line rate of the port.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&NiccNetDevice::m_bps),
                          MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest payload of one data packet in bytes (RoCE MTU: "
                          "1024, 4096 or 9000 for jumbo).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&NiccNetDevice::SetMtu, &NiccNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(256, 9216))
            .AddAttribute("NumClasses",
                          "Number of priority classes served (class 0 = control, strict "
                          "priority; classes 1.. = data, round robin).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&NiccNetDevice::m_numClasses),
                          MakeUintegerChecker<uint32_t>(2, MAX_CLASSES))
            .AddAttribute("ExtraWireBytes",
                          "Bytes added to every frame's wire time only (e.g. 20 for "
                          "preamble + inter-frame gap, or 50 more to pad the 32-byte "
                          "header to Eth+IP+UDP+BTH+ICRC+FCS).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccNetDevice::m_extraWireBytes),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("PauseUntilResume",
                          "A received PFC XOFF holds its class until a resume frame "
                          "(quanta 0), ignoring its pause time (the HPCC simulator's "
                          "QbbNetDevice); false = the pause expires after its quanta "
                          "(IEEE 802.1Qbb).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NiccNetDevice::m_pauseUntilResume),
                          MakeBooleanChecker())
            .AddTraceSource("Tx",
                            "A frame starts transmission.",
                            MakeTraceSourceAccessor(&NiccNetDevice::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A non-PFC frame arrived.",
                            MakeTraceSourceAccessor(&NiccNetDevice::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame arrived: (class, quanta); quanta 0 = resume.",
                            MakeTraceSourceAccessor(&NiccNetDevice::m_pfcRxTrace),
                            "ns3::NiccNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was queued for sending: (class, quanta).",
                            MakeTraceSourceAccessor(&NiccNetDevice::m_pfcTxTrace),
                            "ns3::NiccNetDevice::PfcTracedCallback");
    return tid;
}

NiccNetDevice::NiccNetDevice()
    : m_bps(DataRate("100Gbps")),
      m_numClasses(2),
      m_extraWireBytes(0),
      m_mtu(1024),
      m_address(Mac48Address::Allocate())
{
    for (uint32_t c = 0; c < MAX_CLASSES; ++c)
    {
        m_pfc[c].lastRx = Time(-1);
        m_tx[c].last = Time(-1);
    }
}

NiccNetDevice::~NiccNetDevice() = default;

void
NiccNetDevice::DoDispose()
{
    for (auto& pfc : m_pfc)
    {
        pfc.event.Cancel();
    }
    for (auto& c : m_class)
    {
        c.queue.Clear();
    }
    m_pfcQueue.Clear();
    m_channel = nullptr;
    m_node = nullptr;
    m_egressCb = EgressCallback();
    m_niccRxCb = NiccReceiveCallback();
    m_pullCb = TxPullCallback();
    m_txIdleCb = TxIdleCallback();
    m_txEndTakenCb = TxEndTakenCallback();
    m_rxCb = NetDevice::ReceiveCallback();
    NetDevice::DoDispose();
}

bool
NiccNetDevice::Attach(Ptr<NiccChannel> ch)
{
    if (!ch->Attach(this))
    {
        return false;
    }
    m_channel = ch;
    return true;
}

Time
NiccNetDevice::GetPropagationDelay() const
{
    return m_channel ? m_channel->GetDelay() : Time(0);
}

Ptr<NiccNetDevice>
NiccNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

void
NiccNetDevice::Enqueue(Ptr<Packet> p, uint8_t cls, uint32_t meta)
{
    NS_ABORT_MSG_UNLESS(cls < m_numClasses, "class " << +cls << " >= NumClasses");
    const uint32_t size = p->GetSize();
    m_class[cls].queue.PushBack(Item{std::move(p), meta});
    m_class[cls].queueBytes += size;
    m_totalQueueBytes += size;
    TryTransmit();
}

void
NiccNetDevice::SendPfc(uint8_t cls, uint16_t quanta)
{
    NiccPfcHeader h;
    h.SetQuanta(cls, quanta);
    Ptr<Packet> p = Create<Packet>(NiccPfcHeader::MIN_FRAME_BYTES - NiccPfcHeader::SERIALIZED_SIZE);
    p->AddHeader(h);
    m_pfcQueue.PushBack(p);
    if (quanta > 0)
    {
        ++m_pfcPauseTx;
    }
    m_pfcTxTrace(cls, quanta);
    TryTransmit();
}

bool
NiccNetDevice::IsTxBusy() const
{
    if (!m_txBusy)
    {
        return false;
    }
    if (m_choosing || m_txDoneScheduled || m_lazy == nullptr)
    {
        return true;
    }
    // No event marks the frame's end: it has ended once the event order has
    // passed the position its TransmitComplete would have had.
    const Time now = NiccNow();
    return now < m_txEnd || (now == m_txEnd && m_lazy->CurrentTie() < m_txTie);
}

bool
NiccNetDevice::BeforeTxEnd(uint64_t frame) const
{
    return frame == m_txFrames && m_lazy != nullptr && m_txBusy && !m_choosing &&
           !m_txDoneScheduled && IsTxBusy();
}

void
NiccNetDevice::TryTransmit()
{
    if (!m_channel)
    {
        return;
    }
    if (IsTxBusy())
    {
        // Sent when the wire frees: make sure something happens then.
        m_kickAfterPull = true;
        if (!m_choosing && !m_txDoneScheduled)
        {
            ScheduleTransmitComplete();
        }
        return;
    }
    m_txBusy = false;
    m_kickAfterPull = false;
    if (!m_pfcQueue.Empty())
    {
        Ptr<Packet> p = m_pfcQueue.PopFront();
        StartTransmission(p);
        return;
    }
    const Time now = NiccNow();
    // Class 0 first (strict priority), then data classes starting at m_rrNext.
    for (uint32_t k = 0; k < m_numClasses; ++k)
    {
        uint32_t cls = 0;
        if (k > 0)
        {
            cls = 1 + (m_rrNext - 1 + (k - 1)) % (m_numClasses - 1);
        }
        auto& q = m_class[cls].queue;
        if (q.Empty() || (now < m_class[cls].pausedUntil && !m_class[cls].ignorePause))
        {
            continue;
        }
        Item it = q.PopFront();
        const uint32_t size = it.packet->GetSize();
        m_class[cls].queueBytes -= size;
        m_totalQueueBytes -= size;
        if (cls > 0)
        {
            m_rrNext = 1 + cls % (m_numClasses - 1);
        }
        ++m_tx[cls].packets;
        m_tx[cls].last = now;
        // The wire belongs to this frame from here on. The egress callback
        // may queue a PFC frame on this same port (the switch sends XON when
        // this departure frees its ingress); it must wait for this frame, not
        // start a second transmission beside it (two frames on the wire at
        // once: the port would run at twice its rate from then on).
        m_txBusy = true;
        m_choosing = true;
        if (!m_egressCb.IsNull())
        {
            m_egressCb(this, it.packet, static_cast<uint8_t>(cls), it.meta);
        }
        StartTransmission(it.packet);
        return;
    }
    if (!m_pullCb.IsNull())
    {
        // Reserved the same way while the NIC builds its packet; anything it
        // pushes or asks for meanwhile is sent after it, or at once if it
        // returns nothing.
        m_txBusy = true;
        m_choosing = true;
        Ptr<Packet> p = m_pullCb(this);
        if (p)
        {
            StartTransmission(p);
            return;
        }
        m_txBusy = false;
        m_choosing = false;
        if (m_kickAfterPull)
        {
            m_kickAfterPull = false;
            TryTransmit();
        }
    }
}

void
NiccNetDevice::StartTransmission(const Ptr<Packet>& p)
{
    m_txBusy = true;
    m_choosing = false;
    ++m_txFrames;
    const uint32_t size = p->GetSize();
    m_txBytes += size;
    const Time txTime = WireTime(size + m_extraWireBytes);
    if (!m_txTrace.IsEmpty())
    {
        m_txTrace(p);
    }
    m_lazy = NiccScheduler::Active();
    if (m_lazy == nullptr)
    {
        m_txDoneScheduled = true;
        Simulator::Schedule(txTime, &NiccNetDevice::TransmitComplete, this);
    }
    else
    {
        // The position TransmitComplete would take if scheduled here; it is
        // scheduled (at that position) only if something waits for the end.
        m_txEnd = NiccNow() + txTime;
        m_txTie = m_lazy->Mark();
        m_txDoneScheduled = false;
        if (m_kickAfterPull || SomethingWaits())
        {
            ScheduleTransmitComplete();
        }
    }
    m_kickAfterPull = false;
    m_channel->Transmit(p, this, txTime);
}

bool
NiccNetDevice::SomethingWaits()
{
    if (!m_pfcQueue.Empty())
    {
        return true;
    }
    for (uint32_t cls = 0; cls < m_numClasses; ++cls)
    {
        if (!m_class[cls].queue.Empty())
        {
            return true;
        }
    }
    return !m_pullCb.IsNull() && (m_txIdleCb.IsNull() || !m_txIdleCb(this, m_txEnd));
}

void
NiccNetDevice::ScheduleTransmitComplete()
{
    if (!m_txEndTakenCb.IsNull())
    {
        m_txEndTakenCb(this); // the pull source's event armed for the end goes back
    }
    m_txDoneScheduled = true;
    m_lazy->ScheduleAt(m_txEnd - NiccNow(),
                       m_txTie,
                       MakeEvent(&NiccNetDevice::TransmitComplete, this));
}

EventId
NiccNetDevice::ScheduleFromTxEnd(const Time& delay, EventImpl* impl, uint64_t* settledTie)
{
    NS_ABORT_MSG_UNLESS(m_lazy != nullptr && !m_txDoneScheduled && IsTxBusy(),
                        "ScheduleFromTxEnd outside a frame whose end has no event");
    return m_lazy->ScheduleFrom(delay, m_txEnd, m_txTie, impl, settledTie);
}

void
NiccNetDevice::TxSourceChanged()
{
    if (m_lazy != nullptr && !m_choosing && !m_txDoneScheduled && IsTxBusy() &&
        SomethingWaits())
    {
        ScheduleTransmitComplete();
    }
}

Time
NiccNetDevice::WireTime(uint32_t bytes)
{
    // Exact picoseconds (bytes * 8e12 < 2^64 for any frame below 2 MB),
    // then whole simulator time steps with the sub-step remainder carried to
    // the next frame, so the long-run rate is exact at any Time resolution
    // (at the default 1 ns, rounding each 1 KB frame at 100 Gb/s would
    // otherwise speed the link up by 0.3%). Integer only: no int64x64 math.
    const uint64_t bps = m_bps.GetBitRate();
    if (m_stepPs == 0)
    {
        const int64_t step = TimeStep(1).GetPicoSeconds();
        m_stepPs = step > 0 ? static_cast<uint64_t>(step) : 1;
    }
    const uint64_t ps = static_cast<uint64_t>(bytes) * 8000000000000ULL / bps + m_carryPs;
    m_carryPs = ps % m_stepPs;
    return TimeStep(ps / m_stepPs);
}

void
NiccNetDevice::TransmitComplete()
{
    m_txBusy = false;
    m_txDoneScheduled = false;
    TryTransmit();
}

void
NiccNetDevice::Receive(const Ptr<Packet>& p)
{
    uint8_t type = 0;
    p->CopyData(&type, 1);
    if (type == NiccRoceHeader::PFC)
    {
        HandlePfc(p);
        return;
    }
    if (!m_rxTrace.IsEmpty())
    {
        m_rxTrace(p);
    }
    if (!m_niccRxCb.IsNull())
    {
        m_niccRxCb(this, p);
    }
    else if (!m_rxCb.IsNull())
    {
        m_rxCb(this, p, 0, Address());
    }
}

void
NiccNetDevice::HandlePfc(Ptr<Packet> p)
{
    NiccPfcHeader h;
    p->PeekHeader(h);
    const Time now = NiccNow();
    for (uint8_t cls = 0; cls < MAX_CLASSES; ++cls)
    {
        if (!h.IsClassEnabled(cls))
        {
            continue;
        }
        const uint16_t quanta = h.GetQuanta(cls);
        m_pfcRxTrace(cls, quanta);
        m_pfc[cls].event.Cancel();
        if (quanta == 0)
        {
            m_class[cls].pausedUntil = now;
            continue;
        }
        ++m_pfcPauseRx;
        m_pfc[cls].lastRx = now;
        if (!(now < m_class[cls].pausedUntil))
        {
            m_pfc[cls].start = now;
        }
        if (m_pauseUntilResume)
        {
            m_class[cls].pausedUntil = Time::Max(); // until a resume frame (quanta 0)
            continue;
        }
        // One quantum is 512 bit times of this link.
        const Time pause = m_bps.CalculateBytesTxTime(64u * quanta);
        m_class[cls].pausedUntil = now + pause;
        m_pfc[cls].event = Simulator::Schedule(pause, &NiccNetDevice::PauseExpired, this, cls);
    }
    TryTransmit();
}

void
NiccNetDevice::PauseExpired(uint8_t /*cls*/)
{
    TryTransmit();
}

void
NiccNetDevice::SetIgnorePause(uint8_t cls, bool ignore)
{
    m_class[cls].ignorePause = ignore;
    if (ignore)
    {
        TryTransmit();
    }
}

uint32_t
NiccNetDevice::FlushQueue(uint8_t cls, Callback<void, Ptr<Packet>, uint32_t> cb)
{
    NiccRing<Item> q;
    q.Swap(m_class[cls].queue);
    m_totalQueueBytes -= m_class[cls].queueBytes;
    m_class[cls].queueBytes = 0;
    for (std::size_t k = 0; k < q.Size(); ++k)
    {
        cb(q.At(k).packet, q.At(k).meta);
    }
    return static_cast<uint32_t>(q.Size());
}

uint32_t
NiccNetDevice::PeekQueueMeta(uint8_t cls, uint32_t* metas, uint32_t max) const
{
    uint32_t n = 0;
    for (std::size_t k = 0; k < m_class[cls].queue.Size() && n < max; ++k)
    {
        metas[n++] = m_class[cls].queue.At(k).meta;
    }
    return n;
}

} // namespace ns3
