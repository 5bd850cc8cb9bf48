# SPDX-License-Identifier: MIT
"""torch.nn.Module -> tensor lifetime table, through torch.fx.

from_torch(module, example_inputs) traces the module with
torch.fx.symbolic_trace and runs it once on the example inputs with
torch.fx.passes.shape_prop.ShapeProp (under torch.no_grad()), which records
every node's shape and dtype.  Step k is the k-th fx node, placeholders and
the output node included (the tables in shared/bench/real were made this
way); placeholders are the graph inputs, the output node's arguments the
graph outputs, module parameters and buffers (and get_attr nodes) weights.
A module symbolic tracing cannot follow is traced at the aten level on the
example inputs instead (torch_aten.py).

Views (view, reshape, flatten, unflatten, squeeze, unsqueeze, view_as,
reshape_as, contiguous, detach, nn.Flatten, nn.Unflatten, nn.Identity,
dropout) and in-place ops (a method ending in "_", a function or module
called with inplace=True, such as nn.ReLU(inplace=True)) alias their first
input.  permute, transpose, t and expand are not aliased: in a table every
tensor is laid out densely, and those reorder or repeat elements, so the
result takes bytes of its own (contiguous() after them is then a view).
torch.cat/concat and torch.split/chunk/unbind along the outermost axis are
concat and split (graph.py).
"""
import contextlib
import io
import operator

from . import graph as G
from .rows import TableError
from .traced import Traced

VIEW_METHODS = {"view", "reshape", "flatten", "unflatten", "squeeze",
                "unsqueeze", "view_as", "reshape_as", "contiguous", "detach"}
VIEW_FUNCTIONS = {"flatten", "reshape", "squeeze", "unsqueeze", "unflatten",
                  "detach", "dropout", "alpha_dropout",
                  "feature_alpha_dropout",
                  "dropout1d", "dropout2d", "dropout3d"}
VIEW_MODULES = {"Flatten", "Unflatten", "Identity", "Dropout", "Dropout1d",
                "Dropout2d", "Dropout3d", "AlphaDropout",
                "FeatureAlphaDropout"}
SPLIT_NAMES = {"split", "chunk", "unbind", "tensor_split", "split_with_sizes"}
CONCAT_NAMES = {"cat", "concat", "concatenate"}


def _torch():
    try:
        import torch
        import torch.fx
        import torch.fx.passes.shape_prop
    except ImportError as e:
        raise TableError("the torch importer needs torch (Debian: "
                         "python3-torch): %s" % e)
    return torch


def _elem_bytes(torch, dtype):
    return torch.empty((), dtype=dtype).element_size()


def _meta_size(torch, meta):
    count = 1
    for d in meta.shape:
        count *= int(d)
    return count * _elem_bytes(torch, meta.dtype)


def _shape_text(meta):
    return "%s %s" % ("x".join(str(int(d)) for d in meta.shape),
                      str(meta.dtype).replace("torch.", ""))


def _record(torch, g, name, meta, op):
    """A value's size, element size and description in graph g."""
    g.sizes[name] = _meta_size(torch, meta)
    g.shape_text[name] = _shape_text(meta)
    g.elem[name] = _elem_bytes(torch, meta.dtype)
    g.describe[name] = (op, str(meta.dtype).replace("torch.", ""),
                        "x".join(str(int(d)) for d in meta.shape) or
                        "scalar")


def _op_text(node, modules):
    """The node column: a module's class (Conv2d), else the function or
    method (relu, add, flatten)."""
    if node.op == "call_module":
        return type(modules.get(node.target)).__name__
    return _target_name(node)


def _is_meta(torch, m):
    from torch.fx.passes.shape_prop import TensorMetadata
    return isinstance(m, TensorMetadata)


def _target_name(node):
    t = node.target
    if isinstance(t, str):
        return t
    return getattr(t, "__name__", str(t))


def _dim(node, pos, default):
    """The dim argument of a cat or split call (keyword or position)."""
    if "dim" in node.kwargs:
        return node.kwargs["dim"]
    if len(node.args) > pos:
        return node.args[pos]
    return default


def _outermost(shape, dim):
    if not isinstance(dim, int):
        return False
    if dim < 0:
        dim += len(shape)
    return 0 <= dim < len(shape) and all(int(d) == 1 for d in shape[:dim])


def _inplace(node, modules):
    if node.op == "call_method":
        return node.target.endswith("_") and not node.target.endswith("__")
    if node.op == "call_function":
        if node.kwargs.get("inplace") is True:
            return True
        name = _target_name(node)
        return name.endswith("_") and not name.startswith("_") and \
            not name.endswith("__")
    if node.op == "call_module":
        return getattr(modules.get(node.target), "inplace", False) is True
    return False


