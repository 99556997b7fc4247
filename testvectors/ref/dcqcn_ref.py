"""DCQCN reference model: the equations of docs/dcqcn.md in floating point.

Independent of the engine: it shares no code with engine/nicc/dcqcn.h and
keeps rates as real numbers (kb/s), alpha as a real in [0, 1] and time as
unbounded integers (ns). The vector generator (gen.py) runs it to produce
the expected values of the DCQCN conformance vectors.

Sources: Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
SIGCOMM 2015 (reaction point, alpha, fast recovery / additive / hyper
increase); the mlx5 driver's cc_params for the parameter names and the
options the paper does not have (min_dec_fac, clamp_tgt_rate[_ati],
rate_to_set_on_first_cnp, release at line rate).

Two readings of the reaction point (the `variant` parameter):
  0 mlx5       alpha is a per-period EWMA: a period that saw a CNP closes
               with (1 - g) alpha + g, a quiet one with (1 - g) alpha; the
               periods run on a fixed grid from the first CNP. A flow back at
               the maximum is released and starts over at its next CNP.
  1 sigcomm15  the paper's text: at every CNP R_T = R_C, R_C = R_C (1 - alpha/2),
               then alpha = (1 - g) alpha + g (Eq. 1); when no CNP came for K
               (the alpha timer, rp_dce_tcp_rtt), alpha = (1 - g) alpha (Eq. 2),
               the timer restarting at every CNP. The paper's RP has no release:
               a flow back at the maximum keeps alpha decaying, and its next
               CNP cuts by that alpha (the model releases it the same way as
               mlx5 but remembers alpha and the time of its last CNP).
The paper's parameters (clamping R_T at every cut, no minimum time between
cuts) are the dcqcn-paper profile's values, not part of the variant.

rp_cut_on_grid (mlx5 reading only) follows the HPCC simulator
(alibaba-edu/High-Precision-Congestion-Control, rdma-hw.cc,
CheckRateDecreaseMlx): rate-decrease checks every P = rp_rate_reduce_monitor_period
from the first CNP; a check cuts if a CNP came since the previous one; the
first CNP's cut is the first check's. The increase timer starts at the first
cut. Differences kept from nicc: no 1 ns offset of the checks, the byte
counter holds while a cut is due, and a flow is not released then.
"""

MLX5 = dict(
    rp_time_reset=300, rp_byte_reset=32767, rp_threshold=1, rp_ai_rate=5, rp_hai_rate=50,
    rp_gd=11, rp_min_dec_fac=50, rp_min_rate=1, rp_max_rate=0, rp_dce_tcp_g=1019,
    rp_dce_tcp_rtt=1, rp_rate_reduce_monitor_period=4, rp_initial_alpha_value=1023,
    rp_rate_to_set_on_first_cnp=0, rp_clamp_tgt_rate=0, rp_clamp_tgt_rate_ati=1,
    np_min_time_between_cnps=4, variant=0, rp_hai_without_bc=0, rp_cut_on_grid=0)

PAPER = dict(
    rp_time_reset=55, rp_byte_reset=10 * 1024 * 1024, rp_threshold=5, rp_ai_rate=40,
    rp_hai_rate=400, rp_gd=11, rp_min_dec_fac=50, rp_min_rate=1, rp_max_rate=0,
    rp_dce_tcp_g=1020, rp_dce_tcp_rtt=55, rp_rate_reduce_monitor_period=0,
    rp_initial_alpha_value=1023, rp_rate_to_set_on_first_cnp=0, rp_clamp_tgt_rate=1,
    rp_clamp_tgt_rate_ati=1, np_min_time_between_cnps=50, variant=0, rp_hai_without_bc=0,
    rp_cut_on_grid=0)

PROFILES = {"mlx5": MLX5, "dcqcn-paper": PAPER}

RELEASE_MARGIN_KBPS = 1000.0   # "within 1 Mb/s of the maximum"
HORIZON_US = (2 ** 31 - 1) // 1000
VARIANTS = {"mlx5": 0, "sigcomm15": 1}
# rp_cut_on_grid: the longest check period plus timer period (docs/dcqcn.md).
GRID_SPAN_MAX_NS = 2 ** 31
# A remembered alpha (sigcomm15, released flow) older than this is taken as
# fully decayed: the 32-bit ns clock cannot measure longer silences.
ALPHA_MEMORY_NS = 2 ** 31


