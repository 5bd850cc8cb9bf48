# SPDX-License-Identifier: MIT
"""ONNX model -> tensor lifetime table (onnx.shape_inference for the sizes).

from_onnx(model) takes an onnx.ModelProto or a path.  The graph's nodes are
put in topological order (stable: the file's order where it is one already),
node k being step k; sizes come from the shapes that shape inference finds
(with data propagation, so that a Reshape fed by Shape ops gets its shape)
and the element type.  Initializers and Constant nodes' outputs are weights,
and so is an Identity of a weight (it is that weight).
Reshape, Flatten, Squeeze, Unsqueeze and Identity are views of their first
input; Concat and Split along the outermost axis lay their pieces inside one
block (graph.py says when).  A value whose shape is not fully known is an
error naming it: --batch N fixes a symbolic first dimension of the inputs.
Where inference leaves a shape unknown that the model computes from its
input shapes (Shape -> Gather -> Div -> Slice, as exporters write), that
arithmetic is evaluated and inference runs again (onnx_fold.py).
"""
from . import graph as G
from . import onnx_fold as F
from .rows import TableError

VIEW_OPS = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"}

# onnx.TensorProto.DataType -> bytes per element (STRING and UNDEFINED: none)
_ELEM_BYTES = {
    1: 4,    # FLOAT
    2: 1,    # UINT8
    3: 1,    # INT8
    4: 2,    # UINT16
    5: 2,    # INT16
    6: 4,    # INT32
    7: 8,    # INT64
    9: 1,    # BOOL
    10: 2,   # FLOAT16
    11: 8,   # DOUBLE
    12: 4,   # UINT32
    13: 8,   # UINT64
    14: 8,   # COMPLEX64
    15: 16,  # COMPLEX128
    16: 2,   # BFLOAT16
    17: 1, 18: 1, 19: 1, 20: 1,   # FLOAT8 variants
}


# ONNX's element type names where torch's differ: one name per dtype in
# every importer's dtype column.
_TORCH_NAMES = {"float": "float32", "double": "float64"}


def _dtype_name(elem):
    """An ONNX element type's name as torch spells it ("float32")."""
    name = _onnx().TensorProto.DataType.Name(elem).lower()
    return _TORCH_NAMES.get(name, name)


def _onnx():
    try:
        import onnx
    except ImportError as e:
        raise TableError("the onnx importer needs the onnx module (Debian: "
                         "python3-onnx): %s" % e)
    return onnx


def _shape(type_proto):
    """(dims, elem_type, text): dims with None for an unknown dimension."""
    if not type_proto.HasField("tensor_type"):
        return None, None, "not a tensor (%s)" % type_proto.WhichOneof("value")
    tt = type_proto.tensor_type
    if not tt.HasField("shape"):
        return None, tt.elem_type, "unknown rank"
    dims, text = [], []
    for d in tt.shape.dim:
        if d.HasField("dim_value"):
            dims.append(d.dim_value)
            text.append(str(d.dim_value))
        else:
            dims.append(None)
            text.append("'%s'" % d.dim_param if d.dim_param else "?")
    return dims, tt.elem_type, "[%s]" % ",".join(text)


def _subgraph_reads(node):
    """Outer values the node's subgraphs (If, Loop, Scan) read."""
    reads = []
    for attr in node.attribute:
        subs = list(attr.graphs)
        if attr.HasField("g"):
            subs.append(attr.g)
        for sub in subs:
            inner = {i.name for i in sub.input} | \
                {i.name for i in sub.initializer}
            for n in sub.node:
                for name in list(n.input) + _subgraph_reads(n):
                    if name and name not in inner:
                        reads.append(name)
                inner.update(n.output)
    return reads


def _toposort(nodes, known):
    """Kahn's order, stable: each time the first ready node in file order."""
    needs = []
    for n in nodes:
        needs.append([i for i in list(n.input) + _subgraph_reads(n) if i])
    made = set(known)
    done = [False] * len(nodes)
    order = []
    progress = True
    while len(order) < len(nodes) and progress:
        progress = False
        for k, n in enumerate(nodes):
            if not done[k] and all(i in made for i in needs[k]):
                done[k] = True
                order.append((n, needs[k]))
                made.update(o for o in n.output if o)
                progress = True
                break
    if len(order) < len(nodes):
        n = next(n for k, n in enumerate(nodes) if not done[k])
        missing = [i for i in needs[nodes.index(n)] if i not in made]
        raise TableError("node '%s' (%s) reads '%s', which no node produces "
                         "(or the graph has a cycle)" % (n.name, n.op_type,
                                                         missing[0]))
    return order


def _axis(node, default):
    for a in node.attribute:
        if a.name == "axis":
            return a.i
    return default


def _outermost(dims, axis):
    """Whether pieces along axis are contiguous: only 1s before it."""
    if dims is None or any(d is None for d in dims):
        return False
    if axis < 0:
        axis += len(dims)
    return 0 <= axis < len(dims) and all(d == 1 for d in dims[:axis])


