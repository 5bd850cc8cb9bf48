# SPDX-License-Identifier: MIT
"""A graph's values and steps made into table rows: the conventions.

Both importers describe their graph the same way (Graph below): the nodes in
topological order, each one step, the values they read and write, which
values are graph inputs, outputs and weights, each value's size in bytes (or
None when its shape is unknown) and, per node, whether its output shares the
memory of an input (a view, an in-place op) or is laid out of its inputs'
bytes (a concat) or its outputs of its input's bytes (a split).  rows()
turns that into Rows; docs/IMPORTERS.md states the rules in prose.

Lifetimes: step k is the k-th node.  A value's lower is its producer's step
(graph inputs: 0, weights: 0), its upper one past its last reader's step;
graph outputs and weights live to the number of nodes; a value nobody reads
lives for its producer's step alone.

Aliases (alias_of, alias_offset; honoured by tplanctl's --aliases):
  VIEW     the node's output is its first input's bytes (reshape, flatten,
           squeeze, unsqueeze, identity; torch's views and in-place ops): the
           output aliases the input at offset 0, when the input is a row (not
           a weight) and the output is not larger than it.
  SPLIT    outputs are consecutive pieces of the input along its outermost
           axis (axis 0, or one with only 1s before it): output k aliases the
           input at the bytes of the outputs before it, when the input is a
           row and the sizes add up.
  CONCAT   the output is its inputs, one after another, along the outermost
           axis: input k aliases the output at the bytes of the inputs before
           it, when that input is a row produced by a node (not a graph input,
           not a weight), is not a graph output, is read by this node alone
           and only once, and does not alias anything already (a view, a split
           piece or an in-place result has its owner).  Each other input keeps
           its own bytes and is copied, as without aliases; the output is
           aliased only if every input's offset is known (the sizes add up).
An offset that is not a multiple of the row's alignment (the table's, or
its element size if larger) is not aliased either: the planner would
reject it.
"""
from .rows import Row, Rows, TableError

VIEW, SPLIT, CONCAT = "view", "split", "concat"


class Node:
    """One step: op is for messages; inputs and outputs are value names
    (an input may repeat); alias is None, VIEW, SPLIT or CONCAT."""

    __slots__ = ("name", "op", "inputs", "outputs", "alias")

    def __init__(self, name, op, inputs, outputs, alias=None):
        self.name = name
        self.op = op
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.alias = alias


class Graph:
    """nodes: Node list in topological order (one step each).
    inputs, outputs: graph input and output value names, in order.
    weights: names of persistent values (initializers, parameters), in order.
    sizes: name -> bytes, or None for an unknown shape.
    shape_text: name -> a printable shape, for messages about unknown ones.
    extra_weights: (name, size) of weights that no node names (torch's module
    parameters), emitted with the others by rows(weights=True).
    elem: name -> bytes per element (the least alignment of its row).
    describe: name -> (node, dtype, shape) texts for the table's
    description columns (node: the op making it; shape "1x3x224x224")."""

    def __init__(self):
        self.nodes = []
        self.inputs = []
        self.outputs = []
        self.weights = []
        self.sizes = {}
        self.shape_text = {}
        self.extra_weights = []
        self.elem = {}
        self.describe = {}


def _size(g, name, producer):
    size = g.sizes.get(name)
    if size is None:
        where = ("graph input" if producer is None else
                 "output of node '%s' (%s)" % (producer.name, producer.op))
        shape = g.shape_text.get(name, "no shape")
        raise TableError("tensor '%s' (%s): unknown shape (%s): cannot size "
                         "it" % (name, where, shape))
    return size


def _uses(name, lo, up, readers, outputs):
    """A row's uses: its producer's step (graph inputs: 0), every reader's
    step, and for a graph output the last step of its lifetime."""
    steps = {lo} | set(readers.get(name, ()))
    if name in outputs:
        steps.add(up - 1)
    return sorted(steps)


def _weight_uses(name, readers, uses):
    """A weight's readers' steps (None: no uses wanted, or none read it:
    the column's default)."""
    steps = sorted(set(readers.get(name, ()))) if uses else None
    return steps or None


