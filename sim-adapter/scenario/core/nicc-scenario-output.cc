/*
 * nicc-scenario-output.cc — NiccWriteScenarioOutputs: fct.csv,
 * summary.json and the fabric scenarios' CSVs (see the header).
 */
#include "nicc-scenario-output.h"

#include "nicc-hpcc-output.h"
#include "nicc-scenario-part.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <sys/resource.h>

namespace ns3
{

namespace
{

/// The process's peak resident set so far (getrusage's ru_maxrss, KiB on
/// Linux), in bytes; 0 when unavailable.
uint64_t
PeakRssBytes()
{
    struct rusage ru{};
    return getrusage(RUSAGE_SELF, &ru) == 0 ? static_cast<uint64_t>(ru.ru_maxrss) * 1024u : 0u;
}

/// CPU time (user + system) the process has used so far, seconds; on a
/// loaded machine the measure of a run's work that wall time is not.
double
CpuSeconds()
{
    struct rusage ru{};
    if (getrusage(RUSAGE_SELF, &ru) != 0)
    {
        return 0.0;
    }
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

// Goodput fairness over the rate windows in which every flow moved data.
nlohmann::json
Fairness(const NiccScenarioResult& r)
{
    nlohmann::json j;
    const size_t n = r.rateSeriesGbps.size();
    size_t windows = 0;
    for (const auto& s : r.rateSeriesGbps)
    {
        windows = std::max(windows, s.size());
    }
    std::vector<double> mean(n, 0.0);
    size_t used = 0;
    for (size_t k = 0; k < windows; ++k)
    {
        bool all = n > 0;
        for (size_t i = 0; i < n; ++i)
        {
            all = all && k < r.rateSeriesGbps[i].size() && r.rateSeriesGbps[i][k] > 0;
        }
        if (!all)
        {
            continue;
        }
        ++used;
        for (size_t i = 0; i < n; ++i)
        {
            mean[i] += r.rateSeriesGbps[i][k];
        }
    }
    double sum = 0;
    double sq = 0;
    for (double& m : mean)
    {
        m = used ? m / static_cast<double>(used) : 0.0;
        sum += m;
        sq += m * m;
    }
    j["windows_all_active"] = used;
    j["window_us"] = r.rateWindowUs;
    j["mean_goodput_gbps"] = mean;
    j["series_gbps"] = r.rateSeriesGbps; // per flow, one value per window
    j["jain_index"] = sq > 0 ? sum * sum / (static_cast<double>(n) * sq) : 0.0;
    return j;
}

// Flow-size buckets of the slowdown table (bytes, upper bound exclusive).
struct SizeBucket
{
    const char* name;
    uint64_t lo;
    uint64_t hi;
};
const SizeBucket kBuckets[] = {{"<10KB", 0, 10000},
                               {"10KB-100KB", 10000, 100000},
                               {"100KB-1MB", 100000, 1000000},
                               {"1MB-10MB", 1000000, 10000000},
                               {">=10MB", 10000000, ~0ull}};

nlohmann::json
SlowdownStats(const NiccScenarioResult& r, uint64_t lo, uint64_t hi, int kind, int cc = -1)
{
    size_t n = 0;
    nlohmann::json j;
    j["p50"] = r.SlowdownPercentileOf(0.50, lo, hi, kind, &n, cc);
    j["p95"] = r.SlowdownPercentileOf(0.95, lo, hi, kind, nullptr, cc);
    j["p99"] = r.SlowdownPercentileOf(0.99, lo, hi, kind, nullptr, cc);
    j["completed"] = n;
    return j;
}

// Per congestion control present in the run (flows may mix them): FCT
// slowdown percentiles over its completed flows, its flow count.
nlohmann::json
SlowdownByCc(const NiccScenarioResult& r)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& c : nicc::hal::kCcKinds)
    {
        const size_t count = std::count_if(r.flows.begin(), r.flows.end(), [&](const NiccFlowRecord& f) {
            return static_cast<uint32_t>(f.cc) == c.code;
        });
        if (count > 0)
        {
            j[c.name] = SlowdownStats(r, 0, ~0ull, -1, static_cast<int>(c.code));
            j[c.name]["flows"] = count;
        }
    }
    return j;
}

// One collective: steps planned / done, per-step and total time (us).
nlohmann::json
CollectiveJson(const NiccCollectiveResult& c)
{
    nlohmann::json coll;
    coll["steps_planned"] = c.stepsPlanned;
    std::vector<double> stepUs;
    for (const auto& st : c.steps)
    {
        if (st.endNs >= 0)
        {
            stepUs.push_back(static_cast<double>(st.endNs - st.startNs) / 1e3);
        }
    }
    coll["steps_done"] = stepUs.size();
    coll["step_us"] = stepUs;
    coll["complete"] = c.Done();
    coll["total_us"] = c.Done() ? static_cast<double>(c.TotalNs()) / 1e3 : -1.0;
    coll["flows_by_fabric_hops"] = c.flowsByFabricHops; // [h]: flows crossing h fabric switches
    coll["nvlink_flows"] = c.nvlinkFlows;
    coll["relayed_transfers"] = c.relayedTransfers;
    if (!stepUs.empty())
    {
        std::vector<double> v = stepUs;
        std::sort(v.begin(), v.end());
        coll["step_us_p50"] = v[(v.size() - 1) / 2];
        coll["step_us_max"] = v.back();
    }
    return coll;
}

// Fabric scenarios: the extra summary fields and the CSVs the plots read.
bool
WriteFabric(const NiccScenarioResult& r, const std::filesystem::path& dir, nlohmann::json* j)
{
    nlohmann::json& s = *j;
    for (const auto& b : kBuckets)
    {
        s["fct_slowdown_by_size"][b.name] = SlowdownStats(r, b.lo, b.hi, -1);
    }
    for (uint32_t k = 0; k < NICC_FLOW_KINDS; ++k)
    {
        const auto kind = static_cast<NiccFlowKind>(k);
        const size_t count = std::count(r.flowKind.begin(), r.flowKind.end(), k);
        if (count > 0)
        {
            s["fct_slowdown_by_kind"][NiccFlowKindName(kind)] =
                SlowdownStats(r, 0, ~0ull, static_cast<int>(k));
            s["fct_slowdown_by_kind"][NiccFlowKindName(kind)]["flows"] = count;
        }
    }
    s["queue_bytes"]["sampled"] = "every switch egress port, all classes, every sample_ns from warmup_us "
                                  "(with only a flow file: from its first flow, if later)";
    s["queue_bytes"]["pooled"] = true; // p50 / p95 / p99 / max over the samples of all ports together
    s["queue_bytes"]["host_down_p99"] = r.hostDownQueueHist.Percentile(0.99);
    s["queue_bytes"]["host_down_max"] = r.hostDownQueueHist.Percentile(1.0);
    const double devTime = r.pausableDevices * r.simSeconds * 1e9;
    s["pfc"]["pause_time_us"] = r.pauseTimeNs / 1e3;
    s["pfc"]["pause_time_fraction"] = devTime > 0 ? r.pauseTimeNs / devTime : 0.0;
    s["pfc"]["devices"] = r.pausableDevices;
    s["retransmission_rate"] =
        r.dataPackets ? static_cast<double>(r.retxPackets) / static_cast<double>(r.dataPackets) : 0.0;
    s["reordering"] = {{"max_distance", r.oooMax},
                       {"p99_distance", r.OooPercentile(0.99)},
                       {"p999_distance", r.OooPercentile(0.999)},
                       {"ooo_fraction",
                        r.rxDataPackets
                            ? 1.0 - static_cast<double>(r.oooHistogram.empty() ? 0 : r.oooHistogram[0]) /
                                        static_cast<double>(r.rxDataPackets)
                            : 0.0},
                       {"data_packets_received", r.rxDataPackets},
                       {"unit", "packets ahead of the expected PSN, over every DATA packet received"}};
    double maxUtil = 0;
    double sumDown = 0;
    size_t nDown = 0;
    for (const auto& l : r.links)
    {
        if (l.kind == "fabric")
        {
            maxUtil = std::max(maxUtil, l.utilization);
        }
        if (l.kind == "down")
        {
            sumDown += l.utilization;
            ++nDown;
        }
    }
    s["link_utilization"] = {{"fabric_mean", r.utilization},
                             {"fabric_max", maxUtil},
                             {"host_down_mean", nDown ? sumDown / static_cast<double>(nDown) : 0.0},
                             {"measured", "wire bytes / (rate x simulated time), both directions"}};
    s["throughput"]["utilization"] = r.utilization;
    s["throughput"]["meaning"] = "mean utilization over fabric (leaf-spine) links";
    // "collective": the first collective (the all-reduce when there is one);
    // "collectives": every one by name.
    s["collective"] = CollectiveJson(r.collectives.empty() ? NiccCollectiveResult{} : r.collectives[0]);
    for (const auto& c : r.collectives)
    {
        s["collectives"][c.name] = CollectiveJson(c);
    }
    if (r.permutationThroughput > 0)
    {
        s["permutation"] = {{"throughput_fraction_of_ideal", r.permutationThroughput}};
    }
    s["topology"] = {{"hosts", r.hosts}, {"host_rate_gbps", r.hostRateGbps}};

    std::ofstream links(dir / "links.csv");
    links << "from,to,kind,rate_gbps,tx_bytes,utilization\n";
    for (const auto& l : r.links)
    {
        links << l.from << ',' << l.to << ',' << l.kind << ',' << l.rateGbps << ',' << l.txBytes << ','
              << l.utilization << '\n';
    }
    // Queue-length CDF: the samples at up to 1000 quantiles (each within
    // the histogram's bound of the sorted sample at its rank).
    std::ofstream qcdf(dir / "queue_cdf.csv");
    qcdf << "queue_bytes,cdf\n";
    const uint64_t nq = r.queueHist.Count();
    const uint64_t steps = std::min<uint64_t>(nq, 1000);
    std::vector<uint64_t> ranks;
    for (uint64_t i = 1; i <= steps; ++i)
    {
        ranks.push_back((nq * i + steps - 1) / steps - 1);
    }
    const std::vector<uint64_t> values = r.queueHist.ValuesAtRanks(ranks);
    for (size_t i = 0; i < ranks.size(); ++i)
    {
        qcdf << values[i] << ',' << static_cast<double>(ranks[i] + 1) / static_cast<double>(nq) << '\n';
    }
    bool tsOk = true;
    if (r.spool && r.spool->Has(NICC_TIMESERIES_CSV)) // streamed as sampled
    {
        std::string error;
        tsOk = r.spool->Deliver(NICC_TIMESERIES_CSV, dir / NICC_TIMESERIES_CSV, &error);
    }
    else
    {
        std::ofstream ts(dir / NICC_TIMESERIES_CSV);
        NiccWriteTimeseriesHeader(ts);
        for (size_t w = 0; w < r.seriesTimeUs.size(); ++w)
        {
            NiccWriteTimeseriesRow(ts, r.seriesTimeUs[w], r.seriesGbpsByKind[w]);
        }
        tsOk = static_cast<bool>(ts);
    }
    std::ofstream cs(dir / "collective.csv");
    cs << "collective,step,start_ns,end_ns,duration_us\n";
    for (const auto& c : r.collectives)
    {
        for (const auto& st : c.steps)
        {
            cs << c.name << ',' << st.step << ',' << st.startNs << ',';
            if (st.endNs >= 0)
            {
                cs << st.endNs << ',' << static_cast<double>(st.endNs - st.startNs) / 1e3;
            }
            else
            {
                cs << ',';
            }
            cs << '\n';
        }
    }
    return links && qcdf && tsOk && cs;
}

// The HPCC analysis convention (fct_analysis.py) per flow type.
nlohmann::json
HpccFctJson(const NiccScenarioResult& r, std::ostream& csv)
{
    constexpr uint32_t STEP = 5; // the script's default -s 5: 20 buckets of 5% of the flows
    const std::vector<NiccHpccFctFlow> flows = NiccHpccFctFlows(r);
    nlohmann::json j;
    j["convention"] = "alibaba-edu/High-Precision-Congestion-Control analysis/fct_analysis.py: completed "
                      "flows by dport (background 100, incast 200, all), slowdown = fct / standalone_fct "
                      "clamped at >= 1, sorted by size, the largest dropped as the script does, buckets of "
                      "step_percent of the flows, percentile a[int(n * p)]";
    j["step_percent"] = STEP;
    csv << "type,bucket_percent,size_bytes,flows,p50,p95,p99\n";
    for (auto t : {NiccHpccFlowType::BACKGROUND, NiccHpccFlowType::INCAST, NiccHpccFlowType::ALL})
    {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& b : NiccHpccFctAnalysis(flows, t, STEP))
        {
            rows.push_back({{"bucket_percent", b.startPercent},
                            {"size_bytes", b.sizeBytes},
                            {"flows", b.flows},
                            {"p50", b.p50},
                            {"p95", b.p95},
                            {"p99", b.p99}});
            csv << NiccHpccFlowTypeName(t) << ',' << b.startPercent << ',' << b.sizeBytes << ',' << b.flows << ','
                << b.p50 << ',' << b.p95 << ',' << b.p99 << '\n';
        }
        j[NiccHpccFlowTypeName(t)] = rows;
    }
    return j;
}

