/*
 * nicc-nic-config.cc — NiccNicConfig: the Attributes of ns3::NiccNic and
 * their compilation into the engine's DriverConfig.
 */
#include "nicc-nic-config.h"

#include "nicc-net-device.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

namespace
{
using ConfigOf = NiccNicConfig* (*)(const ObjectBase*);

// Accessor of one NiccNicConfig field of the object's config, for an
// Attribute value type V (its Get() converts to the field type T).
template <class V, class T>
class FieldAccessor : public AttributeAccessor
{
  public:
    FieldAccessor(ConfigOf of, T NiccNicConfig::*field)
        : m_of(of),
          m_field(field)
    {
    }

    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        const V* v = dynamic_cast<const V*>(&value);
        NiccNicConfig* c = m_of(object);
        if (v == nullptr || c == nullptr)
        {
            return false;
        }
        c->*m_field = static_cast<T>(v->Get());
        return true;
    }

    bool Get(const ObjectBase* object, AttributeValue& value) const override
    {
        V* v = dynamic_cast<V*>(&value);
        const NiccNicConfig* c = m_of(object);
        if (v == nullptr || c == nullptr)
        {
            return false;
        }
        v->Set(c->*m_field);
        return true;
    }

    bool HasGetter() const override { return true; }
    bool HasSetter() const override { return true; }

  private:
    ConfigOf m_of;
    T NiccNicConfig::*m_field;
};

template <class V, class T>
Ptr<const AttributeAccessor>
Field(ConfigOf of, T NiccNicConfig::*field)
{
    return Ptr<const AttributeAccessor>(new FieldAccessor<V, T>(of, field), false);
}
} // namespace

