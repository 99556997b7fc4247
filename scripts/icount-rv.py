#!/usr/bin/env python3
"""RISC-V instructions and modelled in-order cycles per event kind.

Usage: icount-rv.py DISASSEMBLY REGIONS QEMU_LOG

DISASSEMBLY: `riscv64-linux-gnu-objdump -d --no-show-raw-insn` of an icount
driver built with -DNICC_ICOUNT_MARKERS; REGIONS: its stdout (lines
"icount-region <kind> <n>", in order); QEMU_LOG: the `-singlestep -d
exec,nochain` log of that run (a file or a FIFO; read once, streamed), one
"Trace" line per executed instruction, named by its function. The
instructions between the k-th nicc_icount_begin and nicc_icount_end belong to
the k-th region (the n events plus a few loop instructions per event, as in
the callgrind counts).

Cycle model: a single-issue, in-order, fully bypassed five-stage pipeline
with the result latencies the SiFive E31 core manual gives (FE310-G000
manual, section 3.3: LW 2 cycles, LB/LH 3, MUL 5, DIV/REM 2-33, a
mispredicted control transfer 3 cycles). Here: LD/LW/LWU 2, LB/LBU/LH/LHU
3, MUL* 5, 32-bit DIV/REM 33 and 64-bit 65 (the 1-bit-per-cycle divider's
worst case), everything else 1; an instruction issues when its source
registers are ready. Branches are predicted statically (backward taken,
forward not taken): a wrong guess, and every indirect jump other than a
return, costs 3 cycles. Caches always hit. A dynamic predictor would do
better on the loops; an L1 miss on the flow's state would add the memory
latency (bench/many_flow_bench: lines per event).

Prints per region: kind, instructions/event, cycles/event, loads, branches
mispredicted, mul and div per event.
"""
import re
import sys

REGS = {"zero", "ra", "sp", "gp", "tp", "fp"} | {f"t{i}" for i in range(7)} | \
    {f"s{i}" for i in range(12)} | {f"a{i}" for i in range(8)}
LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\] (\S*)")
LOAD_LAT = {"ld": 2, "lw": 2, "lwu": 2, "lb": 3, "lbu": 3, "lh": 3, "lhu": 3}
NO_DEST = ("sb", "sh", "sw", "sd", "j", "jr", "ret", "nop", "fence", "ecall", "ebreak")


def regs_of(text):
    return [t for t in re.split(r"[\s,()]+", text.split("#")[0]) if t in REGS]


def parse_insn(mn, ops):
    """(dest or None, sources, latency, class)"""
    regs = regs_of(ops)
    base = mn.split(".")[0] if not mn.startswith("c.") else mn[2:]
    cls = "alu"
    lat = 1
    if base in LOAD_LAT:
        cls, lat = "load", LOAD_LAT[base]
    elif base.startswith("mul"):
        cls, lat = "mul", 5
    elif base.startswith(("div", "rem")):
        cls, lat = "div", 33 if base.endswith("w") else 65
    elif base.startswith("b") and base not in ("bset", "bclr", "binv", "bext"):
        cls = "branch"
    elif base in ("j", "jal"):
        cls = "jump"
    elif base in ("jr", "jalr", "ret"):
        cls = "ret" if base == "ret" or ops.strip() in ("ra", "0(ra)", "zero,0(ra)") else "indirect"
    if cls == "branch" or base in NO_DEST or cls in ("ret",):
        dest, srcs = None, regs
    elif base == "jal":
        dest, srcs = "ra", []
    elif base == "jalr":
        dest, srcs = ("ra" if len(regs) == 1 else regs[0]), regs[-1:]
    elif base.startswith("s") and base[:2] in ("sb", "sh", "sw", "sd") and len(base) == 2:
        dest, srcs = None, regs
    else:
        dest, srcs = (regs[0] if regs else None), regs[1:]
    if dest == "zero":
        dest = None
    srcs = [r for r in srcs if r != "zero"]
    return dest, srcs, lat, cls


def load_disassembly(path):
    insns, addrs = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            insns[pc] = parse_insn(m.group(2), m.group(3))
            addrs.append(pc)
    addrs.sort()
    size = {a: (b - a) for a, b in zip(addrs, addrs[1:])}
    return insns, size


class Region:
    def __init__(self):
        self.n = self.cycles = self.loads = self.mispredicts = self.mul = self.div = 0
        self.ready = {}
        self.clock = 0
        self.prev = None  # (pc, cls) of the previous instruction

    def step(self, pc, insn, size):
        dest, srcs, lat, cls = insn
        if self.prev is not None:
            ppc, pcls, psize = self.prev
            taken = pc != ppc + psize
            if pcls == "branch" and taken != (pc < ppc):
                self.clock += 3
                self.mispredicts += 1
            elif pcls == "indirect":
                self.clock += 3
                self.mispredicts += 1
        issue = self.clock
        for r in srcs:
            issue = max(issue, self.ready.get(r, 0))
        self.clock = issue + 1
        if dest:
            self.ready[dest] = issue + lat
        self.n += 1
        self.loads += cls == "load"
        self.mul += cls == "mul"
        self.div += cls == "div"
        self.prev = (pc, cls, size)

    def finish(self):
        self.cycles = max([self.clock] + list(self.ready.values()))


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    insns, sizes = load_disassembly(argv[0])
    regions, cur = [], None
    unknown = 0
    with open(argv[2], encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TRACE.match(line)
            if not m:
                continue
            sym = m.group(2)
            if sym == "nicc_icount_begin":
                cur = Region()
                continue
            if sym == "nicc_icount_end":
                if cur is not None:
                    cur.finish()
                    regions.append(cur)
                cur = None
                continue
            if cur is None:
                continue
            pc = int(m.group(1), 16)
            insn = insns.get(pc)
            if insn is None:
                unknown += 1
                insn = (None, [], 1, "alu")
            cur.step(pc, insn, sizes.get(pc, 4))
    # The run's stdout is complete once its log is (read after the log).
    with open(argv[1], encoding="utf-8") as f:
        names = [(l.split()[1], int(l.split()[2])) for l in f if l.startswith("icount-region ")]
    if len(regions) != len(names):
        print(f"icount-rv: {len(names)} regions announced, {len(regions)} traced", file=sys.stderr)
        return 1
    for (kind, n), r in zip(names, regions):
        print(f"{kind:<32} {r.n / n:>9.1f} {r.cycles / n:>9.1f} {r.loads / n:>7.1f} "
              f"{r.mispredicts / n:>7.1f} {r.mul / n:>5.1f} {r.div / n:>5.1f}")
    if unknown:
        print(f"icount-rv: {unknown} traced instructions not in the disassembly", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
