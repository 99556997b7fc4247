/*
 * nicc-training.cc — NiccTrainingRun (keys -> timeline -> ring all-reduces
 * on the fabric); its output files are the training part's
 * (nicc-part-training.cc).
 */
#include "nicc-training.h"

#include "nicc-scenario.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
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
    //
    // GPT 18.4B: Narayanan et al., "Efficient Large-Scale Language Model
    // Training on GPU Clusters Using Megatron-LM", SC'21, Table 1: 40
    // layers, hidden 6144, 48 heads, tensor-parallel 8, pipeline 1, 256
    // A100s, batch 1024, 135 TFLOP/s per GPU (43% of 312); sequence 2048,
    // vocabulary 51200. Times, bytes and the optimizer estimate:
    // NiccTransformerSpec. params / F / B / O here are the whole model at
    // t = 8, b = 1 (docs/training.md), for reference.
    static const std::vector<NiccTrainingPreset> rows = {
        {"resnet50", 25.6e6, 34448.0, 68896.0, 300.0,
         "ResNet-50 v1.5, 25.6 M parameters; 1x A100 80GB, batch 256, mixed precision, 2470 img/s "
         "(NVIDIA DeepLearningExamples) = 103.644 ms per iteration; O = 0.3 ms (estimate), F : B = 1 : 2"},
        {"gpt-18.4b", 18.4e9, 0.0, 0.0, 0.0,
         "GPT 18.4B (Narayanan et al. SC'21, Table 1): 40 layers, h 6144, s 2048, V 51200, TP 8, "
         "135 TFLOP/s per A100; per layer 96 b s h^2 (1 + s/6h + V/16lh) / t FLOPs, 1/4 forward; "
         "2 + 4 TP all-reduces of b s h fp16 per layer (forward, backward with recomputation)",
         40, 6144.0, 2048.0, 51200.0, 135.0, 8, 1.0},
    };
    return rows;
}

