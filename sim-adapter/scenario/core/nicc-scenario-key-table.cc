/*
 * nicc-scenario-key-table.cc — the hand-kept data of the scenario keys: the
 * keys the scenarios themselves read, the (key, TypeId, Attribute) list of
 * model keys, scenario defaults of derived keys, the alias table and the
 * built-in scenarios (their names, help and defaults; Names, NamesText,
 * ScenariosHelp and IsFabric read them here). The logic that derives and
 * checks keys is nicc-scenario-keys.cc.
 */
#include "nicc-scenario-key-table.h"
#include "nicc-scenario.h"

#include "ns3/nicc-net-device.h"
#include "ns3/nicc-nic.h"
#include "ns3/nicc-switch-mmu.h"
#include "ns3/nicc-switch-node.h"

namespace ns3
{

namespace
{
constexpr double U32 = 4294967295.0;
} // namespace

const std::vector<ScenarioKeyRow>&
ScenarioKeyRows()
{
    static const std::vector<ScenarioKeyRow> rows = {
    {"senders", "uint", 1, 1000, "16", "incast/fairness: sending hosts (one flow each) on the switch"},
    {"size_bytes", "uint", 1, 1e12, "1000000", "incast/fairness: bytes per flow (64-bit; at most 2^32 - 2 packets of mtu)"},
    {"stagger_us", "double", 0, 1e6, "0", "incast/fairness: flow i starts at i * stagger_us"},
    {"stop_ms", "double", 0.001, 1e5, "20",
     "simulated time limit (incast/fairness also end when every flow is done; fabric "
     "scenarios with only finite traffic end when it is done)"},
    {"rate_gbps", "double", 1, 1600, "100", "line rate of every host link, Gb/s"},
    {"delay_ns", "uint", 1, 1e9, "1000", "one-way propagation delay of every link"},
    {"recovery", "gbn|sr|auto", 0, 0, "gbn",
     "go-back-N, selective repeat, or auto = sr when spray != ecmp or switch_mode != ecmp"},
    {"warmup_us", "double", 0, 1e8, "0",
     "queue samples (and permutation throughput) count from this time on"},
    {"sample_ns", "uint", 10, 1e9, "1000", "queue sampling period"},
    {"rate_window_us", "double", 1, 1e6, "100",
     "throughput window (per flow for incast/fairness, per traffic kind for fabric scenarios)"},
    {"seed", "uint", 0, U32, "0",
     "ns-3 RngSeed of every simulation-level random choice (workload arrivals, sizes and "
     "destinations, RED marking, switch spraying); 0 = the RngSeed global value (1 unless "
     "NS_GLOBAL_VALUE sets it). The engine's spray PRNG is seeded per QP, not from it"},
    {"run", "uint", 0, U32, "0",
     "ns-3 RngRun: independent replications under one seed; 0 = the RngRun global value "
     "(nicc-sim --RngRun=N or NS_GLOBAL_VALUE=\"RngRun=N\"; 1 by default)"},
    {"scheduler", "nicc|pq|map|ordered", 0, 0, "nicc",
     "ns-3 core scheduler: nicc (NiccScheduler: ns-3's order, time then insertion, and a port "
     "schedules a frame's transmit-complete event only when something waits for the frame's "
     "end), pq or map (ns-3's PriorityQueue or Map: every frame's end is an event; the same "
     "results with more events), or ordered (NiccOrderedScheduler: events of one nanosecond "
     "in link order, not insertion order; implied by mpi_ranks)"},
    {"mpi_ranks", "uint", 0, 4096, "0",
     "fabric scenarios: run one simulation across this many MPI ranks (mpirun -np N nicc-sim "
     "...; needs ns-3 with MPI, scripts/build-ns3-mpi.sh); 0 = one process as usual. Any value "
     "> 0 implies scheduler=ordered, so that -np 1 and -np N give identical results "
     "(docs/scale.md)"},
    {"notice_ns", "int", -1, 1e9, "-1",
     "fabric: a collective flow's end moves its collective (and a training job) on this many "
     "ns later, as a notice every MPI rank gets at the same time; -1 = 0 in one process, the "
     "fabric's shortest link delay with mpi_ranks (which needs at least 2). Set it to that "
     "delay (and scheduler=ordered) to run one process exactly as an MPI run"},
    {"partition", "pod|leaf", 0, 0, "pod",
     "mpi_ranks: the nodes each rank owns, in contiguous blocks: pod = the fat-tree's pods "
     "(ToRs, aggregation switches and hosts of a pod together), leaf = its ToRs with their "
     "hosts (aggregation switches in blocks of their own); leaf-spine: leaves with their hosts "
     "either way. Core / spine switches are spread over the ranks in blocks"},
    {"topology", "leaf-spine|fat-tree|rail|file", 0, 0, "leaf-spine",
     "fabric: leaf-spine (leaves, spines, hosts_per_leaf); fat-tree (pods, tors_per_pod, "
     "aggs_per_pod, cores, hosts_per_leaf = hosts per ToR; HPCC's 320 hosts: "
     "hosts_per_leaf=16,fabric_rate_gbps=400,buffer_bytes=32000000); rail (servers x rails "
     "NICs, NIC i on rail switch i, rail switches joined by `spines` spines; each NIC is its "
     "own endpoint); file (nodes, switches and links from topology_file; link rates and "
     "delays from the file, rate_gbps / delay_ns / fabric_rate_gbps unused)"},
    {"topology_file", "string", 0, 0, "",
     "topology=file: path of a topology file in the HPCC text format (first line 'N S L', or "
     "ns3-datacenter's 'N S T L', then the S switch ids, then L lines 'a b rate delay "
     "error_rate'; see docs/experiments.md)"},
    {"dcqcn_window_bdp", "off|max|pair", 0, 0, "off",
     "fabric, topology=file: every DCQCN flow's window (dcqcn_window_bytes, NiccNic DcqcnWindowBytes) "
     "is a BDP as the HPCC simulator computes it (HAS_WIN 1, NiccHpccPairs): max = the largest of any "
     "host pair (GLOBAL_T 1), pair = its own host pair's (GLOBAL_T 0); off = dcqcn_window_bytes"},
    {"leaves", "uint", 1, 256, "4", "fabric: leaf (ToR) switches"},
    {"spines", "uint", 1, 256, "4", "fabric: spine switches (each linked to every leaf)"},
    {"hosts_per_leaf", "uint", 1, 256, "8", "fabric: hosts under each leaf"},
    {"pods", "uint", 1, 512, "5", "fat-tree: pods"},
    {"tors_per_pod", "uint", 1, 64, "4", "fat-tree: ToR switches per pod"},
    {"aggs_per_pod", "uint", 1, 64, "4",
     "fat-tree: aggregation switches per pod (each linked to every ToR of its pod)"},
    {"cores", "uint", 1, 256, "16",
     "fat-tree: core switches; agg j of a pod links to cores j*g..j*g+g-1 (g = cores / "
     "aggs_per_pod) if that divides, else to every core"},
    {"rails", "uint", 1, 64, "8", "rail: NICs per server = rail switches"},
    {"servers", "uint", 1, 1024, "4", "rail: servers (hosts = servers x rails NICs)"},
    {"nvlink_gbps", "double", 0, 1600, "0",
     "rail: intra-server NVLink-class interconnect, Gb/s per GPU per direction (0 = none: the NICs "
     "of a server have no path between them but the fabric). Each server gets an NVSwitch joining "
     "its GPUs (one endpoint per NIC's GPU), off the fabric's routes; used by allreduce_relay=pxn "
     "and by ring hops inside a server. H100 NVLink 4 is 900 GB/s bidirectional = 3600 per "
     "direction; the GPU endpoints run nicc NICs, whose line rate is at most 1600 (docs/training.md)"},
    {"nvlink_delay_ns", "uint", 1, 1e6, "100",
     "rail: one-way delay of each GPU-NVSwitch link (an assumption, not a vendor figure)"},
    {"oversubscription", "double", 0.01, 100, "1",
     "fabric: host bandwidth / uplink bandwidth per leaf (sets fabric_rate_gbps when that is 0)"},
    {"fabric_rate_gbps", "double", 0, 6400, "0",
     "fabric: switch-switch link rate; 0 = rate_gbps * hosts_per_leaf / (spines * oversubscription) "
     "(fat-tree: / aggs_per_pod; rail: rate_gbps * servers / (spines * oversubscription))"},
    {"switch_mode", "ecmp|spray|adaptive", 0, 0, "ecmp",
     "fabric: switch next-hop choice: ECMP hash, per-packet random spray, least-queue adaptive"},
    {"cdf", "websearch|fbhdp|alistorage|googlerpc", 0, 0, "websearch",
     "fabric: flow-size CDF of the Poisson traffic (files shipped in sim-adapter/data/)"},
    {"cdf_file", "string", 0, 0, "", "fabric: path of a CDF file; overrides cdf when set"},
    {"poisson_load", "double", 0, 1, "0",
     "fabric: Poisson flows per host at this share of the host link (0 = off); uniform destinations"},
    {"incast_load", "double", 0, 1, "0",
     "fabric: Poisson incast bursts at this share of total host capacity (0 = off)"},
    {"incast_fanin", "uint", 1, 4096, "8", "fabric: senders per incast burst"},
    {"incast_bytes", "uint", 1, 1e12, "64000", "fabric: bytes per sender per incast burst"},
    {"permutation_bytes", "uint", 0, 1e12, "0",
     "fabric: each host sends this much to a random other-leaf host at permutation_start_us (0 = off)"},
    {"permutation_start_us", "double", 0, 1e8, "0", "fabric: start of the permutation"},
    {"allreduce_bytes", "uint", 0, 1e12, "0",
     "fabric: ring all-reduce buffer per rank (0 = off); 2(n-1) steps of bytes/n each"},
    {"allreduce_start_us", "double", 0, 1e8, "0", "fabric: start of the all-reduce"},
    {"allreduce_ring", "interleaved|sequential|rail-local|rail-crossing", 0, 0, "interleaved",
     "fabric: ring placement: interleaved (one ring, every hop crosses leaves / servers), "
     "sequential (one ring in host order), rail-local (one ring per rail: NIC i of every "
     "server; on leaf-spine host i of every leaf), rail-crossing (one ring per rail position, "
     "every hop to another rail); with several rings each reduces allreduce_bytes / rings"},
    {"allreduce_algo", "ring|tree", 0, 0, "ring",
     "fabric: all-reduce of allreduce_bytes and of training buckets: ring (2(n-1) steps of "
     "bytes/n) or tree = double binary tree as NCCL (two trees over each ring's ranks, each reduces "
     "half the bytes up to its root, then broadcasts down; allreduce_chunks pipeline chunks)"},
    {"allreduce_chunks", "uint", 1, 4096, "1",
     "allreduce_algo=tree: chunks per tree half, pipelined level by level (1 = unpipelined: "
     "2 x depth steps of bytes/2)"},
    {"allreduce_relay", "off|pxn", 0, 0, "off",
     "rail + nvlink_gbps > 0: off = every collective transfer crosses the fabric; pxn = a transfer "
     "to another server on another rail first moves over NVLink to the sender server's GPU on the "
     "receiver's rail, then goes on that rail (1 fabric switch, not rail-spine-rail); a transfer "
     "inside a server goes over NVLink only"},
    // Training job (nicc-training.h, docs/training.md)
    {"training", "off|resnet50|gpt-18.4b|custom", 0, 0, "off",
     "fabric: a data-parallel training job: iterations of forward, backward (gradients all-reduced "
     "in DDP buckets as they are ready, one all-reduce at a time, rings from allreduce_ring) and "
     "optimizer; resnet50 = the ResNet-50 preset, gpt-18.4b = a GPT layer stack with tensor "
     "parallelism (Megatron-LM; parameters and compute times with their sources: "
     "NiccTrainingPresets, docs/training.md); custom = the training_* keys. Outputs training.csv, "
     "training_buckets.csv, training_tp.csv, summary.json 'training', training.png"},
    {"training_iterations", "uint", 1, 1e6, "3", "training: iterations to run"},
    {"training_start_us", "double", 0, 1e8, "0", "training: start of the first iteration's forward"},
    {"training_forward_us", "double", -1, 1e9, "-1",
     "training: forward time per iteration; -1 = the preset's"},
    {"training_backward_us", "double", -1, 1e9, "-1",
     "training: backward time per iteration, over which the gradients become ready in proportion to "
     "their bytes; -1 = the preset's"},
    {"training_optimizer_us", "double", -1, 1e9, "-1",
     "training: optimizer step after the last all-reduce; -1 = the preset's"},
    {"training_grad_bytes", "int", -1, 1e12, "-1",
     "training: gradient bytes per rank per iteration; -1 = the preset's parameters x "
     "training_precision"},
    {"training_precision", "fp16|fp32", 0, 0, "fp16",
     "training: bytes per gradient of a preset (2 or 4); unused when training_grad_bytes is set"},
    {"training_bucket_mb", "double", 0.000001, 1e6, "25",
     "training: DDP bucket_cap_mb, MiB (a bucket closes once it holds this much)"},
    {"training_first_bucket_mb", "double", 0.000001, 1e6, "1",
     "training: cap of the first bucket in backward order, MiB (DDP's first bucket, 1 MiB)"},
    {"training_layers_file", "string", 0, 0, "",
     "training: per-layer profile, a CSV with the header 'bytes,backward_us' and one layer a line "
     "in backward order (last layer first); buckets then hold whole layers and are ready when "
     "their last layer's backward ends; replaces training_grad_bytes and training_backward_us; "
     "empty = gradients produced uniformly over the backward time"},
    {"training_ranks", "uint", 0, 1e6, "0",
     "training: data-parallel ranks (one per NIC); 0 = every host; fewer: the first ones of the "
     "interleaved / sequential ring"},
    {"training_tp", "uint", 0, 1024, "0",
     "training: tensor-parallel degree t; 0 = the preset's (gpt-18.4b: 8, the GPUs of a server; "
     "else 1 = pure data parallel); t consecutive hosts form a TP group whose all-reduces after "
     "every layer's forward and backward block the compute (over NVLink inside a server when "
     "nvlink_gbps > 0); the DP groups are the ranks with the same index in their TP group"},
    {"training_model_layers", "int", -1, 1e5, "-1",
     "training: layers of the stack; -1 = the preset's (gpt-18.4b: 40; fewer = its first layers, "
     "per-layer figures unchanged); with resnet50 / custom > 0 = gradients and backward split into "
     "that many equal layers (needed for training_tp > 1 without training_layers_file)"},
    {"training_micro_batch", "double", -1, 1e6, "-1",
     "training: gpt-18.4b sequences per micro-batch b (compute and TP bytes scale with it); "
     "-1 = the preset's (1)"},
    {"training_microbatches", "uint", 1, 1e6, "1",
     "training: forward + backward passes per iteration (gradient accumulation); the buckets fill "
     "during the last backward"},
    {"training_tp_forward_bytes", "int", -1, 1e12, "-1",
     "training: bytes per rank of the TP all-reduce after each layer's forward (its all-reduces "
     "combined); -1 = the preset's (gpt-18.4b: 2 b s h fp16 values); required with custom and t > 1"},
    {"training_tp_backward_bytes", "int", -1, 1e12, "-1",
     "training: bytes per rank of the TP all-reduce after each layer's backward; -1 = the preset's "
     "(gpt-18.4b: 4 b s h fp16 values, with the recomputed forward's); required with custom and t > 1"},
    {"alltoall_bytes", "uint", 0, 1e12, "0",
     "fabric: all-to-all buffer per rank over every host (0 = off); n - 1 pairwise steps of "
     "bytes / n each"},
    {"alltoall_start_us", "double", 0, 1e8, "0", "fabric: start of the all-to-all"},
    {"traffic_stop_ms", "double", 0, 1e5, "0",
     "fabric: Poisson and incast arrivals stop at this time (0 = stop_ms)"},
    // Outputs: monitors and HPCC formats (nicc-port-monitor.h, nicc-hpcc-output.h).
    {"monitor", "string", 0, 0, "",
     "switch egress ports whose queue is sampled into queues.csv with per-port statistics in "
     "summary.json: comma-separated SWITCH:PORT, SWITCH:* (all its ports), host-facing (every "
     "switch port to a host) or all; SWITCH = the name in links.csv (leaf0, spine1, tor3, agg0, "
     "core2, rail0, sw<file id>; incast/fairness: switch) or its node id; empty = off"},
    {"monitor_start_us", "double", 0, 1e8, "0",
     "monitor: first sample at this time; 0 = when the traffic starts (fabric scenarios with only a "
     "flow file: its first flow)"},
    {"monitor_stop_us", "double", 0, 1e8, "0", "monitor: last sample at or before this time (0 = end of the run)"},
    {"monitor_period_ns", "uint", 1, 1e9, "1000", "monitor: queue sampling period of queues.csv"},
    {"monitor_drain_bytes", "uint", 0, 1e12, "1000",
     "monitor: drain time = first sample at or below this queue length at or after the peak, "
     "measured from the peak (1000: the HPCC qlen histogram's first bin, about one packet)"},
    {"link_util_interval_us", "double", 0, 1e6, "0",
     "fabric: every this many us, the bytes each switch-to-switch link direction sent (link_util.csv, "
     "summary.json 'link_util': max / mean / Jain / idle share over the all-reduce, its time vs the "
     "ideal; link_util.png); 0 = off (docs/claims.md)"},
    {"qlen_mon_file", "string", 0, 0, "",
     "monitor: also write the HPCC simulator's qlen output (per monitored port, samples per "
     "1000-byte bin every 100 ns in the monitor window, dumped at each 100 ms and at the "
     "window's end) to this path (relative: inside the output directory); empty = off"},
    // Inputs: flow files
    {"flow_file", "string", 0, 0, "",
     "fabric: path of a flow file whose flows run beside the generated workloads: HPCC format "
     "(first line the count, then 'src dst pg dport size start_s' per flow, start in absolute "
     "seconds) or CSV with a header 'src,dst,size_bytes,start_us[,cc][,prio][,dport]'; host ids "
     "are the topology file's node ids with topology=file, else host indices 0..hosts-1; "
     "sampling starts at the first flow's start when no generated workload runs; see "
     "docs/experiments.md"},
    // Switch knobs and lossless checks
    {"headroom_policy", "refuse|shrink", 0, 0, "refuse",
     "pfc=true and a switch whose buffer_bytes cannot hold ports x lossless classes x headroom "
     "+ one maximum frame per port: refuse the run (exit 2, naming the buffer needed) or "
     "shrink the headroom to fit with a warning (overflow drops: drops_headroom_overflow)"},
    {"buffer_bytes_edge", "uint", 0, 1099511627776.0, "0",
     "buffer of edge switches (a host attached: leaves, ToRs, rail switches); 0 = buffer_bytes"},
    {"buffer_bytes_agg", "uint", 0, 1099511627776.0, "0",
     "buffer of aggregation switches (one switch hop from an edge switch: fat-tree aggs, "
     "leaf-spine spines); 0 = buffer_bytes"},
    {"buffer_bytes_core", "uint", 0, 1099511627776.0, "0",
     "buffer of core switches (two or more switch hops from an edge switch: fat-tree cores); "
     "0 = buffer_bytes"},
    // Faults (nicc-fault.h, docs/faults.md)
    {"fault", "string", 0, 0, "",
     "fabric: link faults, ';'-separated 'link:A-B@down_us[,up_us]' (no up_us: never back up); A, B "
     "= node names as in links.csv (leaf0, spine1, host3, tor2, agg0, core1, sw<file id>, "
     "host<file id>) or node ids; every frame sent on a down link is lost; empty = none"},
    {"flap", "string", 0, 0, "",
     "fabric: flapping links, ';'-separated 'link:A-B@start_us,period_us,count': count cycles, "
     "down at start_us + i * period_us, up half a period later"},
    {"fault_detect_us", "double", 0, 1e8, "0",
     "fabric: delay from a link going down (up) to every switch recomputing its routes without "
     "(with) it; 0 = at once (the HPCC simulator's LINK_DOWN)"},
    {"fault_window_us", "double", 0.01, 1e6, "10",
     "fabric: goodput window of the recovery time (a flow has recovered at the start of the "
     "first window after the failure delivering >= 90% of its window before it); bins of a tenth"},
    {"link_loss", "string", 0, 0, "",
     "fabric: per-link frame loss probability (corruption), ';'-separated 'A-B:rate'; overrides "
     "loss_rate on those links"},
    {"loss_rate", "double", 0, 1, "0",
     "fabric: frame loss probability on every link (both directions, every frame kind)"},
    {"ecn_map", "string", 0, 0, "",
     "RED/ECN thresholds per port rate, 'RATE:KMIN:KMAX:PMAX;...' (RATE in bit/s or with a unit, "
     "25Gbps; KMIN/KMAX in KB of 1000 B; the HPCC simulator's KMIN_MAP/KMAX_MAP/PMAX_MAP in one "
     "table); every port rate in use needs an entry; overrides ecn_kmin_bytes/ecn_kmax_bytes/"
     "ecn_pmax; empty = off"},
    // PFC storm and deadlock (nicc-scenario-pfc.h, docs/pfc-storm.md)
    {"pfc_storm", "string", 0, 0, "",
     "fabric: PFC storms, 'HOST@START_US[,END_US]' separated by ';': from START_US the host's "
     "NIC stops draining its receive side and sends XOFF on every data class continuously "
     "(re-sent at half the pause time); at END_US it sends XON and drains. HOST = host index "
     "(0..hosts-1) or its name in links.csv (host3); empty = off"},
    {"pfc_spread_sample_us", "double", 0.01, 1e6, "10",
     "fabric, with pfc_storm or pfc_watchdog: period of pfc_spread.csv (switch ports and hosts "
     "held by a PAUSE, watchdog-stormed queues, host receive throughput)"},
    {"pfc_deadlock_check_us", "double", 0, 1e6, "0",
     "fabric: every this many us look for a cycle of paused switch egress queues waiting on each "
     "other (a PFC deadlock), reported in summary.json and as a warning; 0 = off"},
};
    return rows;
}


const std::vector<AttributeKeyRow>&
AttributeKeyRows()
{
    static const std::vector<AttributeKeyRow> rows = {
    {"mtu", &NiccNetDevice::GetTypeId, "Mtu", nullptr, ""},
    {"buffer_bytes", &NiccSwitchMmu::GetTypeId, "BufferSize", nullptr, ""},
    {"pfc", &NiccSwitchMmu::GetTypeId, "PfcEnabled", nullptr, ""},
    {"ecn", &NiccSwitchNode::GetTypeId, "EcnEnabled", nullptr, ""},
    {"ecn_kmin_bytes", &NiccSwitchNode::GetTypeId, "EcnKmin", nullptr, ""},
    {"ecn_kmax_bytes", &NiccSwitchNode::GetTypeId, "EcnKmax", nullptr, ""},
    {"ecn_pmax", &NiccSwitchNode::GetTypeId, "EcnPmax", nullptr, ""},
    {"ack_interval", &NiccNic::GetTypeId, "AckInterval", nullptr, ""},
    // 255: NACK a hole only when the placement window is exhausted (sprayed
    // reordering in a lossless fabric is not loss); the Attribute's 1 is IRN's rule.
    {"sr_nack_threshold", &NiccNic::GetTypeId, "SrNackThreshold", "255", ""},
    {"int_single_path", &NiccNic::GetTypeId, "IntProbeSinglePath", nullptr, ""},
    {"rto_us", &NiccNic::GetTypeId, "RetxTimeout", nullptr, "us"},
    // Switch knobs and lossless checks
    {"headroom_extra_bytes", &NiccSwitchMmu::GetTypeId, "HeadroomExtra", nullptr, ""},
    {"headroom_delay_factor", &NiccSwitchMmu::GetTypeId, "HeadroomDelayFactor", nullptr, ""},
    {"headroom_frames", &NiccSwitchMmu::GetTypeId, "HeadroomFrames", nullptr, ""},
    {"headroom_bytes", &NiccSwitchMmu::GetTypeId, "HeadroomFixed", nullptr, ""},
    {"xon_offset_bytes", &NiccSwitchMmu::GetTypeId, "XonOffset", nullptr, ""},
    {"pfc_alpha", &NiccSwitchMmu::GetTypeId, "PfcAlpha", nullptr, ""},
    {"pfc_pause_quanta", &NiccSwitchNode::GetTypeId, "PauseQuanta", nullptr, ""},
    {"pfc_pause_until_resume", &NiccNetDevice::GetTypeId, "PauseUntilResume", nullptr, ""},
    {"ack_high_priority", &NiccNic::GetTypeId, "AckHighPriority", nullptr, ""},
    {"extra_wire_bytes", &NiccNetDevice::GetTypeId, "ExtraWireBytes", nullptr, ""},
    {"pfc_alpha_ref_rate", &NiccSwitchMmu::GetTypeId, "PfcAlphaReferenceRate", nullptr, ""},
    {"pfc_reserve_bytes", &NiccSwitchMmu::GetTypeId, "ReserveBytes", nullptr, ""},
    {"pfc_xoff_at_threshold", &NiccSwitchMmu::GetTypeId, "XoffAtThreshold", nullptr, ""},
    // --- DCQCN NIC-model knobs (docs/dcqcn.md, "The HPCC simulator's DCQCN") ---
    {"cnp_on_ack", &NiccNic::GetTypeId, "CnpOnAck", nullptr, ""},
    // DCQCN with the HPCC simulator's BDP window (HAS_WIN 1). Off by default.
    {"dcqcn_window_bytes", &NiccNic::GetTypeId, "DcqcnWindowBytes", nullptr, ""},
    {"dcqcn_var_window", &NiccNic::GetTypeId, "DcqcnVarWindow", nullptr, ""},
    // --- Packet trimming (UEC) and selective-repeat SACK (docs/sim-fabric.md,
    // "Packet trimming"; docs/sim-nic.md, "Trimming and SACK"). Off by default:
    // earlier results unchanged. ---
    {"trim", &NiccSwitchNode::GetTypeId, "TrimEnabled", nullptr, ""},
    {"trim_threshold_bytes", &NiccSwitchNode::GetTypeId, "TrimThreshold", nullptr, ""},
    {"trim_class", &NiccSwitchNode::GetTypeId, "TrimClass", nullptr, ""},
    {"trim_size_bytes", &NiccSwitchNode::GetTypeId, "TrimSize", nullptr, ""},
    {"sack", &NiccNic::GetTypeId, "Sack", nullptr, ""},
    // --- PFC watchdog on every switch (nicc-pfc-watchdog.h, docs/pfc-storm.md).
    // Off by default: earlier results unchanged. ---
    {"pfc_watchdog", &NiccSwitchNode::GetTypeId, "PfcWatchdog", nullptr, ""},
    {"pfc_watchdog_detect_us", &NiccSwitchNode::GetTypeId, "PfcWatchdogDetect", "200", "us"},
    {"pfc_watchdog_restore_us", &NiccSwitchNode::GetTypeId, "PfcWatchdogRestore", "200", "us"},
    {"pfc_watchdog_poll_us", &NiccSwitchNode::GetTypeId, "PfcWatchdogPoll", "20", "us"},
    {"pfc_watchdog_action", &NiccSwitchNode::GetTypeId, "PfcWatchdogAction", nullptr, ""},
};
    return rows;
}

/// Scenario defaults of derived keys that differ from the Attribute's.
const std::vector<std::pair<const char*, const char*>>&
DerivedKeyDefaults()
{
    static const std::vector<std::pair<const char*, const char*>> rows = {
    // The scenarios spray over 16 EVs when a spray policy is chosen; the
    // spray profile's ev_bits is 0 (one EV).
    {"spray.ev_bits", "4"},
};
    return rows;
}

/// Old key -> new key. Values are the new key's: every old value that the
/// new key accepts means the same thing there (units unchanged); the old
/// profile spellings paper / later are refused with a suggestion, and
/// hpcc_base_rtt_ns = 0 (was: profile) is out of range (-1 = profile).
const std::vector<NiccScenarioAlias>&
ScenarioKeyAliases()
{
    static const std::vector<NiccScenarioAlias> rows = {
    {"dcqcn_profile", "dcqcn.profile"},
    {"dcqcn_time_reset_us", "dcqcn.rp_time_reset"},
    {"dcqcn_byte_reset", "dcqcn.rp_byte_reset"},
    {"dcqcn_ai_mbps", "dcqcn.rp_ai_rate"},
    {"dcqcn_hai_mbps", "dcqcn.rp_hai_rate"},
    {"dcqcn_threshold", "dcqcn.rp_threshold"},
    {"dcqcn_cnp_interval_us", "dcqcn.np_min_time_between_cnps"},
    {"dcqcn_monitor_us", "dcqcn.rp_rate_reduce_monitor_period"},
    {"dcqcn_g", "dcqcn.rp_dce_tcp_g"},
    {"hpcc_profile", "hpcc.profile"},
    {"hpcc_base_rtt_ns", "hpcc.base_rtt_ns"},
    {"hpcc_eta_ppm", "hpcc.eta_ppm"},
    {"hpcc_max_stage", "hpcc.max_stage"},
    {"hpcc_wai_bytes", "hpcc.w_ai_bytes"},
    {"ev_bits", "spray.ev_bits"},
};
    return rows;
}

// The built-in scenarios: name, fabric runner or one switch, what it is
// (nicc-sim --help), and its defaults that differ from the key tables'.
const std::vector<BuiltinScenarioRow>&
BuiltinScenarioRows()
{
    static const std::vector<BuiltinScenarioRow> rows = {
    {"incast", false, "`senders` hosts each send size_bytes to one receiver over one switch", {}},
    {"fairness", false, "2 long flows to one receiver over one switch, the second stagger_us later",
     {{"senders", "2"},
      {"size_bytes", "40000000"},
      {"stagger_us", "1000"},
      {"ecn_kmin_bytes", "100000"},
      {"ecn_kmax_bytes", "400000"},
      {"dcqcn.profile", "dcqcn-paper"},
      {"rate_window_us", "500"}}},
    {"leaf-spine", true,
     "leaves x spines x hosts_per_leaf with a workload mix (poisson_load, incast_load, permutation_bytes, "
     "allreduce_bytes; default 30% FB Hadoop Poisson)",
     {{"recovery", "auto"}, {"int_single_path", "true"}, {"poisson_load", "0.3"}, {"cdf", "fbhdp"}, {"stop_ms", "2"},
      {"rate_window_us", "20"}}},
    {"ai-cluster", true,
     "the default experiment: 4 x 4 x 8 hosts at 100 Gb/s, ring all-reduce + 20% Poisson background + 5% "
     "incast bursts",
     {{"recovery", "auto"},
      {"int_single_path", "true"},
      {"cdf", "fbhdp"},
      {"poisson_load", "0.2"},
      {"incast_load", "0.05"},
      {"incast_fanin", "8"},
      {"incast_bytes", "64000"},
      {"allreduce_bytes", "8000000"},
      {"allreduce_start_us", "10"},
      {"stop_ms", "12"},
      {"rate_window_us", "20"}}},
};
    return rows;
}

const std::vector<CompatPreset>&
CompatPresets()
{
    static const std::vector<CompatPreset> rows = {
    {"nicc", "nicc's own model defaults", {}},
    {"hpcc-sim",
     "the HPCC simulator's semantics (alibaba-edu/High-Precision-Congestion-Control, "
     "docs/hpcc-compat.md); what --hpcc-config implies",
     {
         // NIC (simulation/src/point-to-point/model/rdma-hw.cc)
         {"ack_interval", "1"},  // every packet is acknowledged (ReceiverCheckSeq)
         {"recovery", "gbn"},    // go-back-N on NACK (L2_BACK_TO_ZERO 0)
         // Switch (switch-mmu.cc, switch-node.cc, qbb-net-device.cc; third.cc)
         {"ack_high_priority", "false"},     // ACKs share the data class unless ACK_HIGH_PRIO
         {"xon_offset_bytes", "3072"},       // resume 3 KB below the threshold
         {"pfc_xoff_at_threshold", "true"},  // XOFF once shared use reaches the threshold
         {"pfc_reserve_bytes", "4096"},      // reserved per (port, queue)
         {"headroom_delay_factor", "3"},     // headroom = rate x delay x 3 per port
         {"headroom_frames", "0"},           //   and no frame terms
         {"pfc_pause_until_resume", "true"}, // receivers ignore the pause time
         {"pfc_alpha", "0.125"},             // pfc_a_shift 3
         // DCQCN as its mlx reading (rdma-hw.cc cnp_received_mlx, CheckRateDecreaseMlx, ...)
         {"cnp_on_ack", "true"},                   // a CNP flag on the ACK of each CE-marked packet
         {"dcqcn.rp_cut_on_grid", "1"},            // cuts checked every RATE_DECREASE_INTERVAL
         {"dcqcn.rp_byte_reset", "0"},             // no byte counter:
         {"dcqcn.rp_hai_without_bc", "1"},         //   the timer alone reaches hyper increase
         {"dcqcn.rp_clamp_tgt_rate_ati", "1"},     // the target clamps once the timer has run
         {"dcqcn.rp_initial_alpha_value", "1023"}, // alpha = 1 at the first CNP (1023/1024)
         {"dcqcn.rp_rate_to_set_on_first_cnp", "0"}, // RateOnFirstCnp 1.0: keep the rate
     }},
};
    return rows;
}

// The built-in scenarios' names and help, from BuiltinScenarioRows.

const std::vector<std::string>&
NiccScenario::Names()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const BuiltinScenarioRow& r : BuiltinScenarioRows())
        {
            v.emplace_back(r.name);
        }
        return v;
    }();
    return names;
}

std::string
NiccScenario::NamesText(const char* sep, const char* last, bool fabricOnly)
{
    std::vector<std::string> names;
    for (const BuiltinScenarioRow& r : BuiltinScenarioRows())
    {
        if (r.fabric || !fabricOnly)
        {
            names.emplace_back(r.name);
        }
    }
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
    {
        out += (i == 0 ? "" : i + 1 == names.size() ? last : sep) + names[i];
    }
    return out;
}

std::string
NiccScenario::ScenariosHelp()
{
    std::string out;
    for (const BuiltinScenarioRow& r : BuiltinScenarioRows())
    {
        out += std::string("  ") + r.name + ": " + r.summary + "\n";
    }
    return out;
}

bool
NiccScenario::IsFabric(const std::string& scenario)
{
    for (const BuiltinScenarioRow& r : BuiltinScenarioRows())
    {
        if (scenario == r.name)
        {
            return r.fabric;
        }
    }
    return false;
}

} // namespace ns3