def _kind(node, modules, metas):
    """graph.VIEW, SPLIT, CONCAT or None for an fx node."""
    name = _target_name(node)
    if node.op == "call_module":
        mod = modules.get(node.target)
        if type(mod).__name__ in VIEW_MODULES:
            return G.VIEW
    elif node.op == "call_method" and name in VIEW_METHODS:
        return G.VIEW
    elif node.op == "call_function" and name in VIEW_FUNCTIONS:
        return G.VIEW
    if node.op in ("call_method", "call_function"):
        src = node.args[0] if node.args else None
        if name in CONCAT_NAMES and node in metas:
            if _outermost(metas[node].shape, _dim(node, 1, 0)):
                return G.CONCAT
        elif name in SPLIT_NAMES and src in metas:
            dim = _dim(node, 1 if name == "unbind" else 2, 0)
            if _outermost(metas[src].shape, dim):
                return G.SPLIT
    if _inplace(node, modules):
        return G.VIEW
    return None


def _proxy_iter(self):
    """torch.fx.Proxy.__iter__ that finds the unpacking instruction by its
    offset.  torch 1.13 indexes the instructions with f_lasti // 2, which
    Python 3.11's inline caches break ("a, b = proxy" fails: "Proxy object
    cannot be iterated", or an IndexError); the offset is right on every
    version."""
    import dis
    import inspect
    caller = inspect.currentframe().f_back
    for inst in dis.get_instructions(caller.f_code):
        if inst.offset == caller.f_lasti:
            if inst.opname == "UNPACK_SEQUENCE":
                return (self[i] for i in range(inst.argval))
            break
    return self.tracer.iter(self)


def symbolic_trace(torch, module):
    """torch.fx.symbolic_trace, with tuple unpacking that works on 3.11."""
    proxy = torch.fx.proxy.Proxy
    saved = proxy.__iter__
    proxy.__iter__ = _proxy_iter
    try:
        return torch.fx.symbolic_trace(module)
    finally:
        proxy.__iter__ = saved


def trace(module, example_inputs):
    """The module traced, with every node's tensor_meta from a run; None
    when torch.fx cannot trace it symbolically (control flow on a tensor,
    a call fx cannot follow)."""
    torch = _torch()
    from torch.fx.passes.shape_prop import ShapeProp
    if not isinstance(module, torch.nn.Module):
        raise TableError("from_torch needs an nn.Module, not %s"
                         % type(module).__name__)
    try:
        gm = symbolic_trace(torch, module)
    except Exception:
        return None
    prop = _NodeNoted(ShapeProp)(gm)
    try:
        # ShapeProp prints the traceback of a failing node on stderr
        with torch.no_grad(), contextlib.redirect_stderr(io.StringIO()):
            prop.propagate(*example_inputs)
    except Exception as e:
        raise TableError("running %s on the example inputs failed%s"
                         % (type(module).__name__, _failure(prop, e)))
    return gm


def _NodeNoted(base):
    """An fx interpreter class that remembers the node it failed on."""
    class NodeNoted(base):
        failed = None

        def run_node(self, n):
            try:
                return super().run_node(n)
            except Exception:
                self.failed = n
                raise
    return NodeNoted


def _failure(prop, e):
    """": the cause", with the node and its inputs' shapes when known: one
    line, not ShapeProp's traceback."""
    cause = e.__cause__ or e.__context__ or e
    text = str(cause).strip().splitlines()
    text = text[0] if text else type(cause).__name__
    n = prop.failed
    if n is None:
        return ": %s" % text
    shapes = []
    for a in n.all_input_nodes:
        m = a.meta.get("tensor_meta")
        if m is not None and hasattr(m, "shape"):
            shapes.append("x".join(str(d) for d in m.shape) or "scalar")
    return " at %s (%s %s%s): %s" % (
        n.name, n.op, n.target if isinstance(n.target, str)
        else getattr(n.target, "__name__", n.target),
        ", inputs " + ", ".join(shapes) if shapes else "", text)


