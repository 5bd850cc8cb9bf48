# SPDX-License-Identifier: MIT
"""A reference executor: a model run with every tensor at its planned offset.

    import tplan
    out, report = tplan.run(model.eval(), (x,), aliases=True, check=True)
    report.peak, report.lower_bound, report.first_wrong

run() imports the module (tplan.importer, return_graph=True), plans the
table (in this process, or through the tplan device with device=...) and
execute()s the traced graph.  execute() is how a runtime uses a plan:

  - the arena is one byte buffer of the plan's peak (the region mapped from
    the device, when planned there); the table row holding a value is a
    view of the arena at the row's offset, laid out as torch laid it out;
  - a node's result is copied into its row's bytes, except where the plan
    says the row shares its owner's bytes (alias_of, planned with aliases):
    torch must then have put it there already (a view, an in-place op), or
    it is written into its slot of the owner (a concat input);
  - a node reads its inputs from their rows' bytes;
  - with a spill plan, at each step boundary every piece ending there whose
    tensor comes back later is copied out to the host buffer at the next
    piece's host_offset, then every piece starting there is copied in
    (docs/PLANNER.md, "Execution"); a value is read where its piece is;
  - bytes are overwritten with garbage (0xff: NaN for floats) when they
    stop being anyone's: the whole arena first, a row's bytes once its
    lifetime (its alias group's, with aliases) is over, a piece's bytes
    once copied out, a host copy's bytes after the step it came back at.

Device mode (jobs=, or run() with a device that runs jobs, such as
tplan_edu's): the spill copies are the device's, not the CPU's.  At each
step boundary the copies out (arena to host) then in (host to arena), in
the order above, become ONE job of the device's DMA engine on the plan's
region (several only past a job's limits: 256 copies, 1 MiB), and the
executor waits for its fence before the step runs.  The host buffer is a
page-aligned torch uint8 tensor whose data_ptr() is the job's user
memory, left alone while a job runs.  After the fence, the bytes copied
out are garbage except where a copy in of the same boundary put its own.
report.jobs, job_bytes and job_seconds say what the device did.

So a plan that lets two tensors alive at once share a byte, frees a tensor
before its last reader, puts an alias where torch does not, or orders the
copies of a spill plan wrongly gives wrong values.  check=True runs the
graph a second time as torch does (same seed) and compares every value the
arena holds, when written and each time it is read, with that plain run:
report.first_wrong names the first that differs.  The plain run has copies
of the inputs of its own: an input the graph writes in place is written
once, by the plan.
"""
import dataclasses
import errno
import time
import typing

from .errors import Error

GARBAGE = 0xFF


class ExecutionError(Error):
    """The plan cannot be carried out as written: a row too small for its
    value, an offset its dtype cannot be viewed at, an alias torch did not
    make, a value read while it is out of device memory."""

    def __init__(self, message):
        super().__init__(errno.EINVAL, message)


@dataclasses.dataclass
class Wrong:
    """The first value that differs from the plain run: the row, the step,
    when ("written" or "read"), the fx node and the largest difference."""
    row: str
    step: int
    when: str
    node: str
    max_diff: float


@dataclasses.dataclass
class Report:
    """What a run used and found.  peak: the arena's bytes; lower_bound:
    the table's (all tensors in device memory); moved: bytes copied out and
    in (spill plans); host_peak: the host buffer's bytes; steps: the
    table's steps; first_wrong: a Wrong, or None (or not checked); in
    device mode, jobs: the device jobs that did the copies, job_bytes:
    the bytes they moved, job_seconds: the time spent waiting for them."""
    peak: int
    lower_bound: int
    moved: int = 0
    host_peak: int = 0
    steps: int = 0
    checked: bool = False
    first_wrong: typing.Optional[Wrong] = None
    jobs: int = 0
    job_bytes: int = 0
    job_seconds: float = 0.0


def _torch():
    import torch
    return torch


