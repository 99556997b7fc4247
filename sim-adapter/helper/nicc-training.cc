/*
 * nicc-training.cc — NiccTrainingRun (keys -> timeline -> ring all-reduces
 * on the fabric) and its output files (see the header).
 */
#include "nicc-training.h"

#include "nicc-scenario.h"

#include "ns3/simulator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{

const std::vector<NiccTrainingPreset>&
NiccTrainingPresets()
{
    // ResNet-50: 25.6 M parameters (He et al. 2016). One A100 80GB trains
    // ResNet-50 v1.5 at 2470 img/s with mixed precision, batch 256 per GPU
    // (NVIDIA DeepLearningExamples, PyTorch, DGX A100 table): 256 / 2470 s
    // = 103.644 ms per iteration = F + B + O. O: an SGD-momentum step reads
    // and writes about 14 bytes per parameter (fp32 weight, momentum,
    // gradient), 25.6 M x 14 B = 358 MB at ~1.5 TB/s of HBM: ~0.3 ms (an
    // estimate, not a measurement). F : B = 1 : 2 (no published split).
    static const std::vector<NiccTrainingPreset> rows = {
        {"resnet50", 25.6e6, 34448.0, 68896.0, 300.0,
         "ResNet-50 v1.5, 25.6 M parameters; 1x A100 80GB, batch 256, mixed precision, 2470 img/s "
         "(NVIDIA DeepLearningExamples) = 103.644 ms per iteration; O = 0.3 ms (estimate), F : B = 1 : 2"},
    };
    return rows;
}

namespace
{

/// `text` is one number and nothing else.
bool
OnlyNumber(const std::string& text, double* out)
{
    try
    {
        size_t used = 0;
        *out = std::stod(text, &used);
        return used == text.size();
    }
    catch (const std::exception&)
    {
        return false;
    }
}

} // namespace

bool
NiccReadTrainingLayers(const std::string& path, std::vector<NiccTrainingLayer>* out, std::string* error)
{
    std::ifstream in(path);
    if (!in)
    {
        *error = path + ": cannot open the layer profile";
        return false;
    }
    out->clear();
    std::string line;
    uint32_t lineNo = 0;
    bool header = false;
    while (std::getline(in, line))
    {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#')
        {
            continue;
        }
        const std::string where = path + ":" + std::to_string(lineNo) + ": ";
        if (!header)
        {
            if (line != "bytes,backward_us")
            {
                *error = where + "expected the header 'bytes,backward_us'";
                return false;
            }
            header = true;
            continue;
        }
        std::istringstream ls(line);
        std::string a;
        std::string b;
        std::string rest;
        double bytes = 0;
        double us = 0;
        const bool ok = std::getline(ls, a, ',') && std::getline(ls, b, ',') &&
                        !std::getline(ls, rest, ',') && OnlyNumber(a, &bytes) && OnlyNumber(b, &us);
        if (!ok || bytes < 1 || bytes > 1e12 || bytes != std::floor(bytes) || !(us >= 0) || us > 1e9)
        {
            *error = where + "expected 'bytes,backward_us' (bytes an integer in [1, 1e12], backward_us in [0, 1e9])";
            return false;
        }
        out->push_back({static_cast<uint64_t>(bytes), std::llround(us * 1e3)});
    }
    if (out->empty())
    {
        *error = path + ": no layers (a header 'bytes,backward_us' and one line per layer)";
        return false;
    }
    return true;
}

namespace
{

double
Num(const NiccScenario& s, const char* key)
{
    return std::stod(s.Get(key));
}

} // namespace

