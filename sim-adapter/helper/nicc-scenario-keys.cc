/*
 * nicc-scenario-keys.cc — the scenario key table of NiccScenario and
 * key=value handling (Select, Set, Get, KeyHelp, ApplyAttributes).
 *
 * Four kinds of key, and where each one's name, range, default and help
 * text come from:
 *   - scenario keys (topology, workloads, run control): kScenarioKeys below,
 *     the only hand-kept list; they set no model Attribute;
 *   - model keys: a (key, TypeId, Attribute) list (kAttributeKeys); type,
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
 * Old key names live on in one alias table (kAliases), listed by KeyHelp.
 */
#include "nicc-fabric-helper.h"
#include "nicc-scenario.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/nicc-net-device.h"
#include "ns3/nicc-switch-mmu.h"
#include "ns3/nicc-switch-node.h"
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

namespace
{
constexpr double U32 = 4294967295.0;

/// A scenario key the scenario itself reads: name, type, min, max, default,
/// help (per-scenario defaults: kOverrides).
struct ScenarioKeyRow
{
    const char* name;
    const char* type;
    double min;
    double max;
    const char* def;
    const char* help;
};

const ScenarioKeyRow kScenarioKeys[] = {
    {"senders", "uint", 1, 1000, "16", "incast/fairness: sending hosts (one flow each) on the switch"},
    {"size_bytes", "uint", 1, U32 - 65536, "1000000", "incast/fairness: bytes per flow"},
    {"stagger_us", "double", 0, 1e6, "0", "incast/fairness: flow i starts at i * stagger_us"},
    {"stop_ms", "double", 0.001, 1e5, "20",
     "simulated time limit (incast/fairness also end when every flow is done; fabric "
     "scenarios with only finite traffic end when it is done)"},
    {"rate_gbps", "double", 1, 1600, "100", "line rate of every host link, Gb/s"},
    {"delay_ns", "uint", 1, 1e9, "1000", "one-way propagation delay of every link"},
    {"recovery", "gbn|sr|auto", 0, 0, "gbn",
     "go-back-N, selective repeat, or auto = sr when spray != ecmp or switch_mode != ecmp"},
    {"warmup_us", "double", 0, 1e8, "0",
     "queue samples (and permutation throughput) count from this time on"},
    {"sample_ns", "uint", 10, 1e9, "1000", "queue sampling period"},
    {"rate_window_us", "double", 1, 1e6, "100",
     "throughput window (per flow for incast/fairness, per traffic kind for fabric scenarios)"},
    {"seed", "uint", 0, U32, "0",
     "ns-3 RngSeed of every simulation-level random choice (workload arrivals, sizes and "
     "destinations, RED marking, switch spraying); 0 = the RngSeed global value (1 unless "
     "NS_GLOBAL_VALUE sets it). The engine's spray PRNG is seeded per QP, not from it"},
    {"run", "uint", 0, U32, "0",
     "ns-3 RngRun: independent replications under one seed; 0 = the RngRun global value "
     "(nicc-sim --RngRun=N or NS_GLOBAL_VALUE=\"RngRun=N\"; 1 by default)"},
    {"scheduler", "pq|map", 0, 0, "pq", "ns-3 core scheduler: PriorityQueue or Map"},
    {"topology", "leaf-spine|fat-tree|rail|file", 0, 0, "leaf-spine",
     "fabric: leaf-spine (leaves, spines, hosts_per_leaf); fat-tree (pods, tors_per_pod, "
     "aggs_per_pod, cores, hosts_per_leaf = hosts per ToR; HPCC's 320 hosts: "
     "hosts_per_leaf=16,fabric_rate_gbps=400,buffer_bytes=32000000); rail (servers x rails "
     "NICs, NIC i on rail switch i, rail switches joined by `spines` spines; each NIC is its "
     "own endpoint); file (nodes, switches and links from topology_file; link rates and "
     "delays from the file, rate_gbps / delay_ns / fabric_rate_gbps unused)"},
    {"topology_file", "string", 0, 0, "",
     "topology=file: path of a topology file in the HPCC text format (first line 'N S L', "
     "then the S switch ids, then L lines 'a b rate delay error_rate'; see docs/experiments.md)"},
    {"leaves", "uint", 1, 256, "4", "fabric: leaf (ToR) switches"},
    {"spines", "uint", 1, 256, "4", "fabric: spine switches (each linked to every leaf)"},
    {"hosts_per_leaf", "uint", 1, 256, "8", "fabric: hosts under each leaf"},
    {"pods", "uint", 1, 64, "5", "fat-tree: pods"},
    {"tors_per_pod", "uint", 1, 64, "4", "fat-tree: ToR switches per pod"},
    {"aggs_per_pod", "uint", 1, 64, "4",
     "fat-tree: aggregation switches per pod (each linked to every ToR of its pod)"},
    {"cores", "uint", 1, 256, "16",
     "fat-tree: core switches; agg j of a pod links to cores j*g..j*g+g-1 (g = cores / "
     "aggs_per_pod) if that divides, else to every core"},
    {"rails", "uint", 1, 64, "8", "rail: NICs per server = rail switches"},
    {"servers", "uint", 1, 1024, "4", "rail: servers (hosts = servers x rails NICs)"},
    {"oversubscription", "double", 0.01, 100, "1",
     "fabric: host bandwidth / uplink bandwidth per leaf (sets fabric_rate_gbps when that is 0)"},
    {"fabric_rate_gbps", "double", 0, 6400, "0",
     "fabric: switch-switch link rate; 0 = rate_gbps * hosts_per_leaf / (spines * oversubscription) "
     "(fat-tree: / aggs_per_pod; rail: rate_gbps * servers / (spines * oversubscription))"},
    {"switch_mode", "ecmp|spray|adaptive", 0, 0, "ecmp",
     "fabric: switch next-hop choice: ECMP hash, per-packet random spray, least-queue adaptive"},
    {"cdf", "websearch|fbhdp|alistorage|googlerpc", 0, 0, "websearch",
     "fabric: flow-size CDF of the Poisson traffic (files shipped in sim-adapter/data/)"},
    {"cdf_file", "string", 0, 0, "", "fabric: path of a CDF file; overrides cdf when set"},
    {"poisson_load", "double", 0, 1, "0",
     "fabric: Poisson flows per host at this share of the host link (0 = off); uniform destinations"},
    {"incast_load", "double", 0, 1, "0",
     "fabric: Poisson incast bursts at this share of total host capacity (0 = off)"},
    {"incast_fanin", "uint", 1, 4096, "8", "fabric: senders per incast burst"},
    {"incast_bytes", "uint", 1, U32 - 65536, "64000", "fabric: bytes per sender per incast burst"},
    {"permutation_bytes", "uint", 0, U32 - 65536, "0",
     "fabric: each host sends this much to a random other-leaf host at permutation_start_us (0 = off)"},
    {"permutation_start_us", "double", 0, 1e8, "0", "fabric: start of the permutation"},
    {"allreduce_bytes", "uint", 0, 1e12, "0",
     "fabric: ring all-reduce buffer per rank (0 = off); 2(n-1) steps of bytes/n each"},
    {"allreduce_start_us", "double", 0, 1e8, "0", "fabric: start of the all-reduce"},
    {"allreduce_ring", "interleaved|sequential|rail-local|rail-crossing", 0, 0, "interleaved",
     "fabric: ring placement: interleaved (one ring, every hop crosses leaves / servers), "
     "sequential (one ring in host order), rail-local (one ring per rail: NIC i of every "
     "server; on leaf-spine host i of every leaf), rail-crossing (one ring per rail position, "
     "every hop to another rail); with several rings each reduces allreduce_bytes / rings"},
    {"alltoall_bytes", "uint", 0, 1e12, "0",
     "fabric: all-to-all buffer per rank over every host (0 = off); n - 1 pairwise steps of "
     "bytes / n each"},
    {"alltoall_start_us", "double", 0, 1e8, "0", "fabric: start of the all-to-all"},
    {"traffic_stop_ms", "double", 0, 1e5, "0",
     "fabric: Poisson and incast arrivals stop at this time (0 = stop_ms)"},
};

/// A key that sets an Attribute of a model object. Everything else about it
/// (type and range from the checker, help, default) comes from the TypeId.
struct AttributeKeyRow
{
    const char* name;
    TypeId (*typeId)();
    const char* attribute;
    const char* def;    ///< the scenarios' default; nullptr = the Attribute's initial value
    const char* suffix; ///< appended to the key's value for the Attribute ("us": a Time in us)
};

const AttributeKeyRow kAttributeKeys[] = {
    {"mtu", &NiccNetDevice::GetTypeId, "Mtu", nullptr, ""},
    {"buffer_bytes", &NiccSwitchMmu::GetTypeId, "BufferSize", nullptr, ""},
    {"pfc", &NiccSwitchMmu::GetTypeId, "PfcEnabled", nullptr, ""},
    {"ecn", &NiccSwitchNode::GetTypeId, "EcnEnabled", nullptr, ""},
    {"ecn_kmin_bytes", &NiccSwitchNode::GetTypeId, "EcnKmin", nullptr, ""},
    {"ecn_kmax_bytes", &NiccSwitchNode::GetTypeId, "EcnKmax", nullptr, ""},
    {"ecn_pmax", &NiccSwitchNode::GetTypeId, "EcnPmax", nullptr, ""},
    {"ack_interval", &NiccNic::GetTypeId, "AckInterval", nullptr, ""},
    // 255: NACK a hole only when the placement window is exhausted (sprayed
    // reordering in a lossless fabric is not loss); the Attribute's 1 is IRN's rule.
    {"sr_nack_threshold", &NiccNic::GetTypeId, "SrNackThreshold", "255", ""},
    {"int_single_path", &NiccNic::GetTypeId, "IntProbeSinglePath", nullptr, ""},
    {"rto_us", &NiccNic::GetTypeId, "RetxTimeout", nullptr, "us"},
};

/// Scenario defaults of derived keys that differ from the Attribute's.
const std::pair<const char*, const char*> kDerivedDefaults[] = {
    // The scenarios spray over 16 EVs when a spray policy is chosen; the
    // spray profile's ev_bits is 0 (one EV).
    {"spray.ev_bits", "4"},
};

/// Old key -> new key. Values are the new key's: every old value that the
/// new key accepts means the same thing there (units unchanged); the old
/// profile spellings paper / later are refused with a suggestion, and
/// hpcc_base_rtt_ns = 0 (was: profile) is out of range (-1 = profile).
const NiccScenarioAlias kAliases[] = {
    {"dcqcn_profile", "dcqcn.profile"},
    {"dcqcn_time_reset_us", "dcqcn.rp_time_reset"},
    {"dcqcn_byte_reset", "dcqcn.rp_byte_reset"},
    {"dcqcn_ai_mbps", "dcqcn.rp_ai_rate"},
    {"dcqcn_hai_mbps", "dcqcn.rp_hai_rate"},
    {"dcqcn_threshold", "dcqcn.rp_threshold"},
    {"dcqcn_cnp_interval_us", "dcqcn.np_min_time_between_cnps"},
    {"dcqcn_monitor_us", "dcqcn.rp_rate_reduce_monitor_period"},
    {"dcqcn_g", "dcqcn.rp_dce_tcp_g"},
    {"hpcc_profile", "hpcc.profile"},
    {"hpcc_base_rtt_ns", "hpcc.base_rtt_ns"},
    {"hpcc_eta_ppm", "hpcc.eta_ppm"},
    {"hpcc_max_stage", "hpcc.max_stage"},
    {"hpcc_wai_bytes", "hpcc.w_ai_bytes"},
    {"ev_bits", "spray.ev_bits"},
};

// Per-scenario defaults that differ from the table's.
const std::map<std::string, std::vector<std::pair<const char*, const char*>>> kOverrides = {
    {"incast", {}},
    {"fairness",
     {{"senders", "2"},
      {"size_bytes", "40000000"},
      {"stagger_us", "1000"},
      {"ecn_kmin_bytes", "100000"},
      {"ecn_kmax_bytes", "400000"},
      {"dcqcn.profile", "dcqcn-paper"},
      {"rate_window_us", "500"}}},
    {"leaf-spine",
     {{"recovery", "auto"}, {"int_single_path", "true"}, {"poisson_load", "0.3"}, {"cdf", "fbhdp"}, {"stop_ms", "2"},
      {"rate_window_us", "20"}}},
    {"ai-cluster",
     {{"recovery", "auto"},
      {"int_single_path", "true"},
      {"cdf", "fbhdp"},
      {"poisson_load", "0.2"},
      {"incast_load", "0.05"},
      {"incast_fanin", "8"},
      {"incast_bytes", "64000"},
      {"allreduce_bytes", "8000000"},
      {"allreduce_start_us", "10"},
      {"stop_ms", "12"},
      {"rate_window_us", "20"}}},
};

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

bool
LookupAttribute(const NiccScenarioKey& k, TypeId::AttributeInformation* info)
{
    return !k.typeId.empty() && TypeId::LookupByName(k.typeId).LookupAttributeByName(k.attribute, info);
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

std::vector<NiccScenarioKey>
BuildKeys()
{
    std::vector<NiccScenarioKey> keys;
    for (const auto& r : kScenarioKeys)
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
    for (const auto& r : kAttributeKeys)
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
        keys.push_back(k);
    }

    // The NIC's selectors and profiles.
    keys.push_back(NicChoiceKey("cc",
                                "CongestionControl",
                                Choices(nicc::hal::kCcKinds),
                                "dcqcn",
                                "congestion control of every QP: " +
                                    ChoiceDocs(nicc::hal::kCcKinds, nicc::hal::kCcKindCount)));
    keys.push_back(NicChoiceKey("spray",
                                "SprayPolicy",
                                Choices(nicc::spray::kPolicies),
                                "ecmp",
                                "NIC path selection policy (engine; per-packet entropy values): " +
                                    ChoiceDocs(nicc::spray::kPolicies, nicc::spray::kPolicyCount)));
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
        keys.push_back(NicChoiceKey(std::string(t.algo) + ".profile",
                                    nicc::host::CamelCase(t.algo) + "Profile",
                                    names,
                                    t.profiles[0].name,
                                    std::string(t.algo) + " parameter profile: " + docs + "; " +
                                        t.algo + ".* keys at -1 take its values"));
    });

    // Every engine parameter, from the tables.
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
            keys.push_back(k);
        }
    });
    for (const auto& [name, def] : kDerivedDefaults)
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
        if (canonical == k.name)
        {
            return &k;
        }
    }
    return nullptr;
}