def _to_graph(module, gm):
    """(graph.Graph, the slots of traced.Traced) of a traced module."""
    torch = _torch()
    modules = dict(gm.named_modules())
    nodes = list(gm.graph.nodes)
    g = G.Graph()
    metas = {}      # fx node -> TensorMetadata of its single tensor
    value = {}      # fx node -> value name (tensors only)
    for node in nodes:
        m = node.meta.get("tensor_meta")
        if _is_meta(torch, m):
            metas[node] = m
    # a node returning a tuple with tensors in it (nn.MultiheadAttention:
    # (output, None) without weights): each tensor is named after the
    # getitem node that picks it, or NODE.K if nobody picks it; what is not
    # a tensor has no name (None)
    pieces = {}
    for node in nodes:
        m = node.meta.get("tensor_meta")
        if not isinstance(m, (tuple, list)) or \
                not any(_is_meta(torch, x) for x in m) or \
                any(isinstance(x, (tuple, list)) and
                    not _is_meta(torch, x) for x in m):
            continue
        names = ["%s.%d" % (node.name, k) if _is_meta(torch, x) else None
                 for k, x in enumerate(m)]
        for user in node.users:
            if user.op == "call_function" and \
                    user.target is operator.getitem and \
                    isinstance(user.args[1], int) and \
                    names[user.args[1]] is not None and \
                    names[user.args[1]].startswith(node.name + "."):
                names[user.args[1]] = user.name
        pieces[node] = names
        for name, x in zip(names, m):
            if name is not None:
                _record(torch, g, name, x, _op_text(node, modules))

    def read(arg):
        out = []
        torch.fx.node.map_arg(arg, lambda n: out.append(n))
        return out

    def values(arg):
        """The values @arg reads: a tuple node reads as its tensors."""
        out = []
        for n in read(arg):
            if n in value:
                out.append(value[n])
            elif n in pieces:
                out.extend(p for p in pieces[n] if p is not None)
        return out

    weights = set()
    for node in nodes:
        name = node.name
        if node.op == "placeholder":
            if node not in metas:
                raise TableError("input '%s': no tensor example input for it"
                                 % name)
            g.inputs.append(name)
            value[node] = name
            _record(torch, g, name, metas[node], "input")
            g.nodes.append(G.Node(name, "placeholder", [], []))
        elif node.op == "get_attr":
            g.weights.append(name)
            weights.add(node)
            value[node] = name
            if node in metas:
                g.sizes[name] = _meta_size(torch, metas[node])
            g.nodes.append(G.Node(name, "get_attr", [], []))
        elif node.op == "output":
            outs = values(node.args)
            g.outputs = outs
            g.nodes.append(G.Node(name, "output", outs, []))
        else:
            reads = values((node.args, node.kwargs))
            op = "%s %s" % (node.op, _target_name(node))
            if node.op == "call_function" and node.target is operator.getitem \
                    and node.args[0] in pieces:
                # picks a piece of a tuple: the piece is the tuple node's
                if pieces[node.args[0]][node.args[1]] is None:
                    g.nodes.append(G.Node(name, op, [], []))
                elif pieces[node.args[0]][node.args[1]] == name:
                    value[node] = name
                    g.nodes.append(G.Node(name, op, [], []))
                else:
                    # a second pick of one piece: the same bytes
                    src = pieces[node.args[0]][node.args[1]]
                    value[node] = name
                    for facts in (g.sizes, g.shape_text, g.elem, g.describe):
                        facts[name] = facts[src]
                    g.nodes.append(G.Node(name, op, [src], [name], G.VIEW))
                continue
            if node in pieces:
                outs = [p for p in pieces[node] if p is not None]
                kind = _kind(node, modules, metas)
                if kind == G.SPLIT:
                    reads = [value[node.args[0]]]
                else:
                    kind = None
                g.nodes.append(G.Node(name, op, reads, outs, kind))
                continue
            if node not in metas:
                # not a tensor (a size, a shape): no row, but still a step
                g.nodes.append(G.Node(name, op, reads, []))
                continue
            value[node] = name
            _record(torch, g, name, metas[node], _op_text(node, modules))
            kind = _kind(node, modules, metas)
            if kind == G.CONCAT:
                reads = [value[n] for n in read(node.args[0]) if n in value]
                if len(reads) != len(read(node.args[0])):
                    kind = None
                    reads = [value[n] for n in read((node.args, node.kwargs))
                             if n in value]
            elif kind == G.VIEW:
                first = node.args[0] if node.args else None
                if first not in value:
                    kind = None
                else:
                    rest = [value[n] for n in read((node.args[1:],
                                                    node.kwargs))
                            if n in value]
                    reads = [value[first]] + rest
            g.nodes.append(G.Node(name, op, reads, [name], kind))
    seen = set(n.target for n in weights)
    for pname, p in list(module.named_parameters()) + \
            list(module.named_buffers()):
        if pname not in seen:
            seen.add(pname)
            g.extra_weights.append((pname, p.numel() * p.element_size()))
    slots = {(n, None): name for n, name in value.items() if n not in weights}
    for n, names in pieces.items():
        slots.update(((n, k), p) for k, p in enumerate(names) if p)
    return g, slots


def from_torch(module, example_inputs, weights=False, alignment=1,
               uses=False, return_graph=False):
    """The lifetime table (Rows) of an nn.Module.

    module: an nn.Module; put it in eval() first for an inference graph
    (it is run once, under torch.no_grad()).  torch.fx traces it
    symbolically (rows named after its modules and calls); a module it
    cannot trace (Python control flow on tensors: nn.Transformer's
    encoder, a data-dependent branch) is traced at the aten level on the
    example inputs instead (torch_aten.py: rows named after aten ops).
    example_inputs: a tensor or a tuple of tensors, one per forward()
    argument; their shapes and dtypes decide every size.  weights: emit the
    parameters and buffers as share_key rows.  uses: fill each row's uses
    (its producer's and readers' steps).  Rows.csv() is its text.
    return_graph: return (table, traced.Traced), the graph the table
    describes, which tplan.executor runs.
    """
    torch = _torch()
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    gm = trace(module, example_inputs)
    if gm is None:
        # what symbolic tracing cannot follow, a traced run can
        from .torch_aten import from_torch_aten
        return from_torch_aten(module, example_inputs, weights=weights,
                               alignment=alignment, uses=uses,
                               return_graph=return_graph)
    g, slots = _to_graph(module, gm)
    table = G.rows(g, weights=weights, alignment=alignment, uses=uses)
    if not return_graph:
        return table
    steps = {n: k for k, n in enumerate(gm.graph.nodes)}
    return table, Traced(gm, example_inputs, steps, slots, False)
