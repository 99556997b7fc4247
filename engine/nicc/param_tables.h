/* nicc/param_tables.h — every parameter of every algorithm, every profile
 * name and every status code, declared once.
 *
 * This is the single source of truth. Each list is an X-macro: a consumer
 * defines X to pick the columns it needs and expands the list. C++ builds
 * the engine's Params structs and constexpr tables from it (params.h), the C
 * ABI builds its parameter structs and enums from it (ports/firmware
 * nicc/fw.h), and everything else (Validate(), the vector files, the C
 * emitter, the verbs cc_params mapping, ns-3 Attributes, scenario keys,
 * nicc-sim --help, docs/params.md) iterates the C++ tables. Adding a knob is
 * one line here.
 *
 * Plain C preprocessor only: this header is included from C99 and C++.
 *
 * Parameter rows:  P(name, unit, min, max, (v_profile0, v_profile1, ...), flags, doc)
 *   name    snake_case; the mlx5 cc_params name where one exists. The same
 *           spelling is the C ABI field, the vector-file `param` name and the
 *           scenario key `<algo>.<name>`; ns-3 Attributes are CamelCase of
 *           `<algo>_<name>` (params.h: AttributeName()).
 *   unit    a token of NICC_UNITS below
 *   min/max inclusive range of the field on its own (cross-field rules,
 *           e.g. rp_ai_rate <= line rate, live in each Validate())
 *   values  the value under each profile of the algorithm, in the order of
 *           its profile list
 *   flags   0, NICC_PARAM_BACKEND: the backend supplies the value from
 *           what it is attached to (port speed, flow label); such fields are
 *           no Attribute or scenario key of their own; or NICC_PARAM_NICC:
 *           nicc's own field, not a vendor (mlx5 cc_params) one
 *
 * Profile rows:  R(Token, "spelling", doc)  — the spelling is the one name
 * used by every tool, file and ABI.
 */
#ifndef NICC_PARAM_TABLES_H_
#define NICC_PARAM_TABLES_H_

/* Wrap-safe horizon of the 32-bit ns clock in whole us (2^31 ns). */
#define NICC_MAX_PERIOD_US 2147483u
/* 2^31 - 1 ns. */
#define NICC_TIME_HORIZON_NS 2147483647u
/* 1.6 Tb/s in Mb/s: the fastest port the engine is specified for. */
#define NICC_MAX_LINE_RATE_MBPS 1600000u
/* HPCC history must expire before a hop's 20-bit tx-byte counter (128 B
 * units at the x1 multiplier) can wrap at the fastest rate code, 1.6 Tb/s:
 * 2^20 * 128 B / 200 B/ns = 671088 ns. */
#define NICC_HPCC_MAX_HISTORY_US 671u

#define NICC_PARAM_BACKEND 1u
/* Not a vendor field: a nicc selector or knob with no mlx5 cc_params file
 * (the verbs cc_params import skips it). */
#define NICC_PARAM_NICC 2u

/* ---------------------------------------------------------------------------
 * Units: U(Token, "symbol", meaning)
 * ------------------------------------------------------------------------ */
#define NICC_UNITS(U)                                              \
  U(Us, "us", "microseconds")                                      \
  U(Ns, "ns", "nanoseconds")                                       \
  U(Mbps, "Mb/s", "megabits per second")                           \
  U(Bytes, "B", "bytes")                                           \
  U(Per1024, "/1024", "fraction in 1/1024 units")                  \
  U(Percent, "%", "percent")                                       \
  U(Ppm, "ppm", "parts per million")                               \
  U(Shift, "log2", "power of two (a shift count)")                 \
  U(Count, "count", "a plain count")                               \
  U(Bool, "bool", "0 = off, 1 = on")                               \
  U(Port, "port", "UDP port number")                               \
  U(Label, "label", "20-bit IPv6/GRH flow label")                  \
  U(DcqcnVariant, "variant", "a DCQCN variant code (NICC_DCQCN_VARIANTS; scenario keys take the name)")

/* ---------------------------------------------------------------------------
 * Status codes: S(Token, C_TOKEN, code, "snake_name", meaning)
 * C name: NICC_FW_<C_TOKEN>; vector files use the snake name.
 * ------------------------------------------------------------------------ */
