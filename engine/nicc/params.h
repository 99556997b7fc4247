// nicc/params.h — the C++ view of param_tables.h: field descriptors, units,
// profile registries and the helpers every consumer iterates with.
//
// Freestanding (<stdint.h>/<stddef.h> via common.h). An algorithm header
// declares its Params struct and table with the NICC_DECLARE_* macros below,
// so the struct members, the table rows and the profiles come from one list.
//
//   const auto& t = nicc::dcqcn::kParamTable;
//   for (uint32_t i = 0; i < t.count; ++i)
//     printf("%s [%s] %u..%u\n", t.rows[i].name, UnitSymbol(t.rows[i].unit),
//            t.rows[i].min, t.rows[i].max);
//   nicc::dcqcn::Params p;
//   LoadProfile(t, /*profile=*/1, &p);           // "dcqcn-paper"
//   nicc::Status s = CheckRanges(t, p);          // names the first bad field
//
// Units: every field is a uint32_t in the unit its row names.
#ifndef NICC_PARAMS_H_
#define NICC_PARAMS_H_

#include "nicc/common.h"
#include "nicc/param_tables.h"

// Builds without docs strip the one-line docs from the tables (firmware
// images keep names, units and ranges only). Host builds keep them.
#ifndef NICC_PARAM_DOCS
#define NICC_PARAM_DOCS 1
#endif
#if NICC_PARAM_DOCS
#define NICC_PARAM_DOC(text) text
#else
#define NICC_PARAM_DOC(text) ""
#endif

#define NICC_EXPAND(...) __VA_ARGS__

namespace nicc {

static_assert(NICC_MAX_PERIOD_US == kTimeHorizonNs / 1000u, "param_tables.h horizon");
static_assert(NICC_TIME_HORIZON_NS == kTimeHorizonNs, "param_tables.h horizon");
static_assert(NICC_MAX_LINE_RATE_MBPS == kMaxLineRateKbps / kKbpsPerMbps, "param_tables.h line rate");

enum class Unit : uint8_t {
#define NICC_X(tok, sym, doc) k##tok,
  NICC_UNITS(NICC_X)
#undef NICC_X
};

constexpr const char* UnitSymbol(Unit u) {
  switch (u) {
#define NICC_X(tok, sym, doc) \
  case Unit::k##tok: return sym;
    NICC_UNITS(NICC_X)
#undef NICC_X
  }
  return "?";
}

constexpr const char* UnitMeaning(Unit u) {
  switch (u) {
#define NICC_X(tok, sym, doc) \
  case Unit::k##tok: return NICC_PARAM_DOC(doc);
    NICC_UNITS(NICC_X)
#undef NICC_X
  }
  return "?";
}

// Bits of ParamDesc::flags.
enum ParamFlag : uint8_t {
  kParamBackend = NICC_PARAM_BACKEND,  // the backend supplies it (port speed, flow label)
  kParamNicc = NICC_PARAM_NICC,        // nicc's own: no vendor (mlx5 cc_params) field
};

// Most profiles any one algorithm has; a row holds a value per profile.
constexpr uint32_t kMaxProfiles = 4;

template <class P>
struct ParamDesc {
  const char* name;  // snake_case; the mlx5 name where one exists
  uint32_t P::*member;
  Unit unit;
  uint8_t flags;  // ParamFlag bits
  uint32_t min;   // inclusive
  uint32_t max;   // inclusive
  uint32_t value[kMaxProfiles];  // per profile, in the registry's order
  const char* doc;

