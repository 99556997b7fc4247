/*
 * nicc-switch-node.cc — NiccSwitchNode: ingress (parse, route, admit, XOFF),
 * egress dequeue (release, XON, ECN mark, INT stamp) and PFC frame sending;
 * trimming is nicc-switch-trim.cc, the PFC watchdog's hooks
 * nicc-switch-watchdog.cc.
 */
#include "nicc-switch-node.h"
#include "nicc-hash.h"

#include "nicc-int.h"
#include "nicc-rocev2-header.h"

#include "ns3/abort.h"
#include "ns3/nstime.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccSwitchNode");
NS_OBJECT_ENSURE_REGISTERED(NiccSwitchNode);

namespace
{
// Layout of the 32-bit meta word a queued packet carries through the port
// (bits 15..0: the ingress port, NiccSwitchNode::META_PORT_MASK).
constexpr uint32_t META_ECT = 1u << 16;
constexpr uint32_t META_INT = 1u << 17;
constexpr uint32_t META_PINT = 1u << 18;

} // namespace

TypeId
NiccSwitchNode::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NiccSwitchNode")
            .SetParent<Node>()
            .SetGroupName("Nicc")
            .AddConstructor<NiccSwitchNode>()
            .AddAttribute("Mmu",
                          "The shared-buffer MMU (its attributes hold the PFC knobs).",
                          PointerValue(),
                          MakePointerAccessor(&NiccSwitchNode::SetMmu, &NiccSwitchNode::GetMmu),
                          MakePointerChecker<NiccSwitchMmu>())
            .AddAttribute("EcmpSeed",
                          "Per-switch seed mixed into the ECMP hash.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchNode::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ForwardingMode",
                          "Choice among equal-cost next hops.",
                          EnumValue(ECMP),
                          MakeEnumAccessor(&NiccSwitchNode::m_mode),
                          MakeEnumChecker(ECMP,
                                          "Ecmp",
                                          SPRAY,
                                          "Spray",
                                          LEAST_QUEUE,
                                          "LeastQueue"))
            .AddAttribute("EcnEnabled",
                          "RED/ECN marking of ECT data packets at egress.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NiccSwitchNode::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "RED Kmin in bytes; 0 = 100 KB per 25 Gb/s of the port rate.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchNode::m_kminBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "RED Kmax in bytes; 0 = 400 KB per 25 Gb/s of the port rate.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchNode::m_kmaxBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "RED marking probability at Kmax.",
                          DoubleValue(NiccRedParams::PMAX_DEFAULT),
                          MakeDoubleAccessor(&NiccSwitchNode::m_pmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("IntEnabled",
                          "Stamp an HPCC INT record into data packets that carry a stack.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NiccSwitchNode::m_intEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PintBaseRtt",
                          "HPCC-PINT: T over which a port smooths its utilisation (the HPCC "
                          "senders' base RTT; the scenario sets it from hpcc.base_rtt_ns).",
                          TimeValue(NanoSeconds(13000)),
                          MakeTimeAccessor(&NiccSwitchNode::m_pintBaseRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PauseQuanta",
                          "Pause time of an XOFF frame in 512-bit quanta; the switch "
                          "re-sends XOFF at half this time while still congested.",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&NiccSwitchNode::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xFFFF))
            .AddAttribute("TrimEnabled",
                          "Packet trimming: a DATA packet that would exceed TrimThreshold "
                          "in its egress queue, or that the buffer would drop, is cut to its "
                          "header (trimmed flag, PSN, entropy and qpn kept; payloadSize keeps "
                          "the original length) and forwarded in TrimClass. Off: no change.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NiccSwitchNode::m_trimEnabled),
                          MakeBooleanChecker())
            .AddAttribute("TrimThreshold",
                          "Trim a DATA packet when its egress queue (port, class) would hold "
                          "more than this many bytes with it; 0 = trim only what the buffer "
                          "would drop.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchNode::m_trimThreshold),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("TrimClass",
                          "Class a trimmed header travels in (0 = the control class, strict "
                          "priority; above the port's classes: its last class).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchNode::m_trimClass),
                          MakeUintegerChecker<uint8_t>(0, NiccSwitchMmu::MAX_CLASSES - 1))
            .AddAttribute("TrimSize",
                          "Bytes of a trimmed packet: the 32-byte header, zero-padded up to "
                          "this size (e.g. 64 for a minimum Ethernet frame).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&NiccSwitchNode::m_trimSize),
                          MakeUintegerChecker<uint32_t>(NiccRoceHeader::BASE_SIZE, 1500))
            .AddAttribute("PfcWatchdog",
                          "PFC watchdog (SONiC pfcwd semantics, nicc-pfc-watchdog.h): a lossless "
                          "egress queue paused with packets and no transmission for "
                          "PfcWatchdogDetect is stormed; PfcWatchdogAction applies until no "
                          "XOFF arrived for PfcWatchdogRestore. Off: nothing scheduled.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NiccSwitchNode::SetPfcWatchdog,
                                              &NiccSwitchNode::GetPfcWatchdogOn),
                          MakeBooleanChecker())
            .AddAttribute("PfcWatchdogDetect",
                          "PFC watchdog detection time (SONiC default 200 ms; 200 us here, "
                          "runs being ms long).",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&NiccSwitchNode::SetWdDetect, &NiccSwitchNode::GetWdDetect),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PfcWatchdogRestore",
                          "PFC watchdog restoration time: a stormed queue returns to normal "
                          "once no XOFF arrived for this long (SONiC default 200 ms).",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&NiccSwitchNode::SetWdRestore, &NiccSwitchNode::GetWdRestore),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PfcWatchdogPoll",
                          "PFC watchdog polling interval (SONiC default 100 ms).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&NiccSwitchNode::SetWdPoll, &NiccSwitchNode::GetWdPoll),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PfcWatchdogAction",
                          "What a stormed queue does: drop (its packets and new arrivals, "
                          "pauses ignored) or forward (pauses ignored).",
                          EnumValue(NiccPfcWatchdog::DROP),
                          MakeEnumAccessor(&NiccSwitchNode::SetWdAction, &NiccSwitchNode::GetWdAction),
                          MakeEnumChecker(NiccPfcWatchdog::DROP,
                                          "drop",
                                          NiccPfcWatchdog::FORWARD,
                                          "forward"))
            .AddTraceSource("Trim",
                            "A DATA packet was trimmed: (original packet, ingress port, egress "
                            "port, egress queue bytes of its class).",
                            MakeTraceSourceAccessor(&NiccSwitchNode::m_trimTrace),
                            "ns3::NiccSwitchNode::TrimTracedCallback")
            .AddTraceSource("Enqueue",
                            "A packet entered an egress queue: (packet, port, class, "
                            "queue bytes after).",
                            MakeTraceSourceAccessor(&NiccSwitchNode::m_enqueueTrace),
                            "ns3::NiccSwitchNode::QueueTracedCallback")
            .AddTraceSource("Dequeue",
                            "A packet left an egress queue: (packet, port, class, queue "
                            "bytes after).",
                            MakeTraceSourceAccessor(&NiccSwitchNode::m_dequeueTrace),
                            "ns3::NiccSwitchNode::QueueTracedCallback")
            .AddTraceSource("Drop",
                            "A packet was dropped: (packet, ingress port, reason: 0 no "
                            "route, 1 buffer, 2 headroom overflow, 3 trimmed header found no "
                            "buffer, 4 PFC watchdog drop).",
                            MakeTraceSourceAccessor(&NiccSwitchNode::m_dropTrace),
                            "ns3::NiccSwitchNode::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet was marked CE: (packet, port, class, queue bytes).",
                            MakeTraceSourceAccessor(&NiccSwitchNode::m_markTrace),
                            "ns3::NiccSwitchNode::QueueTracedCallback")
            .AddTraceSource("Pfc",
                            "XOFF (true) or XON (false) sent: (ingress port, class, pause).",
                            MakeTraceSourceAccessor(&NiccSwitchNode::m_pfcTrace),
                            "ns3::NiccSwitchNode::PfcTracedCallback");
    return tid;
}