#define NICC_STATUS_CODES(S)                                                              \
  S(Ok, OK, 0, "ok", "ok")                                                                \
  S(Zero, ERR_ZERO, 1, "zero", "must not be zero")                                        \
  S(OutOfRange, ERR_OUT_OF_RANGE, 2, "out_of_range", "out of range")                      \
  S(Inconsistent, ERR_INCONSISTENT, 3, "inconsistent", "inconsistent with another field") \
  S(Truncated, ERR_TRUNCATED, 4, "truncated", "truncated input")                          \
  S(TooManyHops, ERR_TOO_MANY_HOPS, 5, "too_many_hops", "too many hops")                  \
  S(BadRateCode, ERR_BAD_RATE_CODE, 6, "bad_rate_code", "unknown link-rate code")         \
  S(Full, ERR_FULL, 7, "full", "table full")                                              \
  S(NotFound, ERR_NOT_FOUND, 8, "not_found", "not found")                                 \
  S(Unsupported, ERR_UNSUPPORTED, 9, "unsupported", "unsupported")

/* ---------------------------------------------------------------------------
 * Action flags (what an algorithm asks the backend to do):
 * A(Token, C_TOKEN, bit, "snake_name", meaning); C name NICC_FW_ACT_<C_TOKEN>.
 * ------------------------------------------------------------------------ */
#define NICC_ACTION_FLAGS(A)                                                          \
  A(SetRate, SET_RATE, 0, "set_rate", "pace the flow at rate_kbps")                   \
  A(SetWindow, SET_WINDOW, 1, "set_window", "limit bytes in flight to window_bytes") \
  A(UseEv, USE_EV, 2, "use_ev", "send the next packet with entropy value ev")        \
  A(SendCnp, SEND_CNP, 3, "send_cnp", "send one CNP toward the flow's source")        \
  A(ArmTimer, ARM_TIMER, 4, "arm_timer", "(re)arm the flow's timer to fire at timer_ns") \
  A(CancelTimer, CANCEL_TIMER, 5, "cancel_timer", "cancel the flow's timer") \
  A(ChangeEv, CHANGE_EV, 6, "change_ev", "path selection: move off entropy value ev (marked at low delay)") \
  A(GrantCredit, GRANT_CREDIT, 7, "grant_credit", \
    "receiver: echo window_bytes as the credit limit (absolute byte sequence) in the ACK of this packet")

/* ---------------------------------------------------------------------------
 * Choices (enumerated selectors): C(Token, C_TOKEN, code, "spelling", doc)
 * ------------------------------------------------------------------------ */
#define NICC_CC_KINDS(C)                                                          \
  C(None, NONE, 0, "none", "no congestion control: line rate, no window")       \
  C(Dcqcn, DCQCN, 1, "dcqcn", "DCQCN: rate-based, CNP-driven")                   \
  C(Hpcc, HPCC, 2, "hpcc", "HPCC: window-based, INT-driven")                     \
  C(HpccPint, HPCC_PINT, 3, "hpcc-pint", "HPCC with one PINT utilisation code per ACK") \
  C(Nscc, NSCC, 4, "nscc", "UEC NSCC: window-based, ECN and queueing delay per ACK, quick adapt on NACK/trim") \
  C(HpccSpray, HPCC_SPRAY, 5, "hpcc-spray", "HPCC for sprayed flows: one INT history per entropy value (up to 4 paths), U = their maximum") \
  C(NsccRccc, NSCC_RCCC, 6, "nscc+rccc",                                         \
    "UEC NSCC bounded by RCCC receiver credit: window = min(NSCC window, credit granted - snd_una)")

#define NICC_SPRAY_POLICIES(C)                                                            \
  C(Ecmp, ECMP, 0, "ecmp", "one fixed entropy value (the flow's own port)")               \
  C(Ops, OPS, 1, "ops", "oblivious spraying: every EV once per round, a fresh order each round") \
  C(Bitmap, BITMAP, 2, "bitmap", "ops, skipping EVs with a penalty (ECN +1, NACK +4, timeout max)") \
  C(Reps, REPS, 3, "reps", "recycle EVs whose ACK came back clean; explore when none")    \
  C(Plb, PLB, 4, "plb", "one EV; repath after N congested rounds")                        \
  C(Dlb, DLB, 5, "dlb", "least-congested EV by per-EV EWMA of marks and RTT")

/* ---------------------------------------------------------------------------
 * The driver itself (hal/nicc/hal/driver.h: DriverParams): what a flow is
 * whatever CC it runs. The CC choice (NICC_CC_KINDS) goes with it.
 * ------------------------------------------------------------------------ */
