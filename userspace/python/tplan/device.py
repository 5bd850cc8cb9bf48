# SPDX-License-Identifier: MIT
"""The tplan accel device: tplan_device_* of libtplan."""
import ctypes
import dataclasses
import errno
import os
import sys
import typing

from . import _lib
from ._lib import lib
from .errors import Error, from_errno
from . import spill
from .table import Result, as_table, make_options, parse_size


@dataclasses.dataclass
class PoolInfo:
    """One pool (memory tier) of the arena (struct tplan_pool_info)."""
    size: int
    used: int
    free: int
    largest_free: int
    free_regions: int
    tier: int


@dataclasses.dataclass
class DeviceInfo:
    """What the device offers (struct tplan_info); pools fastest first.
    max_device_plans, max_file_keys and max_device_keys are 0 from a
    module of 0.2.0 or older, which does not report them."""
    abi_version: int
    pool_count: int
    max_tensors: int
    max_plans: int
    region_align: int
    default_budget: int
    max_budget: int
    max_submit_bytes: int
    plans_held: int
    max_submits: int
    max_device_plans: int
    max_file_keys: int
    max_device_keys: int
    pools: typing.List[PoolInfo]


@dataclasses.dataclass
class DeviceEntry:
    """An accel device that speaks tplan's ABI: its node and its driver
    ("tplan" for tplan's own device, "tplan_edu"...)."""
    path: str
    driver: str


@dataclasses.dataclass
class Region:
    """A plan's part of one pool (struct tplan_plan_region): handle is the
    region's GEM handle in the device's file."""
    pool: int
    peak: int
    weight: int
    region_offset: int
    region_size: int
    mmap_offset: int
    handle: int


class _Mapping:
    """One mapped region: the address and the memoryview handed out."""

    def __init__(self, addr, size):
        self.addr = addr
        self.array = (ctypes.c_char * size).from_address(addr)
        whole = memoryview(self.array)
        self.view = whole.cast("B")
        whole.release()
        # references to the array: ours, getrefcount's, the view's buffer
        self.refs = sys.getrefcount(self.array)

    def drop_view(self):
        """Release the view handed out; False if some export of it is still
        alive (a slice, memoryview(view), a numpy array...), which unmapping
        would turn into a dangling pointer."""
        try:
            self.view.release()
        except BufferError:
            return False
        return sys.getrefcount(self.array) <= self.refs - 1


@dataclasses.dataclass(frozen=True)
class Place:
    """One side of a job's copy (struct tplan_edu_place): a region of a
    plan (Place.region(plan, offset)) or this process's memory
    (Place.user(address))."""
    kind: int
    slot: int
    plan_id: int
    offset: int

    @staticmethod
    def region(plan, offset, slot=None):
        """Byte `offset` of a Plan's region in pool `slot` (default: the
        plan's first pool, plan.pool)."""
        return Place(_lib.TPLAN_EDU_PLACE_REGION,
                     plan.pool if slot is None else slot, plan.plan_id,
                     offset)

    @staticmethod
    def user(address):
        """This process's memory at `address` (a tensor's data_ptr(), a
        ctypes address...), pinned while the job runs."""
        return Place(_lib.TPLAN_EDU_PLACE_USER, 0, 0, address)


