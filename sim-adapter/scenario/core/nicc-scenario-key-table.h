/*
 * nicc-scenario-key-table.h — the hand-kept data behind NiccScenario's keys
 * (private to the scenario library; nicc-scenario-keys.cc reads it).
 *
 *   for (const ScenarioKeyRow& r : ScenarioKeyRows()) ...   // "senders", "stop_ms", ...
 *
 * Engine parameters, selectors and profiles are not here: they are derived
 * from the engine's tables and the NIC's Attributes.
 */
#ifndef NICC_SCENARIO_KEY_TABLE_H
#define NICC_SCENARIO_KEY_TABLE_H

#include "nicc-scenario.h"

#include "ns3/type-id.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// A scenario key the scenario itself reads: name, type, min, max, default,
/// help (per-scenario defaults: BuiltinScenarioRows()).
struct ScenarioKeyRow
{
    const char* name;
    const char* type;
    double min;
    double max;
    const char* def;
    const char* help;
};

/// A key that sets an Attribute of a model object. Everything else about it
/// (type and range from the checker, help, default) comes from the TypeId.
struct AttributeKeyRow
{
    const char* name;
    TypeId (*typeId)();
    const char* attribute;
    const char* def;    ///< the scenarios' default; nullptr = the Attribute's initial value
    const char* suffix; ///< appended to the key's value for the Attribute ("us": a Time in us)
};

const std::vector<ScenarioKeyRow>& ScenarioKeyRows();
const std::vector<AttributeKeyRow>& AttributeKeyRows();
/// Scenario defaults of derived keys that differ from the Attribute's.
const std::vector<std::pair<const char*, const char*>>& DerivedKeyDefaults();
/// Old key -> new key (deprecated spellings).
const std::vector<NiccScenarioAlias>& ScenarioKeyAliases();
/// A built-in scenario: its name (--scenario NAME, base = "NAME"), whether
/// RunFabric runs it (else the one-switch runner), one line of what it is,
/// and its defaults that differ from the tables'.
struct BuiltinScenarioRow
{
    const char* name;
    bool fabric;
    const char* summary;
    std::vector<std::pair<const char*, const char*>> overrides;
};
const std::vector<BuiltinScenarioRow>& BuiltinScenarioRows();

/// A model-semantics preset (key `compat`): the keys it sets, each unless
/// the user sets that key, with a note on the anchor's value.
struct CompatPreset
{
    const char* name;
    const char* help;
    std::vector<std::pair<const char*, const char*>> keys;
};
/// Every preset; the first ("nicc") sets nothing. The key `compat`'s
/// choices are these names.
const std::vector<CompatPreset>& CompatPresets();

} // namespace ns3

#endif // NICC_SCENARIO_KEY_TABLE_H
