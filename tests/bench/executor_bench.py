# SPDX-License-Identifier: MIT
"""executor_bench.py - running a model in its plan against eager PyTorch
(make bench's last section): the reference executor (tplan.execute(),
check=False) and tplan.Runner (the same run compiled once), on a plan made
once, with and without aliases, against the module called directly, one
thread: REPEATS rounds, each timing the three once in turn (so that a
slower spell of the host slows all three), best of each.  Models: torchvision's resnet18 and the GPT-style
decoder of tests/python/test_executor.py at two sizes.  Run with Debian's
/usr/bin/python3 (torch, torchvision), PYTHONPATH=userspace/python:
tests/python and TPLAN_LIBRARY (make bench sets them); without torch it
says so and succeeds."""
import time

REPEATS = 9


def best(*fns):
    """Each fn's best time over REPEATS rounds of all of them in turn."""
    times = [[] for _ in fns]
    for fn in fns:
        fn()
    for _ in range(REPEATS):
        for fn, spent in zip(fns, times):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
    return [min(t) for t in times]


def models(torch):
    import torchvision
    from test_executor import TinyGPT
    yield "resnet18 1x3x224x224", \
        torchvision.models.resnet18(weights=None).eval(), \
        (torch.randn(1, 3, 224, 224),)
    for d, layers, tokens in ((32, 2, 12), (256, 4, 128)):
        yield "gpt d%d l%d 1x%d" % (d, layers, tokens), \
            TinyGPT(vocab=1000, d=d, heads=8 if d > 32 else 4,
                    layers=layers, context=tokens).eval(), \
            (torch.randint(1000, (1, tokens)),)


def main():
    try:
        import torch
        import torchvision  # noqa: F401  (resnet18)
    except ImportError:
        print("executor: no torch or torchvision here (Debian: "
              "python3-torch, python3-torchvision), skipped")
        return
    import tplan
    from tplan.executor import execute
    from tplan.importer import from_torch
    from tplan.table import as_table
    torch.set_num_threads(1)
    torch.manual_seed(0)
    print("\nThe reference executor against eager (check=False, one thread, "
          "best of %d)" % REPEATS)
    print("%-24s %-7s %9s %11s %7s %10s %7s" % (
        "model", "aliases", "eager ms", "execute ms", "ratio", "Runner ms",
        "ratio"))
    for name, module, inputs in models(torch):
        table, traced = from_torch(module, inputs, uses=True,
                                   return_graph=True)
        for aliases in (False, True):
            plan = as_table(table if aliases else table.unaliased()).plan(
                aliases=aliases)
            runner = tplan.Runner(traced, table, plan, aliases)
            with torch.no_grad():
                eager, ours, compiled = best(
                    lambda: module(*inputs),
                    lambda: execute(traced, table, plan, aliases), runner)
            print("%-24s %-7s %9.2f %11.2f %7.2f %10.2f %7.2f" % (
                name, "yes" if aliases else "no", eager * 1e3, ours * 1e3,
                ours / eager, compiled * 1e3, compiled / eager))


if __name__ == "__main__":
    main()
