// c_lexer.h — a small well-formedness check of the C the vector emitter
// writes (testvectors/runner/emit_c.*), without compiling it: every token is
// one the emitter means to write, string literals and comments end, brackets
// balance. The vectors fuzz target runs it on every emitted file.
//
//   std::string why;
//   if (!nicc_fuzz::CheckEmittedC(c_source, &why)) report(why);
#ifndef NICC_FUZZ_C_LEXER_H_
#define NICC_FUZZ_C_LEXER_H_

#include <string>

namespace nicc_fuzz {

// Tokens accepted: identifiers (not starting with a digit), decimal
// integers with an optional 'u' suffix (a leading '-' is punctuation), string
// literals of printable ASCII with only \\, \", \? and three-digit octal
// escapes and no "??" (a trigraph under -std=c99), block comments,
// the preprocessor lines `#include "..."` and `#define`, and the punctuation
// { } ( ) [ ] , ; = * & - > . / and whitespace. Brackets must balance and
// nest. False with the first problem and its byte offset in *why.
bool CheckEmittedC(const std::string& c, std::string* why);

}  // namespace nicc_fuzz

#endif  // NICC_FUZZ_C_LEXER_H_
