# SPDX-License-Identifier: MIT
"""Spill plans: tensors moved out to host memory between two uses.

plan_spill(table, capacity) makes one in this process
(tplan_table_plan_spill); Device.submit(..., spill=True) has the kernel
make the same one and reserve its memory.  Either gives a SpillResult whose
pieces say where each tensor is in device memory, step after step, and
where its copy waits in host memory in between.  How a runtime carries a
spill plan out (at a step boundary all copies out, then all copies in) is
in docs/PLANNER.md, "Execution".
"""
import ctypes
import dataclasses
import errno
import os
import typing

from . import _lib
from ._lib import lib
from .errors import Error
from .table import as_table, parse_size


@dataclasses.dataclass
class Piece:
    """A stretch of time a tensor of a spill plan spends in device memory
    (struct tplan_piece): row (its row in the table) and id, piece (0, 1,
    ... per tensor), [lower, upper), offset in the plan's region, and for
    piece > 0 host_offset, where the copy moved out before it waited."""
    row: int
    id: typing.Any
    piece: int
    lower: int
    upper: int
    offset: int
    host_offset: int


@dataclasses.dataclass
class SpillResult:
    """What a spill plan gave: the figures of tplanctl plan --spill's
    summary (capacity, live_peak, moved, moved_bound, host_peak, peak,
    work; evictions: the spill strategy whose evictions were kept) and the
    pieces, tensor after tensor in time order.  A spill plan has no
    offsets: offsets is None."""
    spill_strategy: str
    evictions: str
    capacity: int
    live_peak: int
    moved: int
    moved_bound: int
    host_peak: int
    peak: int
    work: int
    pieces: typing.List[Piece]
    offsets: typing.Any = None


def params(table, strategy, capacity, budget):
    """(struct tplan_spill_params, room for the pieces, its length)."""
    if strategy not in _lib.SPILL_STRATEGIES:
        raise Error(errno.EINVAL, "invalid spill strategy %r" % (strategy,))
    capacity = parse_size(capacity or 0, "capacity")
    budget = parse_size(budget or 0, "budget")
    if not capacity:
        raise Error(errno.EINVAL, "spill needs a capacity")
    t = table._live().contents
    # every plan fits in a piece per use plus one per tensor
    cap = 2 * t.count + (t.use_start[t.count] if t.use_start else 0)
    p = _lib.tplan_spill_params(
        strategy=_lib.SPILL_STRATEGIES.index(strategy),
        capacity=capacity, budget=budget)
    return p, (_lib.tplan_piece * max(cap, 1))(), cap


def result(table, res, strategy, capacity, pieces):
    """The SpillResult of a plan that succeeded."""
    kept = _lib.SPILL_STRATEGIES[res.strategy] \
        if res.strategy < len(_lib.SPILL_STRATEGIES) else str(res.strategy)
    ids = table.ids()
    out = [Piece(p.tensor, ids[p.tensor], p.piece, p.lower, p.upper,
                 p.offset, p.host_offset) for p in pieces[:res.pieces]]
    return SpillResult(strategy, kept, capacity, res.live_peak, res.moved,
                       res.moved_bound, res.host_peak, res.peak, res.work,
                       out)


def failure(table, capacity, res, ret):
    """The Error for a spill plan that failed, worded as tplanctl's."""
    if ret == -errno.ENOSPC and not res.fail_bytes:
        msg = "does not fit in the device's free memory: peak %d" % res.peak
    elif ret == -errno.ENOSPC and res.fail_step == (1 << 64) - 1:
        msg = ("does not fit in %d bytes: every step's used tensors fit, "
               "but the pieces need %d bytes by addresses" %
               (capacity, res.fail_bytes))
    elif ret == -errno.ENOSPC:
        msg = "does not fit in %d bytes: step %d uses %d bytes" % (
            capacity, res.fail_step, res.fail_bytes)
    else:
        msg = os.strerror(-ret)
    figures = SpillResult(None, None, capacity, res.live_peak, res.moved,
                          res.moved_bound, res.host_peak, res.peak, res.work,
                          [])
    return Error(ret, "%s: %s" % (table.name, msg), result=figures)


def plan_spill(table, capacity, strategy="default", budget=0):
    """A spill plan of a table (a Table, a path or rows; its uses column
    says when each tensor is read or written) within capacity device bytes,
    made in this process with the planner the kernel runs
    (tplan_table_plan_spill): the same pieces Device.submit(spill=True)
    gives.  Returns a SpillResult; raises Error (ENOSPC: some step's used
    tensors alone exceed the capacity, error.result holds the figures;
    ETIMEDOUT, EINVAL)."""
    table = as_table(table)
    p, pieces, cap = params(table, strategy, capacity, budget)
    res = _lib.tplan_spill_result()
    ret = lib().tplan_table_plan_spill(table._live(), ctypes.byref(p),
                                       pieces, cap, ctypes.byref(res))
    if ret:
        raise failure(table, p.capacity, res, ret)
    return result(table, res, strategy, p.capacity, pieces)