NiccSwitchNode::NiccSwitchNode()
    : m_mmu(CreateObject<NiccSwitchMmu>()),
      m_ecmpSeed(0),
      m_mode(ECMP),
      m_ecnEnabled(true),
      m_kminBytes(0),
      m_kmaxBytes(0),
      m_pmax(NiccRedParams::PMAX_DEFAULT),
      m_intEnabled(true),
      m_pauseQuanta(0xFFFF),
      m_rng(CreateObject<UniformRandomVariable>())
{
    ClearRoutes();
}

void
NiccSwitchNode::DoDispose()
{
    for (auto& ev : m_pauseRefresh)
    {
        ev.Cancel();
    }
    m_pfcWd.Stop();
    m_ports.clear();
    m_mmu = nullptr;
    m_rng = nullptr;
    Node::DoDispose();
}

void
NiccSwitchNode::SetMmu(Ptr<NiccSwitchMmu> mmu)
{
    // The attribute's initial value is null; keep the MMU made in the
    // constructor then. Replacing it only makes sense before AddPort.
    if (mmu)
    {
        NS_ABORT_MSG_UNLESS(m_ports.empty(), "set the Mmu before adding ports");
        m_mmu = mmu;
    }
}

int64_t
NiccSwitchNode::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
NiccSwitchNode::AddPort(Ptr<NiccNetDevice> dev)
{
    const uint32_t ifIndex = AddDevice(dev);
    const uint32_t port = static_cast<uint32_t>(m_ports.size());
    m_ports.push_back(dev);
    if (m_portIndex.size() <= ifIndex)
    {
        m_portIndex.resize(ifIndex + 1, 0);
    }
    m_portIndex[ifIndex] = port;
    const uint64_t bps = dev->GetDataRate().GetBitRate();
    const uint32_t mtuFrame = dev->GetMtu() + NiccRoceHeader::BASE_SIZE +
                              static_cast<uint32_t>(nicc::IntStackBytes(nicc::kIntMaxHops));
    const uint32_t mmuPort =
        m_mmu->AddPort(m_mmu->ComputeHeadroom(bps, dev->GetPropagationDelay(), mtuFrame),
                       mtuFrame,
                       bps);
    NS_ABORT_MSG_UNLESS(mmuPort == port, "MMU and switch port numbering diverged");
    NiccRedParams red = NiccRedParams::ScaledForRate(bps);
    red.kminBytes = m_kminBytes ? m_kminBytes : red.kminBytes;
    red.kmaxBytes = m_kmaxBytes ? m_kmaxBytes : red.kmaxBytes;
    red.pmax = m_pmax;
    m_red.push_back(red);
    m_intRateCode.push_back(NiccIntRateCode(bps));
    m_pint.emplace_back();
    m_pauseRefresh.resize(m_ports.size() * NiccSwitchMmu::MAX_CLASSES);
    dev->SetNiccReceiveCallback(MakeCallback(&NiccSwitchNode::Receive, this));
    dev->SetEgressCallback(MakeCallback(&NiccSwitchNode::OnEgress, this));
    return port;
}