// Files of the HPCC formats: fct.txt, pfc.txt, pfc.csv, fct_hpcc.csv;
// summary field "fct_hpcc".
bool
WriteHpccFiles(const NiccScenarioResult& r, const std::filesystem::path& dir, nlohmann::json* j)
{
    std::ofstream fct(dir / "fct.txt");
    NiccWriteHpccFct(fct, r);
    bool pfcOk = true;
    if (r.pfcLog.txt) // streamed into the spool as received
    {
        std::string error;
        pfcOk = r.spool->Deliver("pfc.txt", dir / "pfc.txt", &error) &&
                r.spool->Deliver("pfc.csv", dir / "pfc.csv", &error);
    }
    else
    {
        std::ofstream pfcTxt(dir / "pfc.txt");
        NiccWriteHpccPfc(pfcTxt, r.pfcLog.kept);
        std::ofstream pfcCsv(dir / "pfc.csv");
        NiccWritePfcCsv(pfcCsv, r.pfcLog.kept);
        pfcOk = pfcTxt && pfcCsv;
    }
    std::ofstream hpccCsv(dir / "fct_hpcc.csv");
    (*j)["fct_hpcc"] = HpccFctJson(r, hpccCsv);
    (*j)["pfc"]["frames_received"] = r.pfcLog.frames;
    return fct && pfcOk && hpccCsv;
}