#define NICC_DRIVER_PROFILES(R) R(Default, "driver-default", "a 100 Gb/s port")

#define NICC_DRIVER_PARAMS(P)                                                                      \
  P(line_rate_mbps, Mbps, 1, NICC_MAX_LINE_RATE_MBPS, (100000), NICC_PARAM_BACKEND,                \
    "port speed: the rate of a flow without CC (cc = none), and the rate at which a host "        \
    "rate limiter is lifted")

/* ---------------------------------------------------------------------------
 * DCQCN (dcqcn.h). mlx5 cc_params names and units.
 * ------------------------------------------------------------------------ */
#define NICC_DCQCN_PROFILES(R)                                                         \
  R(Mlx5, "mlx5", "ConnectX defaults (the mlx5 driver's cc_params)")                   \
  R(Paper, "dcqcn-paper", "DCQCN paper (SIGCOMM'15) simulation settings: g = 1/256 " \
                          "(1020/1024), 55 us timers, 10 MiB byte counter, F = 5, R_AI 40 Mb/s")

/* Algorithm variants (the `variant` row below), separate from the profiles:
 * which reading of DCQCN the reaction point follows (docs/dcqcn.md,
 * "Variants"). */
#define NICC_DCQCN_VARIANTS(C)                                                                   \
  C(Mlx5, MLX5, 0, "mlx5", "the mlx5 (ConnectX) reading: alpha updated once per alpha period, " \
                           "a released flow starts over at its next CNP")                      \
  C(Sigcomm15, SIGCOMM15, 1, "sigcomm15", "the SIGCOMM'15 text: alpha updated at every CNP "     \
                                          "(Eq. 1), decayed per K without CNP (Eq. 2), kept "      \
                                          "across a release")
/* Largest code of NICC_DCQCN_VARIANTS (dcqcn.h checks it against the list). */
#define NICC_DCQCN_VARIANT_MAX 1u

#define NICC_DCQCN_PARAMS(P)                                                                          \
  P(line_rate_mbps, Mbps, 1, NICC_MAX_LINE_RATE_MBPS, (100000, 100000), NICC_PARAM_BACKEND,          \
    "port speed; the ceiling when rp_max_rate is 0")                                                \
  P(rp_time_reset, Us, 1, NICC_MAX_PERIOD_US, (300, 55), 0, "rate-increase timer period")          \
  P(rp_byte_reset, Bytes, 0, 0xFFFFFFFFu, (32767, 10485760), 0,                                     \
    "bytes sent between byte-counter increases; 0 = counter off")                                   \
  P(rp_threshold, Count, 0, 31, (1, 5), 0, "F: fast-recovery stages before additive increase")     \
  P(rp_ai_rate, Mbps, 0, NICC_MAX_LINE_RATE_MBPS, (5, 40), 0,                                       \
    "additive increase of the target rate per stage; <= line rate")                                 \
  P(rp_hai_rate, Mbps, 0, NICC_MAX_LINE_RATE_MBPS, (50, 400), 0,                                    \
    "hyper increase of the target rate per stage; >= rp_ai_rate, <= line rate "                     \
    "(the paper gives none: 10 x R_AI)")                                                            \
  P(rp_gd, Shift, 10, 20, (11, 11), 0, "cut = rate * alpha / 2^(rp_gd - 10) (alpha/2 at 11)")       \
  P(rp_min_dec_fac, Percent, 1, 100, (50, 50), 0, "a cut keeps at least this share of the rate")   \
  P(rp_min_rate, Mbps, 1, NICC_MAX_LINE_RATE_MBPS, (1, 1), 0, "rate floor; <= the ceiling")         \
  P(rp_max_rate, Mbps, 0, NICC_MAX_LINE_RATE_MBPS, (0, 0), 0, "rate ceiling; 0 = line rate")        \
  P(rp_dce_tcp_g, Per1024, 0, 1023, (1019, 1020), 0,                                                \
    "alpha EWMA keep factor: alpha = alpha * g/1024 (+ (1 - g/1024) on a marked period)")           \
  P(rp_dce_tcp_rtt, Us, 1, NICC_MAX_PERIOD_US, (1, 55), 0, "alpha update period")                  \
  P(rp_rate_reduce_monitor_period, Us, 0, NICC_MAX_PERIOD_US, (4, 0), 0,                            \
    "minimum time between two rate cuts; 0 = every CNP may cut")                                    \
  P(rp_initial_alpha_value, Per1024, 0, 1023, (1023, 1023), 0, "alpha set by a flow's first CNP")   \
  P(rp_rate_to_set_on_first_cnp, Mbps, 0, NICC_MAX_LINE_RATE_MBPS, (0, 0), 0,                       \
    "rate a first CNP starts from; 0 = the current rate")                                           \
  P(rp_clamp_tgt_rate, Bool, 0, 1, (0, 1), 0, "every cut sets the target rate to the current rate") \
  P(rp_clamp_tgt_rate_ati, Bool, 0, 1, (1, 1), 0,                                                   \
    "a cut clamps the target only if a timer increase came since the last cut")                     \
  P(np_min_time_between_cnps, Us, 0, NICC_MAX_PERIOD_US, (4, 50), 0,                                \
    "receiver: at most one CNP per flow per this period")                                           \
  P(variant, DcqcnVariant, 0, NICC_DCQCN_VARIANT_MAX, (0, 0), NICC_PARAM_NICC,                        \
    "algorithm variant, separate from the profile: mlx5 or sigcomm15 (docs/dcqcn.md)")              \
  P(rp_hai_without_bc, Bool, 0, 1, (0, 0), NICC_PARAM_NICC,                                           \
    "with rp_byte_reset = 0, the timer alone reaches hyper increase (T > F), as the HPCC "          \
    "simulator; 0 = no hyper increase without the byte counter")                                    \
  P(rp_cut_on_grid, Bool, 0, 1, (0, 0), NICC_PARAM_NICC,                                              \
    "cut only at checks every rp_rate_reduce_monitor_period from the first CNP, for the CNPs "       \
    "since the previous check (the HPCC simulator's RATE_DECREASE_INTERVAL); mlx5 variant only, "  \
    "with rp_rate_reduce_monitor_period + rp_time_reset below 2^31 ns")

