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

#include "nicc/host/param_registry.h"

#include <tuple>

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

// Accessor of one engine parameter row (NiccNicConfig::engine[index]).
class ParamAccessor : public AttributeAccessor
{
  public:
    ParamAccessor(ConfigOf of, uint32_t index)
        : m_of(of),
          m_index(index)
    {
    }

    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        const IntegerValue* v = dynamic_cast<const IntegerValue*>(&value);
        NiccNicConfig* c = m_of(object);
        if (v == nullptr || c == nullptr)
        {
            return false;
        }
        c->engine[m_index] = v->Get();
        return true;
    }

    bool Get(const ObjectBase* object, AttributeValue& value) const override
    {
        IntegerValue* v = dynamic_cast<IntegerValue*>(&value);
        const NiccNicConfig* c = m_of(object);
        if (v == nullptr || c == nullptr)
        {
            return false;
        }
        v->Set(c->engine[m_index]);
        return true;
    }

    bool HasGetter() const override { return true; }
    bool HasSetter() const override { return true; }

  private:
    ConfigOf m_of;
    uint32_t m_index;
};

// The Params a table's rows write into, out of a tuple of pointers.
template <class P, class Tuple>
P*
Target(const nicc::ParamTable<P>& /*table*/, const Tuple& targets)
{
    return std::get<P*>(targets);
}

// Congestion controls the NIC model implements: every kCcKinds entry
// (hpcc-pint gets its codes from the switches' PINT stamping,
// NiccSwitchNode; nscc its RTT samples, acked bytes, ECN echoes and
// NACK/trim events from NiccQpSender and NiccNic::OnAck, docs/nscc.md;
// nscc+rccc the backlog end in its DATA packets' credit word and the
// receiver's grant in its ACKs, docs/sim-nic.md).
bool
NicSupports(nicc::hal::CcKind cc)
{
    return static_cast<uint32_t>(cc) < nicc::hal::kCcKindCount;
}

// "none, dcqcn, hpcc, ...": the kCcKinds the NIC implements.
std::string
SupportedCcList()
{
    std::string out;
    for (const auto& c : nicc::hal::kCcKinds)
    {
        if (NicSupports(static_cast<nicc::hal::CcKind>(c.code)))
        {
            out += (out.empty() ? "" : ", ") + std::string(c.name);
        }
    }
    return out;
}
} // namespace

NiccNicConfig::NiccNicConfig()
    : engine(EngineRowCount(), -1)
{
}

uint32_t
NiccNicConfig::EngineRowCount()
{
    uint32_t n = 0;
    nicc::host::ForEachTable([&n](const auto& t) { n += t.count; });
    return n;
}