bool
NiccTrainingRun::SetUp(const NiccScenario& s,
                       NiccWorkload* work,
                       uint32_t groups,
                       uint32_t groupSize,
                       std::string* error)
{
    const std::string mode = s.Get("training");
    m_on = mode != "off";
    if (!m_on)
    {
        return true;
    }
    if (Num(s, "mpi_ranks") > 0)
    {
        *error = "key 'training': not with mpi_ranks (a rank sees only its own flows end)";
        return false;
    }
    m_work = work;
    const NiccTrainingPreset* preset = nullptr;
    for (const auto& p : NiccTrainingPresets())
    {
        preset = mode == p.name ? &p : preset;
    }
    // A time or size key: its value, else (-1) the preset's; custom needs it.
    auto pick = [&](const char* key, double presetValue, double* out) {
        const double v = Num(s, key);
        if (v >= 0)
        {
            *out = v;
            return true;
        }
        if (preset == nullptr)
        {
            *error = std::string("key '") + key + "': required with training=custom (-1 = a preset's value)";
            return false;
        }
        *out = presetValue;
        return true;
    };
    const double bytesPerParam = s.Get("training_precision") == "fp32" ? 4.0 : 2.0;
    NiccTrainingSpec spec;
    const std::string layersFile = s.Get("training_layers_file");
    if (!layersFile.empty() && !NiccReadTrainingLayers(layersFile, &spec.layers, error))
    {
        *error = "key 'training_layers_file': " + *error;
        return false;
    }
    // With a profile, its layers give the gradient bytes and backward time.
    const bool layers = !spec.layers.empty();
    double fwd = 0;
    double bwd = 0;
    double opt = 0;
    double grad = 0;
    if (!pick("training_forward_us", preset ? preset->forwardUs : 0, &fwd) ||
        (!layers && !pick("training_backward_us", preset ? preset->backwardUs : 0, &bwd)) ||
        !pick("training_optimizer_us", preset ? preset->optimizerUs : 0, &opt) ||
        (!layers && !pick("training_grad_bytes", preset ? preset->params * bytesPerParam : 0, &grad)))
    {
        return false;
    }
    spec.iterations = static_cast<uint32_t>(Num(s, "training_iterations"));
    spec.forwardNs = std::llround(fwd * 1e3);
    spec.backwardNs = std::llround(bwd * 1e3);
    spec.optimizerNs = std::llround(opt * 1e3);
    spec.gradBytes = static_cast<uint64_t>(std::llround(grad));
    if (layers)
    {
        // Reported as run (the timeline takes them from the layers).
        spec.backwardNs = 0;
        spec.gradBytes = 0;
        for (const NiccTrainingLayer& l : spec.layers)
        {
            spec.backwardNs += l.backwardNs;
            spec.gradBytes += l.bytes;
        }
    }
    spec.bucketCapBytes = static_cast<uint64_t>(std::llround(Num(s, "training_bucket_mb") * 1048576.0));
    spec.firstBucketCapBytes = static_cast<uint64_t>(std::llround(Num(s, "training_first_bucket_mb") * 1048576.0));
    if (!m_timeline.Init(spec, error))
    {
        *error = "keys 'training_*': " + *error;
        return false;
    }

    // Ranks: the allreduce_ring layout over every host, or its first
    // training_ranks ranks (one-ring layouts only).
    const std::string layout = s.Get("allreduce_ring");
    m_rings = NiccAllReduceRings(layout, groups, groupSize);
    const uint32_t hosts = groups * groupSize;
    const uint32_t ranks = static_cast<uint32_t>(Num(s, "training_ranks"));
    if (ranks != 0 && ranks != hosts)
    {
        if (m_rings.size() != 1 || ranks > hosts || ranks < 2)
        {
            *error = "key 'training_ranks': " + std::to_string(ranks) + " of " + std::to_string(hosts) +
                     " hosts: a subset needs a one-ring allreduce_ring (interleaved or sequential) and "
                     "2 <= ranks <= hosts";
            return false;
        }
        m_rings[0].resize(ranks);
    }
    for (const auto& r : m_rings)
    {
        if (r.size() < 2)
        {
            *error = "key 'allreduce_ring': " + layout + " gives rings of " + std::to_string(r.size()) +
                     " rank(s) here; training needs at least 2 per ring (more servers, leaves or ToRs)";
            return false;
        }
    }
    m_info.on = true;
    m_info.preset = preset ? preset->name : "custom";
    m_info.source = preset ? preset->source : "";
    m_info.ringLayout = layout;
    m_info.algo = s.Get("allreduce_algo");
    m_info.relay = s.Get("allreduce_relay");
    m_tree = m_info.algo == "tree";
    m_chunks = static_cast<uint32_t>(Num(s, "allreduce_chunks"));
    m_info.rings = static_cast<uint32_t>(m_rings.size());
    m_info.ranks = static_cast<uint32_t>(m_rings.size() * m_rings[0].size());
    m_info.iterationsPlanned = spec.iterations;
    m_info.spec = spec;
    m_info.computeNs = m_timeline.ComputeNs();
    m_info.buckets = m_timeline.Buckets();

    m_work->HoldCollectives(true);
    m_timeline.Start(std::llround(Num(s, "training_start_us") * 1e3));
    Next();
    return true;
}

