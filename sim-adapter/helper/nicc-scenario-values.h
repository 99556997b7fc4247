/*
 * nicc-scenario-values.h — how a scenario key's value is checked
 * (nicc-scenario-values.cc): UTF-8 text, a number that is the whole value
 * within the key's range, one of a choice list, or what the model
 * Attribute's checker accepts. Internal to the scenario layer
 * (nicc-scenario-keys.cc).
 */
#ifndef NICC_SCENARIO_VALUES_H
#define NICC_SCENARIO_VALUES_H

#include "nicc-scenario.h"

#include "ns3/type-id.h"

#include <string>

namespace ns3
{
namespace scenario_values
{

/// The model Attribute a key sets; false for a key that sets none.
bool LookupAttribute(const NiccScenarioKey& k, TypeId::AttributeInformation* info);

/// "min..max unit" of a numeric key, as --help prints it.
std::string RangeOf(const NiccScenarioKey& k);

/// True if `v` is a valid value of key `k`; else false with *why.
bool CheckValue(const NiccScenarioKey& k, const std::string& v, std::string* why);

} // namespace scenario_values
} // namespace ns3

#endif // NICC_SCENARIO_VALUES_H
