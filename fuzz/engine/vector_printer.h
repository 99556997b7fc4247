// vector_printer.h — writes a parsed conformance vector back as vector-file
// text (docs/vectors.md), and compares two parsed vectors, for the vectors
// fuzz target's parse -> print -> parse round trip.
//
//   std::string text = PrintVector(v);   // parses back to SameVector(v, ...)
#ifndef NICC_FUZZ_VECTOR_PRINTER_H_
#define NICC_FUZZ_VECTOR_PRINTER_H_

#include <string>

#include "vector_file.h"

namespace nicc_fuzz {

// Every field of v, one line each, in an order the parser accepts: header,
// algo, name, profile, seed, params, bounds, tolerances, expect-status, the
// events with their hops and expectations (each with its comparison written
// out, so that no tolerance line changes its meaning), end.
std::string PrintVector(const nicc_vectors::VectorFile& v);

// Whether a and b hold the same vector (line numbers and path aside; a
// tolerance's rel/abs only where it compares with one). On a difference,
// *what names the first differing field.
bool SameVector(const nicc_vectors::VectorFile& a, const nicc_vectors::VectorFile& b,
                std::string* what);

}  // namespace nicc_fuzz

#endif  // NICC_FUZZ_VECTOR_PRINTER_H_
