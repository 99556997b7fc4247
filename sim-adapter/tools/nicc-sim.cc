/*
 * nicc-sim.cc — runs a nicc ns-3 scenario (built-in, or a TOML scenario
 * file) and writes its results: DIR/fct.csv (one line per flow),
 * DIR/summary.json and, for the fabric scenarios, the CSVs (all written by
 * the scenario library's NiccWriteScenarioOutputs) and PNG plots
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

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <spawn.h>
#include <sys/wait.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

ABSL_FLAG(std::string, scenario, "incast",
          "built-in scenario (the list under 'Scenarios' in --help) or a scenario file "
          "(a path ending in .toml, or any existing file)");
ABSL_FLAG(std::vector<std::string>,
          set,
          {},
          "key=value scenario override; repeat the flag or separate pairs with commas "
          "(the keys are listed above)");
ABSL_FLAG(std::string, hpcc_config, "",
          "run an HPCC-simulator config.txt as it is (also spelled --hpcc-config): its topology, "
          "flow file and keys mapped to nicc keys (docs/hpcc-compat.md; compat=hpcc-sim implied); "
          "--set overrides apply after it; fct.txt / pfc.txt also go to its FCT_OUTPUT_FILE / "
          "PFC_OUTPUT_FILE");
ABSL_FLAG(bool, lenient, false, "--hpcc-config: skip unknown keys with a note instead of refusing the file");
ABSL_FLAG(bool, print, false,
          "print the scenario (after --hpcc-config / --scenario and --set) as a scenario file on "
          "stdout and exit without running it");
ABSL_FLAG(bool, hpcc_keys_markdown, false,
          "print the HPCC config key mapping table (Markdown, docs/hpcc-compat.md) and exit");
ABSL_FLAG(bool, list_keys, false,
          "print every scenario key, one line each, tab-separated: name, kind (scenario | attribute | "
          "engine | alias), type (an alias: the key it stands for), default; then exit (also spelled "
          "--list-keys; read by scripts/nicc-campaign)");
ABSL_FLAG(std::string, out, "nicc-sim-out", "output directory (created) for fct.csv and summary.json");
ABSL_FLAG(bool, progress, true, "progress on stderr for runs longer than 2 s of wall time");
#ifndef NICC_SIM_PLOT_SCRIPT
#define NICC_SIM_PLOT_SCRIPT "scripts/plot.py"
#endif
ABSL_FLAG(bool, plots, true,
          "fabric scenarios and runs with `monitor`: draw the PNG plots next to the data with --plot_script (needs "
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

// Splits "k1=v1,k2=v2" into pairs; a piece without '=' continues the value
// before it, so list values keep their commas (monitor=leaf0:1,leaf0:2).
void
SplitCommas(const std::string& s, std::vector<std::string>* out)
{
    std::stringstream ss(s);
    std::string item;
    bool first = true;
    while (std::getline(ss, item, ','))
    {
        if (!first && item.find('=') == std::string::npos && !out->empty())
        {
            out->back() += "," + item;
        }
        else if (!item.empty())
        {
            out->push_back(item);
        }
        first = false;
    }
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
    for (const char* name : {"scenario", "hpcc_config", "lenient", "set", "print", "out", "progress", "plots",
                             "plot_script", "RngRun", "RngSeed", "hpcc_keys_markdown", "list_keys"})
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

// --list-keys: the key table, one key per line, tab-separated (name, kind,
// type, default), then the aliases (name, "alias", the key) and the second
// names of selector rows.
std::string
KeyList()
{
    using ns3::NiccScenarioKey;
    std::string text;
    for (const NiccScenarioKey& k : ns3::NiccScenario::Keys())
    {
        const char* kind = k.target == NiccScenarioKey::ENGINE      ? "engine"
                           : k.target == NiccScenarioKey::ATTRIBUTE ? "attribute"
                                                                    : "scenario";
        text += k.name + "\t" + kind + "\t" + k.type + "\t" + k.def + "\n";
        if (!k.altName.empty())
        {
            text += k.altName + "\talias\t" + k.name + "\t\n";
        }
    }
    for (const ns3::NiccScenarioAlias& a : ns3::NiccScenario::Aliases())
    {
        text += std::string(a.from) + "\talias\t" + a.to + "\t\n";
    }
    return text;
}

} // namespace

namespace
{
int Main(int argc, char* argv[]);
} // namespace

int
main(int argc, char* argv[])
{
    // Under mpi_ranks the scenario started MPI: it ends with the process, on
    // every path out of Main.
    const int rc = Main(argc, argv);
    ns3::NiccMpi::Finish();
    return rc;
}

namespace
{

// The usage message (--help): the built-in scenarios from their table, then
// every key (NiccScenario::KeyHelp).
std::string
UsageText()
{
    return std::string() +
           "runs a nicc ns-3 scenario and writes DIR/fct.csv and DIR/summary.json (fabric\n"
        "scenarios: also CSVs and PNG plots, see --plots).\n\n"
        "  nicc-sim --scenario " + ns3::NiccScenario::NamesText("|", "|") + " [--set key=value]... [--out DIR]\n"
        "  nicc-sim --scenario FILE.toml [--set key=value]... [--out DIR]\n"
        "  nicc-sim --hpcc-config mix/config.txt [--lenient] [--set key=value]... [--print] [--out DIR]\n\n"
        "Scenarios:\n" + ns3::NiccScenario::ScenariosHelp() +
        "The fabric scenarios (" + ns3::NiccScenario::NamesText(", ", " and ", true) + ") take\n"
        "topology=leaf-spine|fat-tree|rail|file: fat-tree =\n"
        "pods x (tors_per_pod ToRs + aggs_per_pod aggs) + cores, hosts_per_leaf per ToR\n"
        "(HPCC's 320 hosts: topology=fat-tree,hosts_per_leaf=16,fabric_rate_gbps=400,\n"
        "buffer_bytes=32000000); rail = servers x rails NICs, NIC i on rail switch i,\n"
        "rails joined by `spines` spines (each NIC is its own endpoint node).\n"
        "topology=file reads topology_file (HPCC text format: 'N S L' or ns3-datacenter's\n"
        "'N S T L', the switch ids, then L lines 'a b 100Gbps 1us 0'; other nodes are\n"
        "hosts, one link each). flow_file adds the flows of a file (the HPCC simulator's\n"
        "flow.txt or a CSV 'src,dst,size_bytes,start_us') on any fabric topology.\n"
        "Fabric scenarios also write links.csv, queue_cdf.csv, timeseries.csv and\n"
        "collective.csv (scripts/plot.py draws them). Every run writes fct.txt and\n"
        "pfc.txt in the HPCC simulator's formats, pfc.csv and fct_hpcc.csv; with\n"
        "monitor=SWITCH:PORT,... also queues.csv and per-port queue statistics; with\n"
        "training=resnet50|custom (a data-parallel training job, docs/training.md)\n"
        "training.csv, training_buckets.csv and training.png.\n\n"
        "Scenario files (TOML, see docs/experiments.md): base = \"ai-cluster\" (the\n"
        "built-in scenario whose defaults apply first; default leaf-spine), optional\n"
        "name = \"...\" (the result's scenario name), then any scenario key, at the top\n"
        "level or in tables: [dcqcn] rp_time_reset = 300 is the key dcqcn.rp_time_reset\n"
        "(every [algo] of the engine parameters below); other tables ([fabric],\n"
        "[workload], [nic], ...) only group keys. --set overrides apply after the file;\n"
        "relative topology_file / cdf_file / flow_file paths are relative to the file.\n"
        "Examples: sim-adapter/scenarios/*.toml.\n\n"
        "Exit status 2 on an unknown scenario or key, a bad value or a bad scenario or\n"
        "topology or flow file (the message names the file and line).\n\n" +
        ns3::NiccScenario::KeyHelp();
}

// True when argv asks for help (a flag's value that reads "-h" does not).
bool
HelpRequested(int argc, char* argv[])
{
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
            return true;
        }
        if ((a == "--set" || a == "-set" || a == "--scenario" || a == "-scenario" || a == "--out" ||
             a == "-out") &&
            i + 1 < argc)
        {
            ++i; // a flag's value, even if it reads "-h"
        }
    }
    return false;
}

// absl keeps only the last occurrence of a flag: every --set is collected
// into *pairs first, the hyphenated spellings of the HPCC flags are accepted
// (--hpcc-config; respelled in *respelled), the rest goes to *args for absl.
void
SplitArgs(int argc,
          char* argv[],
          std::vector<std::string>* pairs,
          std::vector<char*>* args,
          std::vector<std::string>* respelled)
{
    respelled->reserve(static_cast<size_t>(argc));
    for (int i = 0; i < argc; ++i)
    {
        std::string a = argv[i];
        for (const char* hy : {"--hpcc-config", "--hpcc-keys-markdown", "--list-keys"})
        {
            const std::string h = hy;
            if (a == h || a.rfind(h + "=", 0) == 0)
            {
                std::string u = h;
                std::replace(u.begin() + 2, u.end(), '-', '_');
                respelled->push_back(u + a.substr(h.size()));
                argv[i] = respelled->back().data();
                a = argv[i];
            }
        }
        if ((a == "--set" || a == "-set") && i + 1 < argc)
        {
            SplitCommas(argv[++i], pairs);
        }
        else if (a.rfind("--set=", 0) == 0 || a.rfind("-set=", 0) == 0)
        {
            SplitCommas(a.substr(a.find('=') + 1), pairs);
        }
        else
        {
            args->push_back(argv[i]);
        }
    }
}

// The scenario to run: --hpcc-config's mapping or --scenario, then every
// --set pair. Returns 0, or 2 with the message printed.
int
LoadScenario(const std::vector<std::string>& pairs, ns3::NiccScenario* scenario, ns3::NiccHpccConfig* hpcc)
{
    std::string error;
    const std::string hpccConfig = absl::GetFlag(FLAGS_hpcc_config);
    if (!hpccConfig.empty())
    {
        if (!ns3::NiccLoadHpccConfig(hpccConfig, absl::GetFlag(FLAGS_lenient), hpcc, &error) ||
            !ns3::NiccApplyHpccConfig(*hpcc, scenario, &error))
        {
            std::fprintf(stderr, "nicc-sim: --hpcc-config: %s\n", error.c_str());
            return 2;
        }
        for (const std::string& note : absl::GetFlag(FLAGS_print) ? std::vector<std::string>{} : hpcc->notes)
        {
            std::fprintf(stderr, "nicc-sim: note: %s\n", note.c_str());
        }
    }
    else
    {
        const std::string which = absl::GetFlag(FLAGS_scenario);
        const bool ok = ns3::NiccIsScenarioFile(which) ? ns3::NiccLoadScenarioFile(which, scenario, &error)
                                                       : scenario->Select(which, &error);
        if (!ok)
        {
            std::fprintf(stderr, "nicc-sim: --scenario: %s\n", error.c_str());
            return 2;
        }
    }
    for (const std::string& p : pairs)
    {
        if (!scenario->SetPair(p, &error))
        {
            std::fprintf(stderr, "nicc-sim: --set: %s\n", error.c_str());
            return 2;
        }
    }
    for (const std::string& note : scenario->GetAliasesUsed())
    {
        std::fprintf(stderr, "nicc-sim: deprecated key name %s (the old name still works)\n", note.c_str());
    }
    return 0;
}

// fct.txt and pfc.txt also where an HPCC config asked for them. Returns 0 or 2.
int
CopyHpccOutputs(const ns3::NiccHpccConfig& hpcc, const std::filesystem::path& dir)
{
    std::error_code ec;
    for (const auto& [file, name] : {std::pair<std::string, const char*>{hpcc.fctFile, "fct.txt"},
                                     std::pair<std::string, const char*>{hpcc.pfcFile, "pfc.txt"}})
    {
        if (file.empty())
        {
            continue;
        }
        std::filesystem::copy_file(dir / name, file, std::filesystem::copy_options::overwrite_existing, ec);
        if (ec)
        {
            std::fprintf(stderr, "nicc-sim: cannot write %s (%s): %s\n", file.c_str(), name,
                         ec.message().c_str());
            return 2;
        }
    }
    return 0;
}

// The run's figures on stderr: one line, then one per fault, the loss
// accounting and, when congestion controls are mixed, one line per cc.
void
PrintSummary(const NiccScenarioResult& r, const std::filesystem::path& dir)
{
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
    // Faults (docs/faults.md): one line per fault, and the accounting.
    for (const auto& f : r.faults)
    {
        std::fprintf(stderr,
                     "nicc-sim:   %s %s: lost %llu frames (%llu DATA), %u flows affected, %u/%u "
                     "recovered, recovery p50 %.1f us max %.1f us (after detection %.1f / %.1f)\n",
                     f.kind.c_str(), f.link.c_str(), static_cast<unsigned long long>(f.lostPackets),
                     static_cast<unsigned long long>(f.lostDataPackets), f.affectedFlows, f.recoveredFlows,
                     f.measuredFlows, f.recoveryP50Us, f.recoveryMaxUs, f.recoveryAfterDetectP50Us,
                     f.recoveryAfterDetectMaxUs);
    }
    if (!r.faults.empty() || r.linkLoss.corruptionPackets > 0)
    {
        std::fprintf(stderr,
                     "nicc-sim:   bytes offered %llu delivered %llu resent %llu; lost frames: link down %llu, "
                     "corruption %llu, switch drops %llu\n",
                     static_cast<unsigned long long>(r.bytesOffered),
                     static_cast<unsigned long long>(r.bytesDelivered),
                     static_cast<unsigned long long>(r.retxBytes),
                     static_cast<unsigned long long>(r.linkLoss.downPackets),
                     static_cast<unsigned long long>(r.linkLoss.corruptionPackets),
                     static_cast<unsigned long long>(r.drops));
    }
    // A run that mixes congestion controls: one line per cc.
    std::map<int, uint32_t> perCc;
    for (const auto& f : r.flows)
    {
        ++perCc[static_cast<int>(f.cc)];
    }
    for (const auto& [cc, flows] : perCc)
    {
        if (perCc.size() < 2)
        {
            break;
        }
        size_t done = 0;
        const double p50 = r.SlowdownPercentileOf(0.50, 0, ~0ull, -1, &done, cc);
        std::fprintf(stderr,
                     "nicc-sim:   cc %-10s %zu/%u flows done, slowdown p50 %.2f p95 %.2f p99 %.2f\n",
                     nicc::hal::CcKindName(static_cast<nicc::hal::CcKind>(cc)),
                     done,
                     flows,
                     p50,
                     r.SlowdownPercentileOf(0.95, 0, ~0ull, -1, nullptr, cc),
                     r.SlowdownPercentileOf(0.99, 0, ~0ull, -1, nullptr, cc));
    }
}

int
Main(int argc, char* argv[])
{
    absl::SetProgramUsageMessage(UsageText());
    // Abseil's --help exits 1 and prints to stderr; help is not an error.
    if (HelpRequested(argc, argv))
    {
        PrintHelp();
        return 0;
    }
    std::vector<std::string> pairs;
    std::vector<char*> args;
    std::vector<std::string> respelled;
    SplitArgs(argc, argv, &pairs, &args, &respelled);
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

    if (absl::GetFlag(FLAGS_hpcc_keys_markdown))
    {
        const std::string md = ns3::NiccHpccKeysMarkdown();
        std::fwrite(md.data(), 1, md.size(), stdout);
        return 0;
    }

    if (absl::GetFlag(FLAGS_list_keys))
    {
        const std::string list = KeyList();
        std::fwrite(list.data(), 1, list.size(), stdout);
        return 0;
    }

    ns3::NiccScenario scenario;
    ns3::NiccHpccConfig hpcc;
    if (const int rc = LoadScenario(pairs, &scenario, &hpcc))
    {
        return rc;
    }
    const std::string hpccConfig = absl::GetFlag(FLAGS_hpcc_config);
    if (absl::GetFlag(FLAGS_print))
    {
        std::string text = hpccConfig.empty() ? "" : "# mapped from " + hpccConfig + " (nicc-sim --hpcc-config)\n";
        for (const std::string& note : hpcc.notes)
        {
            text += "# note: " + note + "\n";
        }
        text += ns3::NiccScenarioToml(scenario);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    const std::filesystem::path dir = absl::GetFlag(FLAGS_out);
    std::error_code ec;
    // Made before the run (an unwritable --out fails fast); removed again
    // if the run is refused, so a bad input leaves nothing behind.
    const bool dirExisted = std::filesystem::exists(dir, ec);
    std::filesystem::create_directories(dir, ec);
    if (ec)
    {
        std::fprintf(stderr, "nicc-sim: --out: cannot create %s: %s\n", dir.c_str(),
                     ec.message().c_str());
        return 2;
    }

    scenario.SetProgress(absl::GetFlag(FLAGS_progress));
    // Series files stream into the output directory as sampled, then are
    // renamed to their names (nicc-spool.h).
    scenario.SetSpoolDir((dir / ".nicc-spool").string());
    NiccScenarioResult r;
    std::string error;
    if (!scenario.Run(&r, &error))
    {
        std::fprintf(stderr, "nicc-sim: %s\n", error.c_str());
        r.spool.reset(); // its files and folder go
        if (!dirExisted)
        {
            std::filesystem::remove(dir, ec); // only if still empty
        }
        return 2;
    }

    if (ns3::NiccMpi::Rank() != 0)
    {
        return 0; // rank 0 has every rank's figures and writes them
    }
    if (!ns3::NiccWriteScenarioOutputs(scenario, r, dir.string(), &error))
    {
        std::fprintf(stderr, "nicc-sim: --out: %s\n", error.c_str());
        return 2;
    }
    if (const int rc = CopyHpccOutputs(hpcc, dir))
    {
        return rc;
    }
    if ((r.fabric || !r.monitoredPorts.empty()) && absl::GetFlag(FLAGS_plots))
    {
        std::string why;
        if (!RunPlots(absl::GetFlag(FLAGS_plot_script), dir, &why))
        {
            std::fprintf(stderr, "nicc-sim: no plots (%s); the data is in %s\n", why.c_str(), dir.c_str());
        }
    }
    PrintSummary(r, dir);
    return 0;
}

} // namespace
