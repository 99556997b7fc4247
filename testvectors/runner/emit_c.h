// emit_c.h — turns parsed vectors into C source for nicc/fw_vector.h: the
// parameters as a function, INT stacks as byte arrays, one step per event
// with its expectations (fields the C API can observe); a parameter-error
// vector as the status and field nicc_fw_configure must return.
#ifndef NICC_TESTVECTORS_EMIT_C_H_
#define NICC_TESTVECTORS_EMIT_C_H_

#include <string>
#include <vector>

#include "vector_file.h"

namespace nicc_vectors {

// Fills *out with C source defining `nicc_vec`; false with *why otherwise.
bool EmitC(const VectorFile& v, std::string* out, std::string* why);

// Several vectors in one translation unit: each as `<name>_vec`, then
// `nicc_vecs[]` (pointers, in the given order) and NICC_VEC_COUNT.
bool EmitCSuite(const std::vector<VectorFile>& vs, std::string* out, std::string* why);

}  // namespace nicc_vectors

#endif  // NICC_TESTVECTORS_EMIT_C_H_
