# SPDX-License-Identifier: MIT
"""Importers: a model's tensor lifetime table, in the CSV tplanctl reads.

    from tplan.importer import from_onnx, from_torch
    table = from_torch(torchvision.models.resnet18().eval(),
                       (torch.randn(1, 3, 224, 224),))
    table.write("resnet18.csv")         # or table.csv() for the text

from_onnx(model_or_path) reads an ONNX model, from_torch(module, inputs)
traces an nn.Module with torch.fx (at the aten level, as it runs, what
torch.fx cannot trace), from_torch_training(module, inputs) one
training step of it (forward and backward); each returns Rows, a list
of Row (id, lower, upper, size, alignment, alias_of, alias_offset,
share_key, uses); Rows.folded() makes each alias group one row.  The
conventions are in graph.py and docs/IMPORTERS.md; the command is
userspace/python/bin/tplan-import.  This package needs neither libtplan nor
the rest of the tplan package, and imports onnx or torch only when asked to.
"""
from .rows import Row, Rows, TableError, escape_id, unescape_id
from .traced import Traced


def from_onnx(model, weights=False, batch=None, alignment=1, uses=False):
    """The Rows of an ONNX model (a ModelProto or a file's path)."""
    from . import onnx_import
    return onnx_import.from_onnx(model, weights=weights, batch=batch,
                                 alignment=alignment, uses=uses)


def from_torch(module, example_inputs, weights=False, alignment=1,
               uses=False, return_graph=False):
    """The Rows of an nn.Module run on example_inputs (see torch_import);
    with return_graph, (Rows, Traced): the graph it describes."""
    from . import torch_import
    return torch_import.from_torch(module, example_inputs, weights=weights,
                                   alignment=alignment, uses=uses,
                                   return_graph=return_graph)


def from_torch_training(module, example_inputs, loss="cross_entropy",
                        weights=False, alignment=1, return_graph=False):
    """The Rows, with uses, of one training step of an nn.Module
    (forward and backward; see torch_training); with return_graph,
    (Rows, Traced)."""
    from . import torch_training
    return torch_training.from_torch_training(
        module, example_inputs, loss=loss, weights=weights,
        alignment=alignment, return_graph=return_graph)


__all__ = ["Row", "Rows", "TableError", "Traced", "escape_id", "unescape_id",
           "from_onnx", "from_torch", "from_torch_training"]