NiccRedParams
NiccSwitchNode::GetRedParams(uint32_t port) const
{
    return m_red[port];
}

bool
NiccSwitchNode::ShouldMarkEcn(uint32_t port, uint64_t qlenBytes)
{
    const double p = NiccRedMarkProbability(qlenBytes, m_red[port]);
    // No draw at the ends of the ramp: cheaper, and exact 0 / 1.
    return p >= 1.0 || (p > 0.0 && m_rng->GetValue() < p);
}

void
NiccSwitchNode::Receive(Ptr<NiccNetDevice> dev, Ptr<Packet> p)
{
    const uint32_t inPort = m_portIndex[dev->GetIfIndex()];
    const NiccRoceHeader::FastFields h = NiccRoceHeader::PeekFast(*p);
    m_dataRx += h.type == NiccRoceHeader::DATA ? 1 : 0;
    if (GetRoute(h.dst).empty())
    {
        ++m_drops;
        m_dropTrace(p, inPort, DROP_NO_ROUTE);
        return;
    }
    const uint32_t outPort = SelectEgressPort(h.src, h.dst, h.sport, h.dport);
    const Ptr<NiccNetDevice>& out = m_ports[outPort];
    const uint8_t nClasses = static_cast<uint8_t>(out->GetNumClasses());
    const uint8_t cls = h.priority < nClasses ? h.priority : nClasses - 1;
    const uint32_t size = p->GetSize();
    if (m_trimEnabled && h.type == NiccRoceHeader::DATA && !h.trimmed &&
        ShouldTrim(inPort, out, cls, size))
    {
        TrimAndForward(p, inPort, outPort, cls);
        return;
    }
    uint32_t meta = inPort & META_PORT_MASK;
    if (h.ect)
    {
        meta |= META_ECT;
    }
    if (h.hasInt && h.type == NiccRoceHeader::DATA)
    {
        meta |= META_INT;
    }
    if (h.hasPint && h.type == NiccRoceHeader::DATA)
    {
        meta |= META_PINT;
    }
    (void)AdmitAndEnqueue(p, inPort, outPort, cls, meta);
}

