/*
 * nicc-scenario-output.h — the files a scenario run leaves in its output
 * directory: fct.csv (one line per flow: id, src, dst, size_bytes,
 * start_ns, fct_ns, ideal_fct_ns, slowdown), summary.json (config, rng,
 * slowdown / queue / PFC / ECN / bytes / simulator figures; incast and
 * fairness: goodput fairness; fabric scenarios: slowdown by size and kind,
 * pause time, reordering, link utilization, collectives, permutation) and,
 * for the fabric scenarios, links.csv, queue_cdf.csv, timeseries.csv and
 * collective.csv (scripts/plot.py draws them; docs/experiments.md). Every
 * scenario: fct.txt and pfc.txt in the HPCC simulator's formats, pfc.csv,
 * fct_hpcc.csv (nicc-hpcc-output.h); with `monitor`, queues.csv and the
 * per-port statistics; with qlen_mon_file, the HPCC qlen file there
 * (relative paths inside `dir`; nicc-port-monitor.h).
 *
 *   NiccScenario s;  ... s.Run(&r, &err);
 *   if (!NiccWriteScenarioOutputs(s, r, "out/run1", &err)) ... err names the directory
 */
#ifndef NICC_SCENARIO_OUTPUT_H
#define NICC_SCENARIO_OUTPUT_H

#include "ns3/nicc-scenario.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// Writes the outputs of `r` (run from `s`) into `dir` (created); false with
/// the reason in *error when the directory or a file cannot be written.
bool NiccWriteScenarioOutputs(const NiccScenario& s,
                              const NiccScenarioResult& r,
                              const std::string& dir,
                              std::string* error);

constexpr const char* NICC_TIMESERIES_CSV = "timeseries.csv";

/// timeseries.csv (fabric scenarios): its header, and one row per rate
/// window (goodput per traffic kind, then their total), as streamed by the
/// run's sampler or written after an MPI run from the merged windows.
void NiccWriteTimeseriesHeader(std::ostream& os);
void NiccWriteTimeseriesRow(std::ostream& os, double timeUs, const std::vector<double>& gbpsByKind);

} // namespace ns3

#endif // NICC_SCENARIO_OUTPUT_H
