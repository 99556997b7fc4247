/*
 * nicc-hpcc-config-map.cc — the value readers and the per-key mapping
 * functions of the HPCC config mapping (nicc-hpcc-config-map.h) for inputs,
 * outputs, recovery and faults; the congestion-control keys are in
 * nicc-hpcc-config-cc.cc, the row table that names them all in
 * nicc-hpcc-config.cc.
 */
#include "nicc-hpcc-config-map.h"

#include "nicc-units.h"


#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace ns3
{
namespace hpcc_config
{

namespace fs = std::filesystem;

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
FlagMust(const Line& l, bool want, const char* refusal, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (on != want)
    {
        *why = refusal;
        return false;
    }
    return true;
}

bool
Number(const std::string& a, double lo, double hi, double* v, std::string* why)
{
    if (!NiccParseNumber(a, v))
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
MapErrorRate(const Line& l, Ctx* c, std::string* why)
{
    double v;
    if (!Number(l.args[0], 0, 1, &v, why))
    {
        return false;
    }
    if (v > 0)
    {
        c->Set("loss_rate", l.args[0]); // every link, per frame (docs/faults.md)
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

bool
MapLinkDown(const Line& l, Ctx* c, std::string* why)
{
    // The simulator takes link b-c down at 2 s + a us when a > 0 and
    // recomputes every route at once; the link never comes back.
    uint64_t at;
    uint64_t a;
    uint64_t b;
    if (!Whole(l.args[0], 0, 1e12, &at, why) || !Whole(l.args[1], 0, 1e9, &a, why) ||
        !Whole(l.args[2], 0, 1e9, &b, why))
    {
        return false;
    }
    if (at == 0)
    {
        return true;
    }
    if (a == b)
    {
        *why = "nodes b and c are the same (" + l.args[1] + ")";
        return false;
    }
    c->Set("fault", "link:" + l.args[1] + "-" + l.args[2] + "@" + std::to_string(2000000 + at));
    c->Set("fault_detect_us", "0");
    return true;
}

bool
MapEnableTrace(const Line& l, Ctx* c, std::string* why)
{
    return Flag(l, &c->trace, why);
}

bool
MapOutputFile(std::string NiccHpccConfig::*field, const Line& l, Ctx* c, std::string* why)
{
    if (!NiccIsUtf8(l.args[0]))
    {
        *why = "'" + NiccPrintable(l.args[0]) + "' is no UTF-8 text";
        return false;
    }
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
    // The simulator samples every port of every switch into this file
    // (third.cc monitor_buffer). TRACE_FILE's row comes first: a monitor it
    // set stays, and a --set monitor applies after the whole config.
    const bool monitored = std::any_of(c->out->keys.begin(), c->out->keys.end(),
                                       [](const auto& kv) { return kv.first == "monitor"; });
    if (!monitored)
    {
        c->Set("monitor", "all");
    }
    return true;
}

bool
MapDynamicPfc(const Line& l, Ctx*, std::string* why)
{
    return FlagMust(l, true, "0 (a static PFC threshold) is not modelled: nicc's threshold is pfc_alpha x the "
                             "free shared buffer; use 1", why);
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

} // namespace hpcc_config
} // namespace ns3