def params(profile, line_rate_mbps, **overrides):
    p = dict(PROFILES[profile])
    p["line_rate_mbps"] = line_rate_mbps
    p.update(overrides)
    return p


def validate(p):
    """Returns (field, code) of the first invalid field, or None. Mirrors the
    ranges documented in docs/dcqcn.md."""
    lr = p["line_rate_mbps"]
    if lr == 0:
        return ("line_rate_mbps", "zero")
    if lr > 1600000:
        return ("line_rate_mbps", "out_of_range")
    if p["rp_time_reset"] == 0:
        return ("rp_time_reset", "zero")
    if p["rp_time_reset"] > HORIZON_US:
        return ("rp_time_reset", "out_of_range")
    if p["rp_threshold"] > 31:
        return ("rp_threshold", "out_of_range")
    if p["rp_ai_rate"] > lr:
        return ("rp_ai_rate", "out_of_range")
    if p["rp_hai_rate"] > lr:
        return ("rp_hai_rate", "out_of_range")
    if p["rp_hai_rate"] < p["rp_ai_rate"]:
        return ("rp_hai_rate", "inconsistent")
    if not 10 <= p["rp_gd"] <= 20:
        return ("rp_gd", "out_of_range")
    if p["rp_min_dec_fac"] == 0:
        return ("rp_min_dec_fac", "zero")
    if p["rp_min_dec_fac"] > 100:
        return ("rp_min_dec_fac", "out_of_range")
    if p["rp_max_rate"] > lr:
        return ("rp_max_rate", "out_of_range")
    if p["rp_min_rate"] == 0:
        return ("rp_min_rate", "zero")
    mx = p["rp_max_rate"] or lr
    if p["rp_min_rate"] > mx:
        return ("rp_min_rate", "inconsistent")
    if p["rp_dce_tcp_g"] > 1023:
        return ("rp_dce_tcp_g", "out_of_range")
    if p["rp_dce_tcp_rtt"] == 0:
        return ("rp_dce_tcp_rtt", "zero")
    if p["rp_dce_tcp_rtt"] > HORIZON_US:
        return ("rp_dce_tcp_rtt", "out_of_range")
    if p["rp_rate_reduce_monitor_period"] > HORIZON_US:
        return ("rp_rate_reduce_monitor_period", "out_of_range")
    if p["rp_initial_alpha_value"] > 1023:
        return ("rp_initial_alpha_value", "out_of_range")
    first = p["rp_rate_to_set_on_first_cnp"]
    if first > mx:
        return ("rp_rate_to_set_on_first_cnp", "out_of_range")
    if first != 0 and first < p["rp_min_rate"]:
        return ("rp_rate_to_set_on_first_cnp", "inconsistent")
    if p["rp_clamp_tgt_rate"] > 1:
        return ("rp_clamp_tgt_rate", "out_of_range")
    if p["rp_clamp_tgt_rate_ati"] > 1:
        return ("rp_clamp_tgt_rate_ati", "out_of_range")
    if p["np_min_time_between_cnps"] > HORIZON_US:
        return ("np_min_time_between_cnps", "out_of_range")
    if p["variant"] not in VARIANTS.values():
        return ("variant", "out_of_range")
    if p["rp_hai_without_bc"] > 1:
        return ("rp_hai_without_bc", "out_of_range")
    if p["rp_cut_on_grid"] > 1:
        return ("rp_cut_on_grid", "out_of_range")
    if p["rp_cut_on_grid"] and p["rp_rate_reduce_monitor_period"] == 0:
        return ("rp_cut_on_grid", "inconsistent")
    if p["rp_cut_on_grid"] and p["variant"] != VARIANTS["mlx5"]:
        return ("rp_cut_on_grid", "unsupported")
    # docs/dcqcn.md: with the grid, the check period plus the timer period
    # must fit the 2^31 ns a 32-bit ns clock can measure (the latest check
    # has to stay measurable from any event).
    grid_span_ns = 1000 * (p["rp_rate_reduce_monitor_period"] + p["rp_time_reset"])
    if p["rp_cut_on_grid"] and grid_span_ns > GRID_SPAN_MAX_NS:
        return ("rp_cut_on_grid", "inconsistent")
    return None


