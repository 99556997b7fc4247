/*
 * nicc-scenario-keys.cc — the scenario key table of NiccScenario and
 * key=value handling (Select, Set, Get, KeyHelp, ApplyAttributes).
 *
 * Four kinds of key, and where each one's name, range, default and help
 * text come from:
 *   - scenario keys (topology, workloads, run control): ScenarioKeyRows()
 *     (nicc-scenario-key-table.cc), the only hand-kept list; they set no
 *     model Attribute;
 *   - model keys: a (key, TypeId, Attribute) list (AttributeKeyRows()); type,
 *     range (the checker's), help and default come from the TypeId's
 *     AttributeInformation, the value is checked by the Attribute's checker;
 *   - selectors and profiles of the NIC: `cc` (nicc::hal::kCcKinds), `spray`
 *     (nicc::spray::kPolicies) and `<algo>.profile` for every algorithm with
 *     more than one profile (the tables' profile registries) -> NiccNic
 *     Attributes CongestionControl, SprayPolicy, <Algo>Profile;
 *   - engine parameters: every non-backend row of every parameter table
 *     (nicc::host::ForEachTable): key ScenarioKey(t, row) =
 *     `<algo>.<row>` (`dcqcn.rp_time_reset`; TOML `[dcqcn] rp_time_reset`),
 *     NiccNic Attribute AttributeName(t, row) (`DcqcnRpTimeReset`,
 *     IntegerValue), range and help from the row, -1 = the profile's value.
 * Old key names live on in one alias table (ScenarioKeyAliases()), listed by
 * KeyHelp. Values are checked in nicc-scenario-values.cc.
 */
