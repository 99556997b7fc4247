/*
 * nicc-mpi.h — what the nicc fabric needs from ns-3's MPI module, in one
 * place, so that the model builds the same against Debian's ns-3 (no MPI)
 * and against the MPI flavour (scripts/build-ns3-mpi.sh; docs/scale.md,
 * "One simulation across ranks").
 *
 * Without MPI (NICC_NS3_MPI undefined) Built() is false, Start() refuses with
 * a message naming the build script, and everything else behaves as a
 * single rank: Rank() 0, Size() 1, the collectives leave their input as is.
 *
 * With MPI: Start() initialises MPI through ns3::MpiInterface with the
 * granted-time-window distributed simulator (ns3::DistributedSimulatorImpl),
 * Send() hands a frame to the rank that owns its receiving node, Listen()
 * aggregates an ns3::MpiReceiver to a device, and the collectives reduce a
 * run's figures onto rank 0 after Simulator::Run().
 */
#ifndef NICC_MPI_H
#define NICC_MPI_H

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief MPI glue of the nicc fabric (a no-op single rank without MPI).
 */
class NiccMpi
{
  public:
    /// The build has ns-3's MPI module.
    static bool Built();
    /// Initialise MPI (once per process) with the distributed simulator and
    /// check that the world has `ranks` processes. Call before any other
    /// use of the simulator. False with a message on a mismatch or without
    /// MPI in the build.
    static bool Start(uint32_t ranks, std::string* error);
    /// Start() succeeded and Finish() was not called yet.
    static bool Active();
    static uint32_t Rank();
    static uint32_t Size();
    /// Finalise MPI if Start() initialised it (end of the process).
    static void Finish();

    /// Deliver `p` at rxTime to device ifIndex of node `node` on its rank.
    static void Send(Ptr<Packet> p, Time rxTime, uint32_t node, uint32_t ifIndex);
    /// Bound the distributed simulator's lookahead (the granted time window)
    /// to `t`, before Simulator::Run(). No-op without MPI.
    static void BoundLookAhead(Time t);
    /// Frames sent to `dev` from other ranks go to `cb` at their rxTime.
    static void Listen(Ptr<NetDevice> dev, Callback<void, Ptr<Packet>> cb);
    /// The dynamic type of the event ns-3 schedules for a frame from another
    /// rank (NiccOrderedScheduler runs it first); nullptr without MPI.
    static const std::type_info* DeliveryEventType();

    /// Element-wise sum / maximum over the ranks, the result on rank 0
    /// (every rank passes a vector of the same length).
    static void SumToRoot(std::vector<uint64_t>* v);
    static void MaxToRoot(std::vector<uint64_t>* v);
    /// Every rank's bytes, concatenated in rank order, on rank 0 (other ranks
    /// get an empty vector).
    static std::vector<uint8_t> GatherToRoot(const std::vector<uint8_t>& mine);
    /// Notices between ranks (not frames; NiccNoticeEvent): each rank
    /// listens on one device of its own, the first device among `nodes`'
    /// devices whose channel stays on that rank (so no frame from another
    /// rank arrives there); every rank works out every rank's from the
    /// SystemIds alone. `cb` gets each notice another rank posts, at its
    /// time. False with a message when a rank has no such device.
    static bool OpenMailboxes(const std::vector<Ptr<Node>>& nodes,
                              Callback<void, Ptr<Packet>> cb,
                              std::string* error);
    /// `p` to every other rank's mailbox, delivered at rxTime (which must
    /// lie beyond the time window: at least the lookahead plus 1 ns ahead).
    static void Post(Ptr<Packet> p, Time rxTime);
    /// Element-wise sum over the ranks, the result on every rank.
    static void SumAll(std::vector<uint64_t>* v);
    //
    // Inside a simulation event: the collectives above may also run in an
    // event, when every rank runs one at the same simulated time (a sampler
    // or check scheduled at the same times everywhere). The granted time
    // window lets each rank reach that time without messages from the
    // others, so none waits for a frame a blocked rank would send; each
    // rank's figures are those of that exact time, as in one process.
};

} // namespace ns3

#endif // NICC_MPI_H