/* ---------------------------------------------------------------------------
 * HPCC (hpcc.h).
 * ------------------------------------------------------------------------ */
#define NICC_HPCC_PROFILES(R)                                                                   \
  R(Paper, "hpcc-paper", "HPCC paper (SIGCOMM'19) settings: 100G hosts, T = 13 us, eta 95%, " \
                         "maxStage 5, W_AI 80 B")                                                \
  R(Later, "hpcc-later", "the authors' later setting: as hpcc-paper with maxStage 0")

#define NICC_HPCC_PARAMS(P)                                                                           \
  P(line_rate_mbps, Mbps, 1, NICC_MAX_LINE_RATE_MBPS, (100000, 100000), NICC_PARAM_BACKEND,          \
    "NIC port speed; the window is at most its BDP")                                                \
  P(base_rtt_ns, Ns, 1000, 1000000, (13000, 13000), 0,                                              \
    "T: base RTT, the EWMA horizon and the window-to-rate divisor")                                 \
  P(eta_ppm, Ppm, 1, 1000000, (950000, 950000), 0, "eta: target utilisation")                       \
  P(max_stage, Count, 0, 255, (5, 0), 0, "additive stages before a forced multiplicative update")   \
  P(w_ai_bytes, Bytes, 0, 0xFFFFFFFFu, (80, 80), 0, "W_AI: additive increase per update; <= BDP")   \
  P(min_window_bytes, Bytes, 1, 0xFFFFFFFFu, (163, 163), 0,                                         \
    "window floor; <= BDP (the paper's 100 Mb/s minimum rate times T)")                             \
  P(history_timeout_us, Us, 1, NICC_HPCC_MAX_HISTORY_US, (256, 256), 0,                             \
    "ACK silence after which per-hop INT history is dropped; <= 671 us, the time a "                \
    "1.6 Tb/s hop takes to wrap its 20-bit tx-byte counter")

/* ---------------------------------------------------------------------------
 * NSCC (nscc.h): UEC 1.0 network-signal-based CC. Defaults: htsim's
 * UecSrc::initNsccParams (uet-htsim, uec.cpp) for a 100 Gb/s, 12 us network
 * with trimming; the gains scale with BDP / (100 Gb/s x 12 us) (docs/nscc.md).
 * ------------------------------------------------------------------------ */
#define NICC_NSCC_PROFILES(R) \
  R(UecDefault, "uec-default", "UEC 1.0 / htsim defaults: 100G, base RTT 12 us, target 9 us (trimming on)")

