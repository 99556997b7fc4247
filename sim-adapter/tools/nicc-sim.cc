/*
 * nicc-sim.cc — runs a nicc ns-3 scenario (built-in, or a TOML scenario
 * file) and writes its results: DIR/fct.csv (one line per flow),
 * DIR/summary.json and, for the fabric scenarios, the CSVs and PNG plots
 * (scripts/plot.py, run with Debian's python3 unless --plots=false).
 *
 *   nicc-sim --scenario incast --set cc=hpcc --set senders=8 --out /tmp/run1
 *   nicc-sim --scenario fairness --set dcqcn.rp_time_reset=100,dcqcn.profile=mlx5
 *   nicc-sim --scenario fairness --set cc=dcqcn,stop_ms=10 --out /tmp/fair
 *   nicc-sim --scenario sim-adapter/scenarios/ai-cluster.toml --set stop_ms=2
 *   nicc-sim --help                    # flags and every scenario key (exit 0)
 *
 * Exit status: 0 on success (and for --help); 2 on an unknown scenario, key
 * or a bad value, a bad scenario or topology file (the message names it, with
 * file:line) or when the outputs cannot be written.
 * Progress (simulated time, %, events/s) goes to stderr once a run has
 * taken 2 s of wall time.
 */
#include "ns3/global-value.h"
#include "ns3/nicc-module.h"
#include "ns3/uinteger.h"

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <sstream>
#include <string>
#include <vector>

ABSL_FLAG(std::string, scenario, "incast",
          "built-in scenario (incast, fairness, leaf-spine or ai-cluster) or a scenario file "
          "(a path ending in .toml, or any existing file)");
ABSL_FLAG(std::vector<std::string>,
          set,
          {},
          "key=value scenario override; repeat the flag or separate pairs with commas "
          "(the keys are listed above)");
ABSL_FLAG(std::string, out, "nicc-sim-out", "output directory (created) for fct.csv and summary.json");
ABSL_FLAG(bool, progress, true, "progress on stderr for runs longer than 2 s of wall time");
#ifndef NICC_SIM_PLOT_SCRIPT
#define NICC_SIM_PLOT_SCRIPT "scripts/plot.py"
#endif
ABSL_FLAG(bool, plots, true,
          "fabric scenarios: draw the PNG plots next to the data with --plot_script (needs "
          "Debian's python3-matplotlib; without it the data is still written and exit is 0)");
ABSL_FLAG(std::string, plot_script, NICC_SIM_PLOT_SCRIPT, "the plotting script run by --plots");
ABSL_FLAG(uint32_t, RngRun, 0,
          "ns-3 RngRun (as any ns-3 program's --RngRun; NS_GLOBAL_VALUE=\"RngRun=N\" works too): "
          "the replication used when the scenario's `run` key is 0; 0 = leave it (1 by default)");
ABSL_FLAG(uint32_t, RngSeed, 0,
          "ns-3 RngSeed, used when the scenario's `seed` key is 0; 0 = leave it (1 by default)");

extern char** environ;

namespace
{

using ns3::NiccScenarioResult;

void
SplitCommas(const std::string& s, std::vector<std::string>* out)
{
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            out->push_back(item);
        }
    }
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
SlowdownStats(const NiccScenarioResult& r, uint64_t lo, uint64_t hi, int kind)
{
    size_t n = 0;
    nlohmann::json j;
    j["p50"] = r.SlowdownPercentileOf(0.50, lo, hi, kind, &n);
    j["p95"] = r.SlowdownPercentileOf(0.95, lo, hi, kind, nullptr);
    j["p99"] = r.SlowdownPercentileOf(0.99, lo, hi, kind, nullptr);
    j["completed"] = n;
    return j;
}

