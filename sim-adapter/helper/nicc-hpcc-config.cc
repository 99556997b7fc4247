/*
 * nicc-hpcc-config.cc — the HPCC simulator's config.txt mapped to nicc
 * scenario keys (nicc-hpcc-config.h). One table row per key: its value's
 * shape, what it sets, its documentation, and the function that maps it.
 */
#include "nicc-hpcc-config.h"

#include "nicc-scenario-key-table.h"
#include "nicc-units.h"

#include "ns3/nicc-fabric-helper.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

namespace fs = std::filesystem;

/// One KEY line of the config.
struct Line
{
    std::string key;
    std::vector<std::string> args;
    uint32_t line{0};
};

/// What the mapping functions share while a config is mapped.
struct Ctx
{
    const std::string* source;
    const std::string* baseDir;
    std::map<std::string, Line> lines; ///< by key; the last of a repeated key wins (as in the simulator)
    NiccHpccConfig* out;
    std::string topologyPath; ///< resolved TOPOLOGY_FILE
    uint32_t payload{1000};   ///< PACKET_PAYLOAD_SIZE (the simulator's default)
    bool trace{true};         ///< ENABLE_TRACE (default 1)
    double baseRttNs{0};      ///< HPCC's T (GLOBAL_T), once computed
    /// KMIN_MAP / KMAX_MAP / PMAX_MAP as parsed: rate (bit/s) -> value, and the line.
    std::map<uint64_t, std::string> ecn[3];
    const Line* ecnLine[3]{nullptr, nullptr, nullptr};

    std::string Where(const Line& l) const { return *source + ":" + std::to_string(l.line) + ": " + l.key; }
    void Set(const std::string& key, const std::string& value) { out->keys.emplace_back(key, value); }
    void Note(const Line& l, const std::string& text) { out->notes.push_back(Where(l) + ": " + text); }
    const Line* Get(const char* key) const
    {
        auto it = lines.find(key);
        return it == lines.end() ? nullptr : &it->second;
    }
};

using MapFn = bool (*)(const Line& l, Ctx* c, std::string* why);

// ---- value readers: false with the reason in *why ----

bool
Flag(const Line& l, bool* v, std::string* why)
{
    const std::string& a = l.args[0];
    if (a == "Yes" || a == "yes" || a == "true")
    {
        *v = true;
        return true;
    }
    if (a == "No" || a == "no" || a == "false")
    {
        *v = false;
        return true;
    }
    if (!a.empty() && a.find_first_not_of("0123456789") == std::string::npos && a.size() < 10)
    {
        *v = std::strtoul(a.c_str(), nullptr, 10) != 0; // the simulator reads an integer: nonzero = on
        return true;
    }
    *why = "'" + a + "' is not a flag (0, 1, Yes or No)";
    return false;
}

bool
Number(const std::string& a, double lo, double hi, double* v, std::string* why)
{
    char* end = nullptr;
    *v = std::strtod(a.c_str(), &end);
    if (a.empty() || end != a.c_str() + a.size() || !std::isfinite(*v))
    {
        *why = "'" + a + "' is not a number";
        return false;
    }
    if (*v < lo || *v > hi)
    {
        std::ostringstream s;
        s << "'" << a << "' is out of range [" << lo << ", " << hi << "]";
        *why = s.str();
        return false;
    }
    return true;
}

/// A whole number in [lo, hi].
bool
Whole(const std::string& a, double lo, double hi, uint64_t* v, std::string* why)
{
    double d;
    if (!Number(a, lo, hi, &d, why))
    {
        return false;
    }
    if (d != std::floor(d))
    {
        *why = "'" + a + "' is not a whole number";
        return false;
    }
    *v = static_cast<uint64_t>(d);
    return true;
}

/// An ns-3 DataRate string as whole Mb/s (the engine's unit).
bool
RateMbps(const Line& l, std::string* value, std::string* why)
{
    uint64_t bps;
    if (!NiccParseDataRate(l.args[0], &bps))
    {
        *why = "'" + l.args[0] + "' is not an ns-3 data rate (e.g. 50Mb/s, 1Gbps)";
        return false;
    }
    if (bps % 1000000 != 0)
    {
        *why = "'" + l.args[0] + "' is not a whole number of Mb/s (the engine's rate unit)";
        return false;
    }
    *value = std::to_string(bps / 1000000);
    return true;
}

std::string
Fmt(double v)
{
    std::ostringstream s;
    s.precision(15);
    s << v;
    return s.str();
}

/// A path of the config: relative to the config's directory, or (the HPCC
/// simulator's habit of running from the parent of mix/ with "mix/x" paths)
/// to that directory's parent when the path starts with the directory's own
/// name and does not exist from the directory itself.
std::string
Resolve(const Ctx& c, const std::string& p, bool mustExist)
{
    const fs::path path(p);
    std::error_code ec;
    if (path.is_absolute())
    {
        return path.lexically_normal().string();
    }
    // Absolute, so the printed scenario (--print) works from anywhere.
    const fs::path base = fs::absolute(fs::path(*c.baseDir), ec);
    const fs::path direct = (base / path).lexically_normal();
    const fs::path absBase = fs::absolute(base, ec).lexically_normal();
    const std::string dirName = absBase.has_filename() ? absBase.filename().string()
                                                       : absBase.parent_path().filename().string();
    const fs::path parentCandidate = (base / ".." / path).lexically_normal();
    const bool startsWithDir = !dirName.empty() && path.begin() != path.end() && path.begin()->string() == dirName;
    if (startsWithDir)
    {
        const bool directOk = mustExist ? fs::exists(direct, ec) : fs::is_directory(direct.parent_path(), ec);
        if (!directOk)
        {
            return parentCandidate.string();
        }
    }
    return direct.string();
}