class Fence:
    """The end of a job (a sync_file): wait() for it, close() it (or use
    it as a context manager).  It keeps `keep` (the objects whose memory
    the job reads or writes) alive until it is closed."""

    def __init__(self, fd, keep=()):
        self.fd = fd
        self._keep = keep

    def fileno(self):
        return self.fd

    def wait(self, timeout_ms=-1):
        """Wait until the job is over (tplan_fence_wait; timeout_ms
        negative: no limit).  Returns None when every byte was copied;
        raises Error: ETIME when the fence has not signalled in time, the
        job's own errno (ETIMEDOUT, EIO) when it failed."""
        if self.fd < 0:
            raise Error(errno.EBADF, "fence: closed")
        ret = lib().tplan_fence_wait(self.fd, int(timeout_ms))
        if ret == -errno.ETIME:
            raise Error(ret, "fence: not signalled after %d ms" % timeout_ms)
        if ret:
            raise from_errno(ret, "job failed")

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)
        self.fd = -1
        self._keep = ()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Plan:
    """A plan the device reserved memory for (or a dry run's, which holds
    nothing).  A context manager: leaving it releases the plan.

    result: the Result (offsets, tiers: the pool of each tensor, peak...);
    plan_id (0 for a dry run); pool: the first pool holding a region;
    regions: the Region of each pool that holds one; shared_bytes: bytes of
    share_key tensors stored anew in the serial group; tensor_mmap: each
    tensor's region's mmap offset, in row order.
    """

    def __init__(self, device, table, result, sub, tensor_mmap, dry_run):
        self.device = device
        self.table = table
        self.result = result
        self._sub = sub
        self.plan_id = sub.plan_id
        self.pool = sub.pool
        self.shared_bytes = sub.shared_bytes
        self.dry_run = dry_run
        self.regions = [Region(k, r.peak, r.weight, r.region_offset,
                               r.region_size, r.mmap_offset, r.handle)
                        for k, r in enumerate(sub.regions) if r.region_size]
        self.tensor_mmap = list(tensor_mmap)
        self._maps = {}
        self.released = dry_run

    @property
    def offsets(self):
        return self.result.offsets

    def show(self, path=None, names=None):
        """Draw the plan as an SVG picture (tplan.Result.show()): its text,
        also written to path when given."""
        return self.result.show(path, names)

    def map(self, pool=None):
        """The region of a pool (default: self.pool) mapped read-write and
        shared, as a writable memoryview of bytes (tplan_device_map).  A
        tensor at offset O of tier P is at map(P)[O:O + size].  Mapping a
        pool twice gives the same view.  The mapping lasts until release()
        or the device's close(), which release the view (using it then
        raises ValueError)."""
        if self.released:
            raise Error(errno.EINVAL, "plan %d: %s" % (
                self.plan_id, "a dry run reserves no memory" if self.dry_run
                else "released"))
        pool = self.pool if pool is None else pool
        m = self._maps.get(pool)
        if m is not None:
            return m.view
        if not 0 <= pool < _lib.TPLAN_MAX_POOLS or \
           not self._sub.regions[pool].region_size:
            raise Error(errno.EINVAL, "plan %d holds no region in pool %r" %
                        (self.plan_id, pool))
        addr = ctypes.c_void_p()
        ret = lib().tplan_device_map(self.device._live(),
                                     ctypes.byref(self._sub), pool,
                                     ctypes.byref(addr))
        if ret:
            raise from_errno(ret, "plan %d: map pool %d" %
                             (self.plan_id, pool))
        m = _Mapping(addr.value, self._sub.regions[pool].region_size)
        self._maps[pool] = m
        return m.view

    def unmap(self, pool=None):
        """Unmap a pool's region (tplan_device_unmap).  Raises BufferError,
        and leaves it mapped, while an export of its view is alive."""
        pool = self.pool if pool is None else pool
        m = self._maps.get(pool)
        if m is None:
            return
        if not m.drop_view():
            raise BufferError(
                "plan %d, pool %d: the mapping is still in use (a slice or "
                "another export of its memoryview is alive): release it "
                "first" % (self.plan_id, pool))
        del self._maps[pool]
        m.array = None
        ret = lib().tplan_device_unmap(ctypes.byref(self._sub), pool,
                                       ctypes.c_void_p(m.addr))
        if ret:
            raise from_errno(ret, "plan %d: unmap pool %d" %
                             (self.plan_id, pool))

    def export(self, pool, writable=True):
        """Region `pool` of the plan as a dma-buf (tplan_device_export): a
        file descriptor another process may mmap or import; the region
        stays reserved while it (or a mapping of it) lives, even after
        release().  The caller closes it (os.close)."""
        return self._export(lib().tplan_device_export, pool, writable,
                            "region %d" % pool)

    def export_at(self, mmap_offset, writable=True):
        """The region at `mmap_offset` (a tensor's, from tensor_mmap: a
        kept region of a group too) as a dma-buf (tplan_device_export_at),
        as export() does it."""
        return self._export(lib().tplan_device_export_at, mmap_offset,
                            writable, "the region at %#x" % mmap_offset)

    def _export(self, call, where, writable, what):
        fd = ctypes.c_int(-1)
        flags = _lib.TPLAN_EXPORT_CLOEXEC
        if writable:
            flags |= _lib.TPLAN_EXPORT_RDWR
        ret = call(self.device._live(), self.plan_id, where, flags,
                   ctypes.byref(fd))
        if ret:
            raise from_errno(ret, "export %s of plan %d"
                             % (what, self.plan_id))
        return fd.value

    def release(self):
        """Unmap every region mapped and give the plan back
        (tplan_device_release).  Raises BufferError, and does nothing, while
        a mapping is still in use (see unmap())."""
        for pool in list(self._maps):
            self.unmap(pool)
        if self.released:
            return
        self.released = True
        self.device._plans.discard(self)
        if self.device._dev:
            ret = lib().tplan_device_release(self.device._dev, self.plan_id)
            if ret:
                raise from_errno(ret, "release plan %d" % self.plan_id)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def __repr__(self):
        return "<tplan.Plan %d: %s, %s>" % (
            self.plan_id, "dry run" if self.dry_run else
            "released" if self.released else "held", self.result)


