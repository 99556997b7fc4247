/*
 * nicc-hpcc-config.h — runs an HPCC-simulator experiment as it is: reads its
 * config.txt (`KEY value` per line, as scratch/third.cc of
 * alibaba-edu/High-Precision-Congestion-Control reads it; the Yes/No and tab
 * spelling of that program's stdout echo is accepted too) and maps every key
 * to nicc scenario keys, or refuses it with file:line and the reason.
 *
 *   NiccHpccConfig cfg;
 *   std::string err;
 *   if (!NiccLoadHpccConfig("mix/config.txt", false, &cfg, &err)) ... err = "mix/config.txt:14: CC_MODE 7: ..."
 *   NiccScenario s;
 *   if (!NiccApplyHpccConfig(cfg, &s, &err)) ...      // then --set overrides, then s.Run()
 *   std::puts(NiccScenarioToml(s).c_str());            // the mapping as a nicc scenario file
 *
 * The mapping of each key (units converted: us, s, MiB, bit/s, 1000 B) is
 * the table NiccHpccKeys(); docs/hpcc-compat.md is generated from it
 * (nicc-sim --hpcc-keys-markdown). Paths in the config (TOPOLOGY_FILE,
 * FLOW_FILE, TRACE_FILE and the output files) are relative to the config
 * file's directory; as the HPCC simulator runs from the directory above
 * mix/ with paths such as "mix/topology.txt", a relative path that does not
 * exist there but does from the config directory's parent, starting with
 * that directory's own name, is taken from the parent (documented).
 */
#ifndef NICC_HPCC_CONFIG_H
#define NICC_HPCC_CONFIG_H

#include "ns3/nicc-scenario.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// One key of the HPCC simulator's config.txt and what nicc makes of it.
struct NiccHpccKey
{
    const char* name;  ///< as in config.txt ("RP_TIMER")
    const char* value; ///< shape and unit of its value ("us", "flag", "DataRate", "path", ...)
    const char* nicc;  ///< the nicc keys it sets, or what happens to it
    const char* doc;   ///< its meaning in the HPCC simulator and the conversion
};

/// Every key the HPCC simulator's main program reads, plus the additions of
/// its descendants that nicc understands, in the order they are applied.
const std::vector<NiccHpccKey>& NiccHpccKeys();

/// The mapping table as Markdown (docs/hpcc-compat.md's key table).
std::string NiccHpccKeysMarkdown();

struct NiccTopologySpec;

/// A host pair as the HPCC simulator sees it (third.cc, "get BDP and
/// delay"): over the first shortest path its BFS finds (fewest links; hosts
/// do not relay; neighbours in link order), rttNs = 2 x the link delays
/// (each in whole ns) + one payload's transmission on every link (each
/// floor(payload x 8e9 / rate) ns), bdpBytes = rttNs x the path's slowest
/// link rate / 1e9 / 8 (integer steps). GLOBAL_T 1 uses the largest of each
/// (HPCC's T, DCQCN's window), GLOBAL_T 0 the pair's own.
struct NiccHpccPair
{
    uint64_t rttNs{0};
    uint64_t bdpBytes{0};
};

/// Every ordered host pair of a checked topology: [i][j] for spec.hosts[i]
/// sending to spec.hosts[j] (zero for i == j and unreachable pairs).
std::vector<std::vector<NiccHpccPair>> NiccHpccPairs(const NiccTopologySpec& spec, uint32_t payloadBytes);

/// A config.txt mapped to nicc.
struct NiccHpccConfig
{
    std::string path; ///< the config file as given
    /// nicc scenario keys in the order they apply (after base = "leaf-spine"
    /// with every generated workload off).
    std::vector<std::pair<std::string, std::string>> keys;
    /// "file:line: KEY: ..." for keys accepted without an effect in nicc
    /// (e.g. DATA_RATE, unused by the HPCC simulator too) and other notes.
    std::vector<std::string> notes;
    std::string fctFile;  ///< FCT_OUTPUT_FILE, resolved ("" = fct.txt in the output directory only)
    std::string pfcFile;  ///< PFC_OUTPUT_FILE, resolved
    std::string qlenFile; ///< QLEN_MON_FILE, resolved
    uint32_t ccMode{0};
};

/// Parse config text. `source` names it in messages; relative paths resolve
/// against `baseDir` (see the banner). Unknown keys are an error unless
/// `lenient` (then a note). False with "source:line: KEY: reason".
bool NiccParseHpccConfig(const std::string& text,
                         const std::string& source,
                         const std::string& baseDir,
                         bool lenient,
                         NiccHpccConfig* out,
                         std::string* error);

/// NiccParseHpccConfig on a file.
bool NiccLoadHpccConfig(const std::string& path, bool lenient, NiccHpccConfig* out, std::string* error);

/// Select the base scenario and set every mapped key on *s (its label: the
/// config's directory name). False with the key and its config line.
bool NiccApplyHpccConfig(const NiccHpccConfig& cfg, NiccScenario* s, std::string* error);

} // namespace ns3

#endif // NICC_HPCC_CONFIG_H
