/*
 * nicc-scenario-file.h — scenario files: a TOML file naming a built-in
 * scenario as its starting point and overriding any of its keys.
 *
 *   base = "ai-cluster"        # built-in scenario whose defaults apply first
 *                              # (default "leaf-spine")
 *   name = "my-run"            # optional: the result's scenario name
 *   stop_ms = 5                # any scenario key, top level ...
 *   [fabric]                   # ... or in a table; a table that is no key
 *   leaves = 8                 #     prefix only groups: this is `leaves`
 *   [cc]
 *   cc = "hpcc"
 *   [dcqcn]                    # [algo] name is the key algo.name:
 *   profile = "dcqcn-paper"    #     dcqcn.profile
 *   rp_time_reset = 300        #     dcqcn.rp_time_reset (also: dcqcn.rp_time_reset = 300)
 *
 * Values: TOML integers, floats, booleans and strings, each converted to the
 * text form NiccScenario::Set takes (4, 0.3, true, "hpcc"). Arrays, dates
 * and tables inside tables are errors. Relative paths in the path keys
 * (topology_file, cdf_file, flow_file) are relative to the file's directory.
 * Every error names the file, the line and (where the TOML parser gives one)
 * the column: "dir/x.toml:7:1: unknown key 'leafs' (did you mean 'leaves'?)".
 * Deprecated key names (NiccScenario::Aliases) are accepted as in --set.
 *
 *   NiccScenario s;
 *   std::string err;
 *   if (!NiccLoadScenarioFile("run.toml", &s, &err)) ... err
 *   s.SetPair("stop_ms=1", &err); // command-line overrides after the file
 */
#ifndef NICC_SCENARIO_FILE_H
#define NICC_SCENARIO_FILE_H

#include "ns3/nicc-scenario.h"

#include <string>

namespace ns3
{

/// Load a TOML scenario file into *s: Select(base), SetLabel(name), then
/// every key. False with "path:line:column: message" on any error (the
/// scenario is then partly set and should not be run).
bool NiccLoadScenarioFile(const std::string& path, NiccScenario* s, std::string* error);

/// The same from text: `source` names it in messages, relative path keys
/// resolve against `baseDir` (empty: left as they are).
bool NiccLoadScenarioText(const std::string& text,
                          const std::string& source,
                          const std::string& baseDir,
                          NiccScenario* s,
                          std::string* error);

/// The scenario as a scenario file: base (its built-in scenario), name (its
/// label, if any) and every key whose value differs from that scenario's
/// default, in key-table order; loading the text gives the same scenario.
std::string NiccScenarioToml(const NiccScenario& s);

/// True if `arg` of --scenario names a scenario file rather than a built-in
/// scenario: it ends in ".toml", or it is not a built-in name and an
/// existing file has that path.
bool NiccIsScenarioFile(const std::string& arg);

} // namespace ns3

#endif // NICC_SCENARIO_FILE_H
