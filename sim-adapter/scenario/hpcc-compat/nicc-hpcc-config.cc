/*
 * nicc-hpcc-config.cc — the HPCC simulator's config.txt mapped to nicc
 * scenario keys (nicc-hpcc-config.h). One table row per key: its value's
 * shape, what it sets, its documentation, and the function that maps it.
 */
#include "nicc-hpcc-config.h"

#include "nicc-hpcc-config-map.h"
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
using namespace hpcc_config;

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
        {{"GLOBAL_T", "flag", "hpcc.base_rtt_ns / dcqcn_window_bdp", "HPCC: 1 = T is the largest base RTT of "
          "any host pair (2 x path delay + one payload's transmission per link) from the topology, 0 refused; "
          "DCQCN with HAS_WIN 1: the window is the largest BDP of any pair (1) or the flow's pair's (0); "
          "1 when absent"}, 1, K::CUSTOM, "", 0, 0, 0, MapGlobalT},
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
        {{"HAS_WIN", "flag", "dcqcn_window_bdp", "HPCC needs 1; DCQCN: 1 = a window of a BDP (rtt x "
          "the path's slowest rate / 8, the pair's base RTT as for GLOBAL_T) caps the bytes in flight on top "
          "of the rate: dcqcn_window_bdp = max (GLOBAL_T 1) or pair (GLOBAL_T 0); 0 = none; absent: none "
          "(the simulator's default is 1)"}, 1, K::CUSTOM, "", 0, 0, 0, MapHasWin},
        {{"VAR_WIN", "flag", "(checked) / dcqcn_var_window", "HPCC needs 1 (variable window); DCQCN with "
          "HAS_WIN 1: 1 = the window scaled by the flow's rate over the line rate, 0 = fixed"}, 1, K::CUSTOM,
         "", 0, 0, 0, MapVarWin},
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
        {{"ERROR_RATE_PER_LINK", "probability", "loss_rate", "frame loss probability of every link, per frame "
          "(docs/faults.md)"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapErrorRate},
        {{"L2_ACK_INTERVAL", "bytes", "ack_interval=1", "the simulator ACKs every packet once this many bytes "
          "arrived; 0 refused"}, 1, K::CUSTOM, "", 0, 0, 0, MapAckInterval},
        {{"L2_CHUNK_SIZE", "bytes", "(none)", "chunk of go-back-to-chunk; no effect while every packet is "
          "acknowledged and L2_BACK_TO_ZERO is 0"}, 1, K::NOTE, "", 0, 0, 0, nullptr},
        {{"L2_BACK_TO_ZERO", "flag", "recovery=gbn", "0 = go-back-N; 1 (back to the chunk start) refused"}, 1,
         K::CUSTOM, "", 0, 0, 0, MapBackToZero},
        {{"LINK_DOWN", "a b c", "fault, fault_detect_us=0", "a > 0: link b-c (node ids) down at 2 s + a us, "
          "routes recomputed at once, never up (fault=link:b-c@2000000+a); a = 0: none"}, 3, K::CUSTOM, "",
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
        {{"QLEN_MON_FILE", "path", "qlen_mon_file, monitor=all", "per-port queue-length histograms in the "
          "simulator's format; every switch port is monitored, as in the simulator, unless TRACE_FILE's "
          "switches or a --set monitor=... choose the ports"}, 1, K::CUSTOM, "", 0, 0, 0, MapQlenOut},
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

// A NOTE row's value, checked by its shape although nicc uses none of it:
// a typo is reported as for any other key.
bool
CheckNoted(const Row& r, const Line& l, std::string* why)
{
    const std::string shape = r.key.value;
    const std::string& a = l.args[0];
    uint64_t bps = 0;
    int64_t ps = 0;
    double v = 0;
    bool on = false;
    if (shape == "DataRate" || shape == "Time")
    {
        const bool ok = shape == "Time" ? NiccParseTime(a, &ps) : NiccParseDataRate(a, &bps);
        *why = "'" + NiccPrintable(a) + "' is no " + (shape == "Time" ? "time (e.g. 0.001ms)" : "data rate (e.g. 100Gbps)");
        return ok;
    }
    if (shape == "path")
    {
        *why = "'" + NiccPrintable(a) + "' is no UTF-8 text";
        return NiccIsUtf8(a);
    }
    if (shape == "flag")
    {
        return Flag(l, &on, why);
    }
    return Number(a, 0, 1e18, &v, why); // us, bytes, count
}

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
        return CheckNoted(r, l, why);
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