#include "nicc-fabric-helper.h"
#include "nicc-scenario-key-table.h"
#include "nicc-scenario-values.h"
#include "nicc-scenario.h"
#include "nicc-units.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/nicc-net-device.h"
#include "ns3/nicc-switch-mmu.h"
#include "ns3/nicc-switch-node.h"
#include "ns3/nicc-workload.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include "nicc/host/param_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace ns3
{

using namespace scenario_values;

namespace
{
// "a|b|c" of a choice list.
template <class C>
std::string
Choices(const C& list)
{
    std::string out;
    for (const auto& c : list)
    {
        out += (out.empty() ? "" : "|") + std::string(c.name);
    }
    return out;
}

std::string
ChoiceDocs(const nicc::ChoiceDesc* list, uint32_t n)
{
    std::string out;
    for (uint32_t i = 0; i < n; ++i)
    {
        out += std::string(i ? "; " : "") + list[i].name + " = " + list[i].doc;
    }
    return out;
}

/// A NiccNic selector or profile: its choices from a table, its default the
/// Attribute's initial value (`fallback` while the NIC lacks the Attribute).
NiccScenarioKey
NicChoiceKey(const std::string& name,
             const std::string& attribute,
             const std::string& choices,
             const std::string& fallback,
             const std::string& help)
{
    NiccScenarioKey k;
    k.name = name;
    k.type = choices;
    k.def = fallback;
    k.help = help;
    k.target = NiccScenarioKey::ATTRIBUTE;
    k.typeId = NiccNic::GetTypeId().GetName();
    k.attribute = attribute;
    TypeId::AttributeInformation info;
    if (LookupAttribute(k, &info))
    {
        k.def = info.initialValue->SerializeToString(info.checker);
    }
    return k;
}

// compat: its choices are the presets' names (CompatPresets()).
NiccScenarioKey
CompatKey()
{
    NiccScenarioKey k;
    k.name = "compat";
    k.help = "model-semantics preset: each key it sets applies unless the key is set "
             "explicitly (after Select); ";
    for (const auto& p : CompatPresets())
    {
        k.type += (k.type.empty() ? "" : "|") + std::string(p.name);
        k.help += std::string(p.name) + " = " + p.help + "; ";
    }
    k.help.resize(k.help.size() - 2);
    k.def = CompatPresets().front().name;
    return k;
}

// A model Attribute's key: type, range, default and help from its TypeId.
NiccScenarioKey
AttributeKey(const AttributeKeyRow& r)
{
    const TypeId tid = r.typeId();
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(r.attribute, &info),
                        tid.GetName() << " has no Attribute " << r.attribute);
    NiccScenarioKey k;
    k.name = r.name;
    k.type = info.checker->GetUnderlyingTypeInformation();
    k.target = NiccScenarioKey::ATTRIBUTE;
    k.typeId = tid.GetName();
    k.attribute = r.attribute;
    k.suffix = r.suffix;
    k.help = info.help;
    if (r.def)
    {
        k.def = r.def;
    }
    else if (k.suffix == "us")
    {
        const auto* t = dynamic_cast<const TimeValue*>(PeekPointer(info.initialValue));
        k.def = t ? std::to_string(t->Get().GetMicroSeconds()) : "";
    }
    else
    {
        k.def = info.initialValue->SerializeToString(info.checker);
    }
    if (k.suffix == "us")
    {
        k.unit = "us";
    }
    return k;
}

// One key per workload kind (NiccFlowKindName: poisson_cc, incast_cc,
// permutation_cc, allreduce_cc, alltoall_cc, file_cc): a run mixes
// transports, the CC chosen per flow.
void
AddWorkloadCcKeys(std::vector<NiccScenarioKey>* keys)
{
    for (uint32_t kind = 0; kind < NICC_FLOW_KINDS; ++kind)
    {
        if (static_cast<NiccFlowKind>(kind) == NiccFlowKind::OTHER)
        {
            continue;
        }
        const std::string name = NiccFlowKindName(static_cast<NiccFlowKind>(kind));
        NiccScenarioKey k;
        k.name = name + NICC_WORKLOAD_CC_SUFFIX;
        k.type = "cc|" + Choices(nicc::hal::kCcKinds);
        k.def = "cc";
        k.help = "fabric: congestion control of the " + name +
                 (name == "file" ? " flows (flow_file rows with an empty cc column, and every row of the "
                                   "HPCC format)"
                                 : " flows") +
                 "; cc = the key cc's";
        keys->push_back(k);
    }
}

// <algo>.profile for every engine algorithm with more than one profile.
void
AddProfileKeys(std::vector<NiccScenarioKey>* keys)
{
    std::set<std::string> profiled;
    nicc::host::ForEachTable([&](const auto& t) {
        if (t.profile_count < 2 || !profiled.insert(t.algo).second)
        {
            return;
        }
        std::string names;
        std::string docs;
        for (uint32_t i = 0; i < t.profile_count; ++i)
        {
            names += std::string(i ? "|" : "") + t.profiles[i].name;
            docs += std::string(i ? "; " : "") + t.profiles[i].name + " = " + t.profiles[i].doc;
        }
        keys->push_back(NicChoiceKey(std::string(t.algo) + ".profile",
                                    nicc::host::CamelCase(t.algo) + "Profile",
                                    names,
                                    t.profiles[0].name,
                                    std::string(t.algo) + " parameter profile: " + docs + "; " +
                                        t.algo + ".* keys at -1 take its values"));
    });
}

// Every engine parameter, from the tables (backend rows excepted).
void
AddEngineKeys(std::vector<NiccScenarioKey>* keys)
{
    nicc::host::ForEachTable([&](const auto& t) {
        for (uint32_t r = 0; r < t.count; ++r)
        {
            const auto& row = t.rows[r];
            if (row.backend())
            {
                continue; // the NIC supplies it (port speed, flow label)
            }
            NiccScenarioKey k;
            k.name = nicc::host::ScenarioKey(t, row);
            k.type = "int";
            k.min = row.min;
            k.max = row.max;
            k.def = "-1";
            k.unit = UnitSymbol(row.unit);
            k.help = nicc::host::HelpText(t, row) + "; -1 = the profile's value";
            k.target = NiccScenarioKey::ENGINE;
            k.typeId = NiccNic::GetTypeId().GetName();
            k.attribute = nicc::host::AttributeName(t, row);
            const nicc::ChoiceSpan choices = nicc::UnitChoices(row.unit);
            if (choices.list != nullptr)
            {
                // A selector: its names or its codes, -1 for the profile's value.
                for (uint32_t i = 0; i < choices.count; ++i)
                {
                    k.choiceNames.emplace_back(choices.list[i].name);
                }
                k.altName = nicc::host::SelectorKey(t, row);
                k.help += "; also " + k.altName;
            }
            keys->push_back(k);
        }
    });
}

std::vector<NiccScenarioKey>
BuildKeys()
{
    std::vector<NiccScenarioKey> keys;
    for (const auto& r : ScenarioKeyRows())
    {
        NiccScenarioKey k;
        k.name = r.name;
        k.type = r.type;
        k.min = r.min;
        k.max = r.max;
        k.def = r.def;
        k.help = r.help;
        keys.push_back(k);
    }
    keys.push_back(CompatKey());
    for (const auto& r : AttributeKeyRows())
    {
        keys.push_back(AttributeKey(r));
    }
    // The NIC's selectors and profiles.
    keys.push_back(NicChoiceKey("cc",
                                "CongestionControl",
                                Choices(nicc::hal::kCcKinds),
                                "dcqcn",
                                "congestion control of every QP unless its workload's <workload>_cc "
                                "or its flow file row says otherwise: " +
                                    ChoiceDocs(nicc::hal::kCcKinds, nicc::hal::kCcKindCount)));
    AddWorkloadCcKeys(&keys);
    keys.push_back(NicChoiceKey("spray",
                                "SprayPolicy",
                                Choices(nicc::spray::kPolicies),
                                "ecmp",
                                "NIC path selection policy (engine; per-packet entropy values): " +
                                    ChoiceDocs(nicc::spray::kPolicies, nicc::spray::kPolicyCount)));
    AddProfileKeys(&keys);
    AddEngineKeys(&keys);
    for (const auto& [name, def] : DerivedKeyDefaults())
    {
        for (auto& k : keys)
        {
            if (k.name == name)
            {
                k.def = def;
            }
        }
    }
    return keys;
}

const NiccScenarioKey*
FindKey(const std::string& name)
{
    const std::string& canonical = NiccScenario::Canonical(name);
    for (const auto& k : NiccScenario::Keys())
    {
        if (canonical == k.name || (!k.altName.empty() && canonical == k.altName))
        {
            return &k;
        }
    }
    return nullptr;
}

} // namespace