// One collective: steps planned / done, per-step and total time (us).
nlohmann::json
CollectiveJson(const ns3::NiccCollectiveResult& c)
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
    for (uint32_t k = 0; k < ns3::NICC_FLOW_KINDS; ++k)
    {
        const auto kind = static_cast<ns3::NiccFlowKind>(k);
        const size_t count = std::count(r.flowKind.begin(), r.flowKind.end(), k);
        if (count > 0)
        {
            s["fct_slowdown_by_kind"][ns3::NiccFlowKindName(kind)] =
                SlowdownStats(r, 0, ~0ull, static_cast<int>(k));
            s["fct_slowdown_by_kind"][ns3::NiccFlowKindName(kind)]["flows"] = count;
        }
    }
    s["queue_bytes"]["sampled"] = "every switch egress port, all classes, every sample_ns from warmup_us";
    s["queue_bytes"]["host_down_p99"] = ns3::NiccScenarioResult::Percentile(r.hostDownQueueSamples, 0.99);
    s["queue_bytes"]["host_down_max"] = ns3::NiccScenarioResult::Percentile(r.hostDownQueueSamples, 1.0);
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
    s["collective"] = CollectiveJson(r.collectives.empty() ? ns3::NiccCollectiveResult{} : r.collectives[0]);
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
    // Queue-length CDF: the sorted samples at up to 1000 quantiles.
    std::ofstream qcdf(dir / "queue_cdf.csv");
    qcdf << "queue_bytes,cdf\n";
    std::vector<uint64_t> q = r.queueSamples;
    std::sort(q.begin(), q.end());
    const size_t steps = std::min<size_t>(q.size(), 1000);
    for (size_t i = 1; i <= steps; ++i)
    {
        const size_t idx = (q.size() * i + steps - 1) / steps - 1;
        qcdf << q[idx] << ',' << static_cast<double>(idx + 1) / static_cast<double>(q.size()) << '\n';
    }
    std::ofstream ts(dir / "timeseries.csv");
    ts << "time_us";
    for (uint32_t k = 0; k < ns3::NICC_FLOW_KINDS; ++k)
    {
        ts << ",gbps_" << ns3::NiccFlowKindName(static_cast<ns3::NiccFlowKind>(k));
    }
    ts << ",gbps_total\n";
    for (size_t w = 0; w < r.seriesTimeUs.size(); ++w)
    {
        ts << r.seriesTimeUs[w];
        double total = 0;
        for (double g : r.seriesGbpsByKind[w])
        {
            ts << ',' << g;
            total += g;
        }
        ts << ',' << total << '\n';
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
    return links && qcdf && ts && cs;
}

// Runs the plotting script on `dir` (python3 from Debian first); its own
// messages go to the terminal. Returns false with the reason in *why.
bool
RunPlots(const std::string& script, const std::filesystem::path& dir, std::string* why)
{
    std::error_code ec;
    if (!std::filesystem::exists(script, ec))
    {
        *why = "plot script " + script + " not found (--plot_script)";
        return false;
    }
    const bool debian = std::filesystem::exists("/usr/bin/python3", ec);
    std::string python = debian ? "/usr/bin/python3" : "python3";
    std::string d = dir.string();
    std::string sc = script;
    char* argv[] = {python.data(), sc.data(), d.data(), nullptr};
    pid_t pid = 0;
    if (posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argv, environ) != 0)
    {
        *why = "cannot start " + python;
        return false;
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        *why = script + " failed";
        return false;
    }
    return true;
}

// --help text: the usage message and this tool's flags, on stdout.
void
PrintHelp()
{
    std::string text = std::string("nicc-sim: ") + std::string(absl::ProgramUsageMessage()) + "\nFlags:\n";
    for (const char* name : {"scenario", "set", "out", "progress", "plots", "plot_script", "RngRun", "RngSeed"})
    {
        const absl::CommandLineFlag* f = absl::FindCommandLineFlag(name);
        if (!f)
        {
            continue;
        }
        text += "  --" + std::string(name) + "  " + f->Help() + "\n      default: " +
                (f->DefaultValue().empty() ? std::string("\"\"") : f->DefaultValue()) + "\n";
    }
    text += "  --help, -h  this text (exit status 0)\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
}

} // namespace

