/*
 * nicc-hpcc-config-map.h — private to nicc-hpcc-config*.cc: the state the
 * HPCC config mapping shares while it maps one file, the value readers and
 * the per-key mapping functions (nicc-hpcc-config-map.cc; the congestion-
 * control keys in nicc-hpcc-config-cc.cc, those that read the topology in
 * nicc-hpcc-config-topo.cc) that the row table (nicc-hpcc-config.cc)
 * points at. Every reader and mapper returns
 * false with the reason in *why; the caller prefixes "file:line: KEY: ".
 */
#ifndef NICC_HPCC_CONFIG_MAP_H
#define NICC_HPCC_CONFIG_MAP_H

#include "nicc-hpcc-config.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace hpcc_config
{

/// One KEY line of the config.
struct Line
{
    std::string key;
    std::vector<std::string> args;
    uint32_t line{0};
};

/// What the mapping functions share while a config is mapped.
struct Ctx
{
    const std::string* source;
    const std::string* baseDir;
    std::map<std::string, Line> lines; ///< by key; the last of a repeated key wins (as in the simulator)
    NiccHpccConfig* out;
    std::string topologyPath; ///< resolved TOPOLOGY_FILE
    uint32_t payload{1000};   ///< PACKET_PAYLOAD_SIZE (the simulator's default)
    bool trace{true};         ///< ENABLE_TRACE (default 1)
    double baseRttNs{0};      ///< HPCC's T (GLOBAL_T), once computed
    /// KMIN_MAP / KMAX_MAP / PMAX_MAP as parsed: rate (bit/s) -> value, and the line.
    std::map<uint64_t, std::string> ecn[3];
    const Line* ecnLine[3]{nullptr, nullptr, nullptr};

    std::string Where(const Line& l) const { return *source + ":" + std::to_string(l.line) + ": " + l.key; }
    void Set(const std::string& key, const std::string& value) { out->keys.emplace_back(key, value); }
    void Note(const Line& l, const std::string& text) { out->notes.push_back(Where(l) + ": " + text); }
    const Line* Get(const char* key) const
    {
        auto it = lines.find(key);
        return it == lines.end() ? nullptr : &it->second;
    }
};

using MapFn = bool (*)(const Line& l, Ctx* c, std::string* why);

bool Flag(const Line& l, bool* v, std::string* why);
/// A flag that must be `want`: any other value is refused with `refusal`.
bool FlagMust(const Line& l, bool want, const char* refusal, std::string* why);
bool Number(const std::string& a, double lo, double hi, double* v, std::string* why);
bool Whole(const std::string& a, double lo, double hi, uint64_t* v, std::string* why);
bool RateMbps(const Line& l, std::string* value, std::string* why);
std::string Fmt(double v);
std::string Resolve(const Ctx& c, const std::string& p, bool mustExist);
bool InputFile(const Line& l, Ctx* c, std::string* resolved, std::string* why);
bool SetFlag(const char* target, const Line& l, Ctx* c, std::string* why);
bool RateMap(const Line& l, std::map<uint64_t, std::string>* spec, bool probability, std::string* why);
bool MapCcMode(const Line& l, Ctx* c, std::string* why);
bool Hpcc(const Ctx& c);
bool MapTopology(const Line& l, Ctx* c, std::string* why);
bool MapFlowFile(const Line& l, Ctx* c, std::string* why);
bool MapPayload(const Line& l, Ctx* c, std::string* why);
bool MapEwmaGain(const Line& l, Ctx* c, std::string* why);
bool HpccWindowBytes(const Line& l, const Ctx& c, std::string* bytes, std::string* why);
bool MapRateAi(const Line& l, Ctx* c, std::string* why);
bool MapMinRate(const Line& l, Ctx* c, std::string* why);
bool MapPint(const Line& l, Ctx* c, std::string* why);
bool MapErrorRate(const Line& l, Ctx*, std::string* why);
bool MapAckInterval(const Line& l, Ctx* c, std::string* why);
bool HpccMust(const Line& l, Ctx* c, bool want, const char* refusal, std::string* why);
bool MapHasWin(const Line& l, Ctx* c, std::string* why);
bool MapVarWin(const Line& l, Ctx* c, std::string* why);
bool MapFastReact(const Line& l, Ctx* c, std::string* why);
bool MapMultiRate(const Line& l, Ctx* c, std::string* why);
bool MapSampleFeedback(const Line& l, Ctx* c, std::string* why);
bool MapRateBound(const Line& l, Ctx*, std::string* why);
bool MapBackToZero(const Line& l, Ctx* c, std::string* why);
/// NiccHpccPairs of TOPOLOGY_FILE with the config's payload.
bool HpccPairs(const Ctx& c, std::vector<std::vector<NiccHpccPair>>* pairs, std::string* why);
/// The flag of `key`'s line as given (a later row may read an earlier
/// one's), `absent` when the key is absent or its value is no flag.
bool LineFlag(const Ctx& c, const char* key, bool absent);
bool MapGlobalT(const Line& l, Ctx* c, std::string* why);
bool MapLinkDown(const Line& l, Ctx*, std::string* why);
bool MapEnableTrace(const Line& l, Ctx* c, std::string* why);
bool MapTraceFile(const Line& l, Ctx* c, std::string* why);
bool MapOutputFile(std::string NiccHpccConfig::*field, const Line& l, Ctx* c, std::string* why);
bool MapFctOut(const Line& l, Ctx* c, std::string* why);
bool MapPfcOut(const Line& l, Ctx* c, std::string* why);
bool MapQlenOut(const Line& l, Ctx* c, std::string* why);
bool MapDynamicPfc(const Line& l, Ctx*, std::string* why);
bool MergeEcnMaps(Ctx* c, std::string* error);
bool SetAlphaReference(Ctx* c, std::string* error);

} // namespace hpcc_config
} // namespace ns3

#endif // NICC_HPCC_CONFIG_MAP_H