#define NICC_NSCC_PARAMS(P)                                                                        \
  P(line_rate_mbps, Mbps, 1, NICC_MAX_LINE_RATE_MBPS, (100000), NICC_PARAM_BACKEND,               \
    "NIC port speed: BDP = line rate x base_rtt_ns, the gains' scale and the rate ceiling")       \
  P(base_rtt_ns, Ns, 1000, 1000000, (12000), 0,                                                  \
    "base RTT: queueing delay = RTT - base_rtt_ns; the batching period and the window-to-rate divisor") \
  P(target_qdelay_ns, Ns, 1, 1000000, (9000), 0,                                                 \
    "target queueing delay (0.75 x base RTT with trimming, as htsim)")                           \
  P(mss_bytes, Bytes, 256, 9216, (4096), 0, "payload bytes per packet: the unit of the gains")   \
  P(min_window_bytes, Bytes, 1, 0xFFFFFFFFu, (4160), 0, "window floor (one MTU); <= the ceiling") \
  P(max_window_pct, Percent, 100, 400, (150), 0, "window ceiling as a share of the BDP (maxwnd = 1.5 BDP)") \
  P(alpha_x1024, Per1024, 0, 65535, (4096), 0,                                                   \
    "proportional increase gain: alpha = 4.0 MSS x scale x target/12us / target per byte-ns")   \
  P(fi_x1024, Per1024, 0, 65535, (5120), 0, "fair increase: 5.0 MSS x scale per window of ACKed bytes") \
  P(eta_x1024, Per1024, 0, 65535, (154), 0, "additive increase per batching period: 0.15 MSS x scale") \
  P(gamma_x1024, Per1024, 0, 1024, (819), 0,                                                     \
    "decrease gain: W x (1 - gamma (avg - target) / avg), gamma = 0.8")                          \
  P(md_floor_x1024, Per1024, 0, 1024, (512), 0, "a multiplicative decrease keeps at least this share of W") \
  P(delay_ewma_x1024, Per1024, 1, 1024, (13), 0, "gain of the average queueing delay EWMA (0.0125)") \
  P(qa_gate, Shift, 0, 31, (3), 0, "quick adapt only if the bytes ACKed in the last period < ceiling / 2^qa_gate") \
  P(qa_threshold_mult, Count, 1, 16, (4), 0, "quick adapt also when queueing delay > this x target") \
  P(adjust_bytes, Bytes, 1, 0x7FFFFFFFu, (33280), 0,                                             \
    "batching: apply the accumulated increase when more than this was ACKed (8 MTU) or a base RTT passed")

/* ---------------------------------------------------------------------------
 * RCCC (rccc.h): UEC receiver credit CC. The receiver shares a credit pool
 * of one BDP (line rate x base RTT) among its active senders; a sender
 * starts with one BDP of speculative credit (htsim eqds.cpp / uec.cpp:
 * _speculative_credit = _maxwnd) (docs/rccc.md).
 * ------------------------------------------------------------------------ */
#define NICC_RCCC_PROFILES(R) \
  R(UecDefault, "uec-default", "a 100G port on a 12 us fabric: pool = one BDP (150000 B), one BDP of initial credit")

#define NICC_RCCC_PARAMS(P)                                                                        \
  P(line_rate_mbps, Mbps, 1, NICC_MAX_LINE_RATE_MBPS, (100000), NICC_PARAM_BACKEND,               \
    "receiving port speed: credit pool = line rate x base_rtt_ns x pool_pct")                     \
  P(base_rtt_ns, Ns, 1000, 1000000, (12000), 0, "the fabric's unloaded RTT: the pool is this many ns at line rate") \
  P(pool_pct, Percent, 1, 400, (100), 0, "credit pool as a share of the BDP; the active senders share it") \
  P(initial_credit_bytes, Bytes, 0, 1073741824u, (150000), 0,                                    \
    "speculative bytes a sender may send before its first grant (one BDP); <= 2^30")             \
  P(mss_bytes, Bytes, 256, 9216, (4096), 0, "the least credit an active sender is granted; <= the pool")

/* ---------------------------------------------------------------------------
 * Spray path selection (spray.h): the fields every policy reads, then one
 * group per policy.
 * ------------------------------------------------------------------------ */
#define NICC_SPRAY_PROFILES(R) R(Default, "spray-default", "published defaults where any (PLB as Linux' tcp_plb_*)")

