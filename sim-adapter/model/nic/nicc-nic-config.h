/*
 * nicc-nic-config.h — the settings of a NiccNic: every Attribute's storage,
 * the Attribute list itself, and their compilation into the engine's
 * configuration (nicc::hal::DriverConfig).
 *
 * NiccNic::GetTypeId() adds these Attributes to ns3::NiccNic; the values
 * live in the NIC's NiccNicConfig member, which the sender, receiver and
 * scheduler read. Compile() runs once, at Install().
 *
 * Engine parameters are not listed by hand: every row of every parameter
 * table (nicc::host::ForEachTable, engine/nicc/param_tables.h) that is not
 * a backend row is one IntegerValue Attribute named
 * nicc::host::AttributeName(table, row) ("DcqcnRpTimeReset"), range
 * [-1, row max], -1 = the value of the selected profile (DcqcnProfile,
 * HpccProfile, EcnRuleProfile). Backend rows (line rate, flow label, base
 * port) come from the device and the node.
 *
 *   NiccNicConfig c;                       // Attribute defaults
 *   nicc::hal::DriverConfig drv;
 *   std::string err;
 *   if (!c.Compile(100000, nodeId, &drv, &err)) ...;   // err names the Attribute
 *
 * Units: as each Attribute says (the rows' units: us, ns, bytes, Mb/s, ...).
 */
#ifndef NICC_NIC_CONFIG_H
#define NICC_NIC_CONFIG_H

#include "ns3/nstime.h"
#include "ns3/object-base.h"
#include "ns3/type-id.h"

#include "nicc/hal/driver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief Attribute values of a NiccNic and their engine configuration.
 */
struct NiccNicConfig
{
    /// Loss recovery (the values of NiccNic::Recovery).
    enum Recovery : uint8_t
    {
        GO_BACK_N = 0,
        SELECTIVE_REPEAT = 1,
    };
    /// Selective-repeat placement window in packets.
    static constexpr uint32_t SR_WINDOW = 256;
    static constexpr uint8_t OP_LAST = 1;     ///< DATA opFlags: last packet of the message
    static constexpr uint8_t OP_ECN_ECHO = 1; ///< ACK opFlags: CE seen since the last ACK

    /// Adds every Attribute to `tid`; `of` finds the config of an object
    /// of that TypeId.
    static TypeId AddAttributes(TypeId tid, NiccNicConfig* (*of)(const ObjectBase*));

    /// Compiles the engine configuration for a port of `lineMbps` on node
    /// `node` (the spray flow label derives from it). On a bad value returns
    /// false with a message naming the Attribute or engine field.
    bool Compile(uint32_t lineMbps,
                 uint32_t node,
                 nicc::hal::DriverConfig* out,
                 std::string* error) const;

    NiccNicConfig();

    /// Engine parameter rows, in NiccNicConfig::ForEachRow order (every
    /// row of every table of nicc::host::ForEachTable, backend rows included).
    static uint32_t EngineRowCount();

    // Engine selection: names from nicc::hal::kCcKinds, nicc::spray::kPolicies
    // and each table's profiles.
    std::string ccName{"dcqcn"};
    std::string sprayName{"ecmp"};
    std::string dcqcnProfile{"mlx5"};
    std::string hpccProfile{"hpcc-paper"};
    std::string ecnRuleProfile{"ecn-off"};
    /// One value per engine parameter row; -1 = the profile's value.
    std::vector<int64_t> engine;

    // NIC.
    uint32_t ackInterval{1};
    uint8_t recovery{GO_BACK_N};
    Time rto{MilliSeconds(4)};
    uint8_t dataPriority{1};
    bool ect{true};
    uint8_t intMultLog2{0};
    uint32_t payloadSize{0};
    bool intProbeSinglePath{false};
    uint32_t srNackThreshold{1};
    bool ackHighPriority{true};
    /// DCQCN: the congestion signal rides on the ACK/NACK of a CE-marked
    /// packet (its ECN-echo bit) instead of a CNP packet (the HPCC simulator).
    bool cnpOnAck{false};
    /// Selective repeat: NACKs carry a 64-bit SACK bitmap and the sender
    /// resends every hole it shows (docs/sim-nic.md, "Trimming and SACK").
    bool sack{false};
    /// DCQCN: bytes in flight allowed per QP on top of its rate (the HPCC
    /// simulator's HAS_WIN window, a BDP); 0 = none. NiccNic::SetDcqcnWindow
    /// gives a destination its own.
    uint32_t dcqcnWindowBytes{0};
    /// DCQCN window scaled by the QP's rate over the line rate (VAR_WIN).
    bool dcqcnVarWindow{false};
};

} // namespace ns3

#endif // NICC_NIC_CONFIG_H
