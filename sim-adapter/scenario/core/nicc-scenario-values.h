/*
 * nicc-scenario-values.h — how a scenario key's value is checked
 * (nicc-scenario-values.cc): UTF-8 text, a decimal number that is the whole
 * value within the key's range, or one of a choice list; a model key's
 * value is parsed the same way, by the project, before the Attribute's
 * checker judges its range. Internal to the scenario layer
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

/// The text a model key (ATTRIBUTE or ENGINE) hands to its Attribute: `v`
/// parsed by the project's own parsers (nicc-units) and spelled as ns-3's
/// reader takes it whole (an integer in digits, a double in %.17g, a Time
/// in "<number>us", a rate in bit/s, an engine selector's name as its code),
/// so that no ns-3 checker sees text the project has not accepted. False
/// with *why when `v` is no value of k's type (its range is the checker's:
/// CheckValue).
bool AttributeText(const NiccScenarioKey& k, const std::string& v, std::string* text, std::string* why);

} // namespace scenario_values
} // namespace ns3

#endif // NICC_SCENARIO_VALUES_H
