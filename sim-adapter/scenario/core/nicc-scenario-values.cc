/*
 * nicc-scenario-values.cc — the checks of a scenario key's value
 * (nicc-scenario-values.h).
 */
#include "nicc-scenario-values.h"

#include "nicc-units.h"

#include "ns3/attribute.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ns3
{
namespace scenario_values
{

bool
LookupAttribute(const NiccScenarioKey& k, TypeId::AttributeInformation* info)
{
    return !k.typeId.empty() && TypeId::LookupByName(k.typeId).LookupAttributeByName(k.attribute, info);
}

namespace
{

bool
ParseNumber(const std::string& v, double* out)
{
    return NiccParseNumber(v, out);
}

// An integer value: decimal digits (exact to 2^64 - 1), or a decimal with
// an exponent whose value is whole ("1e6"); a sign only where `isSigned`.
// False with *why otherwise.
bool
ParseInteger(const std::string& v, bool isSigned, int64_t* s, uint64_t* u, std::string* why)
{
    double d = 0;
    const bool negative = !v.empty() && v[0] == '-';
    *why = isSigned ? "expected an integer" : "expected an unsigned integer";
    if (!ParseNumber(v, &d) || d != std::floor(d) || (negative && !isSigned))
    {
        return false;
    }
    const std::string digits = v.substr(!v.empty() && (v[0] == '+' || v[0] == '-') ? 1 : 0);
    if (digits.find_first_not_of("0123456789") == std::string::npos)
    {
        errno = 0;
        const uint64_t m = std::strtoull(digits.c_str(), nullptr, 10);
        if (errno == ERANGE || (isSigned && m > (negative ? (uint64_t{1} << 63) : INT64_MAX)))
        {
            *why = "out of the range of a 64-bit integer";
            return false;
        }
        *u = m;
        *s = negative ? static_cast<int64_t>(0 - m) : static_cast<int64_t>(m);
        return true;
    }
    // An exponent form: exact below 2^63 (2^64 unsigned) for whole doubles.
    if (d >= (isSigned ? 9223372036854775808.0 : 18446744073709551616.0) || d < -9223372036854775808.0)
    {
        *why = "out of the range of a 64-bit integer";
        return false;
    }
    *u = d < 0 ? 0 : static_cast<uint64_t>(d);
    *s = isSigned ? static_cast<int64_t>(d) : static_cast<int64_t>(*u);
    return true;
}

// Bits of a C integer type name ("uint16_t" -> 16), 0 if it is none.
int
IntegerBits(const std::string& type, bool* isSigned)
{
    static const char* const names[] = {"int8_t", "int16_t", "int32_t", "int64_t"};
    const std::string t = type.substr(0, type.find(' '));
    *isSigned = t[0] != 'u';
    const std::string bare = *isSigned ? t : t.substr(1);
    for (int i = 0; i < 4; ++i)
    {
        if (bare == names[i])
        {
            return 8 << i;
        }
    }
    return 0;
}

// "%.17g": a double's shortest exact decimal spelling for ns-3's reader.
std::string
Exact(double d)
{
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", d);
    return buf;
}

bool
CheckChoice(const std::string& type, const std::string& v, std::string* why)
{
    std::stringstream ss(type);
    std::string c;
    std::string near;
    while (std::getline(ss, c, '|'))
    {
        if (c == v)
        {
            return true;
        }
        // The old short spellings: "paper" -> "dcqcn-paper", "later" -> "hpcc-later".
        if (!v.empty() && c.size() > v.size() && c.compare(c.size() - v.size(), v.size(), v) == 0 &&
            c[c.size() - v.size() - 1] == '-')
        {
            near = c;
        }
    }
    *why = "expected one of " + type + (near.empty() ? "" : " (did you mean '" + near + "'?)");
    return false;
}

} // namespace

std::string
RangeOf(const NiccScenarioKey& k)
{
    std::ostringstream os;
    os << std::fixed;
    os.precision(k.min == std::floor(k.min) && k.max == std::floor(k.max) ? 0 : 3);
    os << k.min << ".." << k.max;
    if (!k.unit.empty())
    {
        os << " " << k.unit;
    }
    return os.str();
}

bool
AttributeText(const NiccScenarioKey& k, const std::string& v, std::string* text, std::string* why)
{
    const std::string& type = k.type;
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0;
    if (k.target == NiccScenarioKey::ENGINE)
    {
        const auto named = std::find(k.choiceNames.begin(), k.choiceNames.end(), v);
        if (named != k.choiceNames.end())
        {
            *text = std::to_string(named - k.choiceNames.begin()); // lists are in code order
            return true;
        }
        std::string names;
        for (const auto& n : k.choiceNames)
        {
            names += (names.empty() ? " or one of " : "|") + n;
        }
        if (!ParseInteger(v, true, &i, &u, why))
        {
            *why += names;
            return false;
        }
        if (i != -1 && (static_cast<double>(i) < k.min || static_cast<double>(i) > k.max))
        {
            *why = "out of range " + RangeOf(k) + " (-1 = the profile's value)" + names;
            return false;
        }
        *text = std::to_string(i);
        return true;
    }
    if (type.find('|') != std::string::npos)
    {
        *text = v;
        return CheckChoice(type, v, why);
    }
    if (type == "bool")
    {
        *text = v == "true" || v == "1" ? "true" : "false";
        *why = "expected true or false";
        return v == "true" || v == "false" || v == "1" || v == "0";
    }
    bool isSigned = false;
    if (const int bits = IntegerBits(type, &isSigned))
    {
        if (!ParseInteger(v, isSigned, &i, &u, why))
        {
            return false;
        }
        const bool fits = isSigned ? bits == 64 || (i >= -(int64_t{1} << (bits - 1)) && i < (int64_t{1} << (bits - 1)))
                                   : bits == 64 || (u >> bits) == 0;
        if (!fits)
        {
            *why = "out of the range of " + type.substr(0, type.find(' '));
            return false;
        }
        *text = isSigned ? std::to_string(i) : std::to_string(u);
        return true;
    }
    if (type.rfind("double", 0) == 0)
    {
        *why = "expected a decimal number (" + type + ")";
        *text = ParseNumber(v, &d) ? Exact(d) : "";
        return !text->empty();
    }
    if (type.rfind("Time", 0) == 0 && k.suffix == "us")
    {
        // ns-3 holds a Time as signed 64-bit nanoseconds: 9.2e15 us at most.
        *why = "expected a number (in us)";
        if (!ParseNumber(v, &d) || std::fabs(d) > 9.2e15)
        {
            return false;
        }
        *text = Exact(d) + "us";
        return true;
    }
    if (type.rfind("Time", 0) == 0 && k.suffix.empty())
    {
        *why = "expected a time (e.g. 10us)";
        *text = NiccParseTime(v, &i) ? std::to_string(i) + "ps" : "";
        return !text->empty();
    }
    if (type == "DataRate" && k.suffix.empty())
    {
        *why = "expected a data rate (e.g. 100Gbps; a bare number is bit/s)";
        *text = NiccParseDataRate(v, &u, 0) ? std::to_string(u) + "bps" : "";
        return !text->empty();
    }
    *why = "no parser for Attribute type '" + type + "'";
    return false;
}

bool
CheckValue(const NiccScenarioKey& k, const std::string& v, std::string* why)
{
    if (!NiccIsUtf8(v))
    {
        *why = "not UTF-8 text (a scenario file could not hold it)";
        return false;
    }
    for (const char c : v)
    {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        {
            *why = c ? "holds a control character" : "holds a NUL byte";
            return false;
        }
    }
    const std::string& type = k.type;
    if (k.target == NiccScenarioKey::ATTRIBUTE || k.target == NiccScenarioKey::ENGINE)
    {
        std::string text;
        if (!AttributeText(k, v, &text, why))
        {
            return false;
        }
        if (k.target == NiccScenarioKey::ENGINE || type.find('|') != std::string::npos)
        {
            return true;
        }
        // The project has parsed the value; the Attribute's checker sees
        // only that spelling and decides the range.
        TypeId::AttributeInformation info;
        if (!LookupAttribute(k, &info))
        {
            *why = k.typeId + " has no Attribute " + k.attribute;
            return false;
        }
        Ptr<AttributeValue> value = info.checker->Create();
        if (!value->DeserializeFromString(text, info.checker) || !info.checker->Check(*value))
        {
            *why = "out of range: expected " + type + (k.suffix.empty() ? "" : " (in " + k.suffix + ")") +
                   " (" + k.typeId + "::" + k.attribute + ")";
            return false;
        }
        return true;
    }
    if (type.find('|') != std::string::npos)
    {
        return CheckChoice(type, v, why);
    }
    if (type == "string")
    {
        return true;
    }
    if (type == "bool")
    {
        if (v == "true" || v == "false" || v == "1" || v == "0")
        {
            return true;
        }
        *why = "expected true or false";
        return false;
    }
    double d;
    if (!ParseNumber(v, &d))
    {
        *why = "expected a number (" + type + ")";
        return false;
    }
    if ((type == "uint" || type == "int") && d != std::floor(d))
    {
        *why = "expected an integer";
        return false;
    }
    if (d < k.min || d > k.max)
    {
        std::ostringstream os;
        os << "out of range [" << k.min << ", " << k.max << "]";
        *why = os.str();
        return false;
    }
    return true;
}

} // namespace scenario_values
} // namespace ns3