TypeId
NiccNicConfig::AddAttributes(TypeId tid, ConfigOf of)
{
    tid.AddAttribute("CongestionControl",
                     "Engine congestion control of the NIC's QPs unless a flow gives its own "
                     "(NiccNic::AddFlow(..., cc)): " +
                         SupportedCcList() + ".",
                     StringValue("dcqcn"),
                     Field<StringValue>(of, &NiccNicConfig::ccName),
                     MakeStringChecker())
        .AddAttribute("SprayPolicy",
                      "Engine path selection: " +
                          nicc::host::ChoiceList(nicc::spray::kPolicies, nicc::spray::kPolicyCount) + ".",
                      StringValue("ecmp"),
                      Field<StringValue>(of, &NiccNicConfig::sprayName),
                      MakeStringChecker())
        .AddAttribute("DcqcnProfile",
                      "DCQCN parameter profile: " + nicc::host::ProfileList(nicc::dcqcn::kParamTable) +
                          ". Dcqcn* parameters at -1 take its values.",
                      StringValue("mlx5"),
                      Field<StringValue>(of, &NiccNicConfig::dcqcnProfile),
                      MakeStringChecker())
        .AddAttribute("HpccProfile",
                      "HPCC parameter profile: " + nicc::host::ProfileList(nicc::hpcc::kParamTable) +
                          ". Hpcc* parameters at -1 take its values.",
                      StringValue("hpcc-paper"),
                      Field<StringValue>(of, &NiccNicConfig::hpccProfile),
                      MakeStringChecker())
        .AddAttribute("EcnRuleProfile",
                      "ECN path rule (UEC NSCC) profile: " +
                          nicc::host::ProfileList(nicc::ecn_path::kParamTable) +
                          ". EcnRule* parameters at -1 take its values.",
                      StringValue("ecn-off"),
                      Field<StringValue>(of, &NiccNicConfig::ecnRuleProfile),
                      MakeStringChecker());
    // One Attribute per engine parameter row, derived from the tables: a
    // new row in engine/nicc/param_tables.h is a new Attribute.
    uint32_t index = 0;
    nicc::host::ForEachTable([&](const auto& t) {
        for (uint32_t r = 0; r < t.count; ++r, ++index)
        {
            const auto& row = t.rows[r];
            if (row.backend())
            {
                continue; // the NIC derives it (port speed, flow label)
            }
            tid.AddAttribute(nicc::host::AttributeName(t, row),
                             nicc::host::HelpText(t, row) + "; -1 = profile",
                             IntegerValue(-1),
                             Ptr<const AttributeAccessor>(new ParamAccessor(of, index), false),
                             MakeIntegerChecker<int64_t>(-1, row.max));
        }
    });
    return tid
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
                      "Traffic class of DATA packets (CNPs use class 0; ACK/NACK too unless "
                      "AckHighPriority is false).",
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
                      "come from the same switches. Not for hpcc-spray, which keeps a "
                      "history per entropy value and gets every ACK's INT.",
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
        .AddAttribute("CnpOnAck",
                      "DCQCN: no CNP packets; the sender treats every ACK or NACK that "
                      "echoes a CE mark (a CE-marked packet since the previous ACK) as a "
                      "CNP, as the HPCC simulator's receiver flags the ACK of each CE-marked "
                      "packet. The notification point's pacing (np_min_time_between_cnps) "
                      "then does not apply; AckInterval sets the signal rate.",
                      BooleanValue(false),
                      Field<BooleanValue>(of, &NiccNicConfig::cnpOnAck),
                      MakeBooleanChecker())
        .AddAttribute("PayloadSize",
                      "Payload bytes of a full DATA packet; 0 = the device MTU.",
                      UintegerValue(0),
                      Field<UintegerValue>(of, &NiccNicConfig::payloadSize),
                      MakeUintegerChecker<uint32_t>(0, 9216))
        .AddAttribute("AckHighPriority",
                      "ACK and NACK in the strict-priority control class 0, never paused "
                      "(true), or in the data class DataPriority, sharing its queues, "
                      "buffer admission and PFC pauses (false: the HPCC simulator's "
                      "ACK_HIGH_PRIO 0). CNPs always use class 0.",
                      BooleanValue(true),
                      Field<BooleanValue>(of, &NiccNicConfig::ackHighPriority),
                      MakeBooleanChecker())
        .AddAttribute("Sack",
                      "Selective repeat: every NACK carries a 64-bit SACK bitmap (bit i = "
                      "PSN cumulative + 1 + i arrived) and the sender resends each hole "
                      "below the highest bit at once, a hole it resent already only on a "
                      "trim NACK or a timeout. Off: one hole per NACK.",
                      BooleanValue(false),
                      Field<BooleanValue>(of, &NiccNicConfig::sack),
                      MakeBooleanChecker())
        .AddAttribute("DcqcnWindowBytes",
                      "DCQCN: a new packet leaves only while fewer bytes than this are in "
                      "flight (sent, not yet acknowledged), on top of the rate: the HPCC "
                      "simulator's HAS_WIN window (a BDP, rdma-queue-pair.cc IsWinBound). "
                      "0 = no window. SetDcqcnWindow gives a destination its own.",
                      UintegerValue(0),
                      Field<UintegerValue>(of, &NiccNicConfig::dcqcnWindowBytes),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("DcqcnVarWindow",
                      "DCQCN window: scaled by the QP's rate over the line rate (at least "
                      "1 byte), the HPCC simulator's VAR_WIN 1; false = the window as set.",
                      BooleanValue(false),
                      Field<BooleanValue>(of, &NiccNicConfig::dcqcnVarWindow),
                      MakeBooleanChecker());
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
    const int32_t ccIndex = nicc::host::FindChoice(nicc::hal::kCcKinds, nicc::hal::kCcKindCount, ccName);
    if (ccIndex < 0 || !NicSupports(static_cast<CcKind>(nicc::hal::kCcKinds[ccIndex].code)))
    {
        return fail("CongestionControl: '" + ccName + "' is not one of " + SupportedCcList());
    }
    const CcKind cc = static_cast<CcKind>(nicc::hal::kCcKinds[ccIndex].code);
    const int32_t policy = nicc::host::FindChoice(nicc::spray::kPolicies, nicc::spray::kPolicyCount, sprayName);
    if (policy < 0)
    {
        return fail("SprayPolicy: '" + sprayName + "' is not one of " +
                    nicc::host::ChoiceList(nicc::spray::kPolicies, nicc::spray::kPolicyCount));
    }
    const int32_t dProfile = nicc::FindProfile(nicc::dcqcn::kParamTable, dcqcnProfile.c_str());
    if (dProfile < 0)
    {
        return fail("DcqcnProfile: '" + dcqcnProfile + "' is not one of " +
                    nicc::host::ProfileList(nicc::dcqcn::kParamTable));
    }
    const int32_t hProfile = nicc::FindProfile(nicc::hpcc::kParamTable, hpccProfile.c_str());
    if (hProfile < 0)
    {
        return fail("HpccProfile: '" + hpccProfile + "' is not one of " +
                    nicc::host::ProfileList(nicc::hpcc::kParamTable));
    }
    const int32_t eProfile = nicc::FindProfile(nicc::ecn_path::kParamTable, ecnRuleProfile.c_str());
    if (eProfile < 0)
    {
        return fail("EcnRuleProfile: '" + ecnRuleProfile + "' is not one of " +
                    nicc::host::ProfileList(nicc::ecn_path::kParamTable));
    }

    // Profiles first, then the backend's own values, then every row set
    // to something other than -1.
    nicc::dcqcn::Params dp =
        nicc::dcqcn::Params::Of(static_cast<nicc::dcqcn::Profile>(dProfile), lineMbps);
    nicc::hpcc::Params hp = nicc::hpcc::Params::Of(static_cast<nicc::hpcc::Profile>(hProfile));
    hp.line_rate_mbps = lineMbps;
    nicc::spray::Params sp{};
    nicc::LoadProfile(nicc::spray::kParamTable, nicc::spray::kDefault, &sp);
    sp.policy = static_cast<nicc::spray::Policy>(nicc::spray::kPolicies[policy].code);
    sp.flow_label = (node * 0x9E3779B1u) & nicc::spray::kFlowLabelMax;
    nicc::ecn_path::Rule rule =
        nicc::ecn_path::Rule::Of(static_cast<nicc::ecn_path::Profile>(eProfile));
    nicc::nscc::Params np = nicc::nscc::Params::UecDefault();
    np.line_rate_mbps = lineMbps;
    nicc::rccc::Params rp = nicc::rccc::Params::UecDefault();
    rp.line_rate_mbps = lineMbps;
    nicc::hal::DriverParams driver = nicc::hal::DriverParams::Of(cc, lineMbps);
    const auto targets = std::make_tuple(&driver, &dp, &hp, &np, &rp, &sp, &rule);
    uint32_t index = 0;
    nicc::host::ForEachTable([&](const auto& t) {
        auto* p = Target(t, targets);
        for (uint32_t r = 0; r < t.count; ++r, ++index)
        {
            if (!t.rows[r].backend() && engine[index] >= 0)
            {
                (*p).*(t.rows[r].member) = static_cast<uint32_t>(engine[index]);
            }
        }
    });

    const nicc::Status st = nicc::hal::InitDriverConfig(driver, dp, hp, np, rp, sp, rule, out);
    if (!st.ok())
    {
        const char* field = st.field ? st.field : "?";
        return fail(std::string("engine parameter ") + field + ": " +
                    nicc::StatusCodeName(st.code));
    }
    return true;
}

} // namespace ns3