TypeId
NiccNicConfig::AddAttributes(TypeId tid, ConfigOf of)
{
    return tid
        .AddAttribute("CongestionControl",
                      "Engine congestion control of every QP: none, dcqcn, hpcc.",
                      StringValue("dcqcn"),
                      Field<StringValue>(of, &NiccNicConfig::ccName),
                      MakeStringChecker())
        .AddAttribute("SprayPolicy",
                      "Engine path selection: ecmp, ops, bitmap, reps, plb, dlb.",
                      StringValue("ecmp"),
                      Field<StringValue>(of, &NiccNicConfig::sprayName),
                      MakeStringChecker())
        .AddAttribute("SprayEvBits",
                      "Spray over 2^k entropy values per QP (bitmap <= 6, dlb <= 4).",
                      UintegerValue(4),
                      Field<UintegerValue>(of, &NiccNicConfig::evBits),
                      MakeUintegerChecker<uint32_t>(0, 8))
        .AddAttribute("DcqcnProfile",
                      "DCQCN parameter profile: mlx5 (ConnectX defaults) or paper "
                      "(SIGCOMM'15 settings).",
                      StringValue("mlx5"),
                      Field<StringValue>(of, &NiccNicConfig::dcqcnProfile),
                      MakeStringChecker())
        .AddAttribute("DcqcnTimeResetUs",
                      "rp_time_reset (us, rate-increase timer); -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnTimeResetUs),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("DcqcnByteReset",
                      "rp_byte_reset (bytes, 0 = off); -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnByteReset),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("DcqcnAiRateMbps",
                      "rp_ai_rate (Mb/s additive increase); -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnAiMbps),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("DcqcnHaiRateMbps",
                      "rp_hai_rate (Mb/s hyper increase); -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnHaiMbps),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("DcqcnThreshold",
                      "rp_threshold (fast-recovery stages F); -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnThreshold),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("DcqcnCnpIntervalUs",
                      "np_min_time_between_cnps (us, receiver CNP pacing per flow); "
                      "-1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnCnpIntervalUs),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("DcqcnRateReduceMonitorUs",
                      "rp_rate_reduce_monitor_period (us between cuts); -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnMonitorUs),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("DcqcnG",
                      "rp_dce_tcp_g (/1024 alpha keep factor); -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::dcqcnG1024),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("HpccProfile",
                      "HPCC parameter profile: paper (maxStage 5) or later (maxStage 0).",
                      StringValue("paper"),
                      Field<StringValue>(of, &NiccNicConfig::hpccProfile),
                      MakeStringChecker())
        .AddAttribute("HpccBaseRtt",
                      "HPCC T (base RTT); 0 = profile (13 us).",
                      TimeValue(Time(0)),
                      Field<TimeValue>(of, &NiccNicConfig::hpccBaseRtt),
                      MakeTimeChecker())
        .AddAttribute("HpccEtaPpm",
                      "HPCC eta, parts per million; -1 = profile (950000).",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::hpccEtaPpm),
                      MakeIntegerChecker<int64_t>(-1, 1000000))
        .AddAttribute("HpccMaxStage",
                      "HPCC maxStage; -1 = profile.",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::hpccMaxStage),
                      MakeIntegerChecker<int64_t>(-1, 255))
        .AddAttribute("HpccWaiBytes",
                      "HPCC W_AI in bytes; -1 = profile (80).",
                      IntegerValue(-1),
                      Field<IntegerValue>(of, &NiccNicConfig::hpccWaiBytes),
                      MakeIntegerChecker<int64_t>(-1, 0xFFFFFFFF))
        .AddAttribute("EcnChangePathOnLowDelay",
                      "UEC NSCC rule: a CNP seen with low queueing delay moves the "
                      "flow to another path instead of cutting its rate.",
                      BooleanValue(false),
                      Field<BooleanValue>(of, &NiccNicConfig::ecnRule),
                      MakeBooleanChecker())
        .AddAttribute("EcnLowDelay",
                      "Queueing delay (RTT - HPCC T) counted as low by that rule.",
                      TimeValue(MicroSeconds(4)),
                      Field<TimeValue>(of, &NiccNicConfig::ecnRuleLowDelay),
                      MakeTimeChecker())
        .AddAttribute("AckInterval",
                      "Receiver sends one ACK per this many in-order packets (and "
                      "always on the last packet, a gap or a duplicate).",
                      UintegerValue(1),
                      Field<UintegerValue>(of, &NiccNicConfig::ackInterval),
                      MakeUintegerChecker<uint32_t>(1, 1024))
        .AddAttribute("Recovery",
                      "Loss recovery: GoBackN (receiver drops out-of-order packets) or "
                      "SelectiveRepeat (placed in a 256-packet bitmap, only the "
                      "missing packet is resent).",
                      EnumValue(GO_BACK_N),
                      Field<EnumValue>(of, &NiccNicConfig::recovery),
                      MakeEnumChecker(GO_BACK_N, "GoBackN", SELECTIVE_REPEAT, "SelectiveRepeat"))
        .AddAttribute("RetxTimeout",
                      "Retransmission timeout per QP (from the last progress).",
                      TimeValue(MilliSeconds(4)),
                      Field<TimeValue>(of, &NiccNicConfig::rto),
                      MakeTimeChecker(MicroSeconds(1)))
        .AddAttribute("DataPriority",
                      "Traffic class of DATA packets (ACK/NACK/CNP use class 0).",
                      UintegerValue(1),
                      Field<UintegerValue>(of, &NiccNicConfig::dataPriority),
                      MakeUintegerChecker<uint8_t>(1, NiccNetDevice::MAX_CLASSES - 1))
        .AddAttribute("Ect",
                      "Send DATA as ECN-capable (ECT(0)).",
                      BooleanValue(true),
                      Field<BooleanValue>(of, &NiccNicConfig::ect),
                      MakeBooleanChecker())
        .AddAttribute("IntMultLog2",
                      "INT byte-counter multiplier (log2) of the stacks HPCC attaches.",
                      UintegerValue(0),
                      Field<UintegerValue>(of, &NiccNicConfig::intMultLog2),
                      MakeUintegerChecker<uint8_t>(0, nicc::kIntMaxMultLog2))
        .AddAttribute("IntProbeSinglePath",
                      "HPCC with spraying: feed the engine only the INT of ACKs for the "
                      "QP's first entropy value (one path), so consecutive INT records "
                      "come from the same switches.",
                      BooleanValue(false),
                      Field<BooleanValue>(of, &NiccNicConfig::intProbeSinglePath),
                      MakeBooleanChecker())
        .AddAttribute("SrNackThreshold",
                      "Selective repeat: NACK a hole only once a packet this many PSNs "
                      "past it has arrived (or, above 1, the message's last packet); 1 = "
                      "at once. The sender keeps at most SR_WINDOW (256) packets past the "
                      "oldest unacknowledged one, so 255 = NACK only when that window "
                      "is exhausted.",
                      UintegerValue(1),
                      Field<UintegerValue>(of, &NiccNicConfig::srNackThreshold),
                      MakeUintegerChecker<uint32_t>(1, SR_WINDOW))
        .AddAttribute("PayloadSize",
                      "Payload bytes of a full DATA packet; 0 = the device MTU.",
                      UintegerValue(0),
                      Field<UintegerValue>(of, &NiccNicConfig::payloadSize),
                      MakeUintegerChecker<uint32_t>(0, 9216));
}

