# SPDX-License-Identifier: MIT
"""A module called again and again on a state it updates in place (an
LLM's KV cache), each call in its plan, the state pinned between them.

    session = tplan.Stateful(gpt, gpt.new_cache(1))
    logits, report = session(prompt, torch.arange(len_prompt))   # prefill
    logits, report = session(next_token, torch.tensor([len_prompt]))

The module's forward takes the call's inputs, then the state, last.  Each
distinct call (by its inputs' shapes and dtypes: the prefill, a decode
step) is traced once at the aten level (so views of the state and in-place
writes into it alias it), its table planned with the state's row pinned at
offset 0 of one arena (tplanctl plan's pins) and with aliases; every call
of that shape then runs in that plan (tplan.execute with keep=: the state's
bytes are never overwritten).  So the state stays where it is from call to
call, the activations of each call are planned around it, and the arena
is the largest plan's peak.  Session.state is the state, a view of the
arena.

With device= (a tplan.Device), each call's table is planned by the
device, all of them in one serial group of its open file (group=, an id
of this session's own): members of a group share one scratch region, so
the pin puts the state at the same device bytes for every call, and each
call runs in its plan's mapped region.  close() releases the plans.
"""
import gc

from .executor import execute
from .importer.torch_aten import from_torch_aten
from .table import table as make_table


def _torch():
    import torch
    return torch


def _rows_pinning(rows, pinned):
    """The importer's rows as dicts, @pinned at offset 0 and alive to the
    end: its bytes are the state's between calls, no other tensor's."""
    end = max((r.upper for r in rows), default=0)
    out = []
    for r in rows:
        d = {"id": r.id, "lower": r.lower, "upper": r.upper, "size": r.size,
             "alignment": r.alignment, "alias_of": r.alias_of,
             "alias_offset": r.alias_offset if r.alias_of else None}
        if r.id == pinned:
            d["offset"] = 0
            d["upper"] = end
        out.append(d)
    return out


class Stateful:
    """module (in eval()) with state (a tensor it updates in place), see
    above.  strategy: the planner's; alignment: the tables'; device: plan
    and run on this tplan.Device, in serial group group (non-zero)."""

    def __init__(self, module, state, strategy="auto", alignment=1,
                 device=None, group=1):
        torch = _torch()
        self.module = module
        self.strategy = strategy
        self.alignment = alignment
        self.device, self.group = device, group
        self.dtype, self.shape = state.dtype, tuple(state.shape)
        self.nbytes = state.numel() * state.element_size()
        self.arena = torch.empty(max(self.nbytes, 1), dtype=torch.uint8)
        self.state.copy_(state)
        self.calls = {}     # inputs' shapes and dtypes -> its plan
        self.held = []      # the device's plans (tplan.Plan)

    @property
    def state(self):
        """The state, where the plans keep it: the arena's first bytes."""
        return self.arena[:self.nbytes].view(self.dtype).view(self.shape)

    def __call__(self, *inputs, check=False):
        """Runs the module on inputs and the state in the plan of calls of
        this shape; returns (outputs, tplan.Report)."""
        key = tuple((tuple(x.shape), x.dtype) for x in inputs)
        if key not in self.calls:
            self.calls[key] = self._plan(inputs)
        table, traced, plan, pinned, arena = self.calls[key]
        traced.inputs[-len(inputs) - 1:] = list(inputs) + [self.state]
        return execute(traced, table, plan, aliases=True, arena=arena,
                       check=check, keep=(pinned,))

    def close(self):
        """Release the device's plans (nothing to do without a device).
        The state is copied to this process first, so session.state stays
        valid; a later call plans on the device again."""
        if not self.held:
            return
        state = self.arena[:max(self.nbytes, 1)].clone()
        self.calls.clear()      # the traced graphs hold views of the maps
        self.arena = state
        gc.collect()            # and fx graphs are cycles
        for held in self.held:
            held.release()
        self.held = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _plan(self, inputs):
        torch = _torch()
        scratch = self.state.clone()     # the trace runs the module on it
        table, traced = from_torch_aten(self.module, inputs + (scratch,),
                                        alignment=self.alignment, uses=True,
                                        return_graph=True)
        last = [n for n in traced.gm.graph.nodes if n.op == "placeholder"][-1]
        pinned = traced.slots[(last, None)]     # the state's row
        rows = make_table(_rows_pinning(table, pinned))
        if self.device is not None:
            plan, arena = self._plan_on_device(rows)
            return table, traced, plan, pinned, arena
        plan = rows.plan(strategy=self.strategy, aliases=True)
        if plan.peak > self.arena.numel():
            grown = torch.empty(plan.peak, dtype=torch.uint8)
            grown[:self.nbytes].copy_(self.arena[:self.nbytes])
            self.arena = grown
        return table, traced, plan, pinned, self.arena

    def _plan_on_device(self, rows):
        """The plan of rows in the session's group, and its mapped region
        as a uint8 tensor; the state moves there from the first one."""
        torch = _torch()
        held = self.device.submit(rows, strategy=self.strategy, aliases=True,
                                  group=self.group)
        self.held.append(held)
        arena = torch.frombuffer(held.map(), dtype=torch.uint8)
        if len(self.held) == 1:
            arena[:self.nbytes].copy_(self.arena[:self.nbytes])
        self.arena = arena
        return held.result, arena