void
NiccTransformerSpec(const NiccTrainingPreset& p,
                    uint32_t tp,
                    uint32_t layers,
                    double microBatch,
                    double gradBytes,
                    NiccTrainingSpec* spec)
{
    const double h = p.hidden;
    const double sq = p.seqLen;
    const double t = tp;
    // Model FLOPs of one layer for one micro-batch on one GPU (forward,
    // backward and the recomputed forward: 96 = 4 x 24).
    const double flops = 96.0 * microBatch * sq * h * h * (1.0 + sq / (6.0 * h) + p.vocab / (16.0 * p.layers * h)) / t;
    const double layerNs = flops / (p.tflops * 1e12) * 1e9;
    const int64_t fwdNs = std::llround(layerNs / 4.0);
    const int64_t bwdNs = std::llround(layerNs * 3.0 / 4.0);
    const double layerParams = (12.0 * h * h + 13.0 * h) / t;
    const double embParams = p.vocab * h / t + sq * h;
    spec->forwardNs = fwdNs * layers;
    spec->layers.assign(layers, {static_cast<uint64_t>(std::llround(layerParams * gradBytes)), bwdNs});
    // The embeddings' gradients come last in backward (the first layer).
    spec->layers.back().bytes += static_cast<uint64_t>(std::llround(embParams * gradBytes));
    // Adam with fp32 state: weight, m, v read and written (24 B), the
    // gradient read and the fp16 weight written (2 + 2 B), at A100 40GB's
    // 1555 GB/s of HBM (an estimate, not a measurement).
    const double params = layerParams * layers + embParams;
    spec->optimizerNs = std::llround(params * 28.0 / 1555e9 * 1e9);
    // TP: forward 2 all-reduces of b s h fp16 activations per layer,
    // backward 2 + the 2 of the recomputed forward.
    const double act = microBatch * sq * h * 2.0;
    spec->tpForwardBytes = tp > 1 ? static_cast<uint64_t>(std::llround(2.0 * act)) : 0;
    spec->tpBackwardBytes = tp > 1 ? static_cast<uint64_t>(std::llround(4.0 * act)) : 0;
    spec->backwardNs = bwdNs * layers;
    spec->gradBytes = 0;
    for (const NiccTrainingLayer& l : spec->layers)
    {
        spec->gradBytes += l.bytes;
    }
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

// Transformer presets: the layer stack from the preset (training_tp,
// training_model_layers, training_micro_batch), times set by keys replacing
// the preset's (backward split evenly).
bool
TransformerSpec(const NiccScenario& s,
                const NiccTrainingPreset& preset,
                uint32_t tp,
                double bytesPerParam,
                NiccTrainingSpec* spec,
                std::string* error)
{
    const double modelLayersKey = Num(s, "training_model_layers");
    const double layers = modelLayersKey >= 0 ? modelLayersKey : preset.layers;
    const double b = Num(s, "training_micro_batch") > 0 ? Num(s, "training_micro_batch") : preset.microBatch;
    if (layers < 1)
    {
        *error = "key 'training_model_layers': training=" + s.Get("training") + " needs at least 1 layer";
        return false;
    }
    NiccTransformerSpec(preset, tp, static_cast<uint32_t>(layers), b, bytesPerParam, spec);
    if (Num(s, "training_forward_us") >= 0)
    {
        spec->forwardNs = std::llround(Num(s, "training_forward_us") * 1e3);
    }
    if (Num(s, "training_optimizer_us") >= 0)
    {
        spec->optimizerNs = std::llround(Num(s, "training_optimizer_us") * 1e3);
    }
    if (Num(s, "training_backward_us") >= 0)
    {
        const int64_t all = std::llround(Num(s, "training_backward_us") * 1e3);
        const int64_t n = static_cast<int64_t>(spec->layers.size());
        for (int64_t k = 0; k < n; ++k)
        {
            spec->layers[k].backwardNs = all * (k + 1) / n - all * k / n;
        }
        spec->backwardNs = all;
    }
    return true;
}

// training_model_layers = L equal layers: bytes and backward time split evenly.
bool
EqualLayers(const NiccScenario& s, NiccTrainingSpec* spec, std::string* error)
{
    const double modelLayersKey = Num(s, "training_model_layers");
    if (modelLayersKey <= 0)
    {
        return true;
    }
    if (!spec->layers.empty())
    {
        *error = "key 'training_model_layers': not with training_layers_file (the file gives the layers)";
        return false;
    }
    const uint64_t n = static_cast<uint64_t>(modelLayersKey);
    if (n > spec->gradBytes)
    {
        *error = "key 'training_model_layers': more layers than gradient bytes";
        return false;
    }
    for (uint64_t k = 0; k < n; ++k)
    {
        const uint64_t bytes = spec->gradBytes * (k + 1) / n - spec->gradBytes * k / n;
        const int64_t ns = spec->backwardNs * static_cast<int64_t>(k + 1) / static_cast<int64_t>(n) -
                           spec->backwardNs * static_cast<int64_t>(k) / static_cast<int64_t>(n);
        spec->layers.push_back({bytes, ns});
    }
    return true;
}

// A preset's times and gradient bytes or custom ones from the keys (each
// time or size key: its value, else (-1) the preset's; custom needs it); a
// layer profile gives the gradient bytes and backward time.
bool
ProfileSpec(const NiccScenario& s,
            const NiccTrainingPreset* preset,
            double bytesPerParam,
            NiccTrainingSpec* spec,
            std::string* error)
{
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
    double fwd = 0;
    double bwd = 0;
    double opt = 0;
    double grad = 0;
    const bool layers = !spec->layers.empty();
    if (!pick("training_forward_us", preset ? preset->forwardUs : 0, &fwd) ||
        (!layers && !pick("training_backward_us", preset ? preset->backwardUs : 0, &bwd)) ||
        !pick("training_optimizer_us", preset ? preset->optimizerUs : 0, &opt) ||
        (!layers && !pick("training_grad_bytes", preset ? preset->params * bytesPerParam : 0, &grad)))
    {
        return false;
    }
    spec->forwardNs = std::llround(fwd * 1e3);
    spec->backwardNs = std::llround(bwd * 1e3);
    spec->optimizerNs = std::llround(opt * 1e3);
    spec->gradBytes = static_cast<uint64_t>(std::llround(grad));
    if (!EqualLayers(s, spec, error))
    {
        return false;
    }
    if (!spec->layers.empty())
    {
        // Reported as run (the timeline takes them from the layers).
        spec->backwardNs = 0;
        spec->gradBytes = 0;
        for (const NiccTrainingLayer& l : spec->layers)
        {
            spec->backwardNs += l.backwardNs;
            spec->gradBytes += l.bytes;
        }
    }
    return true;
}

// The job's compute and gradients from the preset and keys, and its
// iteration, microbatch and bucket keys.
bool
SpecFromKeys(const NiccScenario& s,
             const NiccTrainingPreset* preset,
             uint32_t tp,
             NiccTrainingSpec* spec,
             std::string* error)
{
    const double bytesPerParam = s.Get("training_precision") == "fp32" ? 4.0 : 2.0;
    const std::string layersFile = s.Get("training_layers_file");
    const bool transformer = preset != nullptr && preset->layers > 0;
    if (transformer && (!layersFile.empty() || Num(s, "training_grad_bytes") >= 0))
    {
        *error = std::string(layersFile.empty() ? "key 'training_grad_bytes'" : "key 'training_layers_file'") +
                 ": not with training=" + s.Get("training") + " (its layers give the gradient bytes)";
        return false;
    }
    if (!layersFile.empty() && !NiccReadTrainingLayers(layersFile, &spec->layers, error))
    {
        *error = "key 'training_layers_file': " + *error;
        return false;
    }
    if (transformer ? !TransformerSpec(s, *preset, tp, bytesPerParam, spec, error)
                    : !ProfileSpec(s, preset, bytesPerParam, spec, error))
    {
        return false;
    }
    spec->iterations = static_cast<uint32_t>(Num(s, "training_iterations"));
    spec->microbatches = static_cast<uint32_t>(Num(s, "training_microbatches"));
    spec->bucketCapBytes = static_cast<uint64_t>(std::llround(Num(s, "training_bucket_mb") * 1048576.0));
    spec->firstBucketCapBytes = static_cast<uint64_t>(std::llround(Num(s, "training_first_bucket_mb") * 1048576.0));
    return true;
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
    m_work = work;
    const NiccTrainingPreset* preset = nullptr;
    for (const auto& p : NiccTrainingPresets())
    {
        preset = mode == p.name ? &p : preset;
    }
    const uint32_t tpKey = static_cast<uint32_t>(Num(s, "training_tp"));
    const uint32_t tp = tpKey > 0 ? tpKey : (preset ? preset->tp : 1);
    NiccTrainingSpec spec;
    if (!SpecFromKeys(s, preset, tp, &spec, error) || !SetUpParallel(s, tp, groups * groupSize, &spec, error))
    {
        return false;
    }
    if (!m_timeline.Init(spec, error))
    {
        *error = "keys 'training_*': " + *error;
        return false;
    }
    const std::string layout = tp > 1 ? "tp-groups" : s.Get("allreduce_ring");
    if (!SetUpRings(s, tp, groups, groupSize, layout, error))
    {
        return false;
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
    m_info.tp = tp;
    m_info.tpGroups = static_cast<uint32_t>(m_tpGroups.size());
    // NVLink carries the TP rings when each TP group is inside one server.
    m_info.tpNvlink = !m_tpGroups.empty() && Num(s, "nvlink_gbps") > 0 && groupSize % tp == 0;
    m_info.iterationsPlanned = spec.iterations;
    m_info.spec = spec;
    m_info.computeNs = m_timeline.ComputeNs();
    m_info.buckets = m_timeline.Buckets();

    m_work->HoldCollectives(true);
    m_timeline.Start(std::llround(Num(s, "training_start_us") * 1e3));
    Next();
    return true;
}

bool
NiccTrainingRun::SetUpRings(const NiccScenario& s,
                            uint32_t tp,
                            uint32_t groups,
                            uint32_t groupSize,
                            const std::string& layout,
                            std::string* error)
{
    // Ranks without TP: the allreduce_ring layout over every host, or its
    // first training_ranks ranks (one-ring layouts only).
    const uint32_t hosts = groups * groupSize;
    const uint32_t ranks = static_cast<uint32_t>(Num(s, "training_ranks"));
    if (tp == 1)
    {
        m_rings = NiccAllReduceRings(layout, groups, groupSize);
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
    return true;
}

bool
NiccTrainingRun::SetUpParallel(const NiccScenario& s,
                               uint32_t tp,
                               uint32_t hosts,
                               NiccTrainingSpec* spec,
                               std::string* error)
{
    if (Num(s, "training_tp_forward_bytes") >= 0)
    {
        spec->tpForwardBytes = static_cast<uint64_t>(Num(s, "training_tp_forward_bytes"));
    }
    if (Num(s, "training_tp_backward_bytes") >= 0)
    {
        spec->tpBackwardBytes = static_cast<uint64_t>(Num(s, "training_tp_backward_bytes"));
    }
    m_tpGroups.clear();
    m_dpScale = 1;
    if (tp == 1)
    {
        spec->tpForwardBytes = 0; // a group of one rank: nothing to all-reduce
        spec->tpBackwardBytes = 0;
        return true;
    }
    const std::string why =
        spec->layers.empty() ? "needs a layer stack (training_model_layers > 0 or training_layers_file)"
        : spec->tpForwardBytes == 0 || spec->tpBackwardBytes == 0
            ? "needs training_tp_forward_bytes and training_tp_backward_bytes > 0"
        : hosts % tp != 0 || hosts / tp < 2
            ? "must divide the " + std::to_string(hosts) + " hosts into at least 2 groups"
        : Num(s, "training_ranks") != 0 && Num(s, "training_ranks") != hosts ? "not with a training_ranks subset"
                                                                             : "";
    if (!why.empty())
    {
        *error = "key 'training_tp': " + std::to_string(tp) + " " + why;
        return false;
    }
    // TP group g = hosts g t .. g t + t - 1; DP group i = position i of each.
    const uint32_t groupsN = hosts / tp;
    m_tpGroups.assign(groupsN, {});
    m_rings.assign(tp, {});
    for (uint32_t g = 0; g < groupsN; ++g)
    {
        for (uint32_t i = 0; i < tp; ++i)
        {
            m_tpGroups[g].push_back(g * tp + i);
            m_rings[i].push_back(g * tp + i);
        }
    }
    m_dpScale = tp;
    return true;
}

void
NiccTrainingRun::Next()
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    for (const NiccTrainingRequest& rq : m_timeline.PendingAll())
    {
        uint64_t& issued = m_issued[static_cast<uint32_t>(rq.stream)];
        if (rq.seq < issued)
        {
            continue; // running
        }
        issued = rq.seq + 1;
        const Time delay = NanoSeconds(std::max<int64_t>(0, rq.startNs - now));
        const NiccTrainingStream stream = rq.stream;
        auto done = [this, stream]() { AllReduceDone(stream); };
        if (stream == NiccTrainingStream::TP)
        {
            // Every TP group all-reduces its own activations: a ring of t
            // ranks each, inside a server over NVLink when there is one.
            const std::string name = "train_i" + std::to_string(rq.iteration) + "_u" + std::to_string(rq.microbatch) +
                                     (rq.backward ? "_bwd" : "_fwd") + std::to_string(rq.layer);
            m_work->StartRingAllReduce(m_tpGroups, rq.bytes * m_tpGroups.size(), delay, name, done, true);
            continue;
        }
        const std::string name = "train_i" + std::to_string(rq.iteration) + "_b" + std::to_string(rq.bucket);
        // With TP each DP group reduces its own gradients: bytes per rank x groups.
        const uint64_t bytes = rq.bytes * m_dpScale;
        if (m_tree)
        {
            m_work->StartTreeAllReduce(m_rings, bytes, m_chunks, delay, name, done);
        }
        else
        {
            m_work->StartRingAllReduce(m_rings, bytes, delay, name, done);
        }
    }
    m_work->HoldCollectives(!m_timeline.Finished());
}

void
NiccTrainingRun::AllReduceDone(NiccTrainingStream stream)
{
    m_timeline.Done(stream, Simulator::Now().GetNanoSeconds());
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

} // namespace ns3
