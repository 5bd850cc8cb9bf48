# SPDX-License-Identifier: MIT
"""edu_spill_e2e.py NODE - a spilled training step whose spill copies are
jobs of QEMU's edu device (tplan_edu's accel node NODE), inside the QEMU
guest (tests/qemu/edu-guest.sh runs it with "spill"; torch over 9p, slowly).

  - job_roundtrip: a plan on the node, bytes written through its mapping,
    one job copying them region -> user memory and user memory -> region;
    every byte checked, the fence's status 1;
  - spill_step_jobs: a small conv net's training step (loss "sum", so that
    eager autograd gives the same values) imported with training=True,
    spilled at 60 % of its bound, run by tplan.run(device=NODE) with
    check=True: every spill copy a device job (report.jobs > 0,
    job_bytes == moved > 0), every value equal to a plain run, the loss
    and every gradient bit-identical (torch.equal) to eager PyTorch's and
    to the same plan run offline with the CPU's copies;
  - spill_step_in_first_fails: the same with the copies in before the
    copies out at each boundary (in_first=True), which must be caught;
  - idle: every plan given back, the pools empty again.

Prints "ok   edu_spill.NAME" or "FAIL edu_spill.NAME: why" per test, the
figures, and "N passed, N failed" last; exit status 1 on a failure.
"""
import ctypes
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "userspace", "python"))

import tplan  # noqa: E402

SHARE = 0.6
passed = failed = 0


def result(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   edu_spill.%s" % name, flush=True)
    else:
        failed += 1
        print("FAIL edu_spill.%s: %s" % (name, why), flush=True)


def net_and_input():
    """tests/python/test_executor.py's SmallNet (python_e2e's conv net,
    narrower), batch 4 of 6 x 6: at 60 % of its bound its spill plan moves
    24 KiB in 8 copies, one boundary bringing a piece in where another
    goes out."""
    import torch
    from torch import nn

    class SmallNet(nn.Module):
        def __init__(self, c=4, hw=6):
            super().__init__()
            self.c1 = nn.Conv2d(3, c, 3, padding=1)
            self.relu = nn.ReLU(inplace=True)
            self.c2 = nn.Conv2d(c, c // 2, 3, padding=1)
            self.c3 = nn.Conv2d(c, c // 2, 1)
            self.fc = nn.Linear(c * hw * hw, 10)

        def forward(self, x):
            y = self.relu(self.c1(x))
            z = torch.cat([self.c2(y), self.c3(y)], dim=1)
            return self.fc(torch.flatten(z, 1))
    torch.manual_seed(0)
    return SmallNet().train(), torch.randn(4, 3, 6, 6)


def eager(net, x):
    """Loss "sum" and the gradients, by eager autograd."""
    net.zero_grad()
    loss = net(x).sum()
    loss.backward()
    return [loss.detach()] + [p.grad.clone() for p in net.parameters()]


def job_roundtrip(dev):
    size = 300
    table = tplan.table([("a", 0, 2, 4096), ("b", 1, 3, 1024)])
    with dev.submit(table) as held:
        view = held.map()
        region = len(view)
        for i in range(size):
            view[i] = (i * 7 + 3) & 0xFF
        out = (ctypes.c_ubyte * size)()
        src = (ctypes.c_ubyte * size)(*[(i * 13 + 1) & 0xFF
                                        for i in range(size)])
        at = region - size          # the region's last bytes
        copies = [(tplan.Place.region(held, 0),
                   tplan.Place.user(ctypes.addressof(out)), size),
                  (tplan.Place.user(ctypes.addressof(src)),
                   tplan.Place.region(held, at), size)]
        start = time.monotonic()
        with dev.job(copies, keep=(out, src)) as fence:
            fence.wait(60000)
        took = time.monotonic() - start
        bad = [i for i in range(size) if out[i] != (i * 7 + 3) & 0xFF or
               view[at + i] != src[i]]
        print("    job_roundtrip: 2 copies of %d bytes in %.2f s" % (size,
                                                                   took))
        del view
    result("job_roundtrip", not bad, "bytes %s differ" % bad[:8])


def spill_step(dev):
    import torch
    net, x = net_and_input()
    want = eager(net, x)
    offline, off_report = tplan.run(net, (x,), training=True, loss="sum",
                                    spill=SHARE, check=True)
    start = time.monotonic()
    out, report = tplan.run(net, (x,), training=True, loss="sum",
                            spill=SHARE, device=dev, check=True)
    took = time.monotonic() - start
    print("    spill_step_jobs: bound %d, peak %d, moved %d bytes, host peak "
          "%d; %d device jobs moved %d bytes in %.1f s (run %.1f s)"
          % (report.lower_bound, report.peak, report.moved, report.host_peak,
             report.jobs, report.job_bytes, report.job_seconds, took),
          flush=True)
    why = []
    if not report.jobs or report.job_bytes <= 0:
        why.append("no device job moved anything: %s" % (report,))
    if report.job_bytes != report.moved or \
            report.moved != off_report.moved:
        why.append("moved %d, by jobs %d, offline %d" % (
            report.moved, report.job_bytes, off_report.moved))
    if report.peak > report.lower_bound * SHARE:
        why.append("peak %d over %d %% of the bound %d" % (
            report.peak, SHARE * 100, report.lower_bound))
    if report.first_wrong is not None:
        why.append("first wrong value: %s" % (report.first_wrong,))
    if len(out) != len(want) or \
            not all(torch.equal(a, b) for a, b in zip(out, want)):
        why.append("the loss and gradients differ from eager's")
    if not all(torch.equal(a, b) for a, b in zip(out, offline)):
        why.append("the outputs differ from the CPU copies'")
    result("spill_step_jobs", not why, "; ".join(why))

    out, report = tplan.run(net, (x,), training=True, loss="sum",
                            spill=SHARE, device=dev, check=True,
                            in_first=True)
    print("    spill_step_in_first_fails: %d jobs, first wrong %s" % (
        report.jobs, report.first_wrong), flush=True)
    result("spill_step_in_first_fails",
           report.jobs > 0 and report.first_wrong is not None,
           "copies in before out went unnoticed: %s" % (report,))


def idle(dev):
    """Every pool empty: the jobs' regions are given back after their
    fences, on a workqueue: allow it a moment."""
    for _ in range(50):
        info = dev.info()
        if info.plans_held == 0 and all(p.used == 0 for p in info.pools):
            break
        time.sleep(0.1)
    result("idle", info.plans_held == 0 and
           all(p.used == 0 for p in info.pools), "%s" % (info,))


def main():
    if len(sys.argv) != 2:
        print("usage: edu_spill_e2e.py NODE", file=sys.stderr)
        return 2
    with tplan.Device(sys.argv[1]) as dev:
        result("has_jobs", dev.has_jobs, "%s runs no jobs" % dev.path)
        for test in (job_roundtrip, spill_step, idle):
            try:
                test(dev)
            except Exception as e:      # one test's error, not the suite's
                result(test.__name__, False, "%s: %s" % (type(e).__name__,
                                                         e))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