class _Rows:
    """The table's rows as the executor needs them: lifetime, size, alias
    root and offset in it (with aliases), and where each root is."""

    def __init__(self, table, aliases):
        self.row = {r.id: r for r in table}
        self.rel = {}
        self.root = {}
        for r in table:
            rel, x = 0, r
            while aliases and x.alias_of is not None:
                rel += x.alias_offset
                x = self.row[x.alias_of]
            self.root[r.id], self.rel[r.id] = x.id, rel
        groups = {}
        for r in table:
            lo, up = groups.get(self.root[r.id], (r.lower, r.upper))
            groups[self.root[r.id]] = (min(lo, r.lower), max(up, r.upper))
        self.group_span = groups
        self.steps = max((r.upper for r in table), default=0)

    def member(self, rid):
        return self.root[rid] != rid


class _Placement:
    """Where a root row is at a step: one offset (a plan) or the piece
    covering the step (a spill plan)."""

    def __init__(self, offsets=None, pieces=None):
        self.offsets = offsets
        self.pieces = {}
        for p in pieces or ():
            self.pieces.setdefault(str(p.id), []).append(p)

    def at(self, root, step):
        if self.offsets is not None:
            return self.offsets[root]
        for p in self.pieces.get(root, ()):
            if p.lower <= step < p.upper:
                return p.offset
        raise ExecutionError("tensor '%s' is read or written at step %d, "
                             "when no piece holds it in device memory"
                             % (root, step))


PAGE = 4096
# The device time a job may take: 100 ms per 4 KiB transfer on the edu
# device (two per chunk between a region and user memory, which also never
# crosses a page), allowed five times over under emulation, plus a start.
JOB_MS_PER_TRANSFER = 500
JOB_MS_BASE = 10000


def _minus(lo, hi, cuts):
    """[lo, hi) without the ranges [a, b) of cuts, as (lo, hi) pairs."""
    out = [(lo, hi)]
    for a, b in cuts:
        rest = []
        for x, y in out:
            if b <= x or y <= a:
                rest.append((x, y))
                continue
            if x < a:
                rest.append((x, a))
            if b < y:
                rest.append((b, y))
        out = rest
    return out


