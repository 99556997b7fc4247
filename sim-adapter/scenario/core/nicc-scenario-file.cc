/*
 * nicc-scenario-file.cc — NiccLoadScenarioFile: TOML scenario files (toml++)
 * into NiccScenario keys. Format and error form: nicc-scenario-file.h.
 */
#include "nicc-scenario-file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

// Keys whose value is a path, resolved against the scenario file's directory.
const char* const kPathKeys[] = {"topology_file", "cdf_file", "flow_file", "training_layers_file"};

struct Entry
{
    std::string key;   ///< scenario key
    std::string shown; ///< as written, with its table ("fabric.leaves")
    std::string value;
    uint32_t line;
    uint32_t column;
};

std::string
Where(const std::string& source, const toml::source_region& r)
{
    return source + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

bool
IsKey(const std::string& name)
{
    return NiccScenario::IsKey(name);
}

size_t
EditDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> prev(b.size() + 1);
    std::vector<size_t> cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
    {
        prev[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i)
    {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

// " (did you mean 'x'?)" for an unknown key `key` in [table] ("" = top
// level): the closest key or alias to "table.key" or to "key".
std::string
Suggest(const std::string& table, const std::string& key)
{
    std::vector<std::string> names;
    for (const auto& k : NiccScenario::Keys())
    {
        names.push_back(k.name);
    }
    for (const auto& a : NiccScenario::Aliases())
    {
        names.emplace_back(a.from);
    }
    std::string best;
    size_t bestDist = 3; // suggest only close matches
    for (const auto& name : names)
    {
        size_t d = EditDistance(key, name);
        if (!table.empty())
        {
            d = std::min(d, EditDistance(table + "." + key, name));
        }
        if (d < bestDist)
        {
            bestDist = d;
            best = name;
        }
    }
    if (best.empty())
    {
        return " (nicc-sim --help lists the keys)";
    }
    const size_t dot = best.find('.');
    if (dot != std::string::npos)
    {
        return " (did you mean '" + best + "'? in a file: [" + best.substr(0, dot) + "] " +
               best.substr(dot + 1) + ")";
    }
    return " (did you mean '" + best + "'?)";
}

// Shortest decimal form of d that reads back as d.
std::string
FloatText(double d)
{
    char buf[64];
    if (d == std::floor(d) && std::fabs(d) < 1e15)
    {
        std::snprintf(buf, sizeof(buf), "%.0f", d); // 1e5 -> 100000
        return buf;
    }
    for (int prec = 1; prec <= 17; ++prec)
    {
        std::snprintf(buf, sizeof(buf), "%.*g", prec, d);
        if (std::strtod(buf, nullptr) == d)
        {
            break;
        }
    }
    return buf;
}

const char*
TypeName(toml::node_type t)
{
    switch (t)
    {
    case toml::node_type::table:
        return "a table";
    case toml::node_type::array:
        return "an array";
    case toml::node_type::string:
        return "a string";
    case toml::node_type::integer:
        return "an integer";
    case toml::node_type::floating_point:
        return "a float";
    case toml::node_type::boolean:
        return "a boolean";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time:
        return "a date / time";
    default:
        return "an unsupported value";
    }
}

// A scalar value as the text NiccScenario::Set takes; false (with *why) for
// arrays, tables, dates, non-finite floats.
bool
ValueText(const toml::node& v, std::string* out, std::string* why)
{
    if (auto s = v.as_string())
    {
        *out = s->get();
        return true;
    }
    if (auto i = v.as_integer())
    {
        *out = std::to_string(i->get());
        return true;
    }
    if (auto f = v.as_floating_point())
    {
        if (!std::isfinite(f->get()))
        {
            *why = "inf / nan is not a value of any key";
            return false;
        }
        *out = FloatText(f->get());
        return true;
    }
    if (auto b = v.as_boolean())
    {
        *out = b->get() ? "true" : "false";
        return true;
    }
    *why = std::string(TypeName(v.type())) +
           " is not supported (values are integers, floats, booleans or strings)";
    return false;
}

// A TOML basic string holding v: '"' and '\\' escaped, control characters
// as \b \t \n \f \r or \uXXXX (TOML allows none of them raw but tab).
std::string
TomlString(const std::string& v)
{
    std::string q = "\"";
    for (char ch : v)
    {
        const auto u = static_cast<unsigned char>(ch);
        switch (ch)
        {
        case '"':
            q += "\\\"";
            break;
        case '\\':
            q += "\\\\";
            break;
        case '\b':
            q += "\\b";
            break;
        case '\t':
            q += "\\t";
            break;
        case '\n':
            q += "\\n";
            break;
        case '\f':
            q += "\\f";
            break;
        case '\r':
            q += "\\r";
            break;
        default:
            if (u < 0x20 || u == 0x7f)
            {
                char buf[8];
                std::snprintf(buf, sizeof(buf), "\\u%04X", static_cast<unsigned>(u));
                q += buf;
            }
            else
            {
                q += ch;
            }
        }
    }
    return q + "\"";
}

// True if v, written bare, is a TOML number that reads back as the number
// v denotes: [+-] digits without leading zeros, an optional fraction and
// exponent, and integers that fit TOML's 64-bit range. Anything else the
// scenario takes as a number ("5.", ".5", "0x10", " 5", "007") is written
// as a string, which loads as the same text.
bool
IsTomlNumber(const std::string& v)
{
    size_t i = 0;
    if (i < v.size() && (v[i] == '+' || v[i] == '-'))
    {
        ++i;
    }
    auto digits = [&]() {
        const size_t from = i;
        while (i < v.size() && v[i] >= '0' && v[i] <= '9')
        {
            ++i;
        }
        return i - from;
    };
    const size_t intStart = i;
    const size_t intDigits = digits();
    if (intDigits == 0 || (intDigits > 1 && v[intStart] == '0'))
    {
        return false;
    }
    bool integer = true;
    if (i < v.size() && v[i] == '.')
    {
        ++i;
        integer = false;
        if (digits() == 0)
        {
            return false;
        }
    }
    if (i < v.size() && (v[i] == 'e' || v[i] == 'E'))
    {
        ++i;
        integer = false;
        if (i < v.size() && (v[i] == '+' || v[i] == '-'))
        {
            ++i;
        }
        if (digits() == 0)
        {
            return false;
        }
    }
    if (i != v.size())
    {
        return false;
    }
    if (integer)
    {
        return intDigits <= 18; // below 2^63 whatever the digits
    }
    return std::isfinite(std::strtod(v.c_str(), nullptr)); // 1e999 is no TOML float
}

} // namespace

bool
NiccIsScenarioFile(const std::string& arg)
{
    const std::string ext = ".toml";
    if (arg.size() >= ext.size() && arg.compare(arg.size() - ext.size(), ext.size(), ext) == 0)
    {
        return true;
    }
    const auto& names = NiccScenario::Names();
    if (std::find(names.begin(), names.end(), arg) != names.end())
    {
        return false;
    }
    std::error_code ec;
    return std::filesystem::is_regular_file(arg, ec);
}

bool
NiccLoadScenarioText(const std::string& text,
                     const std::string& source,
                     const std::string& baseDir,
                     NiccScenario* s,
                     std::string* error)
{
    toml::table root;
    try
    {
        root = toml::parse(text, source);
    }
    catch (const toml::parse_error& e)
    {
        *error = Where(source, e.source()) + ": TOML syntax error: " + std::string(e.description());
        return false;
    }

    std::string base = "leaf-spine";
    std::string label;
    std::vector<Entry> entries;
    for (auto&& [k, v] : root)
    {
        const std::string key(k.str());
        if (key == "base" || key == "name")
        {
            const auto* str = v.as_string();
            if (!str)
            {
                *error = Where(source, k.source()) + ": '" + key + "' must be a string, got " +
                         TypeName(v.type());
                return false;
            }
            if (key == "base")
            {
                base = str->get();
                const auto& names = NiccScenario::Names();
                if (std::find(names.begin(), names.end(), base) == names.end())
                {
                    *error = Where(source, v.source()) + ": base: unknown scenario '" + base +
                             "' (built-in: " + NiccScenario::NamesText(", ", ", ") + ")";
                    return false;
                }
            }
            else
            {
                label = str->get();
            }
            continue;
        }
        if (auto* tbl = v.as_table())
        {
            // One level of grouping: [fabric], [cc], ... hold plain keys.
            for (auto&& [k2, v2] : *tbl)
            {
                const std::string key2(k2.str());
                if (v2.is_table())
                {
                    *error = Where(source, k2.source()) + ": '" + key + "." + key2 +
                             "': tables inside tables are not supported (one level of "
                             "[table] grouping only)";
                    return false;
                }
                // [dcqcn] rp_time_reset is the key dcqcn.rp_time_reset; in
                // any other table ([fabric], [workload], ...) the name only
                // groups: [fabric] leaves is the key leaves.
                const std::string dotted = key + "." + key2;
                const std::string name = IsKey(dotted) ? dotted : key2;
                if (!IsKey(name))
                {
                    *error = Where(source, k2.source()) + ": unknown key '" + key2 + "' in [" + key +
                             "]" + Suggest(key, key2);
                    return false;
                }
                std::string value;
                std::string why;
                if (!ValueText(v2, &value, &why))
                {
                    *error = Where(source, v2.source()) + ": key '" + key2 + "' (in [" + key +
                             "]): " + why;
                    return false;
                }
                entries.push_back({name, dotted, value, k2.source().begin.line, k2.source().begin.column});
            }
            continue;
        }
        if (!IsKey(key) && v.is_array())
        {
            *error = Where(source, k.source()) + ": '" + key +
                     "': arrays (and arrays of tables) are not supported";
            return false;
        }
        if (!IsKey(key))
        {
            *error = Where(source, k.source()) + ": unknown key '" + key + "'" + Suggest("", key);
            return false;
        }
        std::string value;
        std::string why;
        if (!ValueText(v, &value, &why))
        {
            *error = Where(source, v.source()) + ": key '" + key + "': " + why;
            return false;
        }
        entries.push_back({key, key, value, k.source().begin.line, k.source().begin.column});
    }

    std::string err;
    if (!s->Select(base, &err))
    {
        *error = source + ": base: " + err;
        return false;
    }
    s->SetLabel(label);
    // In file order, so the first bad value in the file is the one reported.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    for (Entry& e : entries)
    {
        for (const char* pk : kPathKeys)
        {
            if (e.key == pk && !e.value.empty() && !baseDir.empty() &&
                std::filesystem::path(e.value).is_relative())
            {
                e.value = (std::filesystem::path(baseDir) / e.value).lexically_normal().string();
            }
        }
        if (!s->Set(e.key, e.value, &err))
        {
            *error = source + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " +
                     (e.shown != e.key ? "'" + e.shown + "': " : "") + err;
            return false;
        }
    }
    return true;
}

std::string
NiccScenarioToml(const NiccScenario& s)
{
    std::string out = "base = " + TomlString(s.GetName()) + "\n";
    if (!s.GetLabel().empty())
    {
        out += "name = " + TomlString(s.GetLabel()) + "\n";
    }
    for (const auto& k : NiccScenario::Keys())
    {
        const std::string v = s.Get(k.name);
        if (v == NiccScenario::DefaultFor(s.GetName(), k.name))
        {
            continue;
        }
        const bool bare = v == "true" || v == "false" ||
                          (k.type != "string" && k.type.find('|') == std::string::npos && IsTomlNumber(v));
        // <algo>.<row> is a dotted key (a table <algo>) unless <algo> is a
        // key itself (`spray`, `spray.ev_bits`): TOML cannot hold both, so
        // that name is written quoted, one key with a dot in it.
        const size_t dot = k.name.find('.');
        const bool quoteName = dot != std::string::npos && NiccScenario::IsKey(k.name.substr(0, dot));
        out += (quoteName ? TomlString(k.name) : k.name) + " = " + (bare ? v : TomlString(v)) + "\n";
    }
    return out;
}

bool
NiccLoadScenarioFile(const std::string& path, NiccScenario* s, std::string* error)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
    {
        *error = path + ": no such scenario file (and not a built-in scenario: " +
                 NiccScenario::NamesText(", ", ", ") + ")";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in.is_open() || in.bad())
    {
        *error = path + ": cannot read the scenario file";
        return false;
    }
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    return NiccLoadScenarioText(text.str(), path, dir.empty() ? "." : dir.string(), s, error);
}

} // namespace ns3
