# SPDX-License-Identifier: MIT
"""python_e2e.py BUILD_DIR - the Python binding against the real /dev/tplan,
inside UML (run by tests/e2e/e2e.sh with Debian's /usr/bin/python3): info,
submit, write through the mapping and read it back, release; tiered and
dry-run plans, a serial group, spill plans against tplanctl plan --spill,
errors, no mapping left behind, and a small model run by tplan.run() in
the region mapped from the device.
Last line: "N passed, N failed".
"""
import errno
import mmap
import os
import subprocess
import sys
import traceback

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "userspace", "python"))
if len(sys.argv) > 1:
    os.environ.setdefault("TPLAN_LIBRARY",
                          os.path.join(sys.argv[1], "libtplan.so.0"))

import tplan  # noqa: E402

results = {"pass": 0, "fail": 0}


def test(fn):
    name = "e2e.python_" + fn.__name__
    try:
        fn()
    except Exception:
        lines = traceback.format_exc().strip().splitlines()
        print("FAIL %s: %s" % (name, " | ".join(lines[-4:])), flush=True)
        results["fail"] += 1
    else:
        print("ok   " + name, flush=True)
        results["pass"] += 1
    return fn


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def raises(err, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except tplan.Error as e:
        check(e.errno == err, "errno %s, expected %s: %s" %
              (e.errno_name, errno.errorcode[err], e))
        return e
    raise AssertionError("no error, expected %s" % errno.errorcode[err])


def idle(dev):
    """Nothing held: every pool wholly free, in one region."""
    info = dev.info()
    return info.plans_held == 0 and all(
        p.used == 0 and p.free == p.size and p.free_regions == 1
        for p in info.pools)


# 12 tensors of 4 to 48 KiB over 8 steps: a few hundred KiB.
ROWS = [("t%d" % i, i % 8, i % 8 + 1 + i % 3, 4096 * (1 + i % 12), 64)
        for i in range(12)]


def released(view):
    try:
        len(view)
    except ValueError:
        return True
    return False


def pattern(i, size):
    return bytes((i * 31 + k) % 251 + 1 for k in range(size))


@test
def info():
    with tplan.Device() as dev:
        i = dev.info()
        check(i.abi_version == 1, "abi_version %d" % i.abi_version)
        check(1 <= i.pool_count == len(i.pools) <= 4, i)
        check(all(p.size > 0 and p.tier == k
                  for k, p in enumerate(i.pools)), i.pools)
        check(i.region_align == os.sysconf("SC_PAGE_SIZE"), i)
        # the module's defaults (e2e.sh loads it without parameters)
        check((i.max_device_plans, i.max_file_keys, i.max_device_keys) ==
              (4096, 1 << 20, 1 << 22), i)
        check(idle(dev), "device not idle at start: %s" % i)


@test
def devices_listed():
    # tplan's own device first (tplan_edu's, when loaded, after it)
    found = tplan.devices()
    check(found and found[0].driver == "tplan", found)
    with tplan.Device() as dev:
        check(dev.driver == "tplan" and dev.path == found[0].path,
              (dev, found))


@test
def submit_write_read_release():
    with tplan.Device() as dev:
        table = tplan.table(ROWS)
        offline = tplan.table(ROWS).plan()
        with dev.submit(table) as plan:
            check(plan.plan_id > 0, plan)
            check(plan.result.offsets == offline.offsets,
                  "kernel and offline offsets differ")
            check(plan.result.peak == offline.peak, plan.result)
            check(dev.info().plans_held == 1, dev.info())
            buf = plan.map()
            region = plan.regions[0]
            check(len(buf) == region.region_size >= plan.result.peak,
                  (len(buf), region))
            check(not buf.readonly, "read-only mapping")
            check(buf is plan.map(), "a second map() maps again")
            check(not any(buf), "fresh region not zero")
            # tensors alive at one step never share a byte: write each one's
            # pattern in step order and read it back while it is alive
            rows = table.rows()
            for step in range(max(r["upper"] for r in rows)):
                alive = [(i, r) for i, r in enumerate(rows)
                         if r["lower"] <= step < r["upper"]]
                for i, r in alive:
                    o = plan.offsets[r["id"]]
                    buf[o:o + r["size"]] = pattern(i, r["size"])
                for i, r in alive:
                    o = plan.offsets[r["id"]]
                    check(bytes(buf[o:o + r["size"]]) ==
                          pattern(i, r["size"]),
                          "tensor %s overwritten at step %d" % (r["id"], step))
            # each tensor's region, as submit's tensor_mmap says
            check(plan.tensor_mmap[0] == region.mmap_offset, plan.tensor_mmap)
            check(region.handle > 0, region)    # a GEM object of the file
        check(plan.released, plan)
        check(released(buf), "the view outlived release()")
        raises(errno.EINVAL, plan.map)
        check(idle(dev), "not idle after release: %s" % dev.info())


@test
def slice_alive_blocks_release():
    with tplan.Device() as dev:
        plan = dev.submit(tplan.table(ROWS))
        part = plan.map()[0:16]
        part[:] = b"x" * 16
        try:
            plan.release()
        except BufferError:
            pass
        else:
            raise AssertionError("released with a slice of the mapping alive")
        check(bytes(part) == b"x" * 16, "the mapping went away")
        check(dev.info().plans_held == 1, "plan released anyway")
        part.release()
        plan.release()
        check(idle(dev), dev.info())


@test
def close_releases_everything():
    dev = tplan.Device()
    plans = [dev.submit(tplan.table(ROWS)) for _ in range(3)]
    views = [p.map() for p in plans]
    views[0][0] = 1
    check(dev.info().plans_held == 3, dev.info())
    dev.close()
    check(all(p.released for p in plans), plans)
    check(all(released(v) for v in views), "views alive after close()")
    with tplan.Device() as again:
        check(idle(again), again.info())


@test
def tiered_maps_each_pool():
    with tplan.Device() as dev:
        pools = dev.info().pools
        if len(pools) < 2:
            raise AssertionError("one pool: no tiers to test")
        rows = [{"id": i, "lower": i % 6, "upper": i % 6 + 2,
                 "size": 64 << 10, "priority": 1 + i % 4} for i in range(16)]
        with dev.submit(tplan.table(rows), tiered=True) as plan:
            used = sorted({plan.result.tiers[i] for i in range(16)})
            check(len(used) >= 2, "all tensors in tiers %s" % used)
            check([r.pool for r in plan.regions] == used, plan.regions)
            for r in plan.regions:
                buf = plan.map(r.pool)
                check(len(buf) == r.region_size, r)
                for i in range(16):
                    if plan.result.tiers[i] == r.pool:
                        o = plan.offsets[i]
                        check(o + rows[i]["size"] <= len(buf), (i, o))
                        buf[o:o + 8] = i.to_bytes(8, "little")
                        check(int.from_bytes(buf[o:o + 8], "little") == i, i)
        check(idle(dev), dev.info())


@test
def dry_run_reserves_nothing():
    with tplan.Device() as dev:
        plan = dev.submit(tplan.table(ROWS), strategy="greedy-size",
                          dry_run=True)
        check(plan.plan_id == 0 and not plan.regions, plan)
        check(plan.result.strategy == "greedy-size", plan.result)
        raises(errno.EINVAL, plan.map)
        check(idle(dev), dev.info())


@test
def group_stores_shared_once():
    with tplan.Device() as dev:
        a = dev.submit(tplan.table([("w", 0, 4, 8192, None, None, None, None,
                                     None, None, 42), ("x", 0, 2, 4096)]),
                       group=5)
        b = dev.submit(tplan.table([("w", 0, 6, 8192, None, None, None, None,
                                     None, None, 42), ("p", 0, 6, 12288)]),
                       group=5)
        check((a.shared_bytes, b.shared_bytes) == (8192, 0),
              (a.shared_bytes, b.shared_bytes))
        # the kept weights: a GEM object of each plan, exported by offset
        check(a.tensor_mmap[0] != b.tensor_mmap[0], (a.tensor_mmap,
                                                     b.tensor_mmap))
        fd = a.export_at(a.tensor_mmap[0], writable=False)
        m = mmap.mmap(fd, 8192, mmap.MAP_SHARED, mmap.PROT_READ)
        os.close(fd)
        check(m[:] == bytes(8192), "kept region not zeroed")
        m.close()
        raises(errno.ENOENT, a.export_at, a.tensor_mmap[0] + 4096)
        a.release()
        b.release()
        check(idle(dev), dev.info())


@test
def errors():
    with tplan.Device() as dev:
        total = sum(p.size for p in dev.info().pools)
        e = raises(errno.ENOSPC, dev.submit,
                   tplan.table([(1, 0, 2, total + 4096)]))
        check(e.result["peak"] == total + 4096, e.result)
        check("does not fit in the device's free memory" in str(e), e)
        e = raises(errno.ENOSPC, dev.submit, tplan.table(ROWS), capacity=4096)
        check("does not fit in 4096 bytes" in str(e), e)
        raises(errno.EINVAL, dev.submit, tplan.table(ROWS), strategy="best")
        check(idle(dev), dev.info())
    raises(errno.ENOENT, tplan.Device, "/dev/no-such-tplan")


# a is used at 0, 3 and 9; within 150 bytes it goes out between 3 and 9.
SPILL_CSV = "id,lower,upper,size,uses\na,0,10,100,0 3 9\nb,4,7,100,\nc,2,5,7,2 4\n"


def offline_pieces(path, capacity):
    """tplanctl plan --spill's pieces: (id, piece, lower, upper, offset,
    host_offset) per row of its -o file."""
    ctl = os.path.join(sys.argv[1], "tplanctl")
    out = path + ".plan.csv"
    subprocess.run([ctl, "plan", path, "--capacity", str(capacity),
                    "--spill", "-o", out], check=True, capture_output=True)
    with open(out) as f:
        rows = [line.rstrip("\n").split(",") for line in f][1:]
    os.unlink(out)
    return [(r[0], int(r[5]), int(r[1]), int(r[2]), int(r[4]),
             int(r[6] or 0)) for r in rows]


@test
def spill_matches_tplanctl():
    path = "/tmp/python_e2e_spill.csv"
    with open(path, "w") as f:
        f.write(SPILL_CSV)
    with tplan.Device() as dev:
        plan = dev.submit(path, capacity=150, spill=True, dry_run=True)
        r = plan.result
        check((r.moved, r.moved_bound, r.host_peak, len(r.pieces)) ==
              (200, 200, 100, 4), r)
        check(r.offsets is None and plan.plan_id == 0, plan)
        got = [(p.id, p.piece, p.lower, p.upper, p.offset, p.host_offset)
               for p in r.pieces]
        check(got == offline_pieces(path, 150),
              "kernel and offline pieces differ: %s" % got)
        with dev.submit(path, capacity=150, spill=True,
                        spill_strategy="furthest") as held:
            check(held.plan_id > 0 and held.regions, held)
            buf = held.map()
            check(len(buf) >= held.result.peak and not any(buf), held)
        check(idle(dev), dev.info())
    os.unlink(path)


@test
def spill_errors():
    with tplan.Device() as dev:
        t = tplan.read_csv(SPILL_CSV)
        e = raises(errno.ENOSPC, dev.submit, t, capacity=106, spill=True)
        check("step 4 uses 107 bytes" in str(e), e)
        raises(errno.EINVAL, dev.submit, t, capacity=150, spill=True,
               spill_strategy="best")
        raises(errno.EINVAL, dev.submit, t, spill=True)
        raises(errno.EINVAL, dev.submit, t, capacity=150, spill=True,
               tiered=True)
        check(idle(dev), dev.info())


class Small:
    """A conv net with an in-place ReLU, a concat and a view (built on first
    use: torch is imported only here)."""

    @staticmethod
    def make():
        import torch
        from torch import nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.c1 = nn.Conv2d(3, 8, 3, padding=1)
                self.relu = nn.ReLU(inplace=True)
                self.c2 = nn.Conv2d(8, 4, 3, padding=1)
                self.c3 = nn.Conv2d(8, 4, 1)
                self.fc = nn.Linear(8 * 8 * 8, 10)

            def forward(self, x):
                y = self.relu(self.c1(x))
                z = torch.cat([self.c2(y), self.c3(y)], dim=1)
                return self.fc(torch.flatten(z, 1))
        torch.manual_seed(0)
        return Net(), torch.randn(2, 3, 8, 8)


@test
def executor_in_mapped_region():
    """tplan.run() with device=: the model runs in the region mapped from
    /dev/tplan, as offline: same plan, same output, bit for bit; a spilled
    training step too."""
    import torch
    net, x = Small.make()
    net.eval()
    offline, off_report = tplan.run(net, (x,), aliases=True, check=True)
    with tplan.Device() as dev:
        out, report = tplan.run(net, (x,), aliases=True, device=dev,
                                check=True)
        check(report.first_wrong is None, report)
        check(report.peak == off_report.peak, (report, off_report))
        check(torch.equal(out[0], offline[0]), "outputs differ")
        check(torch.equal(out[0], net(x).detach()), "not eager's output")
        net.train()
        off, off_report = tplan.run(net, (x,), training=True, spill=0.75,
                                    check=True)
        out, report = tplan.run(net, (x,), training=True, spill=0.75,
                                device=dev, check=True)
        check(report.first_wrong is None and report.moved > 0, report)
        check((report.moved, report.peak) ==
              (off_report.moved, off_report.peak), (report, off_report))
        check(all(torch.equal(a, b) for a, b in zip(out, off)),
              "training outputs differ")
        check(idle(dev), dev.info())


@test
def stateful_decoding_on_device():
    """tplan.Stateful with device=: a prefill and 8 decode steps of the
    GPT-style decoder of the executor tests, each call's plan made by the
    device in one serial group, the KV cache pinned at the start of the
    group's scratch region between calls: logits and cache equal eager's,
    bit for bit, and the same as planned in this process."""
    import torch
    sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
    from test_executor import eager_decoding
    m, prompt, want, cache = eager_decoding(8)
    n = prompt.shape[1]
    with tplan.Device() as dev, \
            tplan.Stateful(m, m.new_cache(1), device=dev, group=7) as s:
        out, report = s(prompt, torch.arange(n), check=True)
        check(report.first_wrong is None, report)
        check(torch.equal(out[0], want[0]), "prefill")
        for i in range(8):
            token = out[0][:, -1].argmax(-1, keepdim=True)
            out, report = s(token, torch.tensor([n + i]), check=i < 2)
            check(report.first_wrong is None, report)
            check(torch.equal(out[0], want[i + 1]), "decode step %d" % i)
        check(torch.equal(s.state, cache), "the cache on the device")
        check(len(s.held) == 2, "a prefill and a step plan")
        check(len({h.regions[0].region_offset for h in s.held}) == 1,
              "not one scratch region")
        s.close()
        check(torch.equal(s.state, cache), "the cache after close()")
        check(idle(dev), dev.info())


@test
def export_outlives_release():
    # a plan's region as a dma-buf: mapped, it keeps the region after the
    # plan is released and the device closed
    dev = tplan.Device()
    check(dev.path.startswith("/dev/accel/accel"), dev.path)
    plan = dev.submit(tplan.table(ROWS))
    view = plan.map(plan.pool)
    view[:4096] = pattern(3, 4096)
    size = len(view)
    del view
    fd = plan.export(plan.pool)
    m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ)
    os.close(fd)
    plan.release()
    dev.close()
    check(m[:4096] == pattern(3, 4096), "dma-buf bytes differ")
    with tplan.Device() as other:
        check(not idle(other), "region given back while mapped")
        m.close()
        check(idle(other), other.info())


print("%d passed, %d failed" % (results["pass"], results["fail"]))
sys.exit(1 if results["fail"] else 0)