bool
NiccNicConfig::Compile(uint32_t lineMbps,
                       uint32_t node,
                       nicc::hal::DriverConfig* out,
                       std::string* error) const
{
    auto fail = [error](const std::string& msg) {
        *error = msg;
        return false;
    };
    using nicc::hal::CcKind;
    CcKind cc;
    if (ccName == "none")
    {
        cc = CcKind::kNone;
    }
    else if (ccName == "dcqcn")
    {
        cc = CcKind::kDcqcn;
    }
    else if (ccName == "hpcc")
    {
        cc = CcKind::kHpcc;
    }
    else
    {
        return fail("CongestionControl: '" + ccName + "' is not one of none, dcqcn, hpcc");
    }
    static const char* const kPolicies[] = {"ecmp", "ops", "bitmap", "reps", "plb", "dlb"};
    int policy = -1;
    for (int i = 0; i < 6; ++i)
    {
        if (sprayName == kPolicies[i])
        {
            policy = i;
        }
    }
    if (policy < 0)
    {
        return fail("SprayPolicy: '" + sprayName +
                    "' is not one of ecmp, ops, bitmap, reps, plb, dlb");
    }

    nicc::dcqcn::Params dp;
    if (dcqcnProfile == "mlx5")
    {
        dp = nicc::dcqcn::Params::Mlx5(lineMbps);
    }
    else if (dcqcnProfile == "paper")
    {
        dp = nicc::dcqcn::Params::Paper(lineMbps);
    }
    else
    {
        return fail("DcqcnProfile: '" + dcqcnProfile + "' is not one of mlx5, paper");
    }
    auto over = [](int64_t v, uint32_t* field) {
        if (v >= 0)
        {
            *field = static_cast<uint32_t>(v);
        }
    };
    over(dcqcnTimeResetUs, &dp.rp_time_reset);
    over(dcqcnByteReset, &dp.rp_byte_reset);
    over(dcqcnAiMbps, &dp.rp_ai_rate);
    over(dcqcnHaiMbps, &dp.rp_hai_rate);
    over(dcqcnThreshold, &dp.rp_threshold);
    over(dcqcnCnpIntervalUs, &dp.np_min_time_between_cnps);
    over(dcqcnMonitorUs, &dp.rp_rate_reduce_monitor_period);
    over(dcqcnG1024, &dp.rp_dce_tcp_g);

    nicc::hpcc::Params hp;
    if (hpccProfile == "paper")
    {
        hp = nicc::hpcc::Params::HpccPaper();
    }
    else if (hpccProfile == "later")
    {
        hp = nicc::hpcc::Params::HpccLater();
    }
    else
    {
        return fail("HpccProfile: '" + hpccProfile + "' is not one of paper, later");
    }
    hp.line_rate_mbps = lineMbps;
    if (hpccBaseRtt > Time(0))
    {
        hp.base_rtt_ns = static_cast<uint32_t>(hpccBaseRtt.GetNanoSeconds());
    }
    over(hpccEtaPpm, &hp.eta_ppm);
    over(hpccMaxStage, &hp.max_stage);
    over(hpccWaiBytes, &hp.w_ai_bytes);

    const auto sp = nicc::spray::Params::Defaults(static_cast<nicc::spray::Policy>(policy),
                                                  evBits,
                                                  (node * 0x9E3779B1u) & nicc::spray::kFlowLabelMax);
    nicc::spray::EcnRule rule = nicc::spray::EcnRule::Defaults();
    rule.change_path_on_low_delay = ecnRule ? 1 : 0;
    rule.low_delay_ns = static_cast<uint32_t>(ecnRuleLowDelay.GetNanoSeconds());
    rule.base_rtt_ns = hp.base_rtt_ns;
    const nicc::Status st =
        nicc::hal::InitDriverConfig(cc, dp, hp, sp, rule, out);
    if (!st.ok())
    {
        const char* field = st.field ? st.field : "?";
        return fail(std::string("engine parameter ") + field + ": " +
                    nicc::StatusCodeName(st.code));
    }
    return true;
}

} // namespace ns3