def rows(g, weights=False, alignment=1, uses=False):
    """The table of graph g (see this module's description).

    weights: also emit every weight as a persistent row (share_key, a key of
    its own, alive over every step).  alignment: the least alignment of
    every row; a row's is at least its element size (g.elem), so that a
    runtime can view its bytes as its dtype.  uses: fill every row's uses
    (the uses column): _uses() above; a weight's are its readers' steps.
    """
    if alignment < 1 or alignment & (alignment - 1):
        raise TableError("alignment %d is not a power of two" % alignment)
    steps = len(g.nodes)
    weight_set = set(g.weights)
    producer = {}
    readers = {}
    lower = {}
    for name in g.inputs:
        lower[name] = 0
    for k, node in enumerate(g.nodes):
        for name in node.inputs:
            if name in weight_set:
                readers.setdefault(name, []).append(k)
                continue
            if name not in lower:
                raise TableError("node '%s' (%s) reads '%s', which no "
                                 "earlier node produces" % (node.name,
                                                            node.op, name))
            readers.setdefault(name, []).append(k)
        for name in node.outputs:
            if name in lower or name in weight_set:
                raise TableError("value '%s' is produced twice (node '%s')"
                                 % (name, node.name))
            lower[name] = k
            producer[name] = node
    outputs = set(g.outputs)
    for name in g.outputs:
        if name not in lower and name not in weight_set:
            raise TableError("graph output '%s' is produced by no node" % name)

    order = list(g.inputs) + [o for n in g.nodes for o in n.outputs]
    size = {name: _size(g, name, producer.get(name)) for name in order}
    span = {}
    for name in order:
        lo = lower[name]
        up = max(readers.get(name, [lo])) + 1
        if name in outputs:
            up = steps
        span[name] = (lo, max(up, lo + 1))

    alias = {}                  # name -> (owner, offset)
    graph_inputs = set(g.inputs)

    def align(name):
        return max(alignment, g.elem.get(name, 1))

    def aligned(offset, name):
        return offset % align(name) == 0

    for node in g.nodes:
        if node.alias == VIEW and node.inputs:
            src, out = node.inputs[0], node.outputs[0]
            if src in size and size[out] <= size[src]:
                alias[out] = (src, 0)
    for node in g.nodes:
        if node.alias == SPLIT and node.inputs and node.inputs[0] in size:
            src = node.inputs[0]
            if sum(size[o] for o in node.outputs) != size[src]:
                continue
            offset = 0
            for out in node.outputs:
                if out not in alias and aligned(offset, out):
                    alias[out] = (src, offset)
                offset += size[out]
    for node in g.nodes:
        if node.alias != CONCAT:
            continue
        out = node.outputs[0]
        if any(i not in size for i in node.inputs) or \
                sum(size[i] for i in node.inputs) != size[out]:
            continue
        offset = 0
        for i in node.inputs:
            if (i not in graph_inputs and i not in outputs and
                    i not in alias and readers.get(i) == [lower[out]] and
                    aligned(offset, i) and i != out):
                alias[i] = (out, offset)
            offset += size[i]

    table = Rows()
    for name in order:
        lo, up = span[name]
        owner, offset = alias.get(name, (None, 0))
        node, dtype, shape = g.describe.get(name, (None, None, None))
        table.append(Row(name, lo, up, size[name], align(name), owner,
                         offset, uses=_uses(name, lo, up, readers, outputs)
                         if uses else None, node=node, dtype=dtype,
                         shape=shape))
    if weights:
        key = 0
        seen = set()
        extra = list(g.extra_weights)
        for name in g.weights:
            if name in seen:
                continue
            seen.add(name)
            key += 1
            table.append(Row(name, 0, max(steps, 1), _size(g, name, None),
                             align(name), share_key=key,
                             uses=_weight_uses(name, readers, uses)))
        for name, nbytes in extra:
            if name in seen:
                continue
            seen.add(name)
            key += 1
            table.append(Row(name, 0, max(steps, 1), nbytes, alignment,
                             share_key=key,
                             uses=_weight_uses(name, readers, uses)))
    return table
