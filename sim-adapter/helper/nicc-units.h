/*
 * nicc-units.h — ns-3's text forms of a data rate and a time, parsed without
 * aborting: input files (topology, HPCC config) report a bad value with
 * their file and line instead of ns-3's fatal error.
 *
 *   uint64_t bps;  int64_t ps;
 *   NiccParseDataRate("50Mb/s", &bps);          // 50000000
 *   NiccParseDataRate("25000000000.0", &bps);   // 25000000000: a bare number is bit/s,
 *                                               // truncated at the '.' as ns-3 reads it
 *   NiccParseTime("0.001ms", &ps);              // 1000000
 *   NiccParseTime("0.000001", &ps);             // a bare number is seconds
 *
 * Rates: bps b/s Bps B/s, k/K (10^3), M (10^6), G (10^9), T (10^12) with bps,
 * b/s, Bps or B/s (B = bytes: x 8), and Ki/Mi/Gi with b/s or B/s (2^10...),
 * as ns3::DataRate spells them. Times: s ms us ns ps fs min h d. Units: bit/s
 * and picoseconds.
 */
#ifndef NICC_UNITS_H
#define NICC_UNITS_H

#include <cstdint>
#include <string>

namespace ns3
{

/// Decimal digits only (no sign, no spaces), at most 19 (below 2^63).
bool NiccParseUnsigned(const std::string& text, uint64_t* out);

/// The whole of `text` as a finite decimal number: [+-] digits [. digits]
/// [e [+-] digits]. No spaces, hex, inf or nan; false past a double's range.
bool NiccParseNumber(const std::string& text, double* out);

/// False unless `text` is a rate ns3::DataRate accepts, in [minBps, 10^15] bit/s.
bool NiccParseDataRate(const std::string& text, uint64_t* bps, uint64_t minBps = 1);

/// False unless `text` is a time ns3::Time accepts, in [0, 10^6 s]; *ps rounded.
bool NiccParseTime(const std::string& text, int64_t* ps);

/// True if `text` is well-formed UTF-8: no overlong forms, surrogates or
/// code points past U+10FFFF (what a TOML scenario file can hold).
bool NiccIsUtf8(const std::string& text);

/// `text` for an error message: NUL, control bytes and bytes that are no
/// UTF-8 written \xHH; well-formed characters kept.
std::string NiccPrintable(const std::string& text);

} // namespace ns3

#endif // NICC_UNITS_H