#define NICC_SPRAY_COMMON_PARAMS(P)                                                            \
  P(ev_bits, Count, 0, 8, (0), 0, "spray over 2^ev_bits entropy values (bitmap <= 6, dlb <= 4)") \
  P(flow_label, Label, 0, 0xFFFFFu, (0), NICC_PARAM_BACKEND,                                   \
    "flow label of EV 0; the EVs' UDP ports derive from it")                                   \
  P(base_port, Port, 0, 0xFFFFu, (0), NICC_PARAM_BACKEND,                                      \
    "explicit UDP port of EV 0 (>= 0xC000, aligned to 2^ev_bits); 0 = from flow_label")

#define NICC_SPRAY_BITMAP_PARAMS(P)                                                              \
  P(bitmap_ecn_penalty, Count, 0, 15, (1), 0, "bitmap: penalty an ECN-marked ACK adds to its EV") \
  P(bitmap_nack_penalty, Count, 0, 15, (4), 0, "bitmap: penalty a NACK or trim adds to its EV")

#define NICC_SPRAY_REPS_PARAMS(P)                                                                \
  P(reps_max_reuse, Count, 1, 3, (1), 0, "reps: sends per clean ACK of a cached EV")            \
  P(reps_freeze_us, Us, 0, NICC_MAX_PERIOD_US, (100), 0,                                         \
    "reps: replay cached EVs only, for this long after a timeout; 0 = never freeze")

#define NICC_SPRAY_PLB_PARAMS(P)                                                                  \
  P(plb_rehash_rounds, Count, 1, 255, (12), 0, "plb: consecutive congested rounds before a repath") \
  P(plb_idle_rehash_rounds, Count, 0, 255, (3), 0,                                                \
    "plb: ... when nothing is in flight; 0 = off; <= plb_rehash_rounds")                          \
  P(plb_cong_thresh_pct, Percent, 1, 100, (50), 0, "plb: a round is congested at >= this share marked") \
  P(plb_suspend_us, Us, 0, NICC_MAX_PERIOD_US, (1000000), 0,                                      \
    "plb: no repath for this long after a timeout; 0 = off")

#define NICC_SPRAY_DLB_PARAMS(P)                                                                  \
  P(dlb_gain_shift, Shift, 1, 7, (4), 0, "dlb: EWMA gain 1/2^shift per sample")                    \
  P(dlb_rtt_shift, Shift, 0, 16, (8), 0, "dlb: one cost point per 2^shift ns of RTT")              \
  P(dlb_hysteresis, Count, 0, 65535, (64), 0, "dlb: cost points another EV must win by")          \
  P(dlb_probe_shift, Shift, 0, 7, (4), 0, "dlb: probe one packet in 2^shift on another EV; 0 = never") \
  P(dlb_min_dwell, Count, 0, 255, (64), 0, "dlb: feedbacks on an EV before leaving it")

#define NICC_SPRAY_PARAMS(P)     \
  NICC_SPRAY_COMMON_PARAMS(P)    \
  NICC_SPRAY_BITMAP_PARAMS(P)    \
  NICC_SPRAY_REPS_PARAMS(P)      \
  NICC_SPRAY_PLB_PARAMS(P)       \
  NICC_SPRAY_DLB_PARAMS(P)

/* ---------------------------------------------------------------------------
 * ECN path rule (UEC NSCC): an ECN mark with low queueing delay means
 * "change path", not "cut the rate" (ecn_path.h: ecn_path::Rule).
 * ------------------------------------------------------------------------ */
#define NICC_ECN_RULE_PROFILES(R)                                                       \
  R(Nscc, "ecn-nscc", "the rule on, low delay = 4 us (a 400G port's 50 x 4 KB queue)") \
  R(Off, "ecn-off", "the rule off: every mark goes to congestion control")

#define NICC_ECN_RULE_PARAMS(P)                                                                 \
  P(change_path_on_low_delay, Bool, 0, 1, (1, 0), 0,                                          \
    "an ECN mark with queueing delay <= low_delay_ns moves the flow's path instead of cutting") \
  P(low_delay_ns, Ns, 0, NICC_TIME_HORIZON_NS, (4000, 4000), 0,                                 \
    "queueing delay (RTT - base_rtt_ns) that counts as low")                                    \
  P(base_rtt_ns, Ns, 0, NICC_TIME_HORIZON_NS, (13000, 13000), 0,                                \
    "base RTT the queueing delay is measured from")

#endif /* NICC_PARAM_TABLES_H_ */