int
main(int argc, char* argv[])
{
    absl::SetProgramUsageMessage(
        "runs a nicc ns-3 scenario and writes DIR/fct.csv and DIR/summary.json (fabric\n"
        "scenarios: also CSVs and PNG plots, see --plots).\n\n"
        "  nicc-sim --scenario incast|fairness|leaf-spine|ai-cluster [--set key=value]... [--out DIR]\n"
        "  nicc-sim --scenario FILE.toml [--set key=value]... [--out DIR]\n\n"
        "Scenarios: incast = `senders` hosts each send size_bytes to one receiver over\n"
        "one switch; fairness = 2 long flows to one receiver, the second stagger_us\n"
        "later; leaf-spine = leaves x spines x hosts_per_leaf with a workload mix\n"
        "(poisson_load, incast_load, permutation_bytes, allreduce_bytes; default 30%\n"
        "FB Hadoop Poisson); ai-cluster = the default experiment: 4 x 4 x 8 hosts at\n"
        "100 Gb/s, ring all-reduce + 20% Poisson background + 5% incast bursts.\n"
        "Both fabric scenarios take topology=leaf-spine|fat-tree|rail|file: fat-tree =\n"
        "pods x (tors_per_pod ToRs + aggs_per_pod aggs) + cores, hosts_per_leaf per ToR\n"
        "(HPCC's 320 hosts: topology=fat-tree,hosts_per_leaf=16,fabric_rate_gbps=400,\n"
        "buffer_bytes=32000000); rail = servers x rails NICs, NIC i on rail switch i,\n"
        "rails joined by `spines` spines (each NIC is its own endpoint node).\n"
        "topology=file reads topology_file (HPCC text format: 'N S L', the switch\n"
        "ids, then L lines 'a b 100Gbps 1us 0'; other nodes are hosts, one link each).\n"
        "Fabric scenarios also write links.csv, queue_cdf.csv, timeseries.csv and\n"
        "collective.csv (scripts/plot.py draws them).\n\n"
        "Scenario files (TOML, see docs/experiments.md): base = \"ai-cluster\" (the\n"
        "built-in scenario whose defaults apply first; default leaf-spine), optional\n"
        "name = \"...\" (the result's scenario name), then any scenario key, at the top\n"
        "level or in tables: [dcqcn] rp_time_reset = 300 is the key dcqcn.rp_time_reset\n"
        "(every [algo] of the engine parameters below); other tables ([fabric],\n"
        "[workload], [nic], ...) only group keys. --set overrides apply after the file;\n"
        "relative topology_file / cdf_file paths are relative to the file.\n"
        "Examples: sim-adapter/scenarios/*.toml.\n\n"
        "Exit status 2 on an unknown scenario or key, a bad value or a bad scenario or\n"
        "topology file (the message names the file and line).\n\n" +
        ns3::NiccScenario::KeyHelp());

    // Abseil's --help exits 1 and prints to stderr; help is not an error.
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if (a == "--") // the rest are positional
        {
            break;
        }
        if (a == "--help" || a == "-help" || a == "-h" || a == "--helpfull" || a == "-helpfull" ||
            a == "--helpshort" || a == "-helpshort")
        {
            PrintHelp();
            return 0;
        }
        if ((a == "--set" || a == "-set" || a == "--scenario" || a == "-scenario" || a == "--out" ||
             a == "-out") &&
            i + 1 < argc)
        {
            ++i; // a flag's value, even if it reads "-h"
        }
    }

    // absl keeps only the last occurrence of a flag: collect every --set first.
    std::vector<std::string> pairs;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i)
    {
        const std::string a = argv[i];
        if ((a == "--set" || a == "-set") && i + 1 < argc)
        {
            SplitCommas(argv[++i], &pairs);
        }
        else if (a.rfind("--set=", 0) == 0 || a.rfind("-set=", 0) == 0)
        {
            SplitCommas(a.substr(a.find('=') + 1), &pairs);
        }
        else
        {
            args.push_back(argv[i]);
        }
    }
    const std::vector<char*> rest = absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
    if (rest.size() > 1)
    {
        std::fprintf(stderr, "nicc-sim: unexpected argument '%s' (see --help)\n", rest[1]);
        return 2;
    }
    for (const std::string& p : absl::GetFlag(FLAGS_set))
    {
        pairs.push_back(p);
    }

    // ns-3's global values, as ns3::CommandLine would set them.
    if (absl::GetFlag(FLAGS_RngRun) > 0)
    {
        ns3::GlobalValue::Bind("RngRun", ns3::UintegerValue(absl::GetFlag(FLAGS_RngRun)));
    }
    if (absl::GetFlag(FLAGS_RngSeed) > 0)
    {
        ns3::GlobalValue::Bind("RngSeed", ns3::UintegerValue(absl::GetFlag(FLAGS_RngSeed)));
    }

    ns3::NiccScenario scenario;
    std::string error;
    const std::string which = absl::GetFlag(FLAGS_scenario);
    const bool ok = ns3::NiccIsScenarioFile(which) ? ns3::NiccLoadScenarioFile(which, &scenario, &error)
                                                   : scenario.Select(which, &error);
    if (!ok)
    {
        std::fprintf(stderr, "nicc-sim: --scenario: %s\n", error.c_str());
        return 2;
    }
    for (const std::string& p : pairs)
    {
        if (!scenario.SetPair(p, &error))
        {
            std::fprintf(stderr, "nicc-sim: --set: %s\n", error.c_str());
            return 2;
        }
    }
    for (const std::string& note : scenario.GetAliasesUsed())
    {
        std::fprintf(stderr, "nicc-sim: deprecated key name %s (the old name still works)\n", note.c_str());
    }
    const std::filesystem::path dir = absl::GetFlag(FLAGS_out);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
    {
        std::fprintf(stderr, "nicc-sim: --out: cannot create %s: %s\n", dir.c_str(),
                     ec.message().c_str());
        return 2;
    }

    scenario.SetProgress(absl::GetFlag(FLAGS_progress));
    NiccScenarioResult r;
    if (!scenario.Run(&r, &error))
    {
        std::fprintf(stderr, "nicc-sim: %s\n", error.c_str());
        return 2;
    }

    std::ofstream csv(dir / "fct.csv");
    csv << "id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\n";
    for (size_t i = 0; i < r.flows.size(); ++i)
    {
        const auto& f = r.flows[i];
        csv << f.id << ',' << f.src << ',' << f.dst << ',' << f.sizeBytes << ',' << f.startNs << ',';
        if (f.fctNs >= 0)
        {
            csv << f.fctNs << ',' << r.idealFctNs[i] << ','
                << static_cast<double>(f.fctNs) / static_cast<double>(r.idealFctNs[i]) << '\n';
        }
        else
        {
            csv << ',' << r.idealFctNs[i] << ",\n"; // not complete when the run stopped
        }
    }

    nlohmann::json j;
    j["scenario"] = r.scenario;
    for (const auto& k : ns3::NiccScenario::Keys())
    {
        j["config"][k.name] = scenario.Get(k.name);
    }
    j["rng"] = {{"seed", r.rngSeed}, {"run", r.rngRun}};
    j["flows"] = {{"total", r.flows.size()}, {"completed", r.Completed()}};
    j["fct_slowdown"] = {{"p50", r.SlowdownPercentile(0.50)},
                         {"p95", r.SlowdownPercentile(0.95)},
                         {"p99", r.SlowdownPercentile(0.99)}};
    j["queue_bytes"] = {{"p50", r.QueuePercentile(0.50)},
                        {"p99", r.QueuePercentile(0.99)},
                        {"max", r.QueuePercentile(1.0)},
                        {"max_any_port_exact", r.queueMaxExact},
                        {"samples", r.queueSamples.size()},
                        {"sampled", "switch egress port to the receiver, all classes, every "
                                    "sample_ns from warmup_us"}};
    j["pfc"] = {{"pause_frames", r.pauseFrames}};
    j["drops"] = r.drops;
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
    j["sim"] = {{"events", r.events},
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
    std::ofstream js(dir / "summary.json");
    js << j.dump(2) << '\n';
    if (!csv || !js || !extraOk)
    {
        std::fprintf(stderr, "nicc-sim: --out: cannot write to %s\n", dir.c_str());
        return 2;
    }
    if (r.fabric && absl::GetFlag(FLAGS_plots))
    {
        std::string why;
        if (!RunPlots(absl::GetFlag(FLAGS_plot_script), dir, &why))
        {
            std::fprintf(stderr, "nicc-sim: no plots (%s); the data is in %s\n", why.c_str(), dir.c_str());
        }
    }
    std::fprintf(stderr,
                 "nicc-sim: %s: %u/%zu flows done, p99 slowdown %.2f, p99 queue %llu B, "
                 "%llu pause frames, %llu drops, %.2f s wall -> %s\n",
                 r.scenario.c_str(),
                 r.Completed(),
                 r.flows.size(),
                 r.SlowdownPercentile(0.99),
                 static_cast<unsigned long long>(r.QueuePercentile(0.99)),
                 static_cast<unsigned long long>(r.pauseFrames),
                 static_cast<unsigned long long>(r.drops),
                 r.wallSeconds,
                 dir.c_str());
    return 0;
}
