// emit_c.h — turns a parsed vector into C source for nicc/fw_vector.h: the
// parameters as a function, INT stacks as byte arrays, one step per event
// with its expectations (fields the C API can observe).
#ifndef NICC_TESTVECTORS_EMIT_C_H_
#define NICC_TESTVECTORS_EMIT_C_H_

#include <string>

#include "vector_file.h"

namespace nicc_vectors {

// Fills *out with C source defining `nicc_vec`; false with *why otherwise.
bool EmitC(const VectorFile& v, std::string* out, std::string* why);

}  // namespace nicc_vectors

#endif  // NICC_TESTVECTORS_EMIT_C_H_