class ReactionPoint:
    """One flow at the sender. Methods take the time in ns (any integer) and
    return (flags, timer_ns) where flags is a set of action names."""

    def __init__(self, p):
        self.p = p
        self.max = 1000.0 * (p["rp_max_rate"] or p["line_rate_mbps"])
        self.keep = p["rp_dce_tcp_g"] / 1024.0
        self.g = 1.0 - self.keep
        self.period = 1000 * p["rp_dce_tcp_rtt"]
        self.active = False
        self.seen = False  # sigcomm15: a CNP came before; alpha is remembered
        self.grid = bool(p["rp_cut_on_grid"])
        self.check_period = 1000 * p["rp_rate_reduce_monitor_period"]
        self.anchor = 0        # grid: the latest check
        self.cut_due = False   # grid: a CNP came since the latest check
        self.rc = self.rt = self.max
        self.alpha = 0.0
        self.alpha_start = 0
        self.cnp_in_period = False
        self.last_cut = 0
        self.cut_open = False
        self.timer_inc = False
        self.due = None
        self.t = self.bc = 0
        self.bytes = 0

    def rate_kbps(self):
        return self.rc if self.active else self.max

    def _close_periods(self, now):
        k = (now - self.alpha_start) // self.period
        if k <= 0:
            return
        self.alpha_start += k * self.period
        self.alpha = self.keep * self.alpha + (self.g if self.cnp_in_period else 0.0)
        self.cnp_in_period = False
        self.alpha *= self.keep ** (k - 1)

    def _decay(self, now):
        """Eq. 2: one (1 - g) per whole K without a CNP since alpha_start."""
        k = (now - self.alpha_start) // self.period
        if k > 0:
            self.alpha_start += k * self.period
            self.alpha *= self.keep ** k

    def _cnp_sigcomm15(self, now):
        p = self.p
        if not self.active:
            if self.seen:
                if now - self.alpha_start >= ALPHA_MEMORY_NS:
                    self.alpha = 0.0
                else:
                    self._decay(now)
                start = self.max
            else:
                start = 1000.0 * (p["rp_rate_to_set_on_first_cnp"] or 0) or self.max
                self.alpha = p["rp_initial_alpha_value"] / 1024.0
            self.active = self.seen = True
            self.rc = self.rt = start
            self.timer_inc = False
            self.cut_open = False
            can_cut = True
        else:
            self._decay(now)
            can_cut = self.cut_open or now - self.last_cut >= 1000 * p["rp_rate_reduce_monitor_period"]
        self.alpha_start = now  # the alpha timer restarts at every CNP
        result = self._cut(now) if can_cut else (set(), None)
        self.alpha = self.keep * self.alpha + self.g  # Eq. 1, after the cut
        return result

    def _cut(self, now):
        p = self.p
        if p["rp_clamp_tgt_rate"] or (p["rp_clamp_tgt_rate_ati"] and self.timer_inc):
            self.rt = self.rc
        cut = self.rc * (1.0 - self.alpha / 2.0 ** (p["rp_gd"] - 10))
        floor = self.rc * p["rp_min_dec_fac"] / 100.0
        self.rc = max(cut, floor, 1000.0 * p["rp_min_rate"])
        self.rt = max(self.rt, self.rc)
        self.t = self.bc = 0
        self.bytes = 0
        self.last_cut = now
        self.cut_open = False
        self.timer_inc = False
        self.due = now + 1000 * p["rp_time_reset"]
        return {"set_rate", "arm_timer"}, self.due

    def _increase(self, by_timer):
        f = self.p["rp_threshold"]
        hi, lo = max(self.t, self.bc), min(self.t, self.bc)
        if self.p["rp_hai_without_bc"] and self.p["rp_byte_reset"] == 0:
            lo = self.t  # the timer alone: hyper increase once T > F
        if hi >= f:
            step = self.p["rp_hai_rate"] if lo > f else self.p["rp_ai_rate"]
            self.rt = min(self.rt + 1000.0 * step, self.max)
        self.rc = (self.rt + self.rc) / 2.0
        if by_timer:
            self.t = min(self.t + 1, 255)
            self.timer_inc = True
        else:
            self.bc = min(self.bc + 1, 255)
        if self.rt >= self.max and self.max - self.rc <= RELEASE_MARGIN_KBPS and not self.cut_due:
            self.active = False
            self.rc = self.max
            self.due = None
            return {"set_rate", "cancel_timer"}
        return {"set_rate"}

    def timer_deadline(self):
        """When the flow's timer should be delivered, or None (idle)."""
        return self._deadline() if self.active and self.due is not None else None

    def _deadline(self):
        if self.cut_due:
            return min(self.anchor + self.check_period, self.due)
        return self.due

    def _cnp_grid(self, now):
        if not self.active:
            start = 1000.0 * (self.p["rp_rate_to_set_on_first_cnp"] or 0) or self.max
            self.active = True
            self.rc = self.rt = start
            self.alpha = self.p["rp_initial_alpha_value"] / 1024.0
            self.alpha_start = now
            self.cnp_in_period = False
            self.timer_inc = False
            self.t = self.bc = 0
            self.bytes = 0
            self.anchor = now
            self.cut_due = True
            self.due = now + self.check_period  # no increase timer before the first cut
            return {"set_rate", "arm_timer"}, self.due
        self._close_periods(now)
        self.cnp_in_period = True
        if self.cut_due:
            return set(), None
        self.anchor += (now - self.anchor) // self.check_period * self.check_period
        self.cut_due = True
        return {"arm_timer"}, self._deadline()

    def on_cnp(self, now):
        if self.p["variant"] == VARIANTS["sigcomm15"]:
            return self._cnp_sigcomm15(now)
        if self.grid:
            return self._cnp_grid(now)
        if not self.active:
            start = 1000.0 * (self.p["rp_rate_to_set_on_first_cnp"] or 0) or self.max
            self.active = True
            self.rc = self.rt = start
            self.alpha = self.p["rp_initial_alpha_value"] / 1024.0
            self.alpha_start = now
            self.cnp_in_period = False
            self.timer_inc = False
            return self._cut(now)
        self._close_periods(now)
        self.cnp_in_period = True
        mon = 1000 * self.p["rp_rate_reduce_monitor_period"]
        if self.cut_open or now - self.last_cut >= mon:
            return self._cut(now)
        return set(), None

    def on_timer(self, now):
        if not self.active:
            return set(), None
        if self.cut_due and now - self.anchor >= self.check_period:
            check = self.anchor + (now - self.anchor) // self.check_period * self.check_period
            self._close_periods(now)
            self.cut_due = False
            result = self._cut(now)
            self.anchor = check
            return result
        if now < self.due:
            return {"arm_timer"}, self._deadline()
        if now - self.last_cut >= 1000 * self.p["rp_rate_reduce_monitor_period"]:
            self.cut_open = True
        flags = self._increase(True)
        if self.active:
            self.due = now + 1000 * self.p["rp_time_reset"]
            return flags | {"arm_timer"}, self._deadline()
        return flags, None

    def on_tx(self, nbytes, now):
        reset = self.p["rp_byte_reset"]
        if not self.active or reset == 0 or self.cut_due:
            return set(), None
        self.bytes += nbytes
        if self.bytes < reset:
            return set(), None
        self.bytes -= reset
        if self.bytes >= reset:
            self.bytes = reset - 1
        return self._increase(False), None


class NotificationPoint:
    def __init__(self, p):
        self.interval = 1000 * p["np_min_time_between_cnps"]
        self.last = None

    def on_packet(self, ce, now):
        if not ce:
            return set()
        if self.last is not None and 0 <= now - self.last < self.interval:
            return set()
        self.last = now
        return {"send_cnp"}
