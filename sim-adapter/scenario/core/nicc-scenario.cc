/*
 * nicc-scenario.cc — NiccScenario: results, the incast and fairness runs and
 * their measurements (the key table: nicc-scenario-keys.cc).
 */
#include "nicc-scenario.h"
#include "nicc-scenario-mpi.h"

#include "nicc-fabric-helper.h"
#include "nicc-hpcc-output.h"
#include "nicc-lossless-check.h"
#include "nicc-switch-setup.h"

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
#include <memory>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

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
            out->queueHist.Add(bottleneck->GetTotalQueueBytes());
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
    const size_t idx = static_cast<size_t>(NiccLogHistogram::NearestRank(v.size(), q));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(idx), v.end());
    return v[idx];
}
} // namespace

uint64_t
NiccScenarioResult::QueuePercentile(double q) const
{
    return queueHist.Percentile(q);
}

double
NiccScenarioResult::SlowdownPercentileOf(double q,
                                         uint64_t minBytes,
                                         uint64_t maxBytes,
                                         int kind,
                                         size_t* n,
                                         int cc) const
{
    std::vector<double> v;
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const auto& f = flows[i];
        const bool kindOk = kind < 0 || (i < flowKind.size() && flowKind[i] == kind);
        const bool ccOk = cc < 0 || static_cast<int>(f.cc) == cc;
        if (f.fctNs >= 0 && idealFctNs[i] > 0 && kindOk && ccOk && f.sizeBytes >= minBytes &&
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

std::string
NiccScenario::DataDir()
{
#ifdef NICC_SIM_DATA_DIR
    return NICC_SIM_DATA_DIR;
#else
    return "data";
#endif
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

NiccMonitorConfig
NiccScenario::MonitorConfig() const
{
    NiccMonitorConfig c;
    c.spec = Get("monitor");
    c.start = NanoSeconds(static_cast<int64_t>(std::llround(D("monitor_start_us") * 1e3)));
    c.stop = NanoSeconds(static_cast<int64_t>(std::llround(D("monitor_stop_us") * 1e3)));
    c.period = NanoSeconds(static_cast<int64_t>(U("monitor_period_ns")));
    c.qlen = !Get("qlen_mon_file").empty();
    c.drainBytes = static_cast<uint64_t>(std::strtod(Get("monitor_drain_bytes").c_str(), nullptr));
    return c;
}

bool
NiccScenario::OpenSpool(NiccScenarioResult* r, std::string* error) const
{
    r->spool = std::make_shared<NiccSpool>(m_spoolDir);
    if (U("mpi_ranks") > 0)
    {
        return true; // PFC frames kept: merged across ranks after the run
    }
    r->pfcLog.txt = r->spool->Open("pfc.txt", error);
    r->pfcLog.csv = r->pfcLog.txt ? r->spool->Open("pfc.csv", error) : nullptr;
    if (!r->pfcLog.csv)
    {
        r->pfcLog.txt = nullptr;
        return false;
    }
    *r->pfcLog.csv << NICC_PFC_CSV_HEADER;
    return true;
}

std::string
NiccScenario::SchedulerTypeId() const
{
    const std::string s = Get("scheduler");
    if (s == "ordered" || U("mpi_ranks") > 0)
    {
        return "ns3::NiccOrderedScheduler";
    }
    if (s == "map")
    {
        return "ns3::MapScheduler";
    }
    return s == "pq" ? "ns3::PriorityQueueScheduler" : "ns3::NiccScheduler";
}

bool
NiccScenario::UseSelectiveRepeat() const
{
    const std::string rec = Get("recovery");
    return rec == "sr" ||
           (rec == "auto" && (Get("spray") != "ecmp" || Get("switch_mode") != "ecmp"));
}

// Keys the one-switch scenarios do not read: refused by name when set.
bool
NiccScenario::RefuseFabricOnlyKeys(std::string* error) const
{
    static const struct
    {
        const char* key;
        bool number; ///< on when > 0 (else: when not empty)
        const char* note;
    } kFabricOnly[] = {
        {"pfc_storm", false, ""},
        {"pfc_deadlock_check_us", true, ""},
        {"flow_file", false, ""},
        {"link_util_interval_us", true, " (switch-to-switch links)"},
    };
    for (const auto& k : kFabricOnly)
    {
        if (k.number ? D(k.key) > 0 : !Get(k.key).empty())
        {
            *error = std::string("key '") + k.key + "': read by the fabric scenarios (" +
                     NamesText(", ", ", ", true) + ") only" + k.note + ", not by " + m_name;
            return false;
        }
    }
    return true;
}

bool
NiccScenario::Run(NiccScenarioResult* r, std::string* error)
{
    if (!ApplyCompat(error))
    {
        return false;
    }
    if (IsFabric(m_name))
    {
        return RunFabric(r, error);
    }
    if (!RefuseFabricOnlyKeys(error))
    {
        return false;
    }
    const auto wall0 = std::chrono::steady_clock::now();
    *r = NiccScenarioResult{};
    r->scenario = m_label.empty() ? m_name : m_label;
    const RngScope rng(U("seed"), U("run"));
    r->rngSeed = rng.seed;
    r->rngRun = rng.run;
    if (!OpenSpool(r, error))
    {
        return false;
    }
    ObjectFactory sched;
    sched.SetTypeId(SchedulerTypeId());
    Simulator::SetScheduler(sched);

    const uint32_t senders = static_cast<uint32_t>(U("senders"));
    const uint64_t size = U("size_bytes");
    const uint32_t mtu = static_cast<uint32_t>(U("mtu"));
    const double bps = D("rate_gbps") * 1e9;
    const Time delay = NanoSeconds(static_cast<int64_t>(U("delay_ns")));
    if (size / mtu + 1 >= 0xFFFFFFFFull)
    {
        *error = "bad value for key 'size_bytes': more than 2^32 packets";
        return false;
    }

    // Every model Attribute from its key (mtu, buffer_bytes, ecn_*, cc,
    // spray, dcqcn.*, hpcc.*, ...).
    NiccFabricHelper fabric;
    NiccNicHelper nics;
    if (!ApplyAttributes(&fabric, &nics, error))
    {
        return false;
    }
    NiccIncastTopology t =
        fabric.BuildIncast(senders, DataRate(static_cast<uint64_t>(bps)), delay);
    if (!SetUpSwitches(fabric, error))
    {
        Simulator::Destroy();
        return false;
    }
    // Fixed RNG streams: a run depends on RngSeed / RngRun and the keys
    // only, not on what ran before it in the same process.
    t.sw->AssignStreams(0);

    std::string nicError;
    if (!nics.Install(t.senders, &nicError) || !nics.Install(t.receiver, &nicError))
    {
        *error = "invalid configuration (cc / spray / dcqcn.* / hpcc.* / spray.* / ecn_rule.* keys): " +
                 nicError;
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
    std::unique_ptr<NiccPortMonitor> monitor;
    if (!NiccSetUpPortMonitor(MonitorConfig(), {t.sw}, {"switch"}, &r->monitoredPorts, r->spool.get(), &monitor,
                              error))
    {
        Simulator::Destroy();
        return false;
    }
    for (uint32_t p = 0; p < t.sw->GetNPorts(); ++p)
    {
        monitor->WatchPfc(t.sw->GetPort(p), &r->pfcLog);
        monitor->WatchPfc(t.sw->GetPort(p)->GetPeer(), &r->pfcLog);
    }
    monitor->Start();
    Simulator::Schedule(s.period, &Sampler::Sample, &s);
    Simulator::Schedule(s.rateWindow, &Sampler::Rates, &s);
    Simulator::Stop(stop);
    Simulator::Run();
    monitor->Finish();

    // Measurements.
    r->simSeconds = Simulator::Now().GetSeconds();
    r->flows = nics.GetFlowRecords();
    for (const auto& f : r->flows)
    {
        const bool intOn = NiccQpSender::UsesInt(f.cc); // INT on data and ACKs
        const uint32_t dataHdr = NiccRoceHeader::BASE_SIZE + (intOn ? NiccRoceHeader::IntBytes(1) : 0u);
        const uint32_t ackBytes = NiccRoceHeader::BASE_SIZE + (intOn ? NiccRoceHeader::IntBytes(1) : 0u);
        r->idealFctNs.push_back(IdealFctNs(f.sizeBytes, mtu, dataHdr, ackBytes, bps,
                                           static_cast<double>(delay.GetNanoSeconds()), 2));
        r->standaloneFctNs.push_back(NiccHpccStandaloneFctNs(
            f.sizeBytes, mtu, NiccRoceHeader::BASE_SIZE,
            NiccHpccBaseRttNs(2.0 * static_cast<double>(delay.GetNanoSeconds()), {bps, bps}, mtu),
            static_cast<uint64_t>(bps)));
        r->bytesAcked += f.ackedBytes;
    }
    r->flowDport = NiccFlowDports({}, r->flows.size(), m_name == "incast");
    std::vector<Ptr<Node>> hosts = t.senders;
    hosts.push_back(t.receiver);
    NiccAddCounters(r, {t.sw}, hosts);
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
    return r->spool->CloseAll(error); // the streamed files complete on disk
}

bool
NiccScenario::SetUpSwitches(const NiccFabricHelper& fabric, std::string* error) const
{
    std::vector<NiccEcnMapEntry> ecnMap;
    std::string why;
    if (!NiccParseEcnMap(Get("ecn_map"), &ecnMap, &why))
    {
        *error = "key 'ecn_map': " + why;
        return false;
    }
    NiccApplyTierBuffers(fabric.GetSwitches(),
                         U("buffer_bytes_edge"),
                         U("buffer_bytes_agg"),
                         U("buffer_bytes_core"));
    if (!NiccApplyEcnMap(fabric.GetSwitches(), ecnMap, &why))
    {
        *error = "key 'ecn_map': " + why;
        return false;
    }
    std::string warning;
    const NiccHeadroomPolicy policy =
        Get("headroom_policy") == "shrink" ? NiccHeadroomPolicy::SHRINK : NiccHeadroomPolicy::REFUSE;
    if (!NiccCheckLosslessBuffer(fabric.GetSwitches(), policy, error, &warning))
    {
        return false;
    }
    std::istringstream lines(warning);
    for (std::string line; std::getline(lines, line);)
    {
        std::fprintf(stderr, "nicc-sim: %s\n", line.c_str());
    }
    return true;
}

bool
NiccScenario::Select(const std::string& name, std::string* error)
{
    if (std::find(Names().begin(), Names().end(), name) == Names().end())
    {
        std::string builtIn;
        for (const std::string& n : Names())
        {
            builtIn += (builtIn.empty() ? "" : ", ") + n;
        }
        *error = "unknown scenario '" + name + "' (built-in: " + builtIn +
                 "; or a scenario file: a path ending in .toml)";
        return false;
    }
    m_name = name;
    m_label.clear();
    m_values.clear();
    m_aliasesUsed.clear();
    m_userSet.clear();
    for (const auto& k : Keys())
    {
        m_values[k.name] = DefaultFor(name, k.name);
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

} // namespace ns3