  constexpr bool backend() const { return (flags & kParamBackend) != 0; }
  constexpr bool nicc_only() const { return (flags & kParamNicc) != 0; }
};

struct ProfileDesc {
  const char* name;  // the one spelling: "mlx5", "dcqcn-paper", ...
  const char* doc;
};

// One algorithm's (or one spray group's) rows and profiles.
template <class P>
struct ParamTable {
  const char* algo;   // "dcqcn", "hpcc", "spray", "ecn_rule"
  const char* group;  // sub-group ("bitmap", "reps", ...) or "" for the whole algorithm
  const ParamDesc<P>* rows;
  uint32_t count;
  const ProfileDesc* profiles;
  uint32_t profile_count;
};

// A named value of an enumerated selector (cc kind, spray policy).
struct ChoiceDesc {
  const char* name;
  uint32_t code;
  const char* doc;
};

// DCQCN algorithm variants (NICC_DCQCN_VARIANTS), indexed by code.
constexpr ChoiceDesc kDcqcnVariants[] = {
#define NICC_X(tok, ctok, code, name, doc) {name, code, NICC_PARAM_DOC(doc)},
    NICC_DCQCN_VARIANTS(NICC_X)
#undef NICC_X
};
constexpr uint32_t kDcqcnVariantCount = sizeof(kDcqcnVariants) / sizeof(kDcqcnVariants[0]);

// A field whose unit is a choice code (UnitChoices() != nullptr) takes the
// names of that list wherever a person writes it (scenario keys, --help);
// vector files and the C ABI carry the code.
struct ChoiceSpan {
  const ChoiceDesc* list;
  uint32_t count;
};
constexpr ChoiceSpan UnitChoices(Unit u) {
  return u == Unit::kDcqcnVariant ? ChoiceSpan{kDcqcnVariants, kDcqcnVariantCount}
                                  : ChoiceSpan{nullptr, 0};
}

// ---------------------------------------------------------------------------
// Helpers over a table.
// ---------------------------------------------------------------------------

// Status of one value against its row: kZero below a non-zero minimum when
// the value is 0, kOutOfRange otherwise.
template <class P>
constexpr Status CheckRow(const ParamDesc<P>& row, uint32_t v) {
  if (v < row.min) return Status::Error(v == 0 ? StatusCode::kZero : StatusCode::kOutOfRange, row.name);
  if (v > row.max) return Status::Error(StatusCode::kOutOfRange, row.name);
  return Status::Ok();
}

// Checks every field's own range, in table order; the first bad one is named.
// Loop bound: the table's row count (a compile-time constant).
template <class P>
constexpr Status CheckRanges(const ParamTable<P>& t, const P& p) {
  for (uint32_t i = 0; i < t.count; ++i) {
    const Status st = CheckRow(t.rows[i], p.*(t.rows[i].member));
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

// Sets every field the table covers to its value under `profile`.
template <class P>
constexpr void LoadProfile(const ParamTable<P>& t, uint32_t profile, P* p) {
  for (uint32_t i = 0; i < t.count; ++i) (*p).*(t.rows[i].member) = t.rows[i].value[profile];
}

namespace detail {
// C-string equality without <string.h> (freestanding).
constexpr bool StrEq(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}
}  // namespace detail

// Index of the row called `name`, or -1.
template <class P>
constexpr int32_t FindParam(const ParamTable<P>& t, const char* name) {
  for (uint32_t i = 0; i < t.count; ++i)
    if (detail::StrEq(t.rows[i].name, name)) return static_cast<int32_t>(i);
  return -1;
}

// Index of the profile called `name`, or -1.
template <class P>
constexpr int32_t FindProfile(const ParamTable<P>& t, const char* name) {
  for (uint32_t i = 0; i < t.profile_count; ++i)
    if (detail::StrEq(t.profiles[i].name, name)) return static_cast<int32_t>(i);
  return -1;
}

// ---------------------------------------------------------------------------
// Status codes, from the one list.
// ---------------------------------------------------------------------------

constexpr ChoiceDesc kStatusCodes[] = {
#define NICC_X(tok, ctok, code, key, doc) {key, code, NICC_PARAM_DOC(doc)},
    NICC_STATUS_CODES(NICC_X)
#undef NICC_X
};
constexpr uint32_t kStatusCodeCount = sizeof(kStatusCodes) / sizeof(kStatusCodes[0]);

constexpr bool StatusCodesInOrder() {
  for (uint32_t i = 0; i < kStatusCodeCount; ++i)
    if (kStatusCodes[i].code != i) return false;
  return true;
}
static_assert(StatusCodesInOrder(), "NICC_STATUS_CODES lists codes 0..n-1 in order");

// Snake-case name of a status code ("out_of_range"): vector files, tools.
constexpr const char* StatusCodeKey(StatusCode c) {
  return static_cast<uint32_t>(c) < kStatusCodeCount ? kStatusCodes[static_cast<uint32_t>(c)].name : "?";
}

}  // namespace nicc

// ---------------------------------------------------------------------------
// Declaring an algorithm's Params from its list (used inside its namespace).
// ---------------------------------------------------------------------------

// uint32_t member per row: `NICC_PARAM_MEMBERS(NICC_DCQCN_PARAMS)`.
#define NICC_PARAM_MEMBER_(name, unit, min, max, values, flags, doc) uint32_t name;
#define NICC_PARAM_MEMBERS(LIST) LIST(NICC_PARAM_MEMBER_)

// Table rows for Params type P: `NICC_PARAM_ROWS(Params, NICC_DCQCN_PARAMS)`.
#define NICC_PARAM_ROW_(name, unit, min, max, values, flags, doc) \
  {#name, &NiccRowParams_::name, ::nicc::Unit::k##unit, flags, min, max, {NICC_EXPAND values}, NICC_PARAM_DOC(doc)},
#define NICC_PARAM_ROWS(LIST) LIST(NICC_PARAM_ROW_)

#define NICC_PROFILE_ROW_(tok, name, doc) {name, NICC_PARAM_DOC(doc)},
#define NICC_PROFILE_ENUM_(tok, name, doc) k##tok,

#endif  // NICC_PARAMS_H_
