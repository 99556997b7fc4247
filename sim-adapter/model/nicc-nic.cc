/*
 * nicc-nic.cc — NiccNic: engine configuration from attributes, the sender
 * (QP scheduling, pacing, window, retransmission), the receiver (ACK/NACK,
 * placement, CNP) and the HAL backend (Apply).
 */
#include "nicc-nic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include "nicc/hal/clock.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccNic");
NS_OBJECT_ENSURE_REGISTERED(NiccNic);

namespace
{
// splitmix64 finaliser: per-QP port salt and spray seeds from (node, qpn).
inline uint64_t
Mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

// Ceiling of ps in ns: a paced QP is never woken before its time.
inline uint64_t
CeilNs(uint64_t ps)
{
    return (ps + 999) / 1000;
}
} // namespace

TypeId
NiccNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NiccNic")
            .SetParent<Object>()
            .SetGroupName("Nicc")
            .AddConstructor<NiccNic>()
            .AddAttribute("CongestionControl",
                          "Engine congestion control of every QP: none, dcqcn, hpcc.",
                          StringValue("dcqcn"),
                          MakeStringAccessor(&NiccNic::m_ccName),
                          MakeStringChecker())
            .AddAttribute("SprayPolicy",
                          "Engine path selection: ecmp, ops, bitmap, reps, plb, dlb.",
                          StringValue("ecmp"),
                          MakeStringAccessor(&NiccNic::m_sprayName),
                          MakeStringChecker())
            .AddAttribute("SprayEvBits",
                          "Spray over 2^k entropy values per QP (bitmap <= 6, dlb <= 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&NiccNic::m_evBits),
                          MakeUintegerChecker<uint32_t>(0, 8))
            .AddAttribute("DcqcnProfile",
                          "DCQCN parameter profile: mlx5 (ConnectX defaults) or paper "
                          "(SIGCOMM'15 settings).",
                          StringValue("mlx5"),
                          MakeStringAccessor(&NiccNic::m_dcqcnProfile),
                          MakeStringChecker())
            .AddAttribute("DcqcnTimeResetUs",
                          "rp_time_reset (us, rate-increase timer); -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnTimeResetUs),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("DcqcnByteReset",
                          "rp_byte_reset (bytes, 0 = off); -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnByteReset),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("DcqcnAiRateMbps",
                          "rp_ai_rate (Mb/s additive increase); -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnAiMbps),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("DcqcnHaiRateMbps",
                          "rp_hai_rate (Mb/s hyper increase); -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnHaiMbps),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("DcqcnThreshold",
                          "rp_threshold (fast-recovery stages F); -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnThreshold),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("DcqcnCnpIntervalUs",
                          "np_min_time_between_cnps (us, receiver CNP pacing per flow); "
                          "-1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnCnpIntervalUs),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("DcqcnRateReduceMonitorUs",
                          "rp_rate_reduce_monitor_period (us between cuts); -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnMonitorUs),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("DcqcnG",
                          "rp_dce_tcp_g (/1024 alpha keep factor); -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_dcqcnG1024),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("HpccProfile",
                          "HPCC parameter profile: paper (maxStage 5) or later (maxStage 0).",
                          StringValue("paper"),
                          MakeStringAccessor(&NiccNic::m_hpccProfile),
                          MakeStringChecker())
            .AddAttribute("HpccBaseRtt",
                          "HPCC T (base RTT); 0 = profile (13 us).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NiccNic::m_hpccBaseRtt),
                          MakeTimeChecker())
            .AddAttribute("HpccEtaPpm",
                          "HPCC eta, parts per million; -1 = profile (950000).",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_hpccEtaPpm),
                          MakeIntegerChecker<int64_t>(-1, 1000000))
            .AddAttribute("HpccMaxStage",
                          "HPCC maxStage; -1 = profile.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_hpccMaxStage),
                          MakeIntegerChecker<int64_t>(-1, 255))
            .AddAttribute("HpccWaiBytes",
                          "HPCC W_AI in bytes; -1 = profile (80).",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&NiccNic::m_hpccWaiBytes),
                          MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
            .AddAttribute("EcnChangePathOnLowDelay",
                          "UEC NSCC rule: a CNP seen with low queueing delay moves the "
                          "flow to another path instead of cutting its rate.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NiccNic::m_ecnRule),
                          MakeBooleanChecker())
            .AddAttribute("EcnLowDelay",
                          "Queueing delay (RTT - HPCC T) counted as low by that rule.",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&NiccNic::m_ecnRuleLowDelay),
                          MakeTimeChecker())
            .AddAttribute("AckInterval",
                          "Receiver sends one ACK per this many in-order packets (and "
                          "always on the last packet, a gap or a duplicate).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NiccNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("Recovery",
                          "Loss recovery: GoBackN (receiver drops out-of-order packets) or "
                          "SelectiveRepeat (placed in a 256-packet bitmap, only the "
                          "missing packet is resent).",
                          EnumValue(GO_BACK_N),
                          MakeEnumAccessor(&NiccNic::m_recovery),
                          MakeEnumChecker(GO_BACK_N,
                                          "GoBackN",
                                          SELECTIVE_REPEAT,
                                          "SelectiveRepeat"))
            .AddAttribute("RetxTimeout",
                          "Retransmission timeout per QP (from the last progress).",
                          TimeValue(MilliSeconds(4)),
                          MakeTimeAccessor(&NiccNic::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("DataPriority",
                          "Traffic class of DATA packets (ACK/NACK/CNP use class 0).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NiccNic::m_dataPriority),
                          MakeUintegerChecker<uint8_t>(1, NiccNetDevice::MAX_CLASSES - 1))
            .AddAttribute("Ect",
                          "Send DATA as ECN-capable (ECT(0)).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NiccNic::m_ect),
                          MakeBooleanChecker())
            .AddAttribute("IntMultLog2",
                          "INT byte-counter multiplier (log2) of the stacks HPCC attaches.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccNic::m_intMultLog2),
                          MakeUintegerChecker<uint8_t>(0, nicc::kIntMaxMultLog2))
            .AddAttribute("IntProbeSinglePath",
                          "HPCC with spraying: feed the engine only the INT of ACKs for the "
                          "QP's first entropy value (one path), so consecutive INT records "
                          "come from the same switches.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NiccNic::m_intProbeSinglePath),
                          MakeBooleanChecker())
            .AddAttribute("SrNackThreshold",
                          "Selective repeat: NACK a hole only once a packet this many PSNs "
                          "past it has arrived (or, above 1, the message's last packet); 1 = "
                          "at once. The sender keeps at most SR_WINDOW (256) packets past the "
                          "oldest unacknowledged one, so 255 = NACK only when that window "
                          "is exhausted.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NiccNic::m_srNackThreshold),
                          MakeUintegerChecker<uint32_t>(1, SR_WINDOW))
            .AddAttribute("PayloadSize",
                          "Payload bytes of a full DATA packet; 0 = the device MTU.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccNic::m_payloadAttr),
                          MakeUintegerChecker<uint32_t>(0, 9216))
            .AddTraceSource("FlowComplete",
                            "The last byte of a QP's message was acknowledged: (flow id, "
                            "qpn, bytes, FCT).",
                            MakeTraceSourceAccessor(&NiccNic::m_flowCompleteTrace),
                            "ns3::NiccNic::FlowCompleteTracedCallback")
            .AddTraceSource("Rate",
                            "The engine set a QP's rate: (qpn, kb/s).",
                            MakeTraceSourceAccessor(&NiccNic::m_rateTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Window",
                            "The engine set a QP's window: (qpn, bytes).",
                            MakeTraceSourceAccessor(&NiccNic::m_windowTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Retransmit",
                            "A DATA packet is sent again: (qpn, psn).",
                            MakeTraceSourceAccessor(&NiccNic::m_retxTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Timeout",
                            "A QP's retransmission timer expired: (qpn, snd_una psn).",
                            MakeTraceSourceAccessor(&NiccNic::m_timeoutTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("CnpRx",
                            "A CNP arrived for a QP: (qpn, 0).",
                            MakeTraceSourceAccessor(&NiccNic::m_cnpRxTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Deliver",
                            "Receiver: a packet was delivered in order to the application: "
                            "(src node, qpn, psn, payload bytes).",
                            MakeTraceSourceAccessor(&NiccNic::m_deliverTrace),
                            "ns3::NiccNic::DeliverTracedCallback")
            .AddTraceSource("OutOfOrder",
                            "A DATA packet arrived ahead of the expected PSN (distance in packets).",
                            MakeTraceSourceAccessor(&NiccNic::m_outOfOrderTrace),
                            "ns3::NiccNic::OutOfOrderTracedCallback");
    return tid;
}

NiccNic::NiccNic()
    : m_ccName("dcqcn"),
      m_sprayName("ecmp"),
      m_evBits(4),
      m_dcqcnProfile("mlx5"),
      m_dcqcnTimeResetUs(-1),
      m_dcqcnByteReset(-1),
      m_dcqcnAiMbps(-1),
      m_dcqcnHaiMbps(-1),
      m_dcqcnThreshold(-1),
      m_dcqcnCnpIntervalUs(-1),
      m_dcqcnMonitorUs(-1),
      m_dcqcnG1024(-1),
      m_hpccProfile("paper"),
      m_hpccBaseRtt(0),
      m_hpccEtaPpm(-1),
      m_hpccMaxStage(-1),
      m_hpccWaiBytes(-1),
      m_ecnRule(false),
      m_ecnRuleLowDelay(MicroSeconds(4)),
      m_ackInterval(1),
      m_recovery(GO_BACK_N),
      m_rto(MilliSeconds(4)),
      m_dataPriority(1),
      m_ect(true),
      m_intMultLog2(0),
      m_payloadAttr(0),
      m_intProbeSinglePath(false),
      m_srNackThreshold(1)
{
}

NiccNic::~NiccNic() = default;

void
NiccNic::DoDispose()
{
    m_wake.Cancel();
    for (auto& qp : m_tx)
    {
        qp.timer.Cancel();
        qp.rto.Cancel();
    }
    m_dev = nullptr;
    Object::DoDispose();
}

uint32_t
NiccNic::TxQpStateBytes()
{
    return static_cast<uint32_t>(sizeof(TxQp) + sizeof(nicc::hal::FlowSlot) + sizeof(uint32_t));
}

uint32_t
NiccNic::RxQpStateBytes()
{
    // Unordered-map node: key, value, next pointer, cached hash.
    const uint32_t mapNode = sizeof(uint64_t) + sizeof(uint32_t) + 2 * sizeof(void*);
    return static_cast<uint32_t>(sizeof(RxQp) + sizeof(nicc::hal::FlowSlot) + mapNode);
}

// ---------------------------------------------------------------------------
// Configuration.
// ---------------------------------------------------------------------------

bool
NiccNic::Install(Ptr<NiccNetDevice> dev, std::string* error)
{
    auto fail = [error](const std::string& msg) {
        NS_ABORT_MSG_IF(error == nullptr, "NiccNic: " << msg);
        *error = msg;
        return false;
    };
    using nicc::hal::CcKind;
    CcKind cc;
    if (m_ccName == "none")
    {
        cc = CcKind::kNone;
    }
    else if (m_ccName == "dcqcn")
    {
        cc = CcKind::kDcqcn;
    }
    else if (m_ccName == "hpcc")
    {
        cc = CcKind::kHpcc;
    }
    else
    {
        return fail("CongestionControl: '" + m_ccName + "' is not one of none, dcqcn, hpcc");
    }
    static const char* const kPolicies[] = {"ecmp", "ops", "bitmap", "reps", "plb", "dlb"};
    int policy = -1;
    for (int i = 0; i < 6; ++i)
    {
        if (m_sprayName == kPolicies[i])
        {
            policy = i;
        }
    }
    if (policy < 0)
    {
        return fail("SprayPolicy: '" + m_sprayName +
                    "' is not one of ecmp, ops, bitmap, reps, plb, dlb");
    }

    const uint64_t bps = dev->GetDataRate().GetBitRate();
    const uint32_t lineMbps = static_cast<uint32_t>(bps / 1000000);
    nicc::dcqcn::Params dp;
    if (m_dcqcnProfile == "mlx5")
    {
        dp = nicc::dcqcn::Params::Mlx5(lineMbps);
    }
    else if (m_dcqcnProfile == "paper")
    {
        dp = nicc::dcqcn::Params::Paper(lineMbps);
    }
    else
    {
        return fail("DcqcnProfile: '" + m_dcqcnProfile + "' is not one of mlx5, paper");
    }
    auto over = [](int64_t v, uint32_t* field) {
        if (v >= 0)
        {
            *field = static_cast<uint32_t>(v);
        }
    };
    over(m_dcqcnTimeResetUs, &dp.rp_time_reset);
    over(m_dcqcnByteReset, &dp.rp_byte_reset);
    over(m_dcqcnAiMbps, &dp.rp_ai_rate);
    over(m_dcqcnHaiMbps, &dp.rp_hai_rate);
    over(m_dcqcnThreshold, &dp.rp_threshold);
    over(m_dcqcnCnpIntervalUs, &dp.np_min_time_between_cnps);
    over(m_dcqcnMonitorUs, &dp.rp_rate_reduce_monitor_period);
    over(m_dcqcnG1024, &dp.rp_dce_tcp_g);

    nicc::hpcc::Params hp;
    if (m_hpccProfile == "paper")
    {
        hp = nicc::hpcc::Params::HpccPaper();
    }
    else if (m_hpccProfile == "later")
    {
        hp = nicc::hpcc::Params::HpccLater();
    }
    else
    {
        return fail("HpccProfile: '" + m_hpccProfile + "' is not one of paper, later");
    }
    hp.line_rate_mbps = lineMbps;
    if (m_hpccBaseRtt > Time(0))
    {
        hp.base_rtt_ns = static_cast<uint32_t>(m_hpccBaseRtt.GetNanoSeconds());
    }
    over(m_hpccEtaPpm, &hp.eta_ppm);
    over(m_hpccMaxStage, &hp.max_stage);
    over(m_hpccWaiBytes, &hp.w_ai_bytes);

    m_node = dev->GetNode()->GetId();
    const auto sp = nicc::spray::Params::Defaults(static_cast<nicc::spray::Policy>(policy),
                                                  m_evBits,
                                                  (m_node * 0x9E3779B1u) & nicc::spray::kFlowLabelMax);
    nicc::ecn_path::Rule rule = nicc::ecn_path::Rule::Defaults();
    rule.change_path_on_low_delay = m_ecnRule ? 1 : 0;
    rule.low_delay_ns = static_cast<uint32_t>(m_ecnRuleLowDelay.GetNanoSeconds());
    rule.base_rtt_ns = hp.base_rtt_ns;
    const nicc::Status st =
        nicc::hal::InitDriverConfig(cc, dp, hp, sp, rule, &m_cfg);
    if (!st.ok())
    {
        const char* field = st.field ? st.field : "?";
        return fail(std::string("engine parameter ") + field + ": " +
                    nicc::StatusCodeName(st.code));
    }
    m_intOn = cc == CcKind::kHpcc;

    m_dev = dev;
    m_seg = m_payloadAttr ? m_payloadAttr : dev->GetMtu();
    m_drv = std::make_unique<nicc::hal::Driver<NiccNic, MAX_FLOWS>>();
    m_drv->Init(&m_cfg, this);
    m_flowOwner.assign(MAX_FLOWS, 0);
    dev->SetTxPullCallback(MakeCallback(&NiccNic::Pull, this));
    dev->SetNiccReceiveCallback(MakeCallback(&NiccNic::Receive, this));
    return true;
}

// ---------------------------------------------------------------------------
// Sender.
// ---------------------------------------------------------------------------

uint32_t
NiccNic::AddFlow(uint32_t flowId, uint32_t dst, uint64_t bytes, Time start)
{
    NS_ABORT_MSG_UNLESS(m_dev, "NiccNic::AddFlow before Install");
    NS_ABORT_MSG_UNLESS(bytes > 0, "a flow needs at least one byte");
    const uint64_t npkts = (bytes + m_seg - 1) / m_seg;
    NS_ABORT_MSG_UNLESS(npkts < NO_PSN && npkts * m_seg < (1ULL << 32),
                        "message of " << bytes << " B exceeds the 32-bit sequence space");
    const uint32_t qpn = static_cast<uint32_t>(m_tx.size());
    TxQp qp{};
    qp.sizeBytes = bytes;
    qp.flowId = flowId;
    qp.dst = dst;
    qp.npkts = static_cast<uint32_t>(npkts);
    qp.retxPsn = NO_PSN;
    qp.drvFlow = nicc::hal::kNoFlow;
    // Per-QP entropy: bits above the engine's EV index and below bit 14, so
    // ports stay in RoCEv2's 0xC000..0xFFFF and EV indices survive the XOR.
    const uint32_t evMask = (1u << m_evBits) - 1u;
    qp.salt = static_cast<uint16_t>(Mix64((static_cast<uint64_t>(m_node) << 32) | qpn) & 0x3FFFu &
                                    ~evMask);
    m_tx.push_back(qp);
    const Time now = Simulator::Now();
    Simulator::Schedule(start > now ? start - now : Time(0), &NiccNic::StartQp, this, qpn);
    return qpn;
}

void
NiccNic::StartQp(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    nicc::hal::FlowId f;
    const uint32_t seed = static_cast<uint32_t>(Mix64((static_cast<uint64_t>(m_node) << 32) | qpn));
    NS_ABORT_MSG_UNLESS(m_drv->Open(qpn, seed, &f).ok(),
                        "NiccNic: driver flow table full (" << MAX_FLOWS << " flows)");
    m_flowOwner[f] = qpn;
    qp.drvFlow = f;
    qp.started = 1;
    qp.startNs = NowNs();
    qp.nextTxPs = qp.startNs * 1000;
    qp.rateKbps = m_drv->RateKbps(f);
    qp.windowBytes = m_drv->WindowBytes(f);
    MakeSendable(qpn);
}

bool
NiccNic::HasData(const TxQp& qp) const
{
    return !qp.done && qp.started && (qp.retxPsn != NO_PSN || qp.sndNxt < qp.npkts);
}

uint32_t
NiccNic::Payload(const TxQp& qp, uint32_t psn) const
{
    return psn + 1 == qp.npkts ? static_cast<uint32_t>(qp.sizeBytes - uint64_t{psn} * m_seg) : m_seg;
}

uint32_t
NiccNic::SeqBytes(const TxQp& qp, uint32_t psn) const
{
    return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{psn} * m_seg, qp.sizeBytes));
}

bool
NiccNic::WindowOpen(const TxQp& qp, uint32_t payload) const
{
    if (qp.retxPsn != NO_PSN)
    {
        return true; // a selective resend adds nothing in flight
    }
    if (m_recovery == SELECTIVE_REPEAT && qp.sndNxt - qp.sndUna >= SR_WINDOW)
    {
        return false; // the receiver places at most SR_WINDOW packets ahead
    }
    if (qp.windowBytes == 0)
    {
        return true;
    }
    const uint32_t inflight = SeqBytes(qp, qp.sndNxt) - SeqBytes(qp, qp.sndUna);
    // One packet is always allowed: a window below the MTU still moves.
    return inflight == 0 || inflight + payload <= qp.windowBytes;
}

void
NiccNic::Requeue(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    if (!HasData(qp) || !WindowOpen(qp, Payload(qp, qp.sndNxt < qp.npkts ? qp.sndNxt : 0)))
    {
        qp.where = IDLE; // an ACK, NACK, timeout or action wakes it
        return;
    }
    // Due within the current ns counts as due: the device's wire time keeps
    // picosecond carry, so a line-rate QP is due exactly when the wire frees.
    if (qp.nextTxPs <= NowNs() * 1000 + 999)
    {
        qp.where = READY;
        m_ready.push_back(qpn);
    }
    else
    {
        qp.where = PACED;
        m_paced.emplace(qp.nextTxPs, qpn);
    }
}

void
NiccNic::MakeSendable(uint32_t qpn)
{
    if (m_tx[qpn].where != IDLE)
    {
        return;
    }
    Requeue(qpn);
    Kick();
}

void
NiccNic::Kick()
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
    }
}

void
NiccNic::ArmWake(uint64_t atPs)
{
    const uint64_t at = CeilNs(atPs);
    if (m_wake.IsRunning() && m_wakeNs <= at)
    {
        return;
    }
    m_wake.Cancel();
    m_wakeNs = at;
    m_wake = Simulator::Schedule(NanoSeconds(at - std::min(at, NowNs())), &NiccNic::Wake, this);
}

void
NiccNic::Wake()
{
    m_dev->TryTransmit();
}

Ptr<Packet>
NiccNic::Pull(Ptr<NiccNetDevice> dev)
{
    if (dev->IsPaused(m_dataPriority))
    {
        return nullptr; // the device pulls again when the pause ends
    }
    const uint64_t nowPs = NowNs() * 1000;
    while (!m_paced.empty() && m_paced.top().first <= nowPs + 999)
    {
        const auto [atPs, qpn] = m_paced.top();
        m_paced.pop();
        TxQp& qp = m_tx[qpn];
        if (qp.where == PACED && qp.nextTxPs == atPs) // else superseded by a rate rise
        {
            qp.where = READY;
            m_ready.push_back(qpn);
        }
    }
    while (!m_ready.empty())
    {
        const uint32_t qpn = m_ready.front();
        m_ready.pop_front();
        TxQp& qp = m_tx[qpn];
        qp.where = IDLE;
        if (!HasData(qp) ||
            !WindowOpen(qp, Payload(qp, qp.sndNxt < qp.npkts ? qp.sndNxt : 0)))
        {
            continue; // stays idle until something opens it
        }
        qp.where = SENDING;
        m_inPull = true;
        Ptr<Packet> p = BuildData(qpn);
        m_inPull = false;
        // Pace: the next packet may start one packet time at the QP's rate
        // after this one (or after its due time, if the wire made it late).
        TxQp& q = m_tx[qpn];
        const uint64_t intervalPs =
            uint64_t{p->GetSize()} * 8ULL * 1000000000ULL / std::max<uint32_t>(q.rateKbps, 1);
        q.lastTxPs = std::max(q.nextTxPs, nowPs);
        q.lastTxBytes = p->GetSize();
        q.nextTxPs = q.lastTxPs + intervalPs;
        Requeue(qpn);
        return p;
    }
    if (!m_paced.empty())
    {
        ArmWake(m_paced.top().first);
    }
    return nullptr;
}

Ptr<Packet>
NiccNic::BuildData(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    const uint64_t now = NowNs();
    uint32_t psn;
    if (qp.retxPsn != NO_PSN)
    {
        psn = qp.retxPsn;
        qp.retxPsn = NO_PSN;
    }
    else
    {
        psn = qp.sndNxt++;
    }
    const uint32_t payload = Payload(qp, psn);
    uint16_t ev = qp.forcedEv;
    qp.forcedEv = 0;
    if (ev == 0)
    {
        ev = m_drv->SelectEv(qp.drvFlow, nicc::hal::ToNicTime(now));
    }
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
    h.SetPriority(m_dataPriority);
    h.SetEcn(m_ect ? NiccRoceHeader::ECT0 : NiccRoceHeader::NOT_ECT);
    h.SetQpn(qpn);
    h.SetPsn(psn);
    h.SetAux(nicc::hal::ToNicTime(now));
    h.SetPayloadSize(static_cast<uint16_t>(payload));
    h.SetOpFlags(psn + 1 == qp.npkts ? OP_LAST : 0);
    if (m_intOn)
    {
        h.EnableInt(m_intMultLog2);
    }
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddHeader(h);

    ++m_txDataPackets;
    m_txDataBytes += payload;
    if (psn < qp.sndMax)
    {
        ++m_retxPackets;
        m_retxBytes += payload;
        m_retxTrace(qpn, psn);
    }
    else
    {
        qp.sndMax = psn + 1;
    }
    ArmRto(qp, qpn);
    // May call Apply (DCQCN byte counter): the QP is SENDING, so the action
    // only updates its rate and the packet goes out regardless.
    (void)m_drv->Deliver(qp.drvFlow, nicc::hal::Event::TxDone(p->GetSize()),
                         nicc::hal::ToNicTime(now));
    return p;
}

void
NiccNic::ArmRto(TxQp& qp, uint32_t qpn)
{
    // Lazy timer: the deadline moves on progress; the event re-arms itself
    // when it fires early, so a steady flow costs one event per RTO.
    qp.rtoDeadlineNs = NowNs() + static_cast<uint64_t>(m_rto.GetNanoSeconds());
    if (!qp.rto.IsRunning())
    {
        qp.rto = Simulator::Schedule(m_rto, &NiccNic::OnRto, this, qpn);
    }
}

void
NiccNic::OnRto(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    if (qp.done || qp.sndUna >= qp.sndMax)
    {
        return; // nothing in flight; the next send re-arms
    }
    const uint64_t now = NowNs();
    if (now < qp.rtoDeadlineNs)
    {
        qp.rto = Simulator::Schedule(NanoSeconds(qp.rtoDeadlineNs - now), &NiccNic::OnRto, this, qpn);
        return;
    }
    ++m_timeouts;
    m_timeoutTrace(qpn, qp.sndUna);
    (void)m_drv->Deliver(qp.drvFlow, nicc::hal::Event::Timeout(qp.lastEv), nicc::hal::ToNicTime(now));
    // Both recovery modes go back to the oldest unacknowledged packet.
    qp.sndNxt = qp.sndUna;
    qp.retxPsn = NO_PSN;
    ArmRto(qp, qpn);
    MakeSendable(qpn);
}

void
NiccNic::OnAck(const NiccRoceHeader& h, bool nack)
{
    const uint32_t qpn = h.GetQpn();
    if (qpn >= m_tx.size() || m_tx[qpn].done || !m_tx[qpn].started)
    {
        return;
    }
    TxQp& qp = m_tx[qpn];
    const uint64_t now = NowNs();
    const nicc::TimeNs nowNic = nicc::hal::ToNicTime(now);
    uint32_t cum = std::min(h.GetAux(), qp.sndMax);
    uint32_t newlyAcked = 0;
    if (cum > qp.sndUna)
    {
        newlyAcked = SeqBytes(qp, cum) - SeqBytes(qp, qp.sndUna);
        qp.sndUna = cum;
        qp.rtoDeadlineNs = now + static_cast<uint64_t>(m_rto.GetNanoSeconds());
        if (qp.retxPsn != NO_PSN && qp.retxPsn < qp.sndUna)
        {
            qp.retxPsn = NO_PSN;
        }
    }
    if (qp.sndNxt < qp.sndUna)
    {
        qp.sndNxt = qp.sndUna;
    }
    const uint16_t ev = static_cast<uint16_t>(h.GetSport() ^ qp.salt);
    if (!nack)
    {
        nicc::hal::Event e = nicc::hal::Event::Ack(SeqBytes(qp, qp.sndUna),
                                                   SeqBytes(qp, qp.sndNxt),
                                                   (h.GetOpFlags() & OP_ECN_ECHO) != 0,
                                                   ev);
        e.bytes = newlyAcked;
        e.rtt_ns = nowNic - h.GetPsn(); // wraps: the echo is the NIC clock
        uint8_t buf[nicc::IntStackBytes(nicc::kIntMaxHops)];
        size_t len = 0;
        if (m_intOn && h.HasInt() && (!m_intProbeSinglePath || ev == qp.intEv) &&
            nicc::EncodeIntStack(h.GetIntStack(), buf, sizeof(buf), &len).ok())
        {
            e.int_stack = buf;
            e.int_len = static_cast<uint16_t>(len);
        }
        (void)m_drv->Deliver(qp.drvFlow, e, nowNic);
    }
    else
    {
        (void)m_drv->Deliver(qp.drvFlow, nicc::hal::Event::Nack(ev), nowNic);
        if (cum < qp.sndMax)
        {
            if (m_recovery == GO_BACK_N)
            {
                qp.sndNxt = cum;
                qp.retxPsn = NO_PSN;
            }
            else
            {
                qp.retxPsn = cum;
            }
        }
    }
    if (qp.sndUna >= qp.npkts)
    {
        Complete(qpn);
        return;
    }
    MakeSendable(qpn);
}

void
NiccNic::OnCnp(const NiccRoceHeader& h)
{
    const uint32_t qpn = h.GetQpn();
    ++m_cnpsReceived;
    if (qpn >= m_tx.size() || m_tx[qpn].done || !m_tx[qpn].started)
    {
        return;
    }
    m_cnpRxTrace(qpn, 0);
    (void)m_drv->Deliver(m_tx[qpn].drvFlow, nicc::hal::Event::Cnp(), nicc::hal::ToNicTime(NowNs()));
}

void
NiccNic::OnQpTimer(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    if (!qp.done)
    {
        (void)m_drv->Deliver(qp.drvFlow, nicc::hal::Event::Timer(), nicc::hal::ToNicTime(NowNs()));
    }
}

void
NiccNic::Complete(uint32_t qpn)
{
    TxQp& qp = m_tx[qpn];
    qp.done = 1;
    qp.finishNs = NowNs();
    qp.timer.Cancel();
    qp.rto.Cancel();
    (void)m_drv->Close(qp.drvFlow);
    qp.drvFlow = nicc::hal::kNoFlow;
    m_flowCompleteTrace(qp.flowId, qpn, qp.sizeBytes, NanoSeconds(qp.finishNs - qp.startNs));
}

uint64_t
NiccNic::GetQpAckedBytes(uint32_t qpn) const
{
    const TxQp& qp = m_tx[qpn];
    return SeqBytes(qp, qp.sndUna);
}

// ---------------------------------------------------------------------------
// HAL backend.
// ---------------------------------------------------------------------------

void
NiccNic::Apply(nicc::hal::FlowId flow, const nicc::Action& a)
{
    const uint32_t owner = m_flowOwner[flow];
    if (owner & RX_FLAG)
    {
        if (a.Has(nicc::kActSendCnp))
        {
            const RxQp& rx = m_rx[owner & ~RX_FLAG];
            SendCnp(rx, 0);
        }
        return;
    }
    TxQp& qp = m_tx[owner];
    if (a.Has(nicc::kActSetRate))
    {
        const uint32_t old = qp.rateKbps;
        qp.rateKbps = std::max<uint32_t>(a.rate_kbps, 1);
        m_rateTrace(owner, qp.rateKbps);
        if (qp.rateKbps > old && qp.where == PACED)
        {
            // A QP waiting out a slow rate's gap moves up to the new rate's;
            // its old heap entry goes stale.
            const uint64_t next =
                qp.lastTxPs + uint64_t{qp.lastTxBytes} * 8ULL * 1000000000ULL / qp.rateKbps;
            if (next < qp.nextTxPs)
            {
                qp.nextTxPs = std::max(next, NowNs() * 1000);
                m_paced.emplace(qp.nextTxPs, owner);
                Kick();
            }
        }
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
    if (a.Has(nicc::kActCancelTimer))
    {
        qp.timer.Cancel();
    }
    if (a.Has(nicc::kActArmTimer))
    {
        const uint64_t now = NowNs();
        const uint64_t due = nicc::hal::Unwrap(a.timer_ns, now);
        qp.timer.Cancel();
        qp.timer = Simulator::Schedule(NanoSeconds(due > now ? due - now : 0),
                                       &NiccNic::OnQpTimer,
                                       this,
                                       owner);
    }
    if (a.Has(nicc::kActSetWindow))
    {
        MakeSendable(owner); // a wider window may unblock the QP
    }
}

// ---------------------------------------------------------------------------
// Receiver.
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

NiccNic::RxQp*
NiccNic::FindOrOpenRx(uint32_t src, uint32_t qpn, uint32_t* index)
{
    const uint64_t key = (static_cast<uint64_t>(src) << 32) | qpn;
    auto it = m_rxIndex.find(key);
    if (it != m_rxIndex.end())
    {
        *index = it->second;
        return &m_rx[it->second];
    }
    const uint32_t idx = static_cast<uint32_t>(m_rx.size());
    RxQp rx{};
    rx.src = src;
    rx.qpn = qpn;
    rx.nackedPsn = NO_PSN;
    rx.lastPsn = NO_PSN;
    rx.drvFlow = nicc::hal::kNoFlow;
    nicc::hal::FlowId f;
    if (m_drv->Open(RX_FLAG | idx, static_cast<uint32_t>(key), &f).ok())
    {
        rx.drvFlow = f;
        m_flowOwner[f] = RX_FLAG | idx;
    }
    else
    {
        NS_LOG_WARN("driver table full: no notification point for flow " << src << "/" << qpn);
    }
    m_rx.push_back(rx);
    m_rxIndex.emplace(key, idx);
    *index = idx;
    return &m_rx.back();
}

void
NiccNic::DeliverInOrder(RxQp& rx, uint32_t psn, uint32_t bytes)
{
    rx.deliveredBytes += bytes;
    m_rxDeliveredBytes += bytes;
    m_deliverTrace(rx.src, rx.qpn, psn, bytes);
    if (psn == rx.lastPsn)
    {
        rx.done = 1;
        if (rx.drvFlow != nicc::hal::kNoFlow)
        {
            (void)m_drv->Close(rx.drvFlow);
            rx.drvFlow = nicc::hal::kNoFlow;
        }
    }
}

void
NiccNic::OnData(Ptr<Packet> p)
{
    NiccRoceHeader h;
    p->RemoveHeader(h);
    ++m_rxDataPackets;
    uint32_t idx;
    RxQp* rx = FindOrOpenRx(h.GetSrc(), h.GetQpn(), &idx);
    const bool ce = h.GetEcn() == NiccRoceHeader::CE;
    if (ce)
    {
        ++m_rxCe;
        rx->ceSinceAck = 1;
    }
    if (rx->drvFlow != nicc::hal::kNoFlow)
    {
        // Notification point; may Apply(kActSendCnp). m_rx is not resized
        // below, so `rx` stays valid.
        (void)m_drv->Deliver(rx->drvFlow, nicc::hal::Event::RxData(ce), nicc::hal::ToNicTime(NowNs()));
    }
    const uint32_t psn = h.GetPsn();
    const uint16_t payload = h.GetPayloadSize();
    const bool last = (h.GetOpFlags() & OP_LAST) != 0;
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
        if (m_recovery == SELECTIVE_REPEAT)
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
        // The next hole, once packets this far past it have arrived (or the
        // message's last one has): in a lossless fabric a short hole is
        // reordering by spraying, not loss, and fills by itself.
        if (gap && rx->nackedPsn != rx->rcvNxt &&
            (rx->rcvHigh - rx->rcvNxt > m_srNackThreshold ||
             (rx->lastPsn != NO_PSN && m_srNackThreshold > 1)))
        {
            rx->nackedPsn = rx->rcvNxt;
            SendAck(*rx, h, true);
            return;
        }
        if (++rx->unacked >= m_ackInterval || last || rx->done)
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
    m_outOfOrderTrace(ahead);
    if (m_recovery == SELECTIVE_REPEAT && ahead < SR_WINDOW)
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
    const bool nackDue = m_recovery != SELECTIVE_REPEAT || ahead >= m_srNackThreshold ||
                         (last && m_srNackThreshold > 1);
    if (rx->nackedPsn != rx->rcvNxt && nackDue)
    {
        rx->nackedPsn = rx->rcvNxt;
        SendAck(*rx, h, true);
    }
    else if (++rx->unacked >= m_ackInterval)
    {
        SendAck(*rx, h, false); // keeps INT feedback flowing during recovery
    }
}

void
NiccNic::SendAck(RxQp& rx, const NiccRoceHeader& data, bool nack)
{
    NiccRoceHeader h;
    h.SetType(nack ? NiccRoceHeader::NACK : NiccRoceHeader::ACK);
    h.SetSrc(m_node);
    h.SetDst(rx.src);
    h.SetSport(data.GetSport());
    h.SetPriority(NiccNetDevice::CONTROL_CLASS);
    h.SetQpn(rx.qpn);
    h.SetPsn(data.GetAux()); // echo of the send time
    h.SetAux(rx.rcvNxt);
    h.SetOpFlags(rx.ceSinceAck ? OP_ECN_ECHO : 0);
    if (data.HasInt())
    {
        h.SetIntStack(data.GetIntStack());
    }
    rx.unacked = 0;
    rx.ceSinceAck = 0;
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    if (nack)
    {
        ++m_nacksSent;
    }
    else
    {
        ++m_acksSent;
    }
    m_dev->Enqueue(p, NiccNetDevice::CONTROL_CLASS);
}

void
NiccNic::SendCnp(const RxQp& rx, uint16_t sport)
{
    NiccRoceHeader h;
    h.SetType(NiccRoceHeader::CNP);
    h.SetSrc(m_node);
    h.SetDst(rx.src);
    h.SetSport(sport ? sport : static_cast<uint16_t>(0xC000u | (rx.qpn & 0x3FFFu)));
    h.SetPriority(NiccNetDevice::CONTROL_CLASS);
    h.SetQpn(rx.qpn);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    ++m_cnpsSent;
    m_dev->Enqueue(p, NiccNetDevice::CONTROL_CLASS);
}

} // namespace ns3