const std::vector<NiccScenarioKey>&
NiccScenario::Keys()
{
    static const std::vector<NiccScenarioKey> keys = BuildKeys();
    return keys;
}

const std::vector<NiccScenarioAlias>&
NiccScenario::Aliases()
{
    const std::vector<NiccScenarioAlias>& aliases = ScenarioKeyAliases();
    return aliases;
}

const std::string&
NiccScenario::Canonical(const std::string& key)
{
    static const std::map<std::string, std::string> to = [] {
        std::map<std::string, std::string> m;
        for (const auto& a : ScenarioKeyAliases())
        {
            m[a.from] = a.to;
        }
        return m;
    }();
    auto it = to.find(key);
    return it == to.end() ? key : it->second;
}

bool
NiccScenario::IsKey(const std::string& key)
{
    return FindKey(key) != nullptr;
}

std::string
NiccScenario::DefaultFor(const std::string& scenario, const std::string& key)
{
    const std::string& canonical = Canonical(key);
    for (const BuiltinScenarioRow& r : BuiltinScenarioRows())
    {
        if (scenario != r.name)
        {
            continue;
        }
        for (const auto& [k, v] : r.overrides)
        {
            if (canonical == k)
            {
                return v;
            }
        }
    }
    const NiccScenarioKey* k = FindKey(canonical);
    return k ? k->def : "";
}

std::string
NiccScenario::KeyHelp()
{
    std::ostringstream os;
    os << "Scenario keys (--set key=value; TOML: key = value, or [algo] name = value for\n"
          "algo.name); 'default' is the table's, other scenarios' defaults follow it.\n";
    const char* const heads[] = {"\nScenario:\n",
                                 "\nModel Attributes (type and range from the Attribute's checker):\n",
                                 ("\nEngine parameters (ns3::NiccNic Attributes from engine/nicc/param_tables.h; "
                                  "-1 = the profile's value):\n")};
    int last = -1;
    for (const auto& k : Keys())
    {
        const int section = k.target == NiccScenarioKey::ENGINE      ? 2
                            : k.target == NiccScenarioKey::ATTRIBUTE ? 1
                                                                     : 0;
        if (section != last)
        {
            os << heads[section];
            last = section;
        }
        std::string def = k.def.empty() ? "\"\"" : k.def;
        for (const auto& name : Names())
        {
            const std::string d = DefaultFor(name, k.name);
            if (d != k.def)
            {
                def += " (" + name + ": " + d + ")";
            }
        }
        std::string type = k.type;
        if (k.target == NiccScenarioKey::ENGINE)
        {
            type = "int " + RangeOf(k);
        }
        else if (!k.unit.empty())
        {
            type += ", " + k.unit;
        }
        char line[256];
        std::snprintf(line, sizeof(line), "  %-34s %-26s default %s\n", k.name.c_str(), type.c_str(),
                      def.c_str());
        os << line << "      " << k.help;
        if (!k.attribute.empty())
        {
            os << " [" << k.typeId << "::" << k.attribute << "]";
        }
        os << "\n";
    }
    os << "\nDeprecated aliases (old key -> key; values in the new key's terms):\n";
    for (const auto& a : ScenarioKeyAliases())
    {
        char line[160];
        std::snprintf(line, sizeof(line), "  %-22s -> %s\n", a.from, a.to);
        os << line;
    }
    return os.str();
}

