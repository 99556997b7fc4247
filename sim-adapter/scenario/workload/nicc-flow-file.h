/*
 * nicc-flow-file.h — flow files: a list of flows (source, destination,
 * size, start time) for the fabric scenarios (key flow_file), in two formats
 * told apart by the first line that is neither blank nor a '#' comment:
 *
 *   HPCC simulator (alibaba-edu/High-Precision-Congestion-Control,
 *   simulation/mix/flow.txt, written by traffic_gen/traffic_gen.py):
 *     2                          the count; exactly that many flow lines are
 *                                read, later lines are ignored (counted)
 *     0 5 3 100 1000000 2.0      src dst pg dport size start_s (absolute s)
 *   CSV with a header naming its columns, in any order:
 *     src,dst,size_bytes,start_us[,cc][,prio][,dport]
 *     0,5,1000000,10.5,dcqcn,3,100
 *   cc: the flow's congestion control, a name of nicc::hal::kCcKinds (one
 *   run may mix them); empty, or the HPCC format (no such column): the
 *   scenario's (key file_cc, else cc).
 *
 *   NiccFlowFile f;
 *   std::string err;
 *   if (!NiccParseFlowFile(text, "flows.txt", &f, &err)) ...   // "flows.txt:4: field 'size': ..."
 *   NiccFlowFileHosts hosts;
 *   hosts.count = 32;                        // or hosts.spec = &topologySpec (topology=file)
 *   if (!NiccResolveFlowFile(&f, hosts, 1024, &err)) ...
 *   workload.StartFlowList(f.List());
 *
 * Host ids: with a topology file, the file's node ids (a switch id is an
 * error); otherwise host indices 0 .. hosts - 1 of the generated topology.
 * Units: bytes, ns (start_s and start_us are rounded to the nearest ns).
 */
#ifndef NICC_FLOW_FILE_H
#define NICC_FLOW_FILE_H

#include "ns3/nicc-fabric-helper.h"
#include "ns3/nicc-workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// One flow as read from a flow file.
struct NiccFileFlow
{
    uint32_t src; ///< as written; a host index after NiccResolveFlowFile
    uint32_t dst;
    uint64_t sizeBytes;
    int64_t startNs;
    uint16_t dport; ///< HPCC: the file's dport; CSV: column dport, else 0
    uint8_t pg;     ///< HPCC: pg; CSV: column prio, else 0
    std::string cc; ///< CSV: column cc, a kCcKinds name ("" = the scenario's cc)
    uint32_t line;  ///< 1-based line of the flow in the file
};

/// A parsed flow file.
struct NiccFlowFile
{
    enum Format : uint8_t
    {
        HPCC, ///< count line, then 'src dst pg dport size start_s'
        CSV,  ///< header line, then comma-separated rows
    };

    std::string source; ///< file name used in messages
    Format format{HPCC};
    std::vector<NiccFileFlow> flows; ///< in file order
    uint32_t ignoredLines{0};        ///< HPCC: non-blank lines after the counted flows

    /// Earliest start of any flow, ns; -1 without flows.
    int64_t FirstStartNs() const;
    /// The flows for NiccWorkload::StartFlowList (src / dst must be resolved).
    std::vector<NiccListedFlow> List() const;
};

/// How a flow file's ids name hosts.
struct NiccFlowFileHosts
{
    const NiccTopologySpec* spec{nullptr}; ///< topology=file: ids are its node ids
    uint32_t count{0};                     ///< otherwise: host indices 0 .. count - 1
};

/// Most flows one file may hold (10^7 flows: ~2 GB of NIC and record state).
constexpr uint32_t NICC_FLOW_FILE_MAX_FLOWS = 10000000;

/**
 * Parse the text of a flow file; `source` names it in messages. False with
 * "source:line: field 'name': reason" on the first malformed line: bad or
 * missing count or header, unknown or duplicate column, wrong number of
 * fields, a non-numeric or out-of-range field, a cc that names no
 * congestion control (nicc::hal::kCcKinds), size 0, negative or
 * non-finite start, a flow from a host to itself, fewer flows than the
 * count. Every id is checked for form only (NiccResolveFlowFile maps them).
 */
bool NiccParseFlowFile(const std::string& text, const std::string& source, NiccFlowFile* out, std::string* error);
/// Reads `path` and parses it (NiccParseFlowFile); "path: cannot open" if unreadable.
bool NiccReadFlowFile(const std::string& path, NiccFlowFile* out, std::string* error);

/**
 * Checks a parsed file against the run and maps src / dst to host indices:
 * an id out of range or (with a topology file) a switch, a size of
 * 2^32 - 1 packets of `mtu` or more (32-bit PSNs) are errors naming
 * source:line and the field.
 */
bool NiccResolveFlowFile(NiccFlowFile* f, const NiccFlowFileHosts& hosts, uint32_t mtu, std::string* error);

} // namespace ns3

#endif // NICC_FLOW_FILE_H
