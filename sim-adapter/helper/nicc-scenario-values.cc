/*
 * nicc-scenario-values.cc — the checks of a scenario key's value
 * (nicc-scenario-values.h).
 */
#include "nicc-scenario-values.h"

#include "ns3/attribute.h"

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
    if (v.empty())
    {
        return false;
    }
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    // The whole value: "1\0x" (a TOML "\u0000" escape) is no number.
    if (end == v.c_str() || end != v.c_str() + v.size() || !std::isfinite(d))
    {
        return false;
    }
    *out = d;
    return true;
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

// True if v is well-formed UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF): a scenario value is text a scenario file can hold.
bool
IsUtf8(const std::string& v)
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
CheckValue(const NiccScenarioKey& k, const std::string& v, std::string* why)
{
    if (!IsUtf8(v))
    {
        *why = "not UTF-8 text (a scenario file could not hold it)";
        return false;
    }
    const std::string& type = k.type;
    if (type.find('|') != std::string::npos)
    {
        return CheckChoice(type, v, why);
    }
    if (k.target == NiccScenarioKey::ATTRIBUTE)
    {
        // The Attribute's own checker decides (type and range).
        TypeId::AttributeInformation info;
        if (!LookupAttribute(k, &info))
        {
            *why = k.typeId + " has no Attribute " + k.attribute;
            return false;
        }
        double d = 0;
        // A key with a unit suffix ("us": a Time) takes a plain number: ns-3
        // reads the number up to the first character outside "+-0123456789.eE"
        // and aborts on a trailer that is no unit ("100m" + "us", "0x10us").
        if (!k.suffix.empty() &&
            (!ParseNumber(v, &d) || v.find_first_not_of("+-0123456789.eE") != std::string::npos))
        {
            *why = "expected a number (in " + k.suffix + ")";
            return false;
        }
        const bool isUnsigned = type.rfind("uint", 0) == 0;
        if ((isUnsigned || type.rfind("int", 0) == 0) && (!ParseNumber(v, &d) || d != std::floor(d)))
        {
            *why = "expected an integer (" + type + ")";
            return false;
        }
        Ptr<AttributeValue> value = info.checker->Create();
        if ((isUnsigned && d < 0) || !value->DeserializeFromString(v + k.suffix, info.checker) ||
            !info.checker->Check(*value))
        {
            *why = "expected " + type + (k.suffix.empty() ? "" : " (in " + k.suffix + ")") +
                   " (" + k.typeId + "::" + k.attribute + ")";
            return false;
        }
        return true;
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
    if (std::find(k.choiceNames.begin(), k.choiceNames.end(), v) != k.choiceNames.end())
    {
        return true; // a selector's name
    }
    std::string names;
    for (const auto& n : k.choiceNames)
    {
        names += (names.empty() ? " or one of " : "|") + n;
    }
    double d;
    if (!ParseNumber(v, &d))
    {
        *why = "expected a number (" + type + ")" + names;
        return false;
    }
    if ((type == "uint" || type == "int") && d != std::floor(d))
    {
        *why = "expected an integer";
        return false;
    }
    if (k.target == NiccScenarioKey::ENGINE)
    {
        if (d != -1 && (d < k.min || d > k.max))
        {
            *why = "out of range " + RangeOf(k) + " (-1 = the profile's value)" + names;
            return false;
        }
        return true;
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
