# SPDX-License-Identifier: MIT
"""Shapes that ONNX shape inference leaves unknown, found by evaluating the
model's shape arithmetic on its input shapes.

Exporters compute sizes at run time: Shape -> Gather -> Add/Div -> Slice or
Reshape (torch's attention heads, for one).  onnx's data propagation
follows some of those ops and not others (onnx 1.12, Debian 12's, stops at
Div), so a value behind them has no known shape, though every number it
depends on follows from the input shapes.  Here those numbers are computed
with numpy, node by node in the graph's order: a node is evaluated when each
input is a known value (an initializer, a Constant, or a value computed
here) or, for Shape and Size, a tensor whose shape is known.  The values
found are given to shape inference as initializers of a copy of the model,
which is inferred again, until nothing new is found.  Only small integer
bookkeeping is evaluated (results up to FOLD_LIMIT elements), never the
model's data path; a size that depends on data values stays unknown.

The importer still reads the original graph: a folded node keeps its step
and its output stays a scratch tensor, only its shape is now known.
"""
import numpy as np

FOLD_LIMIT = 4096   # elements: shape bookkeeping, never activations
MAX_ROUNDS = 16     # inference rounds; each must find something new


def _np_dtype(onnx, elem):
    conv = getattr(onnx.helper, "tensor_dtype_to_np_dtype", None)
    if conv:
        return conv(elem)
    return onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem]


def _tensor_dtype(onnx, dtype):
    conv = getattr(onnx.helper, "np_dtype_to_tensor_dtype", None)
    if conv:
        return conv(dtype)
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[dtype]