class Device:
    """An open device that speaks tplan's ABI (tplan_device_open; path
    None: $TPLAN_DEVICE, else the first of devices(), tplan's own first);
    a context manager that closes it, which releases every plan submitted
    through it.  driver: its DRM driver's name ("tplan", "tplan_edu")."""

    def __init__(self, path=None):
        self.path = (path or os.environ.get("TPLAN_DEVICE") or
                     "no tplan device in /sys/class/accel")
        self.driver = ""
        self._dev = None
        self._plans = set()
        dev = ctypes.c_void_p()
        ret = lib().tplan_device_open(path.encode() if path else None,
                                      ctypes.byref(dev))
        if ret:
            hint = "; is the tplan module loaded?" if -ret in (
                errno.ENOENT, errno.ENODEV, errno.ENXIO) else ""
            raise Error(ret, "%s: %s%s" % (self.path, _strerror(ret), hint))
        self._dev = dev
        self.path = lib().tplan_device_path(dev).decode()
        self.driver = lib().tplan_device_driver(dev).decode()

    def _live(self):
        if not self._dev:
            raise Error(errno.EBADF, "%s: closed" % self.path)
        return self._dev

    def close(self):
        """Unmap every plan's regions and close the device; the kernel
        releases the plans still held.  Raises BufferError, and closes
        nothing, while a mapping is still in use (see Plan.unmap())."""
        if not self._dev:
            return
        for plan in list(self._plans):
            for pool in list(plan._maps):
                plan.unmap(pool)
        for plan in self._plans:
            plan.released = True
        self._plans.clear()
        dev, self._dev = self._dev, None
        lib().tplan_device_close(dev)

    def __del__(self):
        # Mappings still in use stay mapped (the kernel keeps their memory
        # until they are gone): better a leak than a dangling pointer.
        try:
            for plan in list(self._plans):
                for pool in list(plan._maps):
                    try:
                        plan.unmap(pool)
                    except BufferError:
                        del plan._maps[pool]
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def info(self):
        """The device's ABI version, limits and pools (a DeviceInfo)."""
        i = _lib.tplan_info()
        ret = lib().tplan_device_get_info(self._live(), ctypes.byref(i))
        if ret:
            raise Error(ret, "%s: GET_INFO: %s" % (self.path, _strerror(ret)))
        pools = [PoolInfo(p.size, p.used, p.free, p.largest_free,
                          p.free_regions, p.tier)
                 for p in i.pools[:min(i.pool_count, _lib.TPLAN_MAX_POOLS)]]
        return DeviceInfo(i.abi_version, i.pool_count, i.max_tensors,
                          i.max_plans, i.region_align, i.default_budget,
                          i.max_budget, i.max_submit_bytes, i.plans_held,
                          i.max_submits, i.max_device_plans,
                          i.max_file_keys, i.max_device_keys, pools)

    @property
    def has_jobs(self):
        """Whether the device runs jobs (tplan_edu's TPLAN_EDU_IOC_JOB):
        asked once, with a job of no copies (tplan_device_job)."""
        if getattr(self, "_has_jobs", None) is None:
            fd = ctypes.c_int(-1)
            ret = lib().tplan_device_job(self._live(), None, 0, 0,
                                         ctypes.byref(fd))
            if ret not in (-errno.EINVAL, -errno.ENOTTY):
                raise from_errno(ret, "%s: JOB" % self.path)
            self._has_jobs = ret == -errno.EINVAL
        return self._has_jobs

    def job(self, copies, timeout_ms=0, keep=()):
        """Queue copies on the device's DMA engine (tplan_device_job), in
        order, after the jobs queued before: each (src, dst, size), src and
        dst a Place (a region of a Plan held through this device, or this
        process's memory).  timeout_ms: how long the device may take once
        it starts (0: the driver's default, 10 s).  Returns a Fence that
        holds `keep` (what the user sides point into) until closed; wait()
        on it before touching that memory.  Raises Error (ENOTTY: the
        device runs no jobs; EINVAL, ENOENT, ERANGE, E2BIG, EFAULT,
        EAGAIN...)."""
        copies = list(copies)
        arr = (_lib.tplan_edu_copy * max(len(copies), 1))()
        for c, (src, dst, size) in zip(arr, copies):
            for side, place in ((c.src, src), (c.dst, dst)):
                side.kind, side.slot = place.kind, place.slot
                side.plan_id, side.offset = place.plan_id, place.offset
            c.size = size
        fd = ctypes.c_int(-1)
        ret = lib().tplan_device_job(self._live(), arr, len(copies),
                                     timeout_ms, ctypes.byref(fd))
        if ret == -errno.ENOTTY:
            raise Error(ret, "%s: the device runs no jobs" % self.path)
        if ret:
            raise from_errno(ret, "%s: job of %d copies" %
                             (self.path, len(copies)))
        return Fence(fd.value, keep)

    def submit(self, tables, strategy="auto", capacity=0, budget=0,
               time_limit=None, small_below=0, aliases=False, serial=False,
               concurrent=False, tiered=False, group=0, dry_run=False,
               spill=False, spill_strategy="default"):
        """Plan a table in the kernel and reserve its memory
        (tplan_device_submit), with the options of tplanctl submit.

        tables: a Table, a path, rows, or several models (a list of Tables
        or paths, merged).  budget 0 is the device's default; tiered: the
        device's pools are the tiers; group: the serial group (of this open
        device) the plan joins, 0 for none; dry_run: plan only, reserve
        nothing.  Returns a Plan (a context manager releasing it); raises
        Error (ENOSPC: does not fit, error.result holds the peak; E2BIG,
        EMFILE, ETIMEDOUT, EINVAL...).

        spill: plan as pieces within capacity (required), moving tensors
        out to host memory between two of their uses, as tplanctl submit
        --spill (tplan_device_submit_spill); spill_strategy "default",
        "furthest" or "ga".  The Plan's result is then a SpillResult (with its
        pieces) and the plan holds a region of their peak.  Takes none of
        time_limit, small_below, aliases, serial, concurrent, tiered, group.
        """
        if spill:
            if time_limit or small_below or aliases or serial or \
               concurrent or tiered or group:
                raise Error(errno.EINVAL, "spill takes none of time_limit, "
                            "small_below, aliases, serial, concurrent, "
                            "tiered, group")
            return self._submit_spill(as_table(tables), spill_strategy,
                                      capacity, budget, dry_run)
        table = as_table(tables)
        opts = make_options(strategy, capacity, None, budget, time_limit,
                            small_below, aliases, serial, concurrent)
        if group and (serial or concurrent or tiered or dry_run):
            raise Error(errno.EINVAL, "group takes none of serial, "
                        "concurrent, tiered, dry_run")
        if not 0 <= group < 1 << 32:
            raise Error(errno.EINVAL, "invalid group %r" % (group,))
        flags = ((_lib.TPLAN_SUBMIT_DRY_RUN if dry_run else 0) |
                 (_lib.TPLAN_SUBMIT_TIERED if tiered else 0))
        shown = make_options(strategy, capacity, None, budget, time_limit,
                             small_below, aliases, serial, concurrent)
        if tiered:
            info = self.info()
            if info.pool_count > 1:
                shown.tier_count = info.pool_count
                for k, p in enumerate(info.pools):
                    shown.tier_capacity[k] = p.size
        count = len(table)
        tensor_mmap = (_lib.u64 * max(count, 1))()
        params = _lib.tplan_submit_params(flags=flags, group=group)
        params.tensor_mmap = ctypes.cast(tensor_mmap, ctypes.POINTER(_lib.u64))
        res = _lib.tplan_result()
        sub = _lib.tplan_submission()
        ret = lib().tplan_device_submit(self._live(), table._live(),
                                        ctypes.byref(opts),
                                        ctypes.byref(params),
                                        ctypes.byref(res), ctypes.byref(sub))
        if ret == -errno.ENOTTY:
            raise Error(ret, "%s: not a tplan device" % self.path)
        if ret == -errno.E2BIG:
            raise Error(ret, "%s: more tensors than the device takes" %
                        table.name)
        if ret == -errno.EMFILE:
            raise Error(ret, "%s: too many plans held through this file" %
                        table.name)
        if ret:
            raise table._failure(shown, res, ret)
        table._set_tier_column(shown.tier_count > 1)

        def plan_one(ctx, part, one, out):
            p = _lib.tplan_submit_params(
                flags=flags | _lib.TPLAN_SUBMIT_DRY_RUN)
            s = _lib.tplan_submission()
            return lib().tplan_device_submit(self._dev, part, one,
                                             ctypes.byref(p), out,
                                             ctypes.byref(s))

        plan = Plan(self, table, None, sub, tensor_mmap[:count], dry_run)
        if not dry_run:
            self._plans.add(plan)
        try:
            plan.result = Result(table, res, shown,
                                 table._apart(opts, plan_one))
        except BaseException:
            plan.release()
            raise
        return plan

    def _submit_spill(self, table, strategy, capacity, budget, dry_run):
        params, pieces, cap = spill.params(table, strategy, capacity, budget)
        if dry_run:
            params.flags = _lib.TPLAN_SUBMIT_DRY_RUN
        res = _lib.tplan_spill_result()
        sub = _lib.tplan_submission()
        ret = lib().tplan_device_submit_spill(
            self._live(), table._live(), ctypes.byref(params), pieces, cap,
            ctypes.byref(res), ctypes.byref(sub))
        if ret == -errno.ENOTTY:
            raise Error(ret, "%s: not a tplan device, or one without spill "
                        "plans" % self.path)
        if ret:
            raise spill.failure(table, params.capacity, res, ret)
        plan = Plan(self, table, spill.result(table, res, strategy,
                                              params.capacity, pieces),
                    sub, [], dry_run)
        if not dry_run:
            self._plans.add(plan)
        return plan

    def __repr__(self):
        return "<tplan.Device %s (%s)%s>" % (self.path, self.driver or "?",
                                             "" if self._dev else
                                             " (closed)")


def _strerror(ret):
    return os.strerror(-ret)


def devices():
    """Every accel device that speaks tplan's ABI, tplan's own first, then
    the host drivers' (tplan_edu...), each driver's by N: a list of
    DeviceEntry (tplan_device_find_at); empty when no module is loaded.
    $TPLAN_DEVICE does not change it."""
    out = []
    path = ctypes.create_string_buffer(4096)
    driver = ctypes.create_string_buffer(64)
    index = 0
    while True:
        ret = lib().tplan_device_find_at(index, path, len(path), driver,
                                         len(driver))
        if ret == -errno.ENOENT:
            return out
        if ret:
            raise Error(ret, "/sys/class/accel: %s" % _strerror(ret))
        out.append(DeviceEntry(path.value.decode(), driver.value.decode()))
        index += 1


def open(path=None):  # noqa: A001 - tplan.open(), as tplan_device_open()
    """Open the device: a Device (tplan_device_open)."""
    return Device(path)