bool
InputFile(const Line& l, Ctx* c, std::string* resolved, std::string* why)
{
    *resolved = Resolve(*c, l.args[0], true);
    std::error_code ec;
    if (!fs::is_regular_file(*resolved, ec))
    {
        *why = "no such file '" + l.args[0] + "' (looked for " + *resolved + ")";
        return false;
    }
    return true;
}

// ---- generic row kinds ----

/// How a row maps its value (custom rows have their own function).
enum class Kind : uint8_t
{
    CUSTOM,   ///< Row::fn
    FLAG,     ///< 0/1/Yes/No -> target = true|false (1|0 for engine keys)
    NUMBER,   ///< a number in [lo, hi] -> target = value x scale
    WHOLE,    ///< a whole number in [lo, hi] -> target = value x scale (whole)
    RATE,     ///< an ns-3 DataRate -> target = whole Mb/s
    KMAP,     ///< "n rate k ..." -> target = "rate:k,..."
    PMAP,     ///< as KMAP with probabilities
    NOTE,     ///< accepted; the row's doc becomes a note
};

bool
SetFlag(const char* target, const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    const std::string t = target;
    const bool engine = t.find('.') != std::string::npos; // <algo>.<row>: an integer row
    c->Set(t, engine ? (on ? "1" : "0") : (on ? "true" : "false"));
    return true;
}

/// KMAX_MAP / KMIN_MAP / PMAX_MAP: "n rate1 v1 ... raten vn" (or, as the
/// simulator's echo prints it, the pairs without n) -> "rate:v,...".
bool
RateMap(const Line& l, std::map<uint64_t, std::string>* spec, bool probability, std::string* why)
{
    std::vector<std::string> a = l.args;
    if (a.size() % 2 == 1)
    {
        uint64_t n;
        if (!Whole(a[0], 0, 1024, &n, why) || n * 2 + 1 != a.size())
        {
            *why = "expected a count n and n pairs 'rate value' (" + std::to_string(a.size()) + " values given)";
            return false;
        }
        a.erase(a.begin());
    }
    if (a.empty())
    {
        *why = "needs at least one 'rate value' pair";
        return false;
    }
    for (size_t i = 0; i < a.size(); i += 2)
    {
        uint64_t bps;
        double v;
        if (!Whole(a[i], 1, 1e15, &bps, why))
        {
            *why = "pair " + std::to_string(i / 2 + 1) + ": rate " + *why + " (bit/s)";
            return false;
        }
        if (!Number(a[i + 1], 0, probability ? 1.0 : 1e9, &v, why))
        {
            *why = "pair " + std::to_string(i / 2 + 1) + ": " + *why;
            return false;
        }
        (*spec)[bps] = a[i + 1];
    }
    return true;
}

// ---- the custom rows ----

bool
MapCcMode(const Line& l, Ctx* c, std::string* why)
{
    uint64_t m;
    if (!Whole(l.args[0], 0, 1000, &m, why))
    {
        return false;
    }
    c->out->ccMode = static_cast<uint32_t>(m);
    const char* cc = m == 1 ? "dcqcn" : m == 3 ? "hpcc" : m == 10 ? "hpcc-pint" : nullptr;
    if (cc)
    {
        c->Set("cc", cc);
        return true;
    }
    *why = m == 7   ? "7 is TIMELY: not implemented in nicc (DCQCN = 1, HPCC = 3, HPCC-PINT = 10)"
           : m == 8 ? "8 is DCTCP: not implemented in nicc (DCQCN = 1, HPCC = 3, HPCC-PINT = 10)"
                    : l.args[0] + " is no congestion control of the HPCC simulator (1 DCQCN, 3 HPCC, "
                                  "7 TIMELY, 8 DCTCP, 10 HPCC-PINT)";
    return false;
}

bool
Hpcc(const Ctx& c)
{
    return c.out->ccMode == 3 || c.out->ccMode == 10;
}

bool
MapTopology(const Line& l, Ctx* c, std::string* why)
{
    if (!InputFile(l, c, &c->topologyPath, why))
    {
        return false;
    }
    c->Set("topology", "file");
    c->Set("topology_file", c->topologyPath);
    return true;
}

bool
MapFlowFile(const Line& l, Ctx* c, std::string* why)
{
    std::string p;
    if (!InputFile(l, c, &p, why))
    {
        return false;
    }
    c->Set("flow_file", p);
    return true;
}

bool
MapPayload(const Line& l, Ctx* c, std::string* why)
{
    uint64_t v;
    if (!Whole(l.args[0], 64, 9000, &v, why))
    {
        return false;
    }
    c->payload = static_cast<uint32_t>(v);
    c->Set("mtu", std::to_string(v));
    return true;
}

bool
MapEwmaGain(const Line& l, Ctx* c, std::string* why)
{
    // The engine keeps g as (1024 - dce_tcp_g) / 1024 (mlx5's encoding).
    double g;
    if (!Number(l.args[0], 1.0 / 1024, 1, &g, why))
    {
        return false;
    }
    const double steps = g * 1024.0;
    if (std::fabs(steps - std::round(steps)) > 1e-9)
    {
        *why = "g = " + l.args[0] + " is not a multiple of 1/1024 (the engine's g resolution, "
               "dcqcn.rp_dce_tcp_g = 1024 - g * 1024)";
        return false;
    }
    c->Set("dcqcn.rp_dce_tcp_g", std::to_string(1024 - static_cast<int>(std::lround(steps))));
    return true;
}

