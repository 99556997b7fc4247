/*
 * nicc-sim.cc — runs a built-in nicc ns-3 scenario and writes its results:
 * DIR/fct.csv (one line per flow) and DIR/summary.json.
 *
 *   nicc-sim --scenario incast --set cc=hpcc --set senders=8 --out /tmp/run1
 *   nicc-sim --scenario fairness --set cc=dcqcn,stop_ms=10 --out /tmp/fair
 *   nicc-sim --help                    # flags and every scenario key
 *
 * Exit status: 0 on success; 2 on an unknown scenario, key or a bad value
 * (the message names it) or when the outputs cannot be written.
 * Progress (simulated time, %, events/s) goes to stderr once a run has
 * taken 2 s of wall time.
 */
#include "ns3/nicc-module.h"

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

ABSL_FLAG(std::string, scenario, "incast", "built-in scenario: incast or fairness");
ABSL_FLAG(std::vector<std::string>,
          set,
          {},
          "key=value scenario override; repeat the flag or separate pairs with commas "
          "(the keys are listed above)");
ABSL_FLAG(std::string, out, "nicc-sim-out", "output directory (created) for fct.csv and summary.json");
ABSL_FLAG(bool, progress, true, "progress on stderr for runs longer than 2 s of wall time");

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

} // namespace

int
main(int argc, char* argv[])
{
    absl::SetProgramUsageMessage(
        "runs a built-in nicc ns-3 scenario and writes DIR/fct.csv and DIR/summary.json.\n\n"
        "  nicc-sim --scenario incast|fairness [--set key=value]... [--out DIR]\n\n"
        "Scenarios: incast = `senders` hosts each send size_bytes to one receiver over\n"
        "one switch; fairness = 2 long flows to one receiver, the second stagger_us\n"
        "later. Exit status 2 on an unknown scenario or key or a bad value.\n\n" +
        ns3::NiccScenario::KeyHelp());

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

    ns3::NiccScenario scenario;
    std::string error;
    if (!scenario.Select(absl::GetFlag(FLAGS_scenario), &error))
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
    j["fairness"] = Fairness(r);
    std::ofstream js(dir / "summary.json");
    js << j.dump(2) << '\n';
    if (!csv || !js)
    {
        std::fprintf(stderr, "nicc-sim: --out: cannot write to %s\n", dir.c_str());
        return 2;
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
