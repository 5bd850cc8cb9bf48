# SPDX-License-Identifier: MIT
"""tplan: tensor lifetime tables planned into one arena, from Python.

A ctypes binding of libtplan (no compiled extension): build a table from
rows or a CSV file, plan it in this process with the options of tplanctl
plan, or submit it to the tplan accel device and map the memory the kernel reserved.
tplan.devices() lists every accel device that speaks tplan's ABI (tplan's
own, then host drivers' such as tplan_edu); Device(path) opens one.

    import tplan
    t = tplan.table([("in", 0, 2, 1024), ("mid", 1, 3, 4096),
                     ("out", 2, 4, 1024)])
    r = t.plan(strategy="auto")
    r.peak, r.lower_bound, r.offsets["mid"]

    with tplan.Device() as dev, dev.submit(t) as plan:
        buf = plan.map()            # a writable memoryview of the region
        buf[r.offsets["mid"]] = 7

tplan.run(module, inputs) imports a torch module, plans it and runs it
with every tensor at its planned offset (tplan.executor).

r.show("plan.svg"), or tplan.plan(t, svg="plan.svg"), draws the plan as
tplanctl show does (tplan.show: tplanctl is found at $TPLAN_TPLANCTL,
beside libtplan.so, or on PATH) and returns the SVG's text.

Failures raise tplan.Error, an OSError with the errno and libtplan's message.
libtplan.so is found through $TPLAN_LIBRARY, the build tree, the install
prefix or the dynamic linker (see tplan._lib).
"""
from .device import (Device, DeviceEntry, DeviceInfo, Plan, PoolInfo, Region,
                     devices, open)
from .errors import Error
from .executor import ExecutionError, Report, execute, fit_plan, run
from .spill import Piece, SpillResult, plan_spill
from .runner import Runner
from .stateful import Stateful
from .table import (ROW_FIELDS, Result, Table, defect_name, load, merge,
                    parse_size, plan, read_csv, search_name, strategy_name,
                    table, version)
from ._lib import SPILL_STRATEGIES, STRATEGIES
# jobs of a device that runs them (tplan_edu): Device.job(), has_jobs
from .device import Fence, Place

# The project's version, the Makefile's VERSION (tests/lib/install_test.sh
# checks that they agree); tplan.version() is libtplan's.
__version__ = "0.2.0"

__all__ = ["__version__",
           "Device", "DeviceEntry", "DeviceInfo", "Error", "ExecutionError", "Piece",
           "Plan", "PoolInfo", "Region", "Report", "Result", "ROW_FIELDS",
           "SPILL_STRATEGIES", "SpillResult", "STRATEGIES", "Table",
           "defect_name", "devices", "execute", "load", "merge", "open", "parse_size",
           "plan", "plan_spill", "read_csv", "run", "search_name",
           "strategy_name", "table", "version"]
__all__ += ["Fence", "Place", "Runner", "Stateful", "fit_plan"]
