/*
 * nicc-flow-file.cc — flow files (format and rules: nicc-flow-file.h and
 * docs/experiments.md).
 */
#include "nicc-flow-file.h"

#include "nicc-units.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

constexpr uint32_t MAX_PG = 7; ///< HPCC's switches have 8 queues (qCnt): pg 0..7
constexpr double MAX_START_S = 1e6; ///< ~11.6 days; as ns it fits int64 with room

// One line split into fields: by whitespace (HPCC) or by commas (CSV; each
// field trimmed of spaces and tabs, empty fields kept).
std::vector<std::string>
Split(const std::string& line, bool csv)
{
    std::vector<std::string> out;
    if (!csv)
    {
        std::istringstream is(line);
        std::string t;
        while (is >> t)
        {
            out.push_back(t);
        }
        return out;
    }
    size_t from = 0;
    while (true)
    {
        const size_t comma = line.find(',', from);
        std::string cell = line.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        const size_t a = cell.find_first_not_of(" \t");
        const size_t b = cell.find_last_not_of(" \t");
        out.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
        if (comma == std::string::npos)
        {
            return out;
        }
        from = comma + 1;
    }
}

// Field parsers: false with the reason (without the field's name) in *why.
bool
Id(const std::string& tok, uint32_t* out, std::string* why)
{
    uint64_t v;
    if (!NiccParseUnsigned(tok, &v) || v > std::numeric_limits<uint32_t>::max())
    {
        *why = "'" + tok + "' is not a host id (a non-negative integer)";
        return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
}

bool
Size(const std::string& tok, uint64_t* out, std::string* why)
{
    if (!NiccParseUnsigned(tok, out))
    {
        *why = "'" + tok + "' is not a positive integer number of bytes";
        return false;
    }
    if (*out == 0)
    {
        *why = "0 bytes: a flow needs at least one byte";
        return false;
    }
    return true;
}

bool
Start(const std::string& tok, double unitNs, int64_t* ns, std::string* why)
{
    double v;
    if (!NiccParseNumber(tok, &v) || v < 0 || v * unitNs > MAX_START_S * 1e9)
    {
        std::ostringstream os;
        os << "'" << tok << "' is not a start time in [0, " << MAX_START_S * 1e9 / unitNs << "]";
        *why = os.str();
        return false;
    }
    *ns = static_cast<int64_t>(std::llround(v * unitNs));
    return true;
}

bool
Small(const std::string& tok, uint32_t max, uint32_t* out, std::string* why)
{
    uint64_t v;
    if (!NiccParseUnsigned(tok, &v) || v > max)
    {
        *why = "'" + tok + "' is not an integer in [0, " + std::to_string(max) + "]";
        return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
}

// The size field's name in the file's format (messages use it).
const char*
SizeField(NiccFlowFile::Format f)
{
    return f == NiccFlowFile::HPCC ? "size" : "size_bytes";
}

} // namespace

int64_t
NiccFlowFile::FirstStartNs() const
{
    int64_t first = -1;
    for (const auto& f : flows)
    {
        first = first < 0 ? f.startNs : std::min(first, f.startNs);
    }
    return first;
}

std::vector<NiccListedFlow>
NiccFlowFile::List() const
{
    std::vector<NiccListedFlow> out;
    out.reserve(flows.size());
    for (const auto& f : flows)
    {
        NiccListedFlow l{f.src, f.dst, f.sizeBytes, NanoSeconds(f.startNs), f.dport, f.pg, std::nullopt};
        nicc::hal::CcKind kind;
        if (NiccCcKindByName(f.cc, &kind))
        {
            l.cc = kind;
        }
        out.push_back(l);
    }
    return out;
}

namespace
{

// CSV columns: the required four, then the optional ones.
const std::vector<std::string> CSV_COLUMNS = {"src", "dst", "size_bytes", "start_us", "cc", "prio", "dport"};
constexpr size_t CSV_REQUIRED = 4;

// One parse of a flow file's text: the header (a CSV header or the HPCC
// count) and then one flow per line, each refused with file:line and field.
struct FlowFileParser
{
    const std::string& text;
    const std::string& source;
    NiccFlowFile* out;
    std::string* error;
    std::vector<int> colOf = std::vector<int>(CSV_COLUMNS.size(), -1); ///< column -> position in the header
    size_t nCols{0};
    uint32_t headLine{0}; ///< line of the count / header
    uint64_t count{0};    ///< HPCC: the flows the file says it has

    bool Fail(uint32_t line, const std::string& msg)
    {
        *error = source + ":" + std::to_string(line) + ": " + msg;
        return false;
    }

    bool Field(uint32_t line, const std::string& name, const std::string& why)
    {
        return Fail(line, "field '" + name + "': " + why);
    }

    bool CsvHeader(const std::string& raw, uint32_t lineNo)
    {
        out->format = NiccFlowFile::CSV;
        const std::vector<std::string> names = Split(raw, true);
        for (size_t k = 0; k < names.size(); ++k)
        {
            const auto it = std::find(CSV_COLUMNS.begin(), CSV_COLUMNS.end(), names[k]);
            if (it == CSV_COLUMNS.end())
            {
                return Fail(lineNo, "header: unknown column '" + names[k] +
                                        "' (columns: src, dst, size_bytes, start_us; optional cc, prio, dport)");
            }
            int& pos = colOf[it - CSV_COLUMNS.begin()];
            if (pos >= 0)
            {
                return Fail(lineNo, "header: column '" + names[k] + "' appears twice");
            }
            pos = static_cast<int>(k);
        }
        for (size_t c = 0; c < CSV_REQUIRED; ++c)
        {
            if (colOf[c] < 0)
            {
                return Fail(lineNo, "header: missing column '" + CSV_COLUMNS[c] +
                                        "' (needs src, dst, size_bytes, start_us)");
            }
        }
        nCols = names.size();
        return true;
    }

    // HPCC: the count alone; traffic_gen.py rewrites it in place over its
    // estimate, which leaves trailing spaces, so any trailing whitespace is
    // accepted (and nothing else, as the simulator's stream read would then
    // take the rest for the first flow).
    bool HpccCount(const std::string& raw, uint32_t lineNo)
    {
        const std::vector<std::string> tok = Split(raw, false);
        if (tok.size() != 1)
        {
            return Field(lineNo, "count", "expected the flow count alone on the first line (HPCC format) "
                                          "or a CSV header, got '" + raw + "'");
        }
        if (!NiccParseUnsigned(tok[0], &count) || count > NICC_FLOW_FILE_MAX_FLOWS)
        {
            return Field(lineNo, "count", "'" + tok[0] + "' is not a flow count in [0, " +
                                              std::to_string(NICC_FLOW_FILE_MAX_FLOWS) + "]");
        }
        out->format = NiccFlowFile::HPCC;
        // Sized by the text, not by the count alone: a flow line has at
        // least 11 characters ("0 1 0 0 1 0"), and a 9-byte file claiming
        // 10^7 flows would otherwise reserve 720 MB before its first flow.
        out->flows.reserve(std::min<uint64_t>(count, text.size() / 11 + 1));
        return true;
    }

    // "src dst pg dport size start_s"
    bool HpccFlow(const std::vector<std::string>& tok, uint32_t lineNo, NiccFileFlow* f)
    {
        std::string why;
        uint32_t small = 0;
        if (tok.size() != 6)
        {
            return Fail(lineNo, "expected 6 fields 'src dst pg dport size start_s', got " + std::to_string(tok.size()));
        }
        if (!Id(tok[0], &f->src, &why))
        {
            return Field(lineNo, "src", why);
        }
        if (!Id(tok[1], &f->dst, &why))
        {
            return Field(lineNo, "dst", why);
        }
        if (!Small(tok[2], MAX_PG, &small, &why))
        {
            return Field(lineNo, "pg", why);
        }
        f->pg = static_cast<uint8_t>(small);
        if (!Small(tok[3], 65535, &small, &why))
        {
            return Field(lineNo, "dport", why);
        }
        f->dport = static_cast<uint16_t>(small);
        if (!Size(tok[4], &f->sizeBytes, &why))
        {
            return Field(lineNo, "size", why);
        }
        if (!Start(tok[5], 1e9, &f->startNs, &why))
        {
            return Field(lineNo, "start_s", why + " (seconds)");
        }
        return true;
    }

    // The optional CSV columns cc, prio and dport (empty: the scenario's).
    bool CsvOptional(const std::vector<std::string>& tok, uint32_t lineNo, NiccFileFlow* f)
    {
        auto cell = [&](size_t c) -> const std::string& { return tok[static_cast<size_t>(colOf[c])]; };
        std::string why;
        uint32_t small = 0;
        if (colOf[4] >= 0)
        {
            f->cc = cell(4);
            nicc::hal::CcKind kind;
            if (!f->cc.empty() && !NiccCcKindByName(f->cc, &kind))
            {
                return Field(lineNo, "cc", "'" + f->cc + "' is no congestion control (one of " +
                                               NiccCcKindNames(", ") + "; empty = the scenario's)");
            }
        }
        if (colOf[5] >= 0 && !cell(5).empty())
        {
            if (!Small(cell(5), MAX_PG, &small, &why))
            {
                return Field(lineNo, "prio", why);
            }
            f->pg = static_cast<uint8_t>(small);
        }
        if (colOf[6] >= 0 && !cell(6).empty())
        {
            if (!Small(cell(6), 65535, &small, &why))
            {
                return Field(lineNo, "dport", why);
            }
            f->dport = static_cast<uint16_t>(small);
        }
        return true;
    }

    bool CsvFlow(const std::vector<std::string>& tok, uint32_t lineNo, NiccFileFlow* f)
    {
        if (tok.size() != nCols)
        {
            return Fail(lineNo, "expected " + std::to_string(nCols) + " comma-separated fields (the header, line " +
                                    std::to_string(headLine) + "), got " + std::to_string(tok.size()));
        }
        auto cell = [&](size_t c) -> const std::string& { return tok[static_cast<size_t>(colOf[c])]; };
        std::string why;
        if (!Id(cell(0), &f->src, &why))
        {
            return Field(lineNo, "src", why);
        }
        if (!Id(cell(1), &f->dst, &why))
        {
            return Field(lineNo, "dst", why);
        }
        if (!Size(cell(2), &f->sizeBytes, &why))
        {
            return Field(lineNo, "size_bytes", why);
        }
        if (!Start(cell(3), 1e3, &f->startNs, &why))
        {
            return Field(lineNo, "start_us", why + " (microseconds)");
        }
        return CsvOptional(tok, lineNo, f);
    }

    // One line after the header: a flow, or (HPCC) a line past the count.
    bool FlowLine(const std::string& raw, uint32_t lineNo)
    {
        const bool csv = out->format == NiccFlowFile::CSV;
        if (!csv && out->flows.size() == count)
        {
            ++out->ignoredLines; // the simulator reads exactly `count` flows
            return true;
        }
        if (csv && out->flows.size() == NICC_FLOW_FILE_MAX_FLOWS)
        {
            return Fail(lineNo, "more than " + std::to_string(NICC_FLOW_FILE_MAX_FLOWS) + " flows");
        }
        const std::vector<std::string> tok = Split(raw, csv);
        NiccFileFlow f{0, 0, 0, 0, 0, 0, "", lineNo};
        if (!(csv ? CsvFlow(tok, lineNo, &f) : HpccFlow(tok, lineNo, &f)))
        {
            return false;
        }
        if (f.src == f.dst)
        {
            return Field(lineNo, "dst", "the flow goes from host " + std::to_string(f.src) +
                                            " to itself (source and destination must differ)");
        }
        out->flows.push_back(std::move(f));
        return true;
    }
};

} // namespace

bool
NiccParseFlowFile(const std::string& text, const std::string& source, NiccFlowFile* out, std::string* error)
{
    *out = NiccFlowFile{};
    out->source = source;
    FlowFileParser p{text, source, out, error};
    bool started = false;
    std::istringstream in(text);
    std::string raw;
    uint32_t lineNo = 0;
    while (std::getline(in, raw))
    {
        ++lineNo;
        if (!raw.empty() && raw.back() == '\r')
        {
            raw.pop_back();
        }
        const size_t first = raw.find_first_not_of(" \t");
        if (first == std::string::npos || raw[first] == '#')
        {
            continue;
        }
        bool ok;
        if (!started)
        {
            started = true;
            p.headLine = lineNo;
            ok = raw.find(',') != std::string::npos ? p.CsvHeader(raw, lineNo) : p.HpccCount(raw, lineNo);
        }
        else
        {
            ok = p.FlowLine(raw, lineNo);
        }
        if (!ok)
        {
            return false;
        }
    }
    if (!started)
    {
        return p.Fail(lineNo, "empty flow file (expected a flow count or a CSV header "
                              "'src,dst,size_bytes,start_us')");
    }
    if (out->format == NiccFlowFile::HPCC && out->flows.size() < p.count)
    {
        return p.Fail(lineNo, "fewer flows than the count " + std::to_string(p.count) + " (line " +
                                  std::to_string(p.headLine) + "): found " + std::to_string(out->flows.size()));
    }
    return true;
}

bool
NiccReadFlowFile(const std::string& path, NiccFlowFile* out, std::string* error)
{
    std::ifstream in(path);
    if (!in)
    {
        *out = NiccFlowFile{};
        *error = path + ": cannot open the flow file";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return NiccParseFlowFile(text.str(), path, out, error);
}

bool
NiccResolveFlowFile(NiccFlowFile* f, const NiccFlowFileHosts& hosts, uint32_t mtu, std::string* error)
{
    const NiccTopologySpec* spec = hosts.spec;
    std::vector<int64_t> hostIndex; // file node id -> host index, -1 for a switch
    if (spec)
    {
        hostIndex.assign(spec->nodes, -1);
        for (size_t i = 0; i < spec->hosts.size(); ++i)
        {
            hostIndex[spec->hosts[i]] = static_cast<int64_t>(i);
        }
    }
    auto fail = [&](const NiccFileFlow& fl, const std::string& name, const std::string& why) {
        *error = f->source + ":" + std::to_string(fl.line) + ": field '" + name + "': " + why;
        return false;
    };
    // 32-bit PSNs with one value reserved: at most 2^32 - 2 packets.
    const uint64_t maxPackets = std::numeric_limits<uint32_t>::max() - 1ULL;
    for (NiccFileFlow& fl : f->flows)
    {
        for (uint32_t* id : {&fl.src, &fl.dst})
        {
            const std::string name = id == &fl.src ? "src" : "dst";
            if (spec)
            {
                if (*id >= spec->nodes)
                {
                    return fail(fl, name, std::to_string(*id) + " is not a node id of the topology file " +
                                              spec->path + " (0 .. " + std::to_string(spec->nodes - 1) + ")");
                }
                if (hostIndex[*id] < 0)
                {
                    return fail(fl, name, "node " + std::to_string(*id) + " is a switch in the topology file " +
                                              spec->path + "; flows run between hosts");
                }
                *id = static_cast<uint32_t>(hostIndex[*id]);
            }
            else if (*id >= hosts.count)
            {
                return fail(fl, name, "host " + std::to_string(*id) + " out of range [0, " +
                                          std::to_string(hosts.count - 1) +
                                          "] (host indices of the generated topology)");
            }
        }
        if ((fl.sizeBytes - 1) / mtu + 1 > maxPackets)
        {
            return fail(fl, SizeField(f->format),
                        std::to_string(fl.sizeBytes) + " B is more than 2^32 - 2 packets of mtu = " +
                            std::to_string(mtu) + " B (32-bit PSNs)");
        }
    }
    return true;
}

} // namespace ns3