def _attrs(onnx, node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _axes(args, attrs):
    """Unsqueeze/Squeeze/Reduce axes: an input from opset 13, else an
    attribute."""
    if len(args) > 1 and args[1] is not None:
        return [int(a) for a in np.atleast_1d(args[1])]
    return list(attrs.get("axes", []))


def _int_div(a, b):
    """ONNX Div: true division for floats, truncation for integers."""
    if np.issubdtype(a.dtype, np.integer):
        q = np.abs(a) // np.abs(b)
        return (q * np.sign(a) * np.sign(b)).astype(a.dtype)
    return a / b


def _slice(args, attrs):
    data = args[0]
    if len(args) > 1:
        starts, ends = args[1], args[2]
        axes = args[3] if len(args) > 3 and args[3] is not None else None
        steps = args[4] if len(args) > 4 and args[4] is not None else None
    else:
        starts, ends = attrs["starts"], attrs["ends"]
        axes, steps = attrs.get("axes"), None
    if axes is None:
        axes = range(len(starts))
    if steps is None:
        steps = [1] * len(starts)
    index = [slice(None)] * data.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        index[int(a)] = slice(int(s), int(e), int(st))
    return data[tuple(index)]


def _unsqueeze(x, axes):
    rank = x.ndim + len(axes)
    for a in sorted(a % rank for a in axes):
        x = np.expand_dims(x, a)
    return x


def _reduce(fn):
    def run(args, attrs):
        axes = _axes(args, attrs) or None
        return fn(args[0], axis=tuple(axes) if axes else None,
                  keepdims=bool(attrs.get("keepdims", 1)))
    return run


def _binary(fn):
    return lambda args, attrs: fn(args[0], args[1])


# op -> f(args, attrs) -> one output, for ops whose every input is a value
_VALUE_OPS = {
    "Identity": lambda args, attrs: args[0],
    "Add": _binary(np.add), "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply), "Div": _binary(_int_div),
    "Mod": _binary(np.mod), "Pow": _binary(np.power),
    "Equal": _binary(np.equal), "Less": _binary(np.less),
    "Greater": _binary(np.greater), "And": _binary(np.logical_and),
    "Or": _binary(np.logical_or),
    "Max": lambda args, attrs: np.maximum.reduce(args),
    "Min": lambda args, attrs: np.minimum.reduce(args),
    "Neg": lambda args, attrs: -args[0],
    "Abs": lambda args, attrs: np.abs(args[0]),
    "Not": lambda args, attrs: np.logical_not(args[0]),
    "Sqrt": lambda args, attrs: np.sqrt(args[0]),
    "Floor": lambda args, attrs: np.floor(args[0]),
    "Ceil": lambda args, attrs: np.ceil(args[0]),
    "Where": lambda args, attrs: np.where(args[0], args[1], args[2]),
    "Gather": lambda args, attrs: np.take(args[0], args[1],
                                          axis=attrs.get("axis", 0)),
    "Concat": lambda args, attrs: np.concatenate(
        [np.atleast_1d(a) for a in args], axis=attrs["axis"]),
    "Unsqueeze": lambda args, attrs: _unsqueeze(args[0],
                                                _axes(args, attrs)),
    "Squeeze": lambda args, attrs: np.squeeze(
        args[0], axis=tuple(_axes(args, attrs)) or None),
    "Reshape": lambda args, attrs: args[0].reshape(
        [d if d or attrs.get("allowzero") else args[0].shape[k]
         for k, d in enumerate(args[1].tolist())]),
    "Transpose": lambda args, attrs: np.transpose(args[0], attrs.get("perm")),
    "Slice": _slice,
    "Expand": lambda args, attrs: args[0] * np.ones(args[1].tolist(),
                                                    dtype=args[0].dtype),
    "Range": lambda args, attrs: np.arange(args[0], args[1], args[2],
                                           dtype=args[0].dtype),
    "ReduceProd": _reduce(np.prod), "ReduceSum": _reduce(np.sum),
    "ReduceMax": _reduce(np.max), "ReduceMin": _reduce(np.min),
}


def _shape_op(op, dims, attrs):
    """Shape or Size of a tensor whose dims are all known."""
    if op == "Size":
        return np.array(int(np.prod(dims)), dtype=np.int64)
    start, end = attrs.get("start", 0), attrs.get("end", len(dims))
    return np.array(dims[start:end], dtype=np.int64)


def _evaluate(onnx, node, values, dims_of):
    """The node's outputs as numpy arrays, or None when it cannot be
    evaluated here (or its result is not small bookkeeping)."""
    attrs = _attrs(onnx, node)
    op = node.op_type
    if node.domain not in ("", "ai.onnx") or len(node.output) != 1:
        return None
    if op in ("Shape", "Size"):
        dims = dims_of.get(node.input[0])
        return None if dims is None else _shape_op(op, dims, attrs)
    if op == "Cast":
        if node.input[0] not in values:
            return None
        return values[node.input[0]].astype(_np_dtype(onnx, attrs["to"]))
    if op == "ConstantOfShape":
        if node.input[0] not in values or \
                np.prod(values[node.input[0]]) > FOLD_LIMIT:
            return None
        fill = attrs.get("value")
        fill = onnx.numpy_helper.to_array(fill) if fill is not None else \
            np.zeros(1, dtype=np.float32)
        return np.full(values[node.input[0]].tolist(), fill.reshape(-1)[0],
                       dtype=fill.dtype)
    fn = _VALUE_OPS.get(op)
    if fn is None or any(i and i not in values for i in node.input):
        return None
    return fn([values[i] if i else None for i in node.input], attrs)


def _known_dims(type_proto):
    if not type_proto.HasField("tensor_type"):
        return None
    tt = type_proto.tensor_type
    if not tt.HasField("shape") or \
            not all(d.HasField("dim_value") for d in tt.shape.dim):
        return None
    return [d.dim_value for d in tt.shape.dim]


def _inferred_dims(model):
    g = model.graph
    dims = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        d = _known_dims(vi.type)
        if d is not None:
            dims[vi.name] = d
    for init in g.initializer:
        dims[init.name] = list(init.dims)
    return dims


def unknown_outputs(model):
    """Node outputs of an inferred model whose shape is not fully known."""
    dims = _inferred_dims(model)
    return [o for n in model.graph.node for o in n.output
            if o and o not in dims and n.op_type != "Constant"]


def _constant_values(onnx, model):
    values = {}
    for init in model.graph.initializer:
        if int(np.prod(init.dims)) <= FOLD_LIMIT:
            values[init.name] = onnx.numpy_helper.to_array(init)
    for n in model.graph.node:
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            value = [a for a in n.attribute if a.name == "value"]
            if value:
                values[n.output[0]] = onnx.numpy_helper.to_array(value[0].t)
    return values


def _fold_round(onnx, model, values):
    """Evaluates what the last inference made possible; returns the names of
    the values found."""
    dims_of = _inferred_dims(model)
    found = []
    for node in model.graph.node:
        if not node.output or node.output[0] in values:
            continue
        try:
            with np.errstate(all="ignore"):
                out = _evaluate(onnx, node, values, dims_of)
        except (ValueError, IndexError, KeyError, TypeError):
            out = None
        if out is None:
            continue
        out = np.asarray(out)
        if out.size <= FOLD_LIMIT:
            values[node.output[0]] = out
            dims_of[node.output[0]] = list(out.shape)
            found.append(node.output[0])
    return found


def _with_values(onnx, model, values, folded):
    """A copy of @model whose folded values are initializers and whose
    folding nodes are gone, for shape inference alone."""
    copy = type(model).FromString(model.SerializeToString())
    keep = [n for n in copy.graph.node
            if not (n.output and n.output[0] in folded)]
    del copy.graph.node[:]
    copy.graph.node.extend(keep)
    del copy.graph.value_info[:]
    for name in folded:
        copy.graph.initializer.append(
            onnx.numpy_helper.from_array(values[name], name))
    return copy


def infer_by_folding(onnx, model, inferred, infer):
    """@inferred (the model after shape inference) with a value_info for each
    value whose shape folding found; @infer(model) runs shape inference.

    Returns @inferred itself when folding found nothing.
    """
    import onnx.numpy_helper  # noqa: F401  (onnx.numpy_helper below)
    values = _constant_values(onnx, model)
    folded = []
    current = inferred
    for _ in range(MAX_ROUNDS):
        found = _fold_round(onnx, current, values)
        if not found:
            break
        folded += found
        current = infer(_with_values(onnx, model, values, set(folded)))
    if not folded:
        return inferred
    known = _inferred_dims(inferred)
    dims = _inferred_dims(current)
    elem = {vi.name: vi.type.tensor_type.elem_type
            for vi in list(current.graph.value_info) +
            list(current.graph.output)
            if vi.type.HasField("tensor_type")}
    for name in folded:
        elem[name] = _tensor_dtype(onnx, values[name].dtype)
    for name in unknown_outputs(inferred):
        if name in known or name not in dims or not elem.get(name):
            continue
        _set_type(inferred.graph, onnx.helper.make_tensor_value_info(
            name, elem[name], dims[name]))
    return inferred


def _set_type(graph, vi):
    """@vi's type for its value: replaces a graph output's or an inferred
    value_info's, or adds one."""
    for entry in list(graph.output) + list(graph.value_info):
        if entry.name == vi.name:
            entry.type.CopyFrom(vi.type)
            return
    graph.value_info.append(vi)
