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

namespace ns3
{

namespace
{
constexpr double U32 = 4294967295.0;

// name, type, min, max, incast default, fairness default, help
const std::vector<NiccScenarioKey> kKeys = {
    {"cc", "none|dcqcn|hpcc", 0, 0, "dcqcn", "dcqcn", "congestion control of every QP"},
    {"senders", "uint", 1, 1000, "16", "2", "sending hosts (one flow each) on the switch"},
    {"size_bytes", "uint", 1, U32 - 65536, "1000000", "40000000", "bytes per flow"},
    {"stagger_us", "double", 0, 1e6, "0", "1000", "flow i starts at i * stagger_us"},
    {"stop_ms", "double", 0.001, 1e5, "20", "20",
     "simulated time limit (a run also ends when every flow is done)"},
    {"rate_gbps", "double", 1, 1600, "100", "100", "line rate of every link, Gb/s"},
    {"delay_ns", "uint", 1, 1e9, "1000", "1000", "one-way propagation delay of every link"},
    {"mtu", "uint", 256, 9000, "1024", "1024", "payload bytes per full DATA packet"},
    {"buffer_bytes", "uint", 100000, 1e10, "16000000", "16000000", "switch shared buffer"},
    {"pfc", "bool", 0, 0, "true", "true", "PFC on (lossless data class) or off (lossy)"},
    {"ecn", "bool", 0, 0, "true", "true", "RED/ECN marking at the switch"},
    {"ecn_kmin_bytes", "uint", 0, 1e10, "0", "100000", "RED Kmin; 0 = 100 KB per 25 Gb/s"},
    {"ecn_kmax_bytes", "uint", 0, 1e10, "0", "400000", "RED Kmax; 0 = 400 KB per 25 Gb/s"},
    {"ecn_pmax", "double", 0, 1, "0.2", "0.2", "RED marking probability at Kmax"},
    {"dcqcn_profile", "mlx5|paper", 0, 0, "mlx5", "paper", "DCQCN parameter profile"},
    {"dcqcn_time_reset_us", "int", -1, U32, "-1", "-1", "rp_time_reset; -1 = profile"},
    {"dcqcn_byte_reset", "int", -1, U32, "-1", "-1", "rp_byte_reset (0 = off); -1 = profile"},
    {"dcqcn_ai_mbps", "int", -1, U32, "-1", "-1", "rp_ai_rate; -1 = profile"},
    {"dcqcn_hai_mbps", "int", -1, U32, "-1", "-1", "rp_hai_rate; -1 = profile"},
    {"dcqcn_threshold", "int", -1, U32, "-1", "-1", "rp_threshold (F); -1 = profile"},
    {"dcqcn_cnp_interval_us", "int", -1, U32, "-1", "-1",
     "np_min_time_between_cnps; -1 = profile"},
    {"dcqcn_monitor_us", "int", -1, U32, "-1", "-1",
     "rp_rate_reduce_monitor_period; -1 = profile"},
    {"dcqcn_g", "int", -1, U32, "-1", "-1", "rp_dce_tcp_g (/1024); -1 = profile"},
    {"hpcc_profile", "paper|later", 0, 0, "paper", "paper",
     "HPCC profile (paper: maxStage 5; later: maxStage 0)"},
    {"hpcc_base_rtt_ns", "uint", 0, 1000000, "0", "0", "HPCC T; 0 = profile (13 us)"},
    {"hpcc_eta_ppm", "int", -1, 1000000, "-1", "-1", "HPCC eta (ppm); -1 = profile"},
    {"hpcc_max_stage", "int", -1, 255, "-1", "-1", "HPCC maxStage; -1 = profile"},
    {"hpcc_wai_bytes", "int", -1, U32, "-1", "-1", "HPCC W_AI; -1 = profile"},
    {"spray", "ecmp|ops|bitmap|reps|plb|dlb", 0, 0, "ecmp", "ecmp", "path selection policy"},
    {"ev_bits", "uint", 0, 8, "4", "4", "spray over 2^ev_bits entropy values per QP"},
    {"recovery", "gbn|sr", 0, 0, "gbn", "gbn", "go-back-N or selective repeat"},
    {"ack_interval", "uint", 1, 1024, "1", "1", "receiver ACKs every N in-order packets"},
    {"rto_us", "uint", 1, 1e7, "4000", "4000", "retransmission timeout per QP"},
    {"warmup_us", "double", 0, 1e8, "0", "0",
     "queue samples are taken from this time on (after convergence)"},
    {"sample_ns", "uint", 10, 1e9, "1000", "1000", "queue sampling period"},
    {"rate_window_us", "double", 1, 1e6, "100", "500", "per-flow throughput sampling window"},
    {"seed", "uint", 1, U32, "1", "1", "ns-3 RNG seed (RED draws, spray)"},
    {"scheduler", "pq|map", 0, 0, "pq", "pq", "ns-3 core scheduler: PriorityQueue or Map"},
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
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        if (wall < 2.0 || wall - lastPrint < 1.0)
        {
            return;
        }
        const uint64_t events = Simulator::GetEventCount();
        const double rate = static_cast<double>(events - lastEvents) / (wall - lastPrint) / 1e6;
        const double now = Simulator::Now().GetSeconds() * 1e3;
        std::fprintf(stderr,
                     "nicc-sim: %.3f of %.3f ms simulated (%.0f%%), %u/%u flows done, "
                     "%.2f M events/s, %.1f s wall\n",
                     now,
                     stop.GetSeconds() * 1e3,
                     100.0 * now / (stop.GetSeconds() * 1e3),
                     nics->GetNCompleted(),
                     nics->GetNFlows(),
                     lastPrint > 0 ? rate : static_cast<double>(events) / wall / 1e6,
                     wall);
        lastPrint = wall;
        lastEvents = events;
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

// ---------------------------------------------------------------------------

uint64_t
NiccScenarioResult::QueuePercentile(double q) const
{
    if (queueSamples.empty())
    {
        return 0;
    }
    std::vector<uint64_t> v = queueSamples;
    const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
    const size_t idx = rank == 0 ? 0 : std::min(rank, v.size()) - 1;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(idx), v.end());
    return v[idx];
}

double
NiccScenarioResult::SlowdownPercentile(double q) const
{
    std::vector<double> v;
    for (size_t i = 0; i < flows.size(); ++i)
    {
        if (flows[i].fctNs >= 0 && idealFctNs[i] > 0)
        {
            v.push_back(static_cast<double>(flows[i].fctNs) / static_cast<double>(idealFctNs[i]));
        }
    }
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[rank == 0 ? 0 : std::min(rank, v.size()) - 1];
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
    static const std::vector<std::string> names = {"incast", "fairness"};
    return names;
}

std::string
NiccScenario::KeyHelp()
{
    std::ostringstream os;
    os << "Scenario keys (--set key=value), defaults as incast / fairness:\n";
    for (const auto& k : kKeys)
    {
        std::string def = k.incastDefault;
        if (std::string(k.fairnessDefault) != k.incastDefault)
        {
            def += " / " + std::string(k.fairnessDefault);
        }
        char line[256];
        std::snprintf(line, sizeof(line), "  %-22s %-28s default %-18s %s\n", k.name, k.type,
                      def.c_str(), k.help);
        os << line;
    }
    return os.str();
}

NiccScenario::NiccScenario()
{
    std::string ignored;
    Select("incast", &ignored);
}

bool
NiccScenario::Select(const std::string& name, std::string* error)
{
    if (name != "incast" && name != "fairness")
    {
        *error = "unknown scenario '" + name + "' (built-in: incast, fairness)";
        return false;
    }
    m_name = name;
    m_values.clear();
    for (const auto& k : kKeys)
    {
        m_values[k.name] = name == "incast" ? k.incastDefault : k.fairnessDefault;
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
NiccScenario::Run(NiccScenarioResult* r, std::string* error)
{
    const auto wall0 = std::chrono::steady_clock::now();
    *r = NiccScenarioResult{};
    r->scenario = m_name;
    RngSeedManager::SetSeed(static_cast<uint32_t>(U("seed")));
    RngSeedManager::SetRun(1);
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
    // Fixed RNG streams: a run depends on `seed` only, not on what ran
    // before it in the same process.
    t.sw->AssignStreams(0);

    NiccNicHelper nics;
    nics.SetNicAttribute("CongestionControl", StringValue(cc));
    nics.SetNicAttribute("SprayPolicy", StringValue(Get("spray")));
    nics.SetNicAttribute("SprayEvBits", UintegerValue(U("ev_bits")));
    nics.SetNicAttribute("DcqcnProfile", StringValue(Get("dcqcn_profile")));
    nics.SetNicAttribute("DcqcnTimeResetUs", IntegerValue(I("dcqcn_time_reset_us")));
    nics.SetNicAttribute("DcqcnByteReset", IntegerValue(I("dcqcn_byte_reset")));
    nics.SetNicAttribute("DcqcnAiRateMbps", IntegerValue(I("dcqcn_ai_mbps")));
    nics.SetNicAttribute("DcqcnHaiRateMbps", IntegerValue(I("dcqcn_hai_mbps")));
    nics.SetNicAttribute("DcqcnThreshold", IntegerValue(I("dcqcn_threshold")));
    nics.SetNicAttribute("DcqcnCnpIntervalUs", IntegerValue(I("dcqcn_cnp_interval_us")));
    nics.SetNicAttribute("DcqcnRateReduceMonitorUs", IntegerValue(I("dcqcn_monitor_us")));
    nics.SetNicAttribute("DcqcnG", IntegerValue(I("dcqcn_g")));
    nics.SetNicAttribute("HpccProfile", StringValue(Get("hpcc_profile")));
    nics.SetNicAttribute("HpccBaseRtt", TimeValue(NanoSeconds(static_cast<int64_t>(U("hpcc_base_rtt_ns")))));
    nics.SetNicAttribute("HpccEtaPpm", IntegerValue(I("hpcc_eta_ppm")));
    nics.SetNicAttribute("HpccMaxStage", IntegerValue(I("hpcc_max_stage")));
    nics.SetNicAttribute("HpccWaiBytes", IntegerValue(I("hpcc_wai_bytes")));
    nics.SetNicAttribute("Recovery",
                         EnumValue(Get("recovery") == "sr" ? NiccNic::SELECTIVE_REPEAT
                                                           : NiccNic::GO_BACK_N));
    nics.SetNicAttribute("AckInterval", UintegerValue(U("ack_interval")));
    nics.SetNicAttribute("RetxTimeout", TimeValue(MicroSeconds(static_cast<int64_t>(U("rto_us")))));
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