bool
NiccSwitchNode::AdmitAndEnqueue(const Ptr<Packet>& p,
                                uint32_t inPort,
                                uint32_t outPort,
                                uint8_t cls,
                                uint32_t meta,
                                bool trimmed)
{
    if (m_pfcWdOn && m_pfcWd.IsDropping(outPort, cls))
    {
        ++m_drops;
        m_pfcWd.CountDrop(p->GetSize());
        m_dropTrace(p, inPort, DROP_PFC_WATCHDOG);
        return false;
    }
    const NiccSwitchMmu::Admission admission = m_mmu->Admit(inPort, cls, p->GetSize());
    if (admission == NiccSwitchMmu::DROP || admission == NiccSwitchMmu::DROP_HEADROOM)
    {
        ++m_drops;
        m_trimDrops += trimmed ? 1 : 0;
        m_dropTrace(p,
                    inPort,
                    trimmed                                 ? DROP_TRIM_NO_BUFFER
                    : admission == NiccSwitchMmu::DROP ? DROP_BUFFER
                                                            : DROP_HEADROOM_OVERFLOW);
        return false;
    }
    if (m_mmu->NeedPause(inPort, cls))
    {
        SendPause(inPort, cls);
    }
    const uint64_t used = m_mmu->GetSharedUsed() + m_mmu->GetHeadroomUsedTotal();
    m_maxBufferUsed = used > m_maxBufferUsed ? used : m_maxBufferUsed;
    NiccNetDevice* out = PeekPointer(m_ports[outPort]);
    out->Enqueue(p, cls, meta);
    // Enqueue may have started the transmission at once: count what waits.
    const uint64_t qlen = out->GetQueueBytes(cls);
    m_maxQueueBytes = qlen > m_maxQueueBytes ? qlen : m_maxQueueBytes;
    if (!m_enqueueTrace.IsEmpty())
    {
        m_enqueueTrace(p, outPort, cls, qlen);
    }
    return true;
}

void
NiccSwitchNode::OnEgress(Ptr<NiccNetDevice> dev, Ptr<Packet> p, uint8_t cls, uint32_t meta)
{
    const uint32_t inPort = meta & META_PORT_MASK;
    const uint32_t outPort = m_portIndex[dev->GetIfIndex()];
    m_mmu->Release(inPort, cls, p->GetSize());
    if (!m_mmu->GetPausedList().empty())
    {
        CheckResumes();
    }
    const uint64_t qlen = dev->GetQueueBytes(cls);
    const bool mark = m_ecnEnabled && cls != NiccNetDevice::CONTROL_CLASS && (meta & META_ECT) &&
                      ShouldMarkEcn(outPort, qlen);
    const bool stamp = m_intEnabled && (meta & META_INT);
    const bool pint = m_intEnabled && (meta & META_PINT);
    if (mark || stamp || pint)
    {
        // The header's bytes edited where they are (no parse, no re-write).
        NiccRoceWire w(*p);
        if (mark)
        {
            w.SetEcn(NiccRoceHeader::CE);
            ++m_ecnMarked;
        }
        if (stamp)
        {
            w.PushIntHop(NiccIntMakeHop(m_intRateCode[outPort],
                                        NiccNowNs(),
                                        dev->GetTxBytes(),
                                        dev->GetTotalQueueBytes(),
                                        w.GetIntMultLog2()));
        }
        if (pint)
        {
            const uint8_t code = PintCode(outPort, dev);
            w.SetPint(code > w.GetPint() ? code : w.GetPint());
        }
        w.Replace(*p);
        if (mark)
        {
            m_markTrace(p, outPort, cls, qlen);
        }
    }
    if (!m_dequeueTrace.IsEmpty())
    {
        m_dequeueTrace(p, outPort, cls, qlen);
    }
}

