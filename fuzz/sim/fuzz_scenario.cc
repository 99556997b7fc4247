// fuzz/sim/fuzz_scenario.cc — target `scenario`: the input is a TOML
// scenario file and, after a line "%%%", one `--set key=value` override per
// line, taken the way nicc-sim builds its scenario (NiccLoadScenarioText,
// then SetPair for each override in order, then the `compat` preset) without
// running it. Invariants: every refusal names the file and a line (file
// errors) or the key (overrides); a numeric key holds a number; an accepted
// scenario printed as a scenario file (NiccScenarioToml, nicc-sim --print)
// loads again to the same values.
#include "fuzz_util.h"

#include "ns3/nicc-scenario-file.h"
#include "ns3/nicc-scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace
{

// Same value: the same text, or two numbers that read as the same double
// (the printed file writes numbers as TOML numbers: "0.30" comes back "0.3").
bool
SameValue(const std::string& a, const std::string& b)
{
    if (a == b)
    {
        return true;
    }
    char* ea = nullptr;
    char* eb = nullptr;
    const double da = std::strtod(a.c_str(), &ea);
    const double db = std::strtod(b.c_str(), &eb);
    return !a.empty() && !b.empty() && *ea == '\0' && *eb == '\0' && da == db;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<std::string> parts = nicc_fuzz::Split(data, size, 2);
    ns3::NiccScenario s;
    std::string error;
    if (!ns3::NiccLoadScenarioText(parts[0], "fuzz.toml", "", &s, &error))
    {
        NICC_FUZZ_CHECK(error.rfind("fuzz.toml:", 0) == 0, "error without the file: " << error);
        NICC_FUZZ_CHECK(error.size() > 10, "empty reason: " << error);
        return 0;
    }
    if (parts.size() > 1)
    {
        for (const std::string& pair : nicc_fuzz::Lines(parts[1]))
        {
            if (!s.SetPair(pair, &error))
            {
                NICC_FUZZ_CHECK(!error.empty(), "--set " << pair << " refused without a reason");
                return 0;
            }
        }
    }
    // A numeric key holds a number (all of its text), or one of its names.
    for (const auto& k : ns3::NiccScenario::Keys())
    {
        const std::string v = s.Get(k.name);
        if ((k.type == "uint" || k.type == "int" || k.type == "double") &&
            std::find(k.choiceNames.begin(), k.choiceNames.end(), v) == k.choiceNames.end())
        {
            char* end = nullptr;
            std::strtod(v.c_str(), &end);
            NICC_FUZZ_CHECK(!v.empty() && end == v.c_str() + v.size(),
                            "key " << k.name << " (" << k.type << ") holds '" << v << "' (" << v.size() << " bytes)");
        }
    }
    // The printed scenario loads again to the same scenario.
    const std::string printed = ns3::NiccScenarioToml(s);
    ns3::NiccScenario again;
    NICC_FUZZ_CHECK(ns3::NiccLoadScenarioText(printed, "printed.toml", "", &again, &error),
                    "the printed scenario does not load: " << error << "\n--- printed:\n" << printed);
    NICC_FUZZ_CHECK(again.GetName() == s.GetName(), "base " << again.GetName() << " != " << s.GetName());
    NICC_FUZZ_CHECK(again.GetLabel() == s.GetLabel(), "name '" << again.GetLabel() << "' != '" << s.GetLabel() << "'");
    for (const auto& k : ns3::NiccScenario::Keys())
    {
        NICC_FUZZ_CHECK(SameValue(again.Get(k.name), s.Get(k.name)),
                        "key " << k.name << ": printed and loaded '" << again.Get(k.name) << "', was '"
                               << s.Get(k.name) << "'\n--- printed:\n" << printed);
    }
    if (!s.ApplyCompat(&error))
    {
        NICC_FUZZ_CHECK(error.rfind("compat=", 0) == 0, "compat refusal without the preset: " << error);
    }
    return 0;
}
