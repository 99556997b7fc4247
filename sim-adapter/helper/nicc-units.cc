/*
 * nicc-units.cc — NiccParseDataRate / NiccParseTime (nicc-units.h).
 */
#include "nicc-units.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace ns3
{

namespace
{

struct Unit
{
    const char* name;
    double scale;
};

// Splits "12.5Gbps" into its number and unit; false unless the number is a
// whole finite decimal ("1", "0.5", "1e3") followed only by the unit.
bool
Split(const std::string& text, double* value, std::string* unit)
{
    if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.'))
    {
        return false;
    }
    const char* begin = text.c_str();
    char* end = nullptr;
    *value = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(*value))
    {
        return false;
    }
    *unit = std::string(end);
    return true;
}

bool
Scaled(double v, const std::string& unit, const Unit* units, size_t n, double* out)
{
    for (size_t i = 0; i < n; ++i)
    {
        if (unit == units[i].name)
        {
            *out = v * units[i].scale;
            return std::isfinite(*out);
        }
    }
    return false;
}

} // namespace

bool
NiccParseUnsigned(const std::string& text, uint64_t* out)
{
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    *out = std::strtoull(text.c_str(), nullptr, 10);
    return true;
}

bool
NiccParseNumber(const std::string& text, double* out)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    {
        return false;
    }
    *out = v;
    return true;
}

bool
NiccParseDataRate(const std::string& text, uint64_t* bps)
{
    // ns3::DataRate's spellings; B = bytes.
    static const Unit units[] = {
        {"bps", 1.0},       {"b/s", 1.0},       {"Bps", 8.0},       {"B/s", 8.0},
        {"kbps", 1e3},      {"kb/s", 1e3},      {"Kbps", 1e3},      {"Kb/s", 1e3},
        {"kBps", 8e3},      {"kB/s", 8e3},      {"KBps", 8e3},      {"KB/s", 8e3},
        {"Kib/s", 1024.0},  {"KiB/s", 8192.0},  {"Mbps", 1e6},      {"Mb/s", 1e6},
        {"MBps", 8e6},      {"MB/s", 8e6},      {"Mib/s", 1048576.0},
        {"MiB/s", 8388608.0}, {"Gbps", 1e9},    {"Gb/s", 1e9},      {"GBps", 8e9},
        {"GB/s", 8e9},      {"Gib/s", 1073741824.0}, {"GiB/s", 8589934592.0},
        {"Tbps", 1e12},     {"Tb/s", 1e12},     {"TBps", 8e12},     {"TB/s", 8e12}};
    double v = 0;
    std::string unit;
    if (!Split(text, &v, &unit))
    {
        return false;
    }
    double r = 0;
    if (unit.empty())
    {
        // A bare number: bit/s read as an integer, so ns-3 stops at the '.'
        // ("25000000000.0" is 25 Gb/s). Only digits and one '.' qualify.
        const size_t dot = text.find('.');
        const std::string whole = text.substr(0, dot);
        if (whole.empty() || whole.find_first_not_of("0123456789") != std::string::npos ||
            (dot != std::string::npos && text.find_first_not_of("0123456789", dot + 1) != std::string::npos))
        {
            return false;
        }
        r = std::strtod(whole.c_str(), nullptr);
    }
    else if (!Scaled(v, unit, units, sizeof(units) / sizeof(units[0]), &r))
    {
        return false;
    }
    if (r < 1.0 || r > 1e15)
    {
        return false;
    }
    *bps = static_cast<uint64_t>(std::llround(r));
    return true;
}

bool
NiccParseTime(const std::string& text, int64_t* ps)
{
    static const Unit units[] = {{"", 1e12},   {"s", 1e12},   {"ms", 1e9},  {"us", 1e6},
                                 {"ns", 1e3},  {"ps", 1.0},   {"fs", 1e-3}, {"min", 60e12},
                                 {"h", 3600e12}, {"d", 86400e12}};
    double v = 0;
    std::string unit;
    double r = 0;
    if (!Split(text, &v, &unit) || !Scaled(v, unit, units, sizeof(units) / sizeof(units[0]), &r) ||
        r < 0 || r > 1e18)
    {
        return false;
    }
    *ps = static_cast<int64_t>(std::llround(r));
    return true;
}

} // namespace ns3