/// A rate as the HPCC window it gives over T (the simulator's HPCC is
/// rate-based with window = rate x T): bytes = bit/s x T / 8.
bool
HpccWindowBytes(const Line& l, const Ctx& c, std::string* bytes, std::string* why)
{
    uint64_t bps;
    if (!NiccParseDataRate(l.args[0], &bps))
    {
        *why = "'" + l.args[0] + "' is not an ns-3 data rate (e.g. 50Mb/s, 1Gbps)";
        return false;
    }
    *bytes = std::to_string(static_cast<uint64_t>(std::llround(static_cast<double>(bps) * c.baseRttNs / 8e9)));
    return true;
}

bool
MapRateAi(const Line& l, Ctx* c, std::string* why)
{
    std::string v;
    if (Hpcc(*c))
    {
        // HPCC's additive increase R_AI as the window's W_AI = R_AI x T / 8.
        if (!HpccWindowBytes(l, *c, &v, why))
        {
            return false;
        }
        c->Set("hpcc.w_ai_bytes", v);
        return true;
    }
    if (!RateMbps(l, &v, why))
    {
        return false;
    }
    c->Set("dcqcn.rp_ai_rate", v);
    return true;
}

bool
MapMinRate(const Line& l, Ctx* c, std::string* why)
{
    std::string v;
    if (Hpcc(*c))
    {
        // HPCC's rate floor as the window floor over T.
        if (!HpccWindowBytes(l, *c, &v, why))
        {
            return false;
        }
        c->Set("hpcc.min_window_bytes", v == "0" ? "1" : v);
        return true;
    }
    if (!RateMbps(l, &v, why))
    {
        return false;
    }
    c->Set("dcqcn.rp_min_rate", v);
    return true;
}

bool
MapPint(const Line& l, Ctx* c, std::string* why)
{
    double v;
    if (!Number(l.args[0], 0, 1e6, &v, why))
    {
        return false;
    }
    c->Note(l, c->out->ccMode == 10 ? "HPCC-PINT: the engine's PINT encoding is fixed (docs/hpcc.md); not applied"
                                    : "applies to HPCC-PINT (CC_MODE 10) only; no effect");
    return true;
}

bool
MapErrorRate(const Line& l, Ctx*, std::string* why)
{
    double v;
    if (!Number(l.args[0], 0, 1, &v, why))
    {
        return false;
    }
    if (v > 0)
    {
        *why = "per-link packet loss is not modelled yet; set it to 0";
        return false;
    }
    return true;
}

bool
MapAckInterval(const Line& l, Ctx* c, std::string* why)
{
    uint64_t v;
    if (!Whole(l.args[0], 0, 1e9, &v, why))
    {
        return false;
    }
    if (v == 0)
    {
        *why = "0 turns acknowledgements off; nicc's transport needs them";
        return false;
    }
    // The simulator compares its byte milestone, reset to this value on every
    // packet, with the next expected byte: once a flow has received this
    // many bytes every packet is acknowledged.
    c->Set("ack_interval", "1");
    if (v > c->payload)
    {
        c->Note(l, "the simulator acknowledges every packet once " + l.args[0] +
                       " bytes have arrived; nicc acknowledges every packet from the first");
    }
    return true;
}

/// A flag that must be `want` (else refused with `refusal`) for HPCC and is
/// irrelevant otherwise.
bool
HpccMust(const Line& l, Ctx* c, bool want, const char* refusal, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (Hpcc(*c) && on != want)
    {
        *why = refusal;
        return false;
    }
    if (!Hpcc(*c))
    {
        c->Note(l, "applies to HPCC only; no effect with this CC_MODE");
    }
    return true;
}

bool
MapHasWin(const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (Hpcc(*c) != on)
    {
        *why = on ? "1 with DCQCN (a BDP window on top of the rate) is not implemented: nicc's DCQCN is "
                    "rate-based; set 0"
                  : "0 (HPCC without its window) is not implemented: nicc's HPCC is window-based";
        return false;
    }
    return true;
}

bool
MapVarWin(const Line& l, Ctx* c, std::string* why)
{
    return HpccMust(l, c, true, "0 (a fixed maximum window) is not implemented: nicc's HPCC window is variable",
                    why);
}

bool
MapFastReact(const Line& l, Ctx* c, std::string* why)
{
    return HpccMust(l, c, true, "0 (react once per RTT) is not implemented: nicc's HPCC reacts to every ACK",
                    why);
}

bool
MapMultiRate(const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (Hpcc(*c) && on)
    {
        c->Note(l, "1 (a rate per hop, the smallest taken) is not modelled: nicc's HPCC takes U from the "
                   "most loaded hop (MULTI_RATE 0, the paper's algorithm); results can differ where several "
                   "hops are loaded");
    }
    return true;
}

bool
MapSampleFeedback(const Line& l, Ctx* c, std::string* why)
{
    return HpccMust(l, c, false, "1 (INT once per RTT or when a queue is seen) is not implemented: nicc's "
                                 "HPCC reads INT on every ACK; use 0", why);
}

bool
MapRateBound(const Line& l, Ctx*, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (!on)
    {
        *why = "0 (no rate limiter: line rate within the window) is not implemented: nicc paces every flow "
               "at its rate; use 1";
        return false;
    }
    return true;
}

bool
MapBackToZero(const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (on)
    {
        *why = "1 (resend from the start of the chunk) is not implemented; 0 is go-back-N (recovery=gbn)";
        return false;
    }
    c->Set("recovery", "gbn");
    return true;
}

