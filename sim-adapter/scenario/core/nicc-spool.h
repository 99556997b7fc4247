/*
 * nicc-spool.h — the output files a run writes while it runs (series
 * streamed as sampled: queues.csv, pfc.csv, link_util.csv, the HPCC qlen
 * dumps), so that a run's memory does not grow with simulated time
 * (docs/scale.md "Streaming statistics").
 *
 * The files are written into a spool directory: the one nicc-sim names
 * (inside the output directory, so that moving them is a rename), else a
 * private temporary directory, removed with the spool. After the run,
 * NiccWriteScenarioOutputs moves each file to its place.
 *
 *   auto spool = std::make_shared<NiccSpool>("");   // a temporary directory
 *   std::ofstream* q = spool->Open("queues.csv", &error);
 *   *q << "time_ns,switch,port,queue_bytes\n";
 *   ...
 *   spool->Deliver("queues.csv", outDir / "queues.csv", &error);
 */
#ifndef NICC_SPOOL_H
#define NICC_SPOOL_H

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

namespace ns3
{

class NiccSpool
{
  public:
    /// dir: the spool directory (created if missing); empty: a new private
    /// directory under the system's temporary directory.
    explicit NiccSpool(const std::filesystem::path& dir);
    ~NiccSpool();
    NiccSpool(const NiccSpool&) = delete;
    NiccSpool& operator=(const NiccSpool&) = delete;

    /// A new file `name` in the spool (truncated), open for writing; nullptr
    /// with the path in *error if it cannot be created.
    std::ofstream* Open(const std::string& name, std::string* error);
    /// The stream of a file opened before, else nullptr.
    std::ofstream* Get(const std::string& name);
    /// Where file `name` is (or would be) in the spool.
    std::filesystem::path Path(const std::string& name) const;
    /// Flush and close every open file (after the run).
    bool CloseAll(std::string* error);
    /// Move file `name` (closed) to `to`: a rename when on the same file
    /// system, else a copy. False with both paths in *error.
    bool Deliver(const std::string& name, const std::filesystem::path& to, std::string* error);
    /// Was file `name` opened in this spool?
    bool Has(const std::string& name) const { return m_files.count(name) > 0; }

  private:
    std::filesystem::path m_dir;
    bool m_own{false}; ///< a private directory: removed with the spool
    std::map<std::string, std::unique_ptr<std::ofstream>> m_files;
    std::map<std::string, std::filesystem::path> m_delivered; ///< where each delivered file went
};

} // namespace ns3

#endif // NICC_SPOOL_H