// qlen_mon_file: absolute as given, relative inside the output directory.
std::filesystem::path
QlenPath(const NiccScenario& s, const std::filesystem::path& dir)
{
    const std::filesystem::path p = s.Get("qlen_mon_file");
    return p.is_absolute() ? p : dir / p;
}

} // namespace

void
NiccWriteTimeseriesHeader(std::ostream& os)
{
    os << "time_us";
    for (uint32_t k = 0; k < NICC_FLOW_KINDS; ++k)
    {
        os << ",gbps_" << NiccFlowKindName(static_cast<NiccFlowKind>(k));
    }
    os << ",gbps_total\n";
}

void
NiccWriteTimeseriesRow(std::ostream& os, double timeUs, const std::vector<double>& gbpsByKind)
{
    os << timeUs;
    double total = 0;
    for (double g : gbpsByKind)
    {
        os << ',' << g;
        total += g;
    }
    os << ',' << total << '\n';
}

bool
NiccWriteScenarioOutputs(const NiccScenario& s,
                         const NiccScenarioResult& r,
                         const std::string& dirName,
                         std::string* error)
{
    const std::filesystem::path dir = dirName;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
    {
        *error = "cannot create " + dir.string() + ": " + ec.message();
        return false;
    }
    // The one file that may lie outside the directory first: a bad path
    // fails before anything is written.
    if (r.spool && r.spool->Has(NICC_QLEN_SPOOL))
    {
        std::ofstream probe(QlenPath(s, dir), std::ios::app);
        std::string moveError;
        if (!probe || !r.spool->Deliver(NICC_QLEN_SPOOL, QlenPath(s, dir), &moveError))
        {
            *error = "key 'qlen_mon_file': cannot write " + QlenPath(s, dir).string() +
                     (moveError.empty() ? "" : " (" + moveError + ")");
            return false;
        }
    }
    std::ofstream csv(dir / "fct.csv");
    csv << "id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,cc\n";
    for (size_t i = 0; i < r.flows.size(); ++i)
    {
        const auto& f = r.flows[i];
        csv << f.id << ',' << f.src << ',' << f.dst << ',' << f.sizeBytes << ',' << f.startNs << ',';
        if (f.fctNs >= 0)
        {
            csv << f.fctNs << ',' << r.idealFctNs[i] << ','
                << static_cast<double>(f.fctNs) / static_cast<double>(r.idealFctNs[i]);
        }
        else
        {
            csv << ',' << r.idealFctNs[i] << ','; // not complete when the run stopped
        }
        csv << ',' << nicc::hal::CcKindName(f.cc) << '\n';
    }

    nlohmann::json j;
    j["scenario"] = r.scenario;
    for (const auto& k : NiccScenario::Keys())
    {
        j["config"][k.name] = s.Get(k.name);
    }
    j["rng"] = {{"seed", r.rngSeed}, {"run", r.rngRun}};
    j["flows"] = {{"total", r.flows.size()}, {"completed", r.Completed()}};
    j["fct_slowdown"] = {{"p50", r.SlowdownPercentile(0.50)},
                         {"p95", r.SlowdownPercentile(0.95)},
                         {"p99", r.SlowdownPercentile(0.99)},
                         {"p999", r.SlowdownPercentile(0.999)}};
    j["fct_slowdown_by_cc"] = SlowdownByCc(r);
    j["queue_bytes"] = {{"p50", r.QueuePercentile(0.50)},
                        {"p95", r.QueuePercentile(0.95)},
                        {"p99", r.QueuePercentile(0.99)},
                        {"max", r.QueuePercentile(1.0)},
                        {"max_any_port_exact", r.queueMaxExact},
                        {"samples", r.queueHist.Count()},
                        {"sampled", "switch egress port to the receiver, all classes, every "
                                    "sample_ns from warmup_us"},
                        {"pooled", false}};
    j["pfc"] = {{"pause_frames", r.pauseFrames}};
    j["drops"] = r.drops;
    j["drops_headroom_overflow"] = r.dropsHeadroomOverflow;
    j["trims"] = r.trims;
    j["drops_trim_no_buffer"] = r.dropsTrimNoBuffer;
    j["ecn"] = {{"marked", r.ecnMarked},
                {"marked_fraction",
                 r.dataPackets ? static_cast<double>(r.ecnMarked) / static_cast<double>(r.dataPackets)
                               : 0.0}};
    j["throughput"] = {{"utilization", r.utilization}};
    j["bytes"] = {{"acked", r.bytesAcked},
                  {"delivered_in_order", r.bytesDelivered},
                  {"data_packets_sent", r.dataPackets},
                  {"retransmitted_packets", r.retxPackets},
                  {"timeouts", r.timeouts},
                  {"cnps_sent", r.cnpsSent}};
    // Refusals of a full driver flow table (never silent): sender QPs that
    // waited for a slot, receiver flows that went without CNPs meanwhile.
    j["flow_table_full"] = {{"sender", r.flowTableFullTx}, {"receiver", r.flowTableFullRx}};
    j["sim"] = {{"events", r.events},
                {"data_packet_hops", r.dataPacketHops},
                {"peak_rss_bytes", PeakRssBytes()},
                {"cpu_seconds", CpuSeconds()},
                {"wall_seconds", r.wallSeconds},
                {"simulated_seconds", r.simSeconds},
                {"events_per_wall_second",
                 r.wallSeconds > 0 ? static_cast<double>(r.events) / r.wallSeconds : 0.0}};
    j["memory"] = {{"tx_qp_state_bytes", r.txQpStateBytes},
                   {"rx_qp_state_bytes", r.rxQpStateBytes}};
    bool extraOk = true;
    if (r.fabric)
    {
        extraOk = WriteFabric(r, dir, &j);
    }
    else
    {
        j["fairness"] = Fairness(r);
    }
    // Each part's fields and files (faults, PFC storms, training, monitors, ...).
    for (const auto& part : NiccScenarioParts())
    {
        extraOk = part->Write(s, r, dir, &j) && extraOk;
    }
    extraOk = WriteHpccFiles(r, dir, &j) && extraOk;
    std::ofstream js(dir / "summary.json");
    js << j.dump(2) << '\n';
    if (!csv || !js || !extraOk)
    {
        *error = "cannot write to " + dir.string();
        return false;
    }
    return true;
}

} // namespace ns3