/// Largest base RTT of any host pair as the simulator computes it for
/// GLOBAL_T: 2 x the summed link delays + one payload's transmission time
/// on every link of a shortest (fewest links) path, ns.
bool
MaxBaseRttNs(const Ctx& c, double* rttNs, std::string* why)
{
    NiccTopologySpec spec;
    if (!NiccFabricHelper::ParseTopologyFile(c.topologyPath, &spec, why))
    {
        return false;
    }
    std::vector<std::vector<std::pair<uint32_t, const NiccTopologySpec::Link*>>> adj(spec.nodes);
    for (const auto& lk : spec.links)
    {
        adj[lk.a].emplace_back(lk.b, &lk);
        adj[lk.b].emplace_back(lk.a, &lk);
    }
    double worst = 0;
    for (uint32_t h : spec.hosts)
    {
        std::vector<int32_t> dist(spec.nodes, -1);
        std::vector<double> ns(spec.nodes, 0.0);
        std::vector<uint32_t> queue{h};
        dist[h] = 0;
        for (size_t i = 0; i < queue.size(); ++i)
        {
            const uint32_t u = queue[i];
            if (u != h && !spec.isSwitch[u])
            {
                continue; // hosts do not relay
            }
            for (const auto& [v, lk] : adj[u])
            {
                if (dist[v] < 0)
                {
                    dist[v] = dist[u] + 1;
                    ns[v] = ns[u] + 2.0 * static_cast<double>(lk->delayPs) / 1000.0 +
                            c.payload * 8.0e9 / static_cast<double>(lk->bps);
                    queue.push_back(v);
                }
            }
        }
        for (uint32_t o : spec.hosts)
        {
            if (o != h && dist[o] > 0)
            {
                worst = std::max(worst, ns[o]);
            }
        }
    }
    *rttNs = worst;
    return true;
}

bool
MapGlobalT(const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (!Hpcc(*c))
    {
        c->Note(l, "applies to HPCC's T only; no effect with this CC_MODE");
        return true;
    }
    if (!on)
    {
        *why = "0 (each host pair's own base RTT as T) is not implemented: nicc's HPCC has one T "
               "(hpcc.base_rtt_ns); use 1";
        return false;
    }
    double rtt;
    if (!MaxBaseRttNs(*c, &rtt, why))
    {
        *why = "TOPOLOGY_FILE: " + *why;
        return false;
    }
    c->baseRttNs = std::round(rtt);
    c->Set("hpcc.base_rtt_ns", std::to_string(static_cast<uint64_t>(c->baseRttNs)));
    return true;
}

bool
MapLinkDown(const Line& l, Ctx*, std::string* why)
{
    for (const auto& a : l.args)
    {
        if (a != "0")
        {
            *why = "link failures are not modelled yet; use 0 0 0";
            return false;
        }
    }
    return true;
}

bool
MapEnableTrace(const Line& l, Ctx* c, std::string* why)
{
    return Flag(l, &c->trace, why);
}

bool
MapTraceFile(const Line& l, Ctx* c, std::string* why)
{
    if (!c->trace)
    {
        return true;
    }
    std::string p;
    if (!InputFile(l, c, &p, why))
    {
        return false;
    }
    // The count, then that many node ids (ids past the last node are
    // skipped, as the simulator does); its switches are monitored.
    std::ifstream in(p);
    uint64_t n = 0;
    if (!(in >> n))
    {
        *why = p + ":1: expected the number of nodes to trace";
        return false;
    }
    NiccTopologySpec spec;
    if (!NiccFabricHelper::ParseTopologyFile(c->topologyPath, &spec, why))
    {
        *why = "TOPOLOGY_FILE: " + *why;
        return false;
    }
    std::string mon;
    for (uint64_t i = 0; i < n; ++i)
    {
        uint64_t id;
        if (!(in >> id))
        {
            *why = p + ": declares " + std::to_string(n) + " node ids and has " + std::to_string(i);
            return false;
        }
        if (id < spec.isSwitch.size() && spec.isSwitch[id])
        {
            mon += (mon.empty() ? "" : ",") + std::to_string(id) + ":*";
        }
    }
    if (!mon.empty())
    {
        c->Set("monitor", mon);
    }
    c->Note(l, "nicc writes no packet-level trace (mix.tr); the queues of the switches listed here are "
               "monitored instead (queues.csv, per-port statistics in summary.json)");
    return true;
}

bool
MapOutputFile(std::string NiccHpccConfig::*field, const Line& l, Ctx* c, std::string* why)
{
    const std::string p = Resolve(*c, l.args[0], false);
    std::error_code ec;
    const fs::path dir = fs::path(p).parent_path();
    if (!dir.empty() && !fs::is_directory(dir, ec))
    {
        *why = "directory of '" + l.args[0] + "' does not exist (" + dir.string() + ")";
        return false;
    }
    c->out->*field = p;
    return true;
}

bool
MapFctOut(const Line& l, Ctx* c, std::string* why)
{
    return MapOutputFile(&NiccHpccConfig::fctFile, l, c, why);
}

bool
MapPfcOut(const Line& l, Ctx* c, std::string* why)
{
    return MapOutputFile(&NiccHpccConfig::pfcFile, l, c, why);
}

bool
MapQlenOut(const Line& l, Ctx* c, std::string* why)
{
    if (!MapOutputFile(&NiccHpccConfig::qlenFile, l, c, why))
    {
        return false;
    }
    c->Set("qlen_mon_file", c->out->qlenFile);
    return true;
}

bool
MapDynamicPfc(const Line& l, Ctx*, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (!on)
    {
        *why = "0 (a static PFC threshold) is not modelled: nicc's threshold is pfc_alpha x the free shared "
               "buffer; use 1";
        return false;
    }
    return true;
}