bool
ParseNumber(const std::string& v, double* out)
{
    if (v.empty())
    {
        return false;
    }
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end != '\0' || !std::isfinite(d))
    {
        return false;
    }
    *out = d;
    return true;
}

std::string
RangeOf(const NiccScenarioKey& k)
{
    std::ostringstream os;
    os << std::fixed;
    os.precision(k.min == std::floor(k.min) && k.max == std::floor(k.max) ? 0 : 3);
    os << k.min << ".." << k.max;
    if (!k.unit.empty())
    {
        os << " " << k.unit;
    }
    return os.str();
}

bool
CheckChoice(const std::string& type, const std::string& v, std::string* why)
{
    std::stringstream ss(type);
    std::string c;
    std::string near;
    while (std::getline(ss, c, '|'))
    {
        if (c == v)
        {
            return true;
        }
        // The old short spellings: "paper" -> "dcqcn-paper", "later" -> "hpcc-later".
        if (!v.empty() && c.size() > v.size() && c.compare(c.size() - v.size(), v.size(), v) == 0 &&
            c[c.size() - v.size() - 1] == '-')
        {
            near = c;
        }
    }
    *why = "expected one of " + type + (near.empty() ? "" : " (did you mean '" + near + "'?)");
    return false;
}

bool
CheckValue(const NiccScenarioKey& k, const std::string& v, std::string* why)
{
    const std::string& type = k.type;
    if (type.find('|') != std::string::npos)
    {
        return CheckChoice(type, v, why);
    }
    if (k.target == NiccScenarioKey::ATTRIBUTE)
    {
        // The Attribute's own checker decides (type and range).
        TypeId::AttributeInformation info;
        if (!LookupAttribute(k, &info))
        {
            *why = k.typeId + " has no Attribute " + k.attribute;
            return false;
        }
        double d = 0;
        const bool isUnsigned = type.rfind("uint", 0) == 0;
        if ((isUnsigned || type.rfind("int", 0) == 0) && (!ParseNumber(v, &d) || d != std::floor(d)))
        {
            *why = "expected an integer (" + type + ")";
            return false;
        }
        Ptr<AttributeValue> value = info.checker->Create();
        if ((isUnsigned && d < 0) || !value->DeserializeFromString(v + k.suffix, info.checker) ||
            !info.checker->Check(*value))
        {
            *why = "expected " + type + (k.suffix.empty() ? "" : " (in " + k.suffix + ")") +
                   " (" + k.typeId + "::" + k.attribute + ")";
            return false;
        }
        return true;
    }
    if (type == "string")
    {
        return true;
    }
    if (type == "bool")
    {
        if (v == "true" || v == "false" || v == "1" || v == "0")
        {
            return true;
        }
        *why = "expected true or false";
        return false;
    }
    double d;
    if (!ParseNumber(v, &d))
    {
        *why = "expected a number (" + type + ")";
        return false;
    }
    if ((type == "uint" || type == "int") && d != std::floor(d))
    {
        *why = "expected an integer";
        return false;
    }
    if (k.target == NiccScenarioKey::ENGINE)
    {
        if (d != -1 && (d < k.min || d > k.max))
        {
            *why = "out of range " + RangeOf(k) + " (-1 = the profile's value)";
            return false;
        }
        return true;
    }
    if (d < k.min || d > k.max)
    {
        std::ostringstream os;
        os << "out of range [" << k.min << ", " << k.max << "]";
        *why = os.str();
        return false;
    }
    return true;
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
    static const std::vector<NiccScenarioAlias> aliases(std::begin(kAliases), std::end(kAliases));
    return aliases;
}