void
NiccTrainingRun::Next()
{
    NiccTrainingRequest rq;
    if (!m_timeline.Pending(&rq))
    {
        m_work->HoldCollectives(!m_timeline.Finished());
        return;
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const std::string name = "train_i" + std::to_string(rq.iteration) + "_b" + std::to_string(rq.bucket);
    const Time delay = NanoSeconds(std::max<int64_t>(0, rq.startNs - now));
    if (m_tree)
    {
        m_work->StartTreeAllReduce(m_rings, rq.bytes, m_chunks, delay, name, [this]() { AllReduceDone(); });
    }
    else
    {
        m_work->StartRingAllReduce(m_rings, rq.bytes, delay, name, [this]() { AllReduceDone(); });
    }
}

void
NiccTrainingRun::AllReduceDone()
{
    m_timeline.Done(Simulator::Now().GetNanoSeconds());
    Next();
}

void
NiccTrainingRun::Collect(NiccTrainingResult* r) const
{
    *r = m_info;
    if (!m_on)
    {
        return;
    }
    r->iterations = m_timeline.Iterations();
    r->summary = m_timeline.Summary();
}

/// training.csv, training_buckets.csv and summary.json "training" (called
/// by NiccWriteScenarioOutputs; nothing with training=off).
bool
NiccWriteTrainingOutputs(const NiccTrainingResult& r, const std::filesystem::path& dir, nlohmann::json* j)
{
    if (!r.on)
    {
        return true;
    }
    std::ofstream it(dir / "training.csv");
    it << "iteration,start_ns,compute_end_ns,last_allreduce_end_ns,end_ns,iteration_us,compute_us,"
          "exposed_comm_us,iterations_per_s\n";
    std::ofstream bk(dir / "training_buckets.csv");
    bk << "iteration,bucket,bytes,ready_ns,start_ns,end_ns,allreduce_us\n";
    for (const NiccTrainingIteration& i : r.iterations)
    {
        for (const NiccTrainingAllReduce& a : i.allReduces)
        {
            bk << i.index << ',' << a.bucket << ',' << a.bytes << ',' << a.readyNs << ',' << a.startNs << ',';
            if (a.endNs >= 0)
            {
                bk << a.endNs << ',' << static_cast<double>(a.endNs - a.startNs) / 1e3;
            }
            else
            {
                bk << ','; // still running when the run stopped
            }
            bk << '\n';
        }
        if (!i.Done())
        {
            continue; // training.csv: finished iterations only
        }
        it << i.index << ',' << i.startNs << ',' << i.computeEndNs << ',' << i.lastAllReduceEndNs << ','
           << i.endNs << ',' << static_cast<double>(i.DurationNs()) / 1e3 << ','
           << static_cast<double>(r.computeNs) / 1e3 << ',' << static_cast<double>(i.ExposedNs(r.computeNs)) / 1e3
           << ',' << 1e9 / static_cast<double>(i.DurationNs()) << '\n';
    }
    std::vector<uint64_t> bucketBytes;
    for (const auto& b : r.buckets)
    {
        bucketBytes.push_back(b.bytes);
    }
    (*j)["training"] = {
        {"preset", r.preset},
        {"source", r.source},
        {"ranks", r.ranks},
        {"rings", r.rings},
        {"ring_layout", r.ringLayout},
        {"allreduce_algo", r.algo},
        {"allreduce_relay", r.relay},
        {"iterations_planned", r.iterationsPlanned},
        {"iterations_done", r.summary.iterationsDone},
        {"forward_us", static_cast<double>(r.spec.forwardNs) / 1e3},
        {"backward_us", static_cast<double>(r.spec.backwardNs) / 1e3},
        {"optimizer_us", static_cast<double>(r.spec.optimizerNs) / 1e3},
        {"compute_us", static_cast<double>(r.computeNs) / 1e3},
        {"grad_bytes", r.spec.gradBytes},
        {"bucket_bytes", bucketBytes},
        {"mean_iteration_us", r.summary.meanIterationNs / 1e3},
        {"iterations_per_s", r.summary.iterationsPerSecond},
        {"mean_exposed_comm_us", r.summary.meanExposedNs / 1e3},
        {"exposed_comm_share", r.summary.exposedShare},
        {"meaning",
         "iteration = forward + backward (bucket all-reduces overlap it, one at a time) + optimizer after "
         "the last all-reduce; exposed comm = iteration time - (forward + backward + optimizer); means "
         "over the finished iterations"}};
    return static_cast<bool>(it) && static_cast<bool>(bk);
}

} // namespace ns3