uint8_t
NiccSwitchNode::PintCode(uint32_t port, Ptr<NiccNetDevice> dev)
{
    PintPort& s = m_pint[port];
    const int64_t now = NiccNow().GetNanoSeconds();
    const uint64_t tx = dev->GetTxBytes();
    const uint64_t qlen = dev->GetTotalQueueBytes();
    const double tNs = static_cast<double>(m_pintBaseRtt.GetNanoSeconds());
    const double bps = static_cast<double>(dev->GetDataRate().GetBitRate());
    if (s.lastNs >= 0 && now > s.lastNs)
    {
        // As HPCC's per-hop U: transmit rate over B plus the smaller of two
        // successive queue samples over B x T; EWMA over T, weight tau / T.
        const double tau = static_cast<double>(now - s.lastNs);
        const double uNow = static_cast<double>(tx - s.lastTxBytes) * 8.0 / (tau * 1e-9) / bps +
                            static_cast<double>(std::min(qlen, s.lastQlen)) * 8.0 / (bps * tNs * 1e-9);
        const double w = std::min(tau, tNs);
        s.u = (s.u * (tNs - w) + uNow * w) / tNs;
    }
    if (s.lastNs < 0 || now > s.lastNs)
    {
        s.lastNs = now;
        s.lastTxBytes = tx;
        s.lastQlen = qlen;
    }
    const double q20 = std::min(s.u * 1048576.0, 4294967295.0);
    return nicc::PintEncodeQ20(static_cast<uint32_t>(q20));
}

void
NiccSwitchNode::CheckResumes()
{
    // Copy: SendResume edits the list. Paused pairs are few (bounded by
    // ports x classes), and the scan only runs while some are paused.
    const std::vector<uint32_t> paused = m_mmu->GetPausedList();
    for (uint32_t idx : paused)
    {
        const uint32_t port = idx / NiccSwitchMmu::MAX_CLASSES;
        const uint8_t cls = static_cast<uint8_t>(idx % NiccSwitchMmu::MAX_CLASSES);
        if (m_mmu->NeedResume(port, cls))
        {
            SendResume(port, cls);
        }
    }
}

void
NiccSwitchNode::SendPause(uint32_t port, uint8_t cls)
{
    m_mmu->SetPaused(port, cls, true);
    m_ports[port]->SendPfc(cls, m_pauseQuanta);
    ++m_pausesSent;
    m_pfcTrace(port, cls, true);
    // Refresh before the upstream's pause timer runs out.
    const Time half = m_ports[port]->GetDataRate().CalculateBytesTxTime(32u * m_pauseQuanta);
    EventId& ev = m_pauseRefresh[port * NiccSwitchMmu::MAX_CLASSES + cls];
    ev.Cancel();
    ev = Simulator::Schedule(half, &NiccSwitchNode::RefreshPause, this, port, cls);
}

void
NiccSwitchNode::RefreshPause(uint32_t port, uint8_t cls)
{
    if (!m_mmu->IsPaused(port, cls))
    {
        return;
    }
    if (m_mmu->NeedResume(port, cls))
    {
        SendResume(port, cls);
        return;
    }
    m_mmu->SetPaused(port, cls, false);
    SendPause(port, cls);
}

void
NiccSwitchNode::SendResume(uint32_t port, uint8_t cls)
{
    m_mmu->SetPaused(port, cls, false);
    m_pauseRefresh[port * NiccSwitchMmu::MAX_CLASSES + cls].Cancel();
    m_ports[port]->SendPfc(cls, 0);
    ++m_resumesSent;
    m_pfcTrace(port, cls, false);
}

} // namespace ns3