def load(model, batch=None):
    """The model (ModelProto or path) with shapes inferred."""
    onnx = _onnx()
    if not isinstance(model, onnx.ModelProto):
        try:
            model = onnx.load(model)
        except Exception as e:
            raise TableError("cannot read the ONNX model '%s': %s"
                             % (model, e))
    if batch is not None:
        inits = {i.name for i in model.graph.initializer}
        model = type(model).FromString(model.SerializeToString())
        for vi in model.graph.input:
            if vi.name in inits or not vi.type.HasField("tensor_type"):
                continue
            dims = vi.type.tensor_type.shape.dim
            if len(dims) and not dims[0].HasField("dim_value"):
                dims[0].dim_value = batch
    inferred = _infer(onnx, model)
    if not F.unknown_outputs(inferred):
        return inferred
    return F.infer_by_folding(onnx, model, inferred,
                              lambda m: _infer(onnx, m))


def _infer(onnx, model):
    try:
        return onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception as e:
        raise TableError("ONNX shape inference failed: %s" % e)


def _weight_identities(nodes, weights):
    """{output: weight} for every Identity whose input is a weight, through
    chains of them, whatever the nodes' order."""
    same = {}
    changed = True
    while changed:
        changed = False
        for n in nodes:
            if n.op_type != "Identity" or n.domain not in ("", "ai.onnx") \
                    or len(n.input) != 1 or len(n.output) != 1 or \
                    n.output[0] in same:
                continue
            src = same.get(n.input[0], n.input[0])
            if src in weights:
                same[n.output[0]] = src
                changed = True
    return same


def to_graph(model, batch=None):
    """The model as a graph.Graph (see graph.py)."""
    model = load(model, batch)
    g = model.graph
    info = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        info[vi.name] = vi.type
    out = G.Graph()
    weights = {}
    for init in g.initializer:
        weights[init.name] = (list(init.dims), init.data_type)
    nodes = list(g.node)
    # Constant nodes' outputs are weights too; the nodes still take a step
    consts = set()
    for n in nodes:
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            consts.add(n.output[0])
            value = [a for a in n.attribute if a.name == "value"]
            if value:
                weights[n.output[0]] = (list(value[0].t.dims),
                                        value[0].t.data_type)
            else:
                weights[n.output[0]] = None
    # Identity of a weight (exporters write one per parameter used under a
    # second name) is that weight: its readers read the weight, and it is
    # no scratch row
    same = _weight_identities(nodes, weights)
    consts |= set(same)
    inputs = [vi.name for vi in g.input if vi.name not in weights]
    out.inputs = inputs
    out.outputs = [same.get(vi.name, vi.name) for vi in g.output]

    dims_of = {}

    def record(name, dims, elem, text, op="input"):
        dims_of[name] = dims
        nbytes = _ELEM_BYTES.get(elem)
        if dims is None or any(d is None for d in dims) or nbytes is None:
            if nbytes is None and dims is not None and \
                    all(d is not None for d in dims):
                text += ", element type %s has no fixed size" % elem
            out.sizes[name] = None
            out.shape_text[name] = text
            return
        count = 1
        for d in dims:
            count *= d
        out.sizes[name] = count * nbytes
        out.shape_text[name] = text
        out.elem[name] = nbytes
        out.describe[name] = (op, _dtype_name(elem),
                              "x".join(str(d) for d in dims) or "scalar")

    for name, de in weights.items():
        if de is not None:
            record(name, de[0], de[1], str(de[0]))
        elif name in info:
            record(name, *_shape(info[name]))
        else:
            out.sizes[name] = None
            out.shape_text[name] = "no shape inferred"
    for name in inputs:
        record(name, *_shape(info[name]))

    used_weights = []
    for n, reads in _toposort(nodes, list(inputs) + list(weights)):
        outs = [o for o in n.output if o and o not in consts]
        for o in outs:
            if o in info:
                record(o, *_shape(info[o]), op=n.op_type)
            else:
                out.sizes[o] = None
                out.shape_text[o] = "no shape inferred"
        reads = [same.get(i, i) for i in reads]
        for i in reads:
            if i in weights and i not in used_weights:
                used_weights.append(i)
        kind = None
        if n.domain in ("", "ai.onnx"):
            if n.op_type in VIEW_OPS and len(outs) == 1:
                kind = G.VIEW
            elif n.op_type == "Concat" and len(outs) == 1 and \
                    _outermost(dims_of.get(outs[0]), _axis(n, 0)):
                kind = G.CONCAT
            elif n.op_type == "Split" and n.input and \
                    len(outs) == len(n.output) and \
                    _outermost(dims_of.get(n.input[0]), _axis(n, 0)):
                kind = G.SPLIT
        # a view's other inputs (Reshape's shape) are read, not aliased
        out.nodes.append(G.Node(n.name or n.output[0], n.op_type, reads, outs,
                                kind))
    for o in out.outputs:
        if o in weights and o not in used_weights:
            used_weights.append(o)
    # in the file's order: initializers, then Constant nodes
    rank = {name: k for k, name in enumerate(weights)}
    out.weights = sorted(used_weights, key=rank.get)
    return out


def from_onnx(model, weights=False, batch=None, alignment=1, uses=False):
    """The lifetime table (importer.Rows) of an ONNX model or file.

    weights: emit initializers and Constant outputs as share_key rows.
    batch: the size of the inputs' first dimension where it is symbolic.
    uses: fill each row's uses (its producer's and readers' steps).
    """
    return G.rows(to_graph(model, batch), weights=weights, alignment=alignment,
                  uses=uses)