const std::string&
NiccScenario::Canonical(const std::string& key)
{
    static const std::map<std::string, std::string> to = [] {
        std::map<std::string, std::string> m;
        for (const auto& a : kAliases)
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

const std::vector<std::string>&
NiccScenario::Names()
{
    static const std::vector<std::string> names = {"incast", "fairness", "leaf-spine", "ai-cluster"};
    return names;
}

std::string
NiccScenario::DefaultFor(const std::string& scenario, const std::string& key)
{
    const std::string& canonical = Canonical(key);
    auto it = kOverrides.find(scenario);
    if (it != kOverrides.end())
    {
        for (const auto& [k, v] : it->second)
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
                                 "\nEngine parameters (ns3::NiccNic Attributes from engine/nicc/param_tables.h; "
                                 "-1 = the profile's value):\n"};
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
    for (const auto& a : kAliases)
    {
        char line[160];
        std::snprintf(line, sizeof(line), "  %-22s -> %s\n", a.from, a.to);
        os << line;
    }
    return os.str();
}

bool
NiccScenario::Select(const std::string& name, std::string* error)
{
    if (std::find(Names().begin(), Names().end(), name) == Names().end())
    {
        *error = "unknown scenario '" + name +
                 "' (built-in: incast, fairness, leaf-spine, ai-cluster; or a scenario file: a "
                 "path ending in .toml)";
        return false;
    }
    m_name = name;
    m_label.clear();
    m_values.clear();
    m_aliasesUsed.clear();
    for (const auto& k : Keys())
    {
        m_values[k.name] = DefaultFor(name, k.name);
    }
    return true;
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
    if (!CheckValue(*k, value, &why))
    {
        *error = "bad value '" + value + "' for key " + shown + ": " + why;
        return false;
    }
    m_values[k->name] = value;
    if (k->name != key)
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
NiccScenario::SetPair(const std::string& pair, std::string* error)
{
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        *error = "expected key=value, got '" + pair + "'";
        return false;
    }
    return Set(pair.substr(0, eq), pair.substr(eq + 1), error);
}

std::string
NiccScenario::Get(const std::string& key) const
{
    auto it = m_values.find(Canonical(key));
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
        if (!value->DeserializeFromString(Get(k.name) + k.suffix, info.checker))
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
    // Scenario logic: recovery = auto follows the path choice.
    nics->SetNicAttribute("Recovery",
                          EnumValue(UseSelectiveRepeat() ? NiccNic::SELECTIVE_REPEAT : NiccNic::GO_BACK_N));
    return true;
}

} // namespace ns3