/// The three ECN maps as one ecn_map table; every rate needs all three.
bool
MergeEcnMaps(Ctx* c, std::string* error)
{
    const char* names[3] = {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"};
    int given = 0;
    for (int k = 0; k < 3; ++k)
    {
        given += c->ecnLine[k] != nullptr;
    }
    if (given == 0)
    {
        return true;
    }
    for (int k = 0; k < 3; ++k)
    {
        if (!c->ecnLine[k])
        {
            const Line& any = *c->ecnLine[c->ecnLine[0] ? 0 : c->ecnLine[1] ? 1 : 2];
            *error = c->Where(any) + ": needs " + names[k] + " too (the thresholds of a port come from all three maps)";
            return false;
        }
    }
    std::string spec;
    for (int k = 0; k < 3; ++k)
    {
        for (const auto& [rate, v] : c->ecn[k])
        {
            for (int o = 0; o < 3; ++o)
            {
                if (c->ecn[o].count(rate) == 0)
                {
                    *error = c->Where(*c->ecnLine[o]) + ": no entry for rate " + std::to_string(rate) + " (" +
                             names[k] + " has one)";
                    return false;
                }
            }
            if (k == 0)
            {
                spec += (spec.empty() ? "" : ";") + std::to_string(rate) + ":" + v + ":" + c->ecn[1][rate] + ":" +
                        c->ecn[2][rate];
            }
        }
    }
    c->Set("ecn_map", spec);
    return true;
}

/// The simulator scales each switch port's PFC alpha with the port's rate
/// over the NIC rate (its pfc_a_shift): the NIC rate is the first host's link.
bool
SetAlphaReference(Ctx* c, std::string* error)
{
    NiccTopologySpec spec;
    if (!NiccFabricHelper::ParseTopologyFile(c->topologyPath, &spec, error))
    {
        return false;
    }
    const uint32_t firstHost = spec.hosts.empty() ? 0 : spec.hosts.front();
    for (const auto& lk : spec.links)
    {
        if (lk.a == firstHost || lk.b == firstHost)
        {
            c->Set("pfc_alpha_ref_rate", std::to_string(lk.bps) + "bps");
            return true;
        }
    }
    return true;
}

struct Row
{
    NiccHpccKey key;
    uint32_t nargs;     ///< values after the key; 0 = one or more
    Kind kind;
    const char* target; ///< the nicc key (generic kinds)
    double lo;          ///< NUMBER / WHOLE range of the value as written
    double hi;
    double scale;       ///< NUMBER / WHOLE: nicc value = value x scale
    MapFn fn;           ///< CUSTOM
};

// Applied in this order: CC_MODE, the payload and the topology first (later
// rows read them). Every key of the simulator's main program
// (simulation/scratch/third.cc) is here, plus ENABLE_PFC of its descendants.
const std::vector<Row>&
Rows()
{
    using K = Kind;
    static const std::vector<Row> rows = {
        {{"CC_MODE", "1|3|7|8|10", "cc", "1 DCQCN -> dcqcn, 3 HPCC -> hpcc, 10 HPCC-PINT -> hpcc-pint; 7 TIMELY "
          "and 8 DCTCP are refused (not implemented in nicc)"}, 1, K::CUSTOM, "", 0, 0, 0, MapCcMode},
        {{"PACKET_PAYLOAD_SIZE", "bytes", "mtu", "payload bytes per packet (nicc's mtu is the payload too)"},
         1, K::CUSTOM, "", 0, 0, 0, MapPayload},
        {{"TOPOLOGY_FILE", "path", "topology=file, topology_file", "the topology (HPCC 'N S L' or "
          "ns3-datacenter 'N S T L' header)"}, 1, K::CUSTOM, "", 0, 0, 0, MapTopology},
        {{"FLOW_FILE", "path", "flow_file", "the flows: a count, then that many 'src dst pg dport size "
          "start_s' lines"}, 1, K::CUSTOM, "", 0, 0, 0, MapFlowFile},
        {{"GLOBAL_T", "flag", "hpcc.base_rtt_ns", "1: T = the largest base RTT of any host pair (2 x path delay "
          "+ one payload's transmission per link) from the topology; 0 refused; 1 when absent"}, 1, K::CUSTOM, "", 0, 0, 0,
         MapGlobalT},
        {{"SIMULATOR_STOP_TIME", "s", "stop_ms", "end of the simulation, s -> ms"}, 1, K::NUMBER, "stop_ms",
         1e-6, 100, 1000, nullptr},
        {{"ENABLE_QCN", "flag", "ecn", "ECN marking at the switches"}, 1, K::FLAG, "ecn", 0, 0, 0, nullptr},
        {{"ENABLE_PFC", "flag", "pfc", "PFC on/off (a key of the simulator's descendants)"}, 1, K::FLAG, "pfc",
         0, 0, 0, nullptr},
        {{"USE_DYNAMIC_PFC_THRESHOLD", "flag", "(checked)", "1: the PFC threshold is alpha x the free shared "
          "buffer, as nicc's (pfc_alpha); 0 (a static threshold) refused"}, 1, K::CUSTOM, "", 0, 0, 0,
         MapDynamicPfc},
        {{"PAUSE_TIME", "us", "(none)", "pause time written into PFC frames; the simulator's receivers ignore "
          "it and stay paused until the resume (compat=hpcc-sim: pfc_pause_until_resume=true): no effect"}, 1,
         K::NOTE, "", 0, 0, 0, nullptr},
        {{"BUFFER_SIZE", "MiB", "buffer_bytes", "shared buffer per switch, MiB -> bytes (x 1048576)"}, 1,
         K::WHOLE, "buffer_bytes", 1, 4096, 1048576, nullptr},
        {{"KMAX_MAP", "n rate k ...", "ecn_map", "ECN Kmax per port speed: rate in bit/s, K in units of "
          "1000 B; with KMIN_MAP and PMAX_MAP one ecn_map entry RATE:KMIN:KMAX:PMAX per rate"}, 0, K::KMAP,
         "kmax", 0, 0, 0, nullptr},
        {{"KMIN_MAP", "n rate k ...", "ecn_map", "ECN Kmin per port speed (as KMAX_MAP)"}, 0, K::KMAP, "kmin", 0,
         0, 0, nullptr},
        {{"PMAX_MAP", "n rate p ...", "ecn_map", "ECN marking probability at Kmax per port speed"}, 0, K::PMAP,
         "pmax", 0, 0, 0, nullptr},
        {{"ACK_HIGH_PRIO", "flag", "ack_high_priority", "the class the hosts put ACKs in: 1 the strict-priority "
          "class 0, 0 the data class (3)"}, 1, K::FLAG, "ack_high_priority", 0, 0, 0, nullptr},
        {{"ALPHA_RESUME_INTERVAL", "us", "dcqcn.rp_dce_tcp_rtt", "DCQCN alpha update period, whole us"}, 1,
         K::WHOLE, "dcqcn.rp_dce_tcp_rtt", 1, 1e7, 1, nullptr},
        {{"RATE_DECREASE_INTERVAL", "us", "dcqcn.rp_rate_reduce_monitor_period", "DCQCN: the period of the rate-"
          "decrease checks, whole us (compat=hpcc-sim: checked on that grid, dcqcn.rp_cut_on_grid)"}, 1, K::WHOLE, "dcqcn.rp_rate_reduce_monitor_period", 0, 1e7, 1, nullptr},
        {{"CLAMP_TARGET_RATE", "flag", "dcqcn.rp_clamp_tgt_rate", "every cut sets the target rate to the current "
          "rate"}, 1, K::FLAG, "dcqcn.rp_clamp_tgt_rate", 0, 0, 0, nullptr},
        {{"RP_TIMER", "us", "dcqcn.rp_time_reset", "DCQCN rate-increase timer, whole us"}, 1, K::WHOLE,
         "dcqcn.rp_time_reset", 1, 1e7, 1, nullptr},
        {{"EWMA_GAIN", "g", "dcqcn.rp_dce_tcp_g", "alpha gain g -> 1024 - g x 1024 (g a multiple of 1/1024)"},
         1, K::CUSTOM, "", 0, 0, 0, MapEwmaGain},
        {{"FAST_RECOVERY_TIMES", "count", "dcqcn.rp_threshold", "fast-recovery stages F"}, 1, K::WHOLE,
         "dcqcn.rp_threshold", 0, 31, 1, nullptr},
        {{"RATE_AI", "DataRate", "dcqcn.rp_ai_rate / hpcc.w_ai_bytes", "additive increase: DCQCN whole Mb/s; "
          "HPCC (rate-based there) the window's W_AI = R_AI x T / 8"}, 1, K::CUSTOM, "", 0, 0, 0, MapRateAi},
        {{"RATE_HAI", "DataRate", "dcqcn.rp_hai_rate", "DCQCN hyper increase, whole Mb/s (unused by HPCC)"}, 1,
         K::RATE, "dcqcn.rp_hai_rate", 0, 0, 0, nullptr},
        {{"MIN_RATE", "DataRate", "dcqcn.rp_min_rate / hpcc.min_window_bytes", "rate floor: DCQCN whole Mb/s; "
          "HPCC the window floor R_min x T / 8"}, 1, K::CUSTOM, "", 0, 0, 0, MapMinRate},
        {{"DCTCP_RATE_AI", "DataRate", "(none)", "DCTCP (CC_MODE 8) only; no effect"}, 1, K::NOTE, "", 0, 0, 0,
         nullptr},
        {{"HAS_WIN", "flag", "(checked)", "HPCC needs 1; DCQCN needs 0 (nicc's DCQCN has no window)"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapHasWin},
        {{"VAR_WIN", "flag", "(checked)", "HPCC needs 1 (variable window)"}, 1, K::CUSTOM, "", 0, 0, 0,
         MapVarWin},
        {{"FAST_REACT", "flag", "(checked)", "HPCC needs 1 (react per ACK)"}, 1, K::CUSTOM, "", 0, 0, 0,
         MapFastReact},
        {{"U_TARGET", "fraction", "hpcc.eta_ppm", "eta -> parts per million"}, 1, K::WHOLE, "hpcc.eta_ppm",
         1e-6, 1, 1e6, nullptr},
        {{"MI_THRESH", "count", "hpcc.max_stage", "maxStage"}, 1, K::WHOLE, "hpcc.max_stage", 0, 255, 1,
         nullptr},
        {{"INT_MULTI", "count", "(none)", "the unit multiplier of the simulator's INT fields; nicc's INT units "
          "are fixed (docs/hpcc.md): no effect"}, 1, K::NOTE, "", 0, 0, 0, nullptr},
        {{"MULTI_RATE", "flag", "(noted)", "HPCC: 0 = one U from the most loaded hop (nicc, the paper); 1 (a rate "
          "per hop) is noted as a difference"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapMultiRate},
        {{"SAMPLE_FEEDBACK", "flag", "(checked)", "HPCC: 0 = INT on every ACK (nicc); 1 refused"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapSampleFeedback},
        {{"RATE_BOUND", "flag", "(checked)", "1 = pace at the CC rate (nicc); 0 refused"}, 1, K::CUSTOM, "", 0,
         0, 0, MapRateBound},
        {{"PINT_LOG_BASE", "number", "(none)", "HPCC-PINT encoding base: noted"}, 1, K::CUSTOM, "", 0, 0, 0,
         MapPint},
        {{"PINT_PROB", "fraction", "(none)", "HPCC-PINT sampling probability: noted"}, 1, K::CUSTOM, "", 0, 0,
         0, MapPint},
        {{"ERROR_RATE_PER_LINK", "probability", "(checked)", "0 only: per-link loss is not modelled yet"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapErrorRate},
        {{"L2_ACK_INTERVAL", "bytes", "ack_interval=1", "the simulator ACKs every packet once this many bytes "
          "arrived; 0 refused"}, 1, K::CUSTOM, "", 0, 0, 0, MapAckInterval},
        {{"L2_CHUNK_SIZE", "bytes", "(none)", "chunk of go-back-to-chunk; no effect while every packet is "
          "acknowledged and L2_BACK_TO_ZERO is 0"}, 1, K::NOTE, "", 0, 0, 0, nullptr},
        {{"L2_BACK_TO_ZERO", "flag", "recovery=gbn", "0 = go-back-N; 1 (back to the chunk start) refused"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapBackToZero},
        {{"LINK_DOWN", "a b c", "(checked)", "0 0 0 only: link failures are not modelled yet"}, 3, K::CUSTOM, "",
         0, 0, 0, MapLinkDown},
        {{"ENABLE_TRACE", "flag", "(with TRACE_FILE)", "packet trace on/off"}, 1, K::CUSTOM, "", 0, 0, 0,
         MapEnableTrace},
        {{"TRACE_FILE", "path", "monitor", "nodes to trace: its switches are monitored (queues.csv)"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapTraceFile},
        {{"TRACE_OUTPUT_FILE", "path", "(none)", "the simulator's binary packet trace: not written (see "
          "TRACE_FILE)"}, 1, K::NOTE, "", 0, 0, 0, nullptr},
        {{"FCT_OUTPUT_FILE", "path", "(copy of fct.txt)", "fct.txt is also written here"}, 1, K::CUSTOM, "", 0,
         0, 0, MapFctOut},
        {{"PFC_OUTPUT_FILE", "path", "(copy of pfc.txt)", "pfc.txt is also written here"}, 1, K::CUSTOM, "", 0,
         0, 0, MapPfcOut},
        {{"QLEN_MON_FILE", "path", "qlen_mon_file", "per-port queue-length histograms in the simulator's "
          "format"}, 1, K::CUSTOM, "", 0, 0, 0, MapQlenOut},
        {{"QLEN_MON_START", "ns", "monitor_start_us", "start of queue monitoring, ns -> us"}, 1, K::NUMBER,
         "monitor_start_us", 0, 1e15, 1e-3, nullptr},
        {{"QLEN_MON_END", "ns", "monitor_stop_us", "end of queue monitoring, ns -> us"}, 1, K::NUMBER,
         "monitor_stop_us", 0, 1e15, 1e-3, nullptr},
        {{"DATA_RATE", "DataRate", "(none)", "read but unused by the simulator (rates come from the topology "
          "file); no effect"}, 1, K::NOTE, "", 0, 0, 0, nullptr},
        {{"LINK_DELAY", "Time", "(none)", "read but unused by the simulator (delays come from the topology "
          "file); no effect"}, 1, K::NOTE, "", 0, 0, 0, nullptr},
    };
    return rows;
}

/// Maps one line by its row.
bool
Apply(const Row& r, const Line& l, Ctx* c, std::string* why)
{
    switch (r.kind)
    {
    case Kind::CUSTOM:
        return r.fn(l, c, why);
    case Kind::FLAG:
        return SetFlag(r.target, l, c, why);
    case Kind::NUMBER: {
        double v;
        if (!Number(l.args[0], r.lo, r.hi, &v, why))
        {
            *why += std::string(" (") + r.key.value + ")";
            return false;
        }
        c->Set(r.target, Fmt(v * r.scale));
        return true;
    }
    case Kind::WHOLE: {
        double v;
        if (!Number(l.args[0], r.lo, r.hi, &v, why))
        {
            *why += std::string(" (") + r.key.value + ")";
            return false;
        }
        const double scaled = v * r.scale;
        if (std::fabs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, std::fabs(scaled)))
        {
            *why = "'" + l.args[0] + "' is not a whole number of " + r.key.value + " in nicc's " + r.target;
            return false;
        }
        c->Set(r.target, std::to_string(static_cast<uint64_t>(std::llround(scaled))));
        return true;
    }
    case Kind::RATE: {
        std::string v;
        if (!RateMbps(l, &v, why))
        {
            return false;
        }
        c->Set(r.target, v);
        return true;
    }
    case Kind::KMAP:
    case Kind::PMAP: {
        // Kept until all three are read: ecn_map holds them in one table.
        const std::string t = r.target;
        const int k = t == "kmin" ? 0 : t == "kmax" ? 1 : 2;
        c->ecnLine[k] = &l;
        return RateMap(l, &c->ecn[k], r.kind == Kind::PMAP, why);
    }
    case Kind::NOTE:
        c->Note(l, r.key.doc);
        return true;
    }
    return false;
}

/// Splits a line into whitespace-separated tokens ('#' starts a comment).
std::vector<std::string>
Tokens(const std::string& line)
{
    std::istringstream is(line.substr(0, line.find('#')));
    std::vector<std::string> t;
    std::string w;
    while (is >> w)
    {
        t.push_back(w);
    }
    return t;
}

} // namespace

const std::vector<NiccHpccKey>&
NiccHpccKeys()
{
    static const std::vector<NiccHpccKey> keys = [] {
        std::vector<NiccHpccKey> k;
        for (const auto& r : Rows())
        {
            k.push_back(r.key);
        }
        return k;
    }();
    return keys;
}

std::string
NiccHpccKeysMarkdown()
{
    std::string s = "| HPCC key | value | nicc | meaning and conversion |\n|---|---|---|---|\n";
    auto cell = [](const char* text) {
        std::string c;
        for (const char* p = text; *p; ++p)
        {
            c += *p == '|' ? std::string("\\|") : std::string(1, *p);
        }
        return c;
    };
    for (const auto& k : NiccHpccKeys())
    {
        s += std::string("| `") + k.name + "` | " + cell(k.value) + " | `" + cell(k.nicc) + "` | " + cell(k.doc) +
             " |\n";
    }
    // The preset --hpcc-config implies, from the preset table itself.
    for (const auto& p : CompatPresets())
    {
        if (p.keys.empty())
        {
            continue;
        }
        s += std::string("\n`compat=") + p.name + "` sets, unless the key is set explicitly:\n\n| key | value |\n|---|---|\n";
        for (const auto& [key, value] : p.keys)
        {
            s += std::string("| `") + key + "` | `" + value + "` |\n";
        }
    }
    return s;
}

bool
NiccParseHpccConfig(const std::string& text,
                    const std::string& source,
                    const std::string& baseDir,
                    bool lenient,
                    NiccHpccConfig* out,
                    std::string* error)
{
    *out = NiccHpccConfig{};
    out->path = source;
    Ctx c{&source, &baseDir, {}, out, "", 1000, true, 0.0, {}, {nullptr, nullptr, nullptr}};
    std::map<std::string, const Row*> byName;
    for (const auto& r : Rows())
    {
        byName[r.key.name] = &r;
    }
    std::istringstream in(text);
    std::string raw;
    uint32_t n = 0;
    while (std::getline(in, raw))
    {
        ++n;
        std::vector<std::string> t = Tokens(raw);
        if (t.empty())
        {
            continue;
        }
        Line l{t[0], std::vector<std::string>(t.begin() + 1, t.end()), n};
        auto it = byName.find(l.key);
        if (it == byName.end())
        {
            std::string msg = "unknown key (the HPCC simulator's keys are listed in docs/hpcc-compat.md)";
            if (!lenient)
            {
                *error = c.Where(l) + ": " + msg + "; --lenient skips unknown keys";
                return false;
            }
            c.Note(l, msg + "; skipped (--lenient)");
            continue;
        }
        const uint32_t want = it->second->nargs;
        if ((want > 0 && l.args.size() != want) || (want == 0 && l.args.empty()))
        {
            *error = c.Where(l) + ": expected " + (want ? std::to_string(want) : std::string("some")) +
                     " value(s) (" + it->second->key.value + "), got " + std::to_string(l.args.size());
            return false;
        }
        auto prev = c.lines.find(l.key);
        if (prev != c.lines.end())
        {
            c.Note(l, "repeats line " + std::to_string(prev->second.line) + "; the last one applies, as in "
                      "the simulator");
        }
        c.lines[l.key] = l;
    }
    if (!c.Get("TOPOLOGY_FILE") || !c.Get("FLOW_FILE"))
    {
        *error = source + ": TOPOLOGY_FILE and FLOW_FILE are required";
        return false;
    }
    // The simulator's default GLOBAL_T is 1: HPCC's T is the largest base RTT.
    const Line impliedGlobalT{"GLOBAL_T", {"1"}, 0};
    for (const auto& r : Rows())
    {
        const Line* l = c.Get(r.key.name);
        if (!l && r.fn == MapGlobalT && Hpcc(c))
        {
            l = &impliedGlobalT;
        }
        if (!l)
        {
            continue;
        }
        std::string why;
        if (!Apply(r, *l, &c, &why))
        {
            *error = (l == &impliedGlobalT ? source + ": GLOBAL_T (absent: 1)" : c.Where(*l)) + ": " + why;
            return false;
        }
    }
    if (!MergeEcnMaps(&c, error) || !SetAlphaReference(&c, error))
    {
        return false;
    }
    return true;
}

bool
NiccLoadHpccConfig(const std::string& path, bool lenient, NiccHpccConfig* out, std::string* error)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
    {
        *error = path + ": no such HPCC config file";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof())
    {
        *error = path + ": cannot read the HPCC config file";
        return false;
    }
    const fs::path dir = fs::path(path).parent_path();
    return NiccParseHpccConfig(text.str(), path, dir.empty() ? "." : dir.string(), lenient, out, error);
}

bool
NiccApplyHpccConfig(const NiccHpccConfig& cfg, NiccScenario* s, std::string* error)
{
    if (!s->Select("leaf-spine", error))
    {
        return false;
    }
    // Only the file's flows: every generated workload off.
    for (const char* k : {"poisson_load", "incast_load", "permutation_bytes", "allreduce_bytes", "alltoall_bytes"})
    {
        if (!s->Set(k, "0", error))
        {
            return false;
        }
    }
    if (!s->Set("compat", "hpcc-sim", error))
    {
        return false;
    }
    for (const auto& [k, v] : cfg.keys)
    {
        if (!s->Set(k, v, error))
        {
            *error = cfg.path + ": " + *error;
            return false;
        }
    }
    const fs::path dir = fs::absolute(fs::path(cfg.path)).parent_path();
    s->SetLabel(dir.filename().string().empty() ? "hpcc-config" : dir.filename().string());
    return true;
}

} // namespace ns3