bool
NiccScenario::Set(const std::string& key, const std::string& value, std::string* error)
{
    const NiccScenarioKey* k = FindKey(key);
    if (!k)
    {
        *error = "unknown key '" + key + "' (nicc-sim --help lists the keys)";
        return false;
    }
    const std::string shown = k->name == key ? "'" + key + "'" : "'" + key + "' (alias of '" + k->name + "')";
    std::string why;
    if (!CheckValue(*k, value, &why) || !NiccCheckFaultKey(k->name, value, &why))
    {
        *error = "bad value '" + NiccPrintable(value) + "' for key " + shown + ": " + why;
        return false;
    }
    m_values[k->name] = value;
    m_userSet.insert(k->name);
    if (k->name != key && k->altName != key)
    {
        const std::string note = key + " -> " + k->name;
        if (std::find(m_aliasesUsed.begin(), m_aliasesUsed.end(), note) == m_aliasesUsed.end())
        {
            m_aliasesUsed.push_back(note);
        }
    }
    return true;
}

bool
NiccScenario::ApplyCompat(std::string* error)
{
    const std::string name = Get("compat");
    for (const auto& p : CompatPresets())
    {
        if (name != p.name)
        {
            continue;
        }
        for (const auto& [key, value] : p.keys)
        {
            const NiccScenarioKey* k = FindKey(key);
            std::string why;
            if (!k || !CheckValue(*k, value, &why))
            {
                *error = "compat=" + name + ": preset key '" + key + "' = '" + value + "' rejected: " + why;
                return false;
            }
            if (m_userSet.count(k->name) == 0)
            {
                m_values[k->name] = value;
            }
        }
    }
    return true;
}

std::string
NiccScenario::Get(const std::string& key) const
{
    auto it = m_values.find(Canonical(key));
    if (it == m_values.end())
    {
        const NiccScenarioKey* k = FindKey(key); // a selector's second name
        it = k ? m_values.find(k->name) : m_values.end();
    }
    return it == m_values.end() ? std::string() : it->second;
}

bool
NiccScenario::ApplyAttributes(NiccFabricHelper* fabric, NiccNicHelper* nics, std::string* error) const
{
    for (const auto& k : Keys())
    {
        if (k.target == NiccScenarioKey::SCENARIO)
        {
            continue;
        }
        TypeId::AttributeInformation info;
        if (!LookupAttribute(k, &info))
        {
            *error = "key '" + k.name + "': " + k.typeId + " has no Attribute '" + k.attribute + "'";
            return false;
        }
        Ptr<AttributeValue> value = info.checker->Create();
        std::string text;
        std::string why;
        if (!scenario_values::AttributeText(k, Get(k.name), &text, &why) ||
            !value->DeserializeFromString(text, info.checker))
        {
            *error = "key '" + k.name + "': '" + Get(k.name) + "' is no value of " + k.typeId +
                     "::" + k.attribute;
            return false;
        }
        if (k.typeId == NiccNic::GetTypeId().GetName())
        {
            nics->SetNicAttribute(k.attribute, *value);
        }
        else if (fabric && k.typeId == NiccSwitchNode::GetTypeId().GetName())
        {
            fabric->SetSwitchAttribute(k.attribute, *value);
        }
        else if (fabric && k.typeId == NiccSwitchMmu::GetTypeId().GetName())
        {
            fabric->SetMmuAttribute(k.attribute, *value);
        }
        else if (fabric && k.typeId == NiccNetDevice::GetTypeId().GetName())
        {
            fabric->SetDeviceAttribute(k.attribute, *value);
        }
    }
    // HPCC-PINT: the switches smooth their utilisation over the senders' T
    // (hpcc.base_rtt_ns, or its profile's value). Set whatever cc is: a
    // workload or flow file row may run hpcc-pint, and only PINT packets
    // read it.
    if (fabric)
    {
        int64_t t = I("hpcc.base_rtt_ns");
        if (t < 0)
        {
            nicc::hpcc::Params p{};
            const int32_t prof = nicc::FindProfile(nicc::hpcc::kParamTable, Get("hpcc.profile").c_str());
            nicc::LoadProfile(nicc::hpcc::kParamTable, static_cast<uint32_t>(prof < 0 ? 0 : prof), &p);
            t = p.base_rtt_ns;
        }
        fabric->SetSwitchAttribute("PintBaseRtt", TimeValue(NanoSeconds(t)));
    }
    // Scenario logic: recovery = auto follows the path choice.
    nics->SetNicAttribute("Recovery",
                          EnumValue(UseSelectiveRepeat() ? NiccNic::SELECTIVE_REPEAT : NiccNic::GO_BACK_N));
    return true;
}

} // namespace ns3