class _Jobs:
    """A spill plan's copies run as jobs of its device's DMA engine: plan is
    the tplan.Plan held on the device (its region, pool plan.pool, is the
    arena), host the host buffer (a page-aligned uint8 tensor)."""

    def __init__(self, plan, host):
        self.plan = plan
        self.device = plan.device
        self.host = host
        self.addr = host.data_ptr()
        self.jobs = 0
        self.bytes = 0
        self.seconds = 0.0

    def carry(self, ex, copies):
        """copies (the executor's, in order) as device jobs, waited for;
        then the bytes copied out are garbage, but for those copied in."""
        from .device import Place
        todo, outs, ins = [], [], []
        for kind, what in copies:
            if kind == "out":
                prev, p = what
                n = ex.size(p)
                todo.append((Place.region(self.plan, prev.offset),
                             Place.user(self.addr + p.host_offset), n))
                outs.append((prev.offset, prev.offset + n))
            else:
                n = ex.size(what)
                todo.append((Place.user(self.addr + what.host_offset),
                             Place.region(self.plan, what.offset), n))
                ins.append((what.offset, what.offset + n))
            ex.moved += n
        self.run([c for c in todo if c[2] > 0])
        for lo, hi in outs:
            for a, b in _minus(lo, hi, ins):
                ex.garbage(ex.arena, a, b - a)

    def run(self, copies):
        """copies in as few jobs as the limits allow, queued in order, each
        waited for."""
        from . import _lib
        jobs, cur, size = [], [], 0
        for src, dst, n in copies:
            done = 0
            while done < n:     # a copy past the bytes of a job, in parts
                part = min(n - done, _lib.TPLAN_EDU_MAX_JOB_BYTES)
                if len(cur) == _lib.TPLAN_EDU_MAX_COPIES or \
                        size + part > _lib.TPLAN_EDU_MAX_JOB_BYTES:
                    jobs.append(cur)
                    cur, size = [], 0
                cur.append((dataclasses.replace(src, offset=src.offset + done),
                            dataclasses.replace(dst, offset=dst.offset + done),
                            part))
                size += part
                done += part
        if cur:
            jobs.append(cur)
        start = time.monotonic()
        for job in jobs:
            transfers = sum(2 * ((n + PAGE - 1) // PAGE + 1)
                            for _, _, n in job)
            timeout = min(JOB_MS_BASE + JOB_MS_PER_TRANSFER * transfers,
                          _lib.TPLAN_EDU_MAX_TIMEOUT_MS)
            with self.device.job(job, timeout, keep=self.host) as fence:
                fence.wait(timeout + 60000)
            self.jobs += 1
            self.bytes += sum(n for _, _, n in job)
        self.seconds += time.monotonic() - start


class _Executor:
    def __init__(self, traced, table, placement, arena, aliases, host,
                 check, in_first, jobs=None, keep=()):
        self.torch = _torch()
        self.keep = set(keep)   # roots whose bytes outlive the run
        self.traced = traced
        self.rows = _Rows(table, aliases)
        self.place = placement
        self.arena = arena
        self.base = arena.data_ptr()
        self.host = host
        self.aliases = aliases
        self.check = check
        self.in_first = in_first
        self.jobs = jobs
        self.meta = {}          # row -> (dtype, shape, stride)
        self.writes = {}        # slot -> (row, how store() wrote it)
        self.env = {}           # fx node -> its value (rows: arena views)
        self.plain = {}         # fx node -> its value in the plain run
        self.step = 0
        self.first_wrong = None
        self.moved = 0
        self.rows_of = {}       # fx node -> (slot, row) of its value
        for slot, rid in traced.slots.items():
            self.rows_of.setdefault(slot[0], []).append((slot, rid))
        self.dead_at = {}       # step -> roots whose lifetime ends there
        for root, (_, up) in self.rows.group_span.items():
            self.dead_at.setdefault(up, []).append(root)
        self.outs_at = {}       # step -> (piece, next piece) copied out
        self.ins_at = {}        # step -> pieces copied in
        for pieces in placement.pieces.values():
            for prev, p in zip(pieces, pieces[1:]):
                self.outs_at.setdefault(prev.upper, []).append((prev, p))
                self.ins_at.setdefault(p.lower, []).append(p)

    # Where values are

    def location(self, rid):
        """Row rid's first byte in the arena now: its planned offset, or
        for a member of a spill plan's folded group, its root's place plus
        its offset in the root."""
        offsets = self.place.offsets
        if offsets is not None and rid in offsets:
            return offsets[rid]
        return self.place.at(self.rows.root[rid], self.step) + \
            self.rows.rel[rid]

    def typed(self, buf, offset, nbytes, dtype, rid):
        elem = self.torch.empty((), dtype=dtype).element_size()
        if (buf.data_ptr() + offset) % elem:
            raise ExecutionError(
                "tensor '%s' (%s) is at byte %d, not a multiple of its "
                "element size %d: plan the table with an alignment of at "
                "least the element size" % (rid, str(dtype)[6:], offset,
                                            elem))
        end = offset + (nbytes + elem - 1) // elem * elem
        if offset < 0 or end > buf.numel():
            raise ExecutionError("tensor '%s' at byte %d (%d bytes) ends past "
                                 "the arena's %d bytes"
                                 % (rid, offset, nbytes, buf.numel()))
        return buf[offset:end].view(dtype)

    def view(self, rid):
        dtype, shape, stride = self.meta[rid]
        span = _span(shape, stride)
        elem = self.torch.empty((), dtype=dtype).element_size()
        flat = self.typed(self.arena, self.location(rid), span * elem, dtype,
                          rid)
        return flat.as_strided(shape, stride)

    # Writing a node's values

    def shares_arena(self, value):
        lo = value.data_ptr()
        return value.numel() and \
            self.base <= lo < self.base + self.arena.numel()

    def store(self, slot, rid, value):
        """value (a node's result, slot) into row rid's bytes, recorded in
        writes; the arena view."""
        torch = self.torch
        row = self.rows.row[rid]
        at = self.location(rid)
        if self.aliases and self.rows.member(rid) and \
                self.shares_arena(value):
            if value.data_ptr() - self.base != at:
                raise ExecutionError(
                    "tensor '%s': torch put it at arena byte %d, the plan "
                    "at %d (alias of '%s')" % (rid, value.data_ptr() -
                                               self.base, at, row.alias_of))
            self.meta[rid] = (value.dtype, tuple(value.shape),
                              tuple(value.stride()))
            self.writes[slot] = (rid, None)     # torch put it there
            return value
        stride = tuple(value.stride())
        dense = False
        elem = value.element_size()
        span = _span(value.shape, stride)
        if any(x < 0 for x in stride) or span * elem > row.size:
            # laid out densely, as a copy would be
            value = value.contiguous()
            stride = _contiguous(value.shape)
            span = _span(value.shape, stride)
            dense = True
        if span * elem > row.size:
            raise ExecutionError("tensor '%s' is %d bytes in the table, its "
                                 "value needs %d" % (rid, row.size,
                                                     span * elem))
        # the elements from the value's first to its last, as torch laid
        # them out (an expand() covers its input's bytes only)
        flat = value.as_strided((span,), (1,)) if span else value.flatten()
        clone = self.shares_arena(value)
        if clone:
            flat = flat.clone()
        self.writes[slot] = (rid, Copied(dense, clone, span))
        self.meta[rid] = (value.dtype, tuple(value.shape), stride)
        with torch.no_grad():
            self.typed(self.arena, at, span * elem, value.dtype,
                       rid)[:span].copy_(flat)
        return self.view(rid)

    def stored(self, node, result):
        """result with each tensor that has a row replaced by its view."""
        slots = self.traced.slots
        if isinstance(result, (tuple, list)):
            out = [self.stored_one((node, k), r) for k, r in
                   enumerate(result)]
            return type(result)(out) if isinstance(result, tuple) else out
        return self.stored_one((node, None), result)

    def stored_one(self, slot, value):
        rid = self.traced.slots.get(slot)
        if rid is None or not isinstance(value, self.torch.Tensor):
            return value
        if rid in self.meta:        # a second name of a row written
            return self.view(rid)
        view = self.store(slot, rid, value)
        if not _uninitialized(slot[0]):
            self.compare(rid, slot, "written", slot[0])
        return view

    # Reading

    def lookup(self, node):
        slots = self.traced.slots
        if (node, None) in slots and slots[(node, None)] in self.meta:
            return self.view(slots[(node, None)])
        value = self.env[node]
        if isinstance(value, (tuple, list)):
            out = [self.view(slots[(node, k)])
                   if slots.get((node, k)) in self.meta else v
                   for k, v in enumerate(value)]
            return type(value)(out) if isinstance(value, tuple) else out
        return value

    def read_rows(self, node):
        """Each row node reads, compared with the plain run (check)."""
        if not self.check:
            return
        for arg in node.all_input_nodes:
            if _uninitialized(arg):     # what an in-place op fills in
                continue
            for slot, rid in self.rows_of.get(arg, ()):
                if rid in self.meta:
                    self.compare(rid, slot, "read", node)

    def compare(self, rid, slot, when, node):
        """Row rid against the plain run's value of slot, as it is now."""
        if not self.check or self.first_wrong:
            return
        want = self.plain.get(slot[0])
        if slot[1] is not None:
            want = want[slot[1]]
        if not isinstance(want, self.torch.Tensor):
            return
        diff = _difference(self.torch, self.view(rid), want)
        if diff:
            self.first_wrong = Wrong(rid, self.step, when, str(node), diff)

    # Step boundaries

    def garbage(self, buf, offset, nbytes):
        if nbytes > 0:
            buf[offset:offset + nbytes].fill_(GARBAGE)

    def boundary(self, t):
        """Before step t: free what died, spill copies out then in."""
        for p in self.ins_at.get(t - 1, ()):
            self.garbage(self.host, p.host_offset, self.size(p))
        for root in self.dead_at.get(t, ()):
            if root not in self.keep:
                self.garbage(self.arena, self.place.at(root, t - 1),
                             self.rows.row[root].size)
        outs = self.outs_at.get(t, ())
        ins = self.ins_at.get(t, ())
        copies = [("in", p) for p in ins] + [("out", q) for q in outs] \
            if self.in_first else \
            [("out", q) for q in outs] + [("in", p) for p in ins]
        if self.jobs is not None:
            if copies:
                self.jobs.carry(self, copies)
            return
        for kind, what in copies:
            if kind == "out":
                prev, p = what
                n = self.size(p)
                self.host[p.host_offset:p.host_offset + n].copy_(
                    self.arena[prev.offset:prev.offset + n])
                self.garbage(self.arena, prev.offset, n)
            else:
                n = self.size(what)
                self.arena[what.offset:what.offset + n].copy_(
                    self.host[what.host_offset:what.host_offset + n])
            self.moved += n

    def size(self, piece):
        return self.rows.row[str(piece.id)].size

    # The run

    def run_node(self, node):
        """node on the arena; with check, first as torch runs it (the same
        random numbers), so that both runs stand at the same step."""
        torch = self.torch
        self.read_rows(node)
        if self.check:
            state = torch.get_rng_state()
            value = _run_node(torch, self.traced, node, self.plain,
                              self.plain.__getitem__)
            if node.op == "placeholder" and isinstance(value, torch.Tensor):
                # its own copy: an input the graph writes in place (a KV
                # cache, Stateful's state) is written once, by the plan
                value = value.clone()
            self.plain[node] = value
            torch.set_rng_state(state)
        return _run_node(torch, self.traced, node, self.env, self.lookup)

    def run(self, seed):
        torch = self.torch
        kept = [(self.place.at(r, 0), self.place.at(r, 0) +
                 self.rows.row[r].size) for r in self.keep]
        for lo, hi in _minus(0, self.arena.numel(), kept):
            self.garbage(self.arena, lo, hi - lo)
        if self.host is not None:
            self.garbage(self.host, 0, self.host.numel())
        torch.manual_seed(seed)
        for node in self.traced.gm.graph.nodes:
            step = self.traced.steps.get(node, self.step)
            while self.step < step:
                self.step += 1
                self.boundary(self.step)
            value = self.run_node(node)
            if node.op == "output":
                return _detached(torch, value)
            self.env[node] = self.stored(node, value)
        raise ExecutionError("the graph has no output node")


@dataclasses.dataclass
class Copied:
    """How store() copied a value into its row: made dense first (dense),
    copied from a clone (clone: it lay in the arena), span elements."""
    dense: bool
    clone: bool
    span: int


def _uninitialized(node):
    """empty(), empty_like()...: a value whose bytes mean nothing yet."""
    return "empty" in str(node.target)


def _span(shape, stride):
    """Elements from a strided tensor's first to its last, plus one."""
    if any(int(d) == 0 for d in shape):
        return 0
    return 1 + sum((int(d) - 1) * abs(int(s)) for d, s in zip(shape, stride))


def _contiguous(shape):
    stride, acc = [], 1
    for d in reversed(shape):
        stride.append(acc)
        acc *= max(int(d), 1)
    return tuple(reversed(stride))


def _difference(torch, got, want):
    """0 when equal (NaN where NaN), else the largest difference (inf when
    shapes, dtypes or a NaN differ)."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return float("inf")
    if torch.equal(got, want):
        return 0
    if got.is_floating_point() or got.is_complex():
        same = (got == want) | (got.isnan() & want.isnan())
        if bool(same.all()):
            return 0
        d = (got - want).abs()
        return float("inf") if bool(d.isnan().any()) else float(d.max())
    return float((got.long() - want.long()).abs().max())


def _detached(torch, value):
    """The graph's outputs, copied out of the arena."""
    args = value.args[0] if hasattr(value, "args") else value
    flat = args if isinstance(args, (tuple, list)) else [args]
    out = [v.detach().clone() if isinstance(v, torch.Tensor) else v
           for v in flat]
    return out


def _run_node(torch, traced, node, env, fetch):
    """One fx node with its arguments from fetch(); output returns its
    arguments."""
    args = torch.fx.node.map_arg(node.args, fetch)
    kwargs = torch.fx.node.map_arg(node.kwargs, fetch)
    if node.op == "placeholder":
        return traced.inputs[_placeholder_index(traced, node)]
    if node.op == "get_attr":
        obj = traced.gm
        for part in node.target.split("."):
            obj = getattr(obj, part)
        return obj
    if node.op == "call_function":
        return node.target(*args, **kwargs)
    if node.op == "call_method":
        return getattr(args[0], node.target)(*args[1:], **kwargs)
    if node.op == "call_module":
        return traced.gm.get_submodule(node.target)(*args, **kwargs)
    if node.op == "output":
        return _Output(args)
    raise ExecutionError("unknown fx node kind %s" % node.op)


class _Output:
    def __init__(self, args):
        self.args = args


def _placeholder_index(traced, node):
    if not hasattr(traced, "_placeholders"):
        traced._placeholders = {n: k for k, n in enumerate(
            n for n in traced.gm.graph.nodes if n.op == "placeholder")}
    return traced._placeholders[node]


def execute(traced, table, plan, aliases=False, arena=None, check=False,
            seed=0, in_first=False, jobs=None, keep=()):
    """Run traced (importer's return_graph) in plan (a tplan.Result of the
    table, or a tplan.SpillResult of its folded table), as this module's
    description says.  aliases: the plan was made with aliases.  arena: a
    writable buffer (or torch uint8 tensor) of at least the plan's peak
    (the device's mapped region), else one is allocated.  check: compare
    with a plain run.
    seed: torch's seed for both runs (dropout).  in_first: copy in before
    out at a boundary (wrong: for tests that must fail).  jobs: a spill
    plan's tplan.Plan held on a device that runs jobs (plan is then its
    result): the spill copies are that device's jobs on the plan's region,
    which is the arena (mapped when arena is None); see device mode above.
    keep: ids of rows (alias roots with aliases) whose bytes are never
    overwritten with garbage, at the start or when their lifetime ends: a
    state that lives across runs in the arena (tplan.Stateful).

    Returns (outputs, Report); raises ExecutionError, or tplan.Error when a
    job fails."""
    torch = _torch()
    spill = getattr(plan, "pieces", None) is not None and \
        getattr(plan, "offsets", None) is None
    if jobs is not None and not spill:
        raise ExecutionError("jobs= carries out a spill plan's copies; "
                             "this plan has none")
    if jobs is not None and arena is None:
        arena = jobs.map()
    place = _Placement(pieces=plan.pieces) if spill else _placement(plan)
    peak = plan.peak
    buf = _arena(torch, plan, arena)
    host = _host_buffer(torch, plan.host_peak) if spill else None
    device_jobs = _Jobs(jobs, host) if jobs is not None else None
    ex = _Executor(traced, table, place, buf, aliases or spill, host, check,
                   in_first, device_jobs, keep)
    with torch.no_grad():
        out = ex.run(seed)
    report = Report(peak, table.lower_bound() if aliases or spill else
                    table.unaliased().lower_bound(),
                    ex.moved, plan.host_peak if spill else 0,
                    ex.rows.steps, check, ex.first_wrong)
    if device_jobs is not None:
        report.jobs = device_jobs.jobs
        report.job_bytes = device_jobs.bytes
        report.job_seconds = device_jobs.seconds
    return out, report


def _placement(plan):
    """A plan's offsets as execute() places rows."""
    return _Placement(offsets={str(k): v for k, v in plan.offsets.items()})


def _arena(torch, plan, arena):
    """The arena as a torch uint8 tensor of at least the plan's peak: the
    caller's buffer, or a new one."""
    if arena is None:
        return torch.empty(max(plan.peak, 1), dtype=torch.uint8)
    buf = arena if isinstance(arena, torch.Tensor) else \
        torch.frombuffer(arena, dtype=torch.uint8)
    if buf.numel() < plan.peak:
        raise ExecutionError("the arena is %d bytes, the plan needs %d"
                             % (buf.numel(), plan.peak))
    return buf


@dataclasses.dataclass
class _Fitted:
    """A plan of the largest shapes as the offsets of a smaller run's rows
    (execute() reads offsets and peak)."""
    offsets: dict
    peak: int
    pieces: typing.Any = None


def fit_plan(table, planned, plan, aliases=False):
    """plan (a tplan.Result of planned, the table of the same model imported
    at its largest input shapes) as a plan of table (imported at smaller
    shapes), for execute(): each row where its planned row is, a member of
    an alias group (with aliases) at its own offset in its owner.

    Valid because each row of table lives within its planned row's steps
    and needs no more bytes: two rows alive at once are then inside two
    planned rows alive at once, whose bytes do not meet.  Raises
    ExecutionError naming the first row for which that is not so (a row
    the planned table lacks, a longer lifetime, more bytes): the graph
    traced at this shape is not the one planned."""
    small, large = _Rows(table, aliases), _Rows(planned, aliases)
    offsets = {str(k): v for k, v in plan.offsets.items()}
    fitted = {}
    for r in table:
        if r.id not in large.row or \
                (aliases and large.root[r.id] != small.root[r.id]):
            raise ExecutionError(
                "tensor '%s' is not in the planned table as it is here: the "
                "model's graph at these shapes is not the one planned" % r.id)
        root = small.root[r.id]
        lo, up = small.group_span[root]
        plo, pup = large.group_span[root]
        if lo < plo or up > pup:
            raise ExecutionError(
                "tensor '%s' lives over steps [%d, %d), planned [%d, %d)"
                % (root, lo, up, plo, pup))
        if small.row[root].size > large.row[root].size:
            raise ExecutionError(
                "tensor '%s' needs %d bytes here, %d were planned: plan "
                "with the largest shapes" % (root, small.row[root].size,
                                             large.row[root].size))
        fitted[r.id] = offsets[root] + small.rel[r.id]
    return _Fitted(fitted, plan.peak)


def _host_buffer(torch, size):
    """size bytes of host memory starting on a page: a copy of a 4 KiB
    piece then needs one chunk of a device's DMA, not two."""
    base = torch.empty(max(size, 1) + PAGE, dtype=torch.uint8)
    skip = -base.data_ptr() % PAGE
    return base[skip:skip + max(size, 1)]


def _capacity(spill, bound):
    """--spill's capacity: bytes, or a fraction of the bound below 1."""
    if isinstance(spill, float) and 0 < spill < 1:
        return max(int(bound * spill), 1)
    return int(spill)


def _import(module, inputs, training, loss, alignment):
    from . import importer
    if training:
        return importer.from_torch_training(
            module, inputs, loss=loss, alignment=alignment,
            return_graph=True)
    return importer.from_torch(module, inputs, alignment=alignment,
                               uses=True, return_graph=True)


def _run_in_max_plan(module, example_inputs, max_inputs, training, aliases,
                     alignment, strategy, device, check, seed, loss):
    """run()'s max_inputs: plan the table of max_inputs, run example_inputs
    in that plan (fit_plan())."""
    from .table import as_table
    table, traced = _import(module, example_inputs, training, loss,
                            alignment)
    planned, _ = _import(module, max_inputs, training, loss, alignment)
    to_plan = as_table(planned if aliases else planned.unaliased())
    if device is None:
        plan = to_plan.plan(strategy=strategy, aliases=aliases)
        return execute(traced, table, fit_plan(table, planned, plan, aliases),
                       aliases, check=check, seed=seed)
    with device.submit(to_plan, strategy=strategy, aliases=aliases) as held:
        return execute(traced, table,
                       fit_plan(table, planned, held.result, aliases),
                       aliases, arena=held.map(), check=check, seed=seed)


def run(module, example_inputs, training=False, aliases=False, alignment=1,
        spill=None, strategy="auto", device=None, check=False, seed=0,
        loss="cross_entropy", jobs=None, in_first=False, max_inputs=None):
    """Import module (an nn.Module, in eval() for inference) on
    example_inputs, plan it and execute() it in its plan.

    training: one training step (forward, loss, backward: the outputs are
    the loss and the gradients).  aliases: plan alias groups as one block
    (tplanctl plan --aliases).  alignment: the table's alignment.  spill:
    a spill plan within that many device bytes (a float below 1: that
    fraction of the lower bound); the table is then folded.  strategy: the
    planner's (or the spill strategy with spill).  device: a tplan.Device
    to plan on (the arena is then the region it maps), else the plan is
    made in this process.  check, seed, in_first: as execute().  jobs:
    with spill and a device, whether the spill copies are the device's
    jobs (execute()'s device mode): None (the default) when the device
    runs jobs (Device.has_jobs: tplan_edu's node), True to insist (ENOTTY
    from a device without), False for the CPU's copies.  max_inputs:
    inputs of the largest shapes the plan must serve (say the longest
    sequence); the plan is made for them and example_inputs, no larger,
    run in it (fit_plan(); not with spill).

    Returns (outputs, Report)."""
    from .spill import plan_spill
    from .table import as_table
    if jobs and (spill is None or device is None):
        raise Error(-errno.EINVAL, "jobs= needs spill= and device=")
    if max_inputs is not None:
        if spill is not None:
            raise Error(-errno.EINVAL, "max_inputs= plans without spill")
        return _run_in_max_plan(module, example_inputs, max_inputs, training,
                                aliases, alignment, strategy, device, check,
                                seed, loss)
    table, traced = _import(module, example_inputs, training, loss,
                            alignment)
    if spill is None:
        planned = as_table(table if aliases else table.unaliased())
        if device is None:
            return execute(traced, table, planned.plan(strategy=strategy,
                                                       aliases=aliases),
                           aliases, check=check, seed=seed)
        with device.submit(planned, strategy=strategy,
                           aliases=aliases) as held:
            return execute(traced, table, held.result, aliases,
                           arena=held.map(), check=check, seed=seed)
    folded = as_table(table.folded())
    capacity = _capacity(spill, table.lower_bound())
    strategy = "default" if strategy == "auto" else strategy
    if device is None:
        return execute(traced, table, plan_spill(folded, capacity, strategy),
                       True, check=check, seed=seed, in_first=in_first)
    if jobs is None:
        jobs = device.has_jobs
    elif jobs and not device.has_jobs:
        raise Error(-errno.ENOTTY, "%s: the device runs no jobs"
                    % device.path)
    with device.submit(folded, capacity=capacity, spill=True,
                       spill_strategy=strategy) as held:
        return execute(traced, table, held.result, True, arena=held.map(),
                       check=check, seed=seed, in_first=in_first,
                       jobs=held if jobs else None)
