/*
 * nicc-units.cc — NiccParseDataRate / NiccParseTime (nicc-units.h).
 */
#include "nicc-units.h"

#include <cerrno>
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

// Length of the decimal number that starts `s`: [+-] digits [. digits]
// [e [+-] digits], with digits on at least one side of the point; 0 if
// there is none. Narrower than strtod on purpose: no leading spaces, no
// hex ("0x10"), no inf or nan.
size_t
DecimalPrefix(const std::string& s, bool sign)
{
    size_t i = 0;
    const auto digits = [&s, &i]() {
        const size_t from = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        {
            ++i;
        }
        return i - from;
    };
    if (sign && i < s.size() && (s[i] == '+' || s[i] == '-'))
    {
        ++i;
    }
    size_t mantissa = digits();
    if (i < s.size() && s[i] == '.')
    {
        ++i;
        mantissa += digits();
    }
    if (mantissa == 0)
    {
        return 0;
    }
    const size_t end = i;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E'))
    {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        {
            ++i;
        }
        if (digits() == 0)
        {
            return end; // "1e" or "1e+": the number is "1", the rest is a trailer
        }
    }
    return i;
}

// strtod of exactly `text`, which DecimalPrefix accepted whole; false when
// the value is past a double's range (overflow or underflow: "1e400",
// "1e-400").
bool
Decimal(const std::string& text, double* out)
{
    errno = 0;
    const double v = std::strtod(text.c_str(), nullptr);
    if (errno == ERANGE || !std::isfinite(v))
    {
        return false;
    }
    *out = v;
    return true;
}

// Splits "12.5Gbps" into its number and unit; false unless the number is a
// finite unsigned decimal ("1", "0.5", "1e3") followed only by the unit.
bool
Split(const std::string& text, double* value, std::string* unit)
{
    const size_t n = DecimalPrefix(text, false);
    if (n == 0 || !Decimal(text.substr(0, n), value))
    {
        return false;
    }
    *unit = text.substr(n);
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
    return !text.empty() && DecimalPrefix(text, true) == text.size() && Decimal(text, out);
}

bool
NiccParseDataRate(const std::string& text, uint64_t* bps, uint64_t minBps)
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
    if (r < static_cast<double>(minBps) || r > 1e15)
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

bool
NiccIsUtf8(const std::string& v)
{
    size_t i = 0;
    while (i < v.size())
    {
        const auto c = static_cast<unsigned char>(v[i]);
        size_t n;
        uint32_t cp;
        if (c < 0x80)
        {
            ++i;
            continue;
        }
        else if (c >= 0xc2 && c <= 0xdf)
        {
            n = 1;
            cp = c & 0x1fU;
        }
        else if (c >= 0xe0 && c <= 0xef)
        {
            n = 2;
            cp = c & 0x0fU;
        }
        else if (c >= 0xf0 && c <= 0xf4)
        {
            n = 3;
            cp = c & 0x07U;
        }
        else
        {
            return false;
        }
        if (i + n >= v.size())
        {
            return false;
        }
        for (size_t j = 1; j <= n; ++j)
        {
            const auto cc = static_cast<unsigned char>(v[i + j]);
            if ((cc & 0xc0U) != 0x80U)
            {
                return false;
            }
            cp = (cp << 6) | (cc & 0x3fU);
        }
        const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        {
            return false;
        }
        i += n + 1;
    }
    return true;
}

std::string
NiccPrintable(const std::string& v)
{
    std::string out;
    size_t i = 0;
    while (i < v.size())
    {
        const auto c = static_cast<unsigned char>(v[i]);
        // A well-formed multi-byte character is kept; any other byte past
        // 0x7f, a control byte or NUL is written \xHH.
        const size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        if (c >= 0x80 && NiccIsUtf8(v.substr(i, n)))
        {
            out += v.substr(i, n);
            i += n;
            continue;
        }
        if (c < 0x20 || c >= 0x7f)
        {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\x%02x", c);
            out += buf;
        }
        else
        {
            out += static_cast<char>(c);
        }
        ++i;
    }
    return out;
}

} // namespace ns3
