/*
 * nicc-scenario.cc — NiccScenario: key table, value checking, the incast and
 * fairness runs and their measurements.
 */
#include "nicc-scenario.h"

#include "nicc-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{
constexpr double U32 = 4294967295.0;

// name, type, min, max, default, help (per-scenario defaults: kOverrides)
const std::vector<NiccScenarioKey> kKeys = {
    {"cc", "none|dcqcn|hpcc", 0, 0, "dcqcn", "congestion control of every QP"},
    {"senders", "uint", 1, 1000, "16", "incast/fairness: sending hosts (one flow each) on the switch"},
    {"size_bytes", "uint", 1, U32 - 65536, "1000000", "incast/fairness: bytes per flow"},
    {"stagger_us", "double", 0, 1e6, "0", "incast/fairness: flow i starts at i * stagger_us"},
    {"stop_ms", "double", 0.001, 1e5, "20",
     "simulated time limit (incast/fairness also end when every flow is done; fabric "
     "scenarios with only finite traffic end when it is done)"},
    {"rate_gbps", "double", 1, 1600, "100", "line rate of every host link, Gb/s"},
    {"delay_ns", "uint", 1, 1e9, "1000", "one-way propagation delay of every link"},
    {"mtu", "uint", 256, 9000, "1024", "payload bytes per full DATA packet"},
    {"buffer_bytes", "uint", 100000, 1e10, "16000000", "shared buffer of every switch"},
    {"pfc", "bool", 0, 0, "true", "PFC on (lossless data class) or off (lossy)"},
    {"ecn", "bool", 0, 0, "true", "RED/ECN marking at the switches"},
    {"ecn_kmin_bytes", "uint", 0, 1e10, "0", "RED Kmin; 0 = 100 KB per 25 Gb/s of the port"},
    {"ecn_kmax_bytes", "uint", 0, 1e10, "0", "RED Kmax; 0 = 400 KB per 25 Gb/s of the port"},
    {"ecn_pmax", "double", 0, 1, "0.2", "RED marking probability at Kmax"},
    {"dcqcn_profile", "mlx5|paper", 0, 0, "mlx5", "DCQCN parameter profile"},
    {"dcqcn_time_reset_us", "int", -1, U32, "-1", "rp_time_reset; -1 = profile"},
    {"dcqcn_byte_reset", "int", -1, U32, "-1", "rp_byte_reset (0 = off); -1 = profile"},
    {"dcqcn_ai_mbps", "int", -1, U32, "-1", "rp_ai_rate; -1 = profile"},
    {"dcqcn_hai_mbps", "int", -1, U32, "-1", "rp_hai_rate; -1 = profile"},
    {"dcqcn_threshold", "int", -1, U32, "-1", "rp_threshold (F); -1 = profile"},
    {"dcqcn_cnp_interval_us", "int", -1, U32, "-1", "np_min_time_between_cnps; -1 = profile"},
    {"dcqcn_monitor_us", "int", -1, U32, "-1", "rp_rate_reduce_monitor_period; -1 = profile"},
    {"dcqcn_g", "int", -1, U32, "-1", "rp_dce_tcp_g (/1024); -1 = profile"},
    {"hpcc_profile", "paper|later", 0, 0, "paper",
     "HPCC profile (paper: maxStage 5; later: maxStage 0)"},
    {"hpcc_base_rtt_ns", "uint", 0, 1000000, "0", "HPCC T; 0 = profile (13 us)"},
    {"hpcc_eta_ppm", "int", -1, 1000000, "-1", "HPCC eta (ppm); -1 = profile"},
    {"hpcc_max_stage", "int", -1, 255, "-1", "HPCC maxStage; -1 = profile"},
    {"hpcc_wai_bytes", "int", -1, U32, "-1", "HPCC W_AI; -1 = profile"},
    {"spray", "ecmp|ops|bitmap|reps|plb|dlb", 0, 0, "ecmp",
     "NIC path selection policy (engine; per-packet entropy values)"},
    {"ev_bits", "uint", 0, 8, "4", "spray over 2^ev_bits entropy values per QP"},
    {"recovery", "gbn|sr|auto", 0, 0, "gbn",
     "go-back-N, selective repeat, or auto = sr when spray != ecmp or switch_mode != ecmp"},
    {"ack_interval", "uint", 1, 1024, "1", "receiver ACKs every N in-order packets"},
    {"sr_nack_threshold", "uint", 1, 255, "255",
     "selective repeat: NACK a hole once a packet this many PSNs past it has arrived, or the "
     "message's last packet (1 = at once, as IRN; 255 = only when the 256-packet placement "
     "window is exhausted: sprayed reordering in a lossless fabric is not loss)"},
    {"int_single_path", "bool", 0, 0, "false",
     "HPCC + NIC spraying: only ACKs of the QP's first EV feed INT to HPCC (one consistent path)"},
    {"rto_us", "uint", 1, 1e7, "4000", "retransmission timeout per QP"},
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
    // Fabric scenarios (leaf-spine, ai-cluster).
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

// Per-scenario defaults that differ from the table's.
const std::map<std::string, std::vector<std::pair<const char*, const char*>>> kOverrides = {
    {"incast", {}},
    {"fairness",
     {{"senders", "2"},
      {"size_bytes", "40000000"},
      {"stagger_us", "1000"},
      {"ecn_kmin_bytes", "100000"},
      {"ecn_kmax_bytes", "400000"},
      {"dcqcn_profile", "paper"},
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

const NiccScenarioKey*
FindKey(const std::string& name)
{
    for (const auto& k : kKeys)
    {
        if (name == k.name)
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

bool
CheckValue(const NiccScenarioKey& k, const std::string& v, std::string* why)
{
    const std::string type = k.type;
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
    if (type.find('|') != std::string::npos)
    {
        std::stringstream ss(type);
        std::string c;
        while (std::getline(ss, c, '|'))
        {
            if (c == v)
            {
                return true;
            }
        }
        *why = "expected one of " + type;
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
    if (d < k.min || d > k.max)
    {
        std::ostringstream os;
        os << "out of range [" << k.min << ", " << k.max << "]";
        *why = os.str();
        return false;
    }
    return true;
}

// Periodic measurement during a run: bottleneck queue samples, per-flow
// goodput windows and progress on stderr.
struct Sampler
{
    Ptr<NiccNetDevice> bottleneck;
    NiccScenarioResult* out;
    const NiccNicHelper* nics;
    Time period;
    Time warmup;
    Time rateWindow;
    Time stop;
    bool progress;
    std::vector<uint64_t> lastAcked;
    std::chrono::steady_clock::time_point wall0;
    double lastPrint{0};
    uint64_t lastEvents{0};
    uint32_t tick{0};

    void Sample()
    {
        if (Simulator::Now() >= warmup)
        {
            out->queueSamples.push_back(bottleneck->GetTotalQueueBytes());
        }
        if (progress && (++tick & 1023) == 0)
        {
            Progress();
        }
        Simulator::Schedule(period, &Sampler::Sample, this);
    }

    void Rates()
    {
        const uint32_t n = nics->GetNFlows();
        out->rateSeriesGbps.resize(n);
        lastAcked.resize(n, 0);
        const std::vector<NiccFlowRecord> recs = nics->GetFlowRecords();
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint64_t acked = recs[i].ackedBytes;
            out->rateSeriesGbps[i].push_back(static_cast<double>(acked - lastAcked[i]) * 8.0 /
                                             rateWindow.GetSeconds() / 1e9);
            lastAcked[i] = acked;
        }
        Simulator::Schedule(rateWindow, &Sampler::Rates, this);
    }

    void Progress()
    {
        NiccPrintProgress(wall0, stop, nics->GetNCompleted(), nics->GetNFlows(), &lastPrint, &lastEvents);
    }
};

// Ideal FCT (see the header): unloaded 2-link path, store and forward.
int64_t
IdealFctNs(uint64_t size, uint32_t mtu, uint32_t dataHdr, uint32_t ackBytes, double bps,
           double delayNs, uint32_t links)
{
    const uint64_t full = size / mtu;
    const uint64_t rest = size % mtu;
    const uint64_t frames = size + (full + (rest ? 1 : 0)) * dataHdr;
    const uint64_t lastFrame = (rest ? rest : mtu) + dataHdr;
    const double ns = static_cast<double>(frames) * 8e9 / bps + 2.0 * links * delayNs +
                      (links - 1) * static_cast<double>(lastFrame) * 8e9 / bps +
                      links * static_cast<double>(ackBytes) * 8e9 / bps;
    return static_cast<int64_t>(std::ceil(ns));
}
} // namespace

void
NiccPrintProgress(std::chrono::steady_clock::time_point wall0,
                  Time stop,
                  uint32_t done,
                  uint32_t total,
                  double* lastPrint,
                  uint64_t* lastEvents)
{
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (wall < 2.0 || wall - *lastPrint < 1.0)
    {
        return;
    }
    const uint64_t events = Simulator::GetEventCount();
    const double rate = *lastPrint > 0
                            ? static_cast<double>(events - *lastEvents) / (wall - *lastPrint) / 1e6
                            : static_cast<double>(events) / wall / 1e6;
    const double nowMs = Simulator::Now().GetSeconds() * 1e3;
    const double stopMs = stop.GetSeconds() * 1e3;
    std::fprintf(stderr,
                 "nicc-sim: %.3f of %.3f ms simulated (%.0f%%), %u/%u flows done, "
                 "%.2f M events/s, %.1f s wall\n",
                 nowMs,
                 stopMs,
                 100.0 * nowMs / stopMs,
                 done,
                 total,
                 rate,
                 wall);
    *lastPrint = wall;
    *lastEvents = events;
}

// ---------------------------------------------------------------------------

namespace
{
/// Nearest-rank percentile (q in [0, 1]) of v; 0 when v is empty.
template <typename T>
T
NearestRank(std::vector<T> v, double q)
{
    if (v.empty())
    {
        return 0;
    }
    const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
    const size_t idx = rank == 0 ? 0 : std::min(rank, v.size()) - 1;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(idx), v.end());
    return v[idx];
}
} // namespace

uint64_t
NiccScenarioResult::Percentile(std::vector<uint64_t> v, double q)
{
    return NearestRank(std::move(v), q);
}

uint64_t
NiccScenarioResult::QueuePercentile(double q) const
{
    return NearestRank(queueSamples, q);
}

double
NiccScenarioResult::SlowdownPercentileOf(double q, uint64_t minBytes, uint64_t maxBytes, int kind,
                                         size_t* n) const
{
    std::vector<double> v;
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const auto& f = flows[i];
        const bool kindOk = kind < 0 || (i < flowKind.size() && flowKind[i] == kind);
        if (f.fctNs >= 0 && idealFctNs[i] > 0 && kindOk && f.sizeBytes >= minBytes &&
            f.sizeBytes < maxBytes)
        {
            v.push_back(static_cast<double>(f.fctNs) / static_cast<double>(idealFctNs[i]));
        }
    }
    if (n)
    {
        *n = v.size();
    }
    return NearestRank(std::move(v), q);
}

double
NiccScenarioResult::SlowdownPercentile(double q) const
{
    return SlowdownPercentileOf(q, 0, ~uint64_t{0}, -1, nullptr);
}

uint32_t
NiccScenarioResult::Completed() const
{
    return static_cast<uint32_t>(std::count_if(flows.begin(), flows.end(), [](const auto& f) {
        return f.fctNs >= 0;
    }));
}

const std::vector<NiccScenarioKey>&
NiccScenario::Keys()
{
    return kKeys;
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
    auto it = kOverrides.find(scenario);
    if (it != kOverrides.end())
    {
        for (const auto& [k, v] : it->second)
        {
            if (key == k)
            {
                return v;
            }
        }
    }
    const NiccScenarioKey* k = FindKey(key);
    return k ? k->def : "";
}

std::string
NiccScenario::DataDir()
{
#ifdef NICC_SIM_DATA_DIR
    return NICC_SIM_DATA_DIR;
#else
    return "data";
#endif
}

std::string
NiccScenario::KeyHelp()
{
    std::ostringstream os;
    os << "Scenario keys (--set key=value); 'default' is the table's, other scenarios' "
          "defaults follow it:\n";
    for (const auto& k : kKeys)
    {
        std::string def = std::string(k.def).empty() ? "\"\"" : k.def;
        for (const auto& name : Names())
        {
            const std::string d = DefaultFor(name, k.name);
            if (d != k.def)
            {
                def += " (" + name + ": " + d + ")";
            }
        }
        char line[512];
        std::snprintf(line, sizeof(line), "  %-22s %-26s default %s\n      %s\n", k.name, k.type,
                      def.c_str(), k.help);
        os << line;
    }
    return os.str();
}

NiccScenario::RngScope::RngScope(uint64_t seedKey, uint64_t runKey)
    : seed(seedKey > 0 ? static_cast<uint32_t>(seedKey) : RngSeedManager::GetSeed()),
      run(runKey > 0 ? runKey : RngSeedManager::GetRun()),
      m_oldSeed(RngSeedManager::GetSeed()),
      m_oldRun(RngSeedManager::GetRun())
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);
}

NiccScenario::RngScope::~RngScope()
{
    RngSeedManager::SetSeed(m_oldSeed);
    RngSeedManager::SetRun(m_oldRun);
}

NiccScenario::NiccScenario()
{
    std::string ignored;
    Select("incast", &ignored);
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
    for (const auto& k : kKeys)
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
    std::string why;
    if (!CheckValue(*k, value, &why))
    {
        *error = "bad value '" + value + "' for key '" + key + "': " + why;
        return false;
    }
    m_values[key] = value;
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
    auto it = m_values.find(key);
    return it == m_values.end() ? std::string() : it->second;
}

uint64_t
NiccScenario::U(const char* key) const
{
    return static_cast<uint64_t>(std::strtod(Get(key).c_str(), nullptr));
}

int64_t
NiccScenario::I(const char* key) const
{
    return static_cast<int64_t>(std::strtod(Get(key).c_str(), nullptr));
}

double
NiccScenario::D(const char* key) const
{
    return std::strtod(Get(key).c_str(), nullptr);
}

bool
NiccScenario::B(const char* key) const
{
    const std::string v = Get(key);
    return v == "true" || v == "1";
}

bool
NiccScenario::UseSelectiveRepeat() const
{
    const std::string rec = Get("recovery");
    return rec == "sr" ||
           (rec == "auto" && (Get("spray") != "ecmp" || Get("switch_mode") != "ecmp"));
}

void
NiccScenario::ConfigureNics(NiccNicHelper* nics) const
{
    nics->SetNicAttribute("CongestionControl", StringValue(Get("cc")));
    nics->SetNicAttribute("SprayPolicy", StringValue(Get("spray")));
    nics->SetNicAttribute("SprayEvBits", IntegerValue(I("ev_bits")));
    // Scenario profile values "paper"/"later" are the registry's
    // "dcqcn-paper" / "hpcc-paper" / "hpcc-later" on the NIC.
    const std::string dcqcnProfile = Get("dcqcn_profile");
    nics->SetNicAttribute("DcqcnProfile",
                          StringValue(dcqcnProfile == "paper" ? "dcqcn-paper" : dcqcnProfile));
    nics->SetNicAttribute("DcqcnRpTimeReset", IntegerValue(I("dcqcn_time_reset_us")));
    nics->SetNicAttribute("DcqcnRpByteReset", IntegerValue(I("dcqcn_byte_reset")));
    nics->SetNicAttribute("DcqcnRpAiRate", IntegerValue(I("dcqcn_ai_mbps")));
    nics->SetNicAttribute("DcqcnRpHaiRate", IntegerValue(I("dcqcn_hai_mbps")));
    nics->SetNicAttribute("DcqcnRpThreshold", IntegerValue(I("dcqcn_threshold")));
    nics->SetNicAttribute("DcqcnNpMinTimeBetweenCnps", IntegerValue(I("dcqcn_cnp_interval_us")));
    nics->SetNicAttribute("DcqcnRpRateReduceMonitorPeriod", IntegerValue(I("dcqcn_monitor_us")));
    nics->SetNicAttribute("DcqcnRpDceTcpG", IntegerValue(I("dcqcn_g")));
    const std::string hpccProfile = Get("hpcc_profile");
    nics->SetNicAttribute("HpccProfile", StringValue(hpccProfile == "paper"   ? "hpcc-paper"
                                                     : hpccProfile == "later" ? "hpcc-later"
                                                                              : hpccProfile));
    const int64_t baseRttNs = I("hpcc_base_rtt_ns");
    nics->SetNicAttribute("HpccBaseRttNs", IntegerValue(baseRttNs > 0 ? baseRttNs : -1));
    nics->SetNicAttribute("HpccEtaPpm", IntegerValue(I("hpcc_eta_ppm")));
    nics->SetNicAttribute("HpccMaxStage", IntegerValue(I("hpcc_max_stage")));
    nics->SetNicAttribute("HpccWAiBytes", IntegerValue(I("hpcc_wai_bytes")));
    nics->SetNicAttribute("Recovery",
                         EnumValue(UseSelectiveRepeat() ? NiccNic::SELECTIVE_REPEAT
                                                      : NiccNic::GO_BACK_N));
    nics->SetNicAttribute("AckInterval", UintegerValue(U("ack_interval")));
    nics->SetNicAttribute("SrNackThreshold", UintegerValue(U("sr_nack_threshold")));
    nics->SetNicAttribute("IntProbeSinglePath", BooleanValue(B("int_single_path")));
    nics->SetNicAttribute("RetxTimeout", TimeValue(MicroSeconds(static_cast<int64_t>(U("rto_us")))));
}

bool
NiccScenario::Run(NiccScenarioResult* r, std::string* error)
{
    if (m_name == "leaf-spine" || m_name == "ai-cluster")
    {
        return RunFabric(r, error);
    }
    const auto wall0 = std::chrono::steady_clock::now();
    *r = NiccScenarioResult{};
    r->scenario = m_label.empty() ? m_name : m_label;
    const RngScope rng(U("seed"), U("run"));
    r->rngSeed = rng.seed;
    r->rngRun = rng.run;
    ObjectFactory sched;
    sched.SetTypeId(Get("scheduler") == "pq" ? "ns3::PriorityQueueScheduler" : "ns3::MapScheduler");
    Simulator::SetScheduler(sched);

    const uint32_t senders = static_cast<uint32_t>(U("senders"));
    const uint64_t size = U("size_bytes");
    const uint32_t mtu = static_cast<uint32_t>(U("mtu"));
    const double bps = D("rate_gbps") * 1e9;
    const Time delay = NanoSeconds(static_cast<int64_t>(U("delay_ns")));
    const std::string cc = Get("cc");
    if (size / mtu + 1 >= 0xFFFFFFFFull)
    {
        *error = "bad value for key 'size_bytes': more than 2^32 packets";
        return false;
    }

    NiccFabricHelper fabric;
    fabric.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    fabric.SetMmuAttribute("BufferSize", UintegerValue(U("buffer_bytes")));
    fabric.SetMmuAttribute("PfcEnabled", BooleanValue(B("pfc")));
    fabric.SetSwitchAttribute("EcnEnabled", BooleanValue(B("ecn")));
    fabric.SetSwitchAttribute("EcnKmin", UintegerValue(U("ecn_kmin_bytes")));
    fabric.SetSwitchAttribute("EcnKmax", UintegerValue(U("ecn_kmax_bytes")));
    fabric.SetSwitchAttribute("EcnPmax", DoubleValue(D("ecn_pmax")));
    NiccIncastTopology t =
        fabric.BuildIncast(senders, DataRate(static_cast<uint64_t>(bps)), delay);
    // Fixed RNG streams: a run depends on RngSeed / RngRun and the keys
    // only, not on what ran before it in the same process.
    t.sw->AssignStreams(0);

    NiccNicHelper nics;
    ConfigureNics(&nics);
    std::string nicError;
    if (!nics.Install(t.senders, &nicError) || !nics.Install(t.receiver, &nicError))
    {
        *error = "invalid configuration (dcqcn_* / hpcc_* / spray keys): " + nicError;
        Simulator::Destroy();
        return false;
    }
    const double staggerUs = D("stagger_us");
    for (uint32_t i = 0; i < senders; ++i)
    {
        nics.AddFlow(t.senders[i],
                     t.receiver,
                     size,
                     NanoSeconds(static_cast<int64_t>(std::llround(staggerUs * 1000.0 * i))));
    }
    nics.StopWhenAllComplete();

    const Time stop = NanoSeconds(static_cast<int64_t>(std::llround(D("stop_ms") * 1e6)));
    Sampler s{t.receiverDevice->GetPeer(),
              r,
              &nics,
              NanoSeconds(static_cast<int64_t>(U("sample_ns"))),
              NanoSeconds(static_cast<int64_t>(std::llround(D("warmup_us") * 1000.0))),
              NanoSeconds(static_cast<int64_t>(std::llround(D("rate_window_us") * 1000.0))),
              stop,
              m_progress,
              {},
              wall0};
    r->rateWindowUs = D("rate_window_us");
    Simulator::Schedule(s.period, &Sampler::Sample, &s);
    Simulator::Schedule(s.rateWindow, &Sampler::Rates, &s);
    Simulator::Stop(stop);
    Simulator::Run();

    // Measurements.
    r->simSeconds = Simulator::Now().GetSeconds();
    r->flows = nics.GetFlowRecords();
    const bool intOn = cc == "hpcc";
    const uint32_t dataHdr = NiccRoceHeader::BASE_SIZE + (intOn ? 2 + 8 : 0);
    const uint32_t ackBytes = NiccRoceHeader::BASE_SIZE + (intOn ? 2 + 8 : 0);
    for (const auto& f : r->flows)
    {
        r->idealFctNs.push_back(IdealFctNs(f.sizeBytes, mtu, dataHdr, ackBytes, bps,
                                           static_cast<double>(delay.GetNanoSeconds()), 2));
        r->bytesAcked += f.ackedBytes;
    }
    r->queueMaxExact = t.sw->GetMaxQueueBytes();
    r->pauseFrames = t.sw->GetPfcPauseSent();
    r->drops = t.sw->GetDrops();
    r->ecnMarked = t.sw->GetEcnMarked();
    std::vector<Ptr<Node>> hosts = t.senders;
    hosts.push_back(t.receiver);
    for (const auto& h : hosts)
    {
        Ptr<NiccNic> nic = NiccNicHelper::GetNic(h);
        r->dataPackets += nic->GetTxDataPackets();
        r->retxPackets += nic->GetRetxPackets();
        r->timeouts += nic->GetTimeouts();
        r->cnpsSent += nic->GetCnpsSent();
        r->bytesDelivered += nic->GetRxDeliveredBytes();
    }
    const double active = r->simSeconds - 0.0;
    r->utilization = active > 0 ? static_cast<double>(s.bottleneck->GetTxBytes()) * 8.0 /
                                      (bps * active)
                                : 0.0;
    r->events = Simulator::GetEventCount();
    r->txQpStateBytes = NiccNic::TxQpStateBytes();
    r->rxQpStateBytes = NiccNic::RxQpStateBytes();
    Simulator::Destroy();
    r->wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return true;
}

} // namespace ns3
