# SPDX-License-Identifier: MIT
"""What a table was made from: the traced graph, for running it.

from_torch(..., return_graph=True) and from_torch_training(...,
return_graph=True) return (table, Traced).  The Traced holds the exact
torch.fx graph the table describes and how the two meet:

  gm      the torch.fx.GraphModule; run its nodes in order
  inputs  the flat tensors its placeholders take, in order
  steps   fx node -> the table step it runs at (a node missing here runs at
          the step of the node before it: torch training's getitem picks
          and get_attr constants)
  slots   (fx node, k) -> the row id holding the node's value: k is None
          for a node whose value is one tensor, else the position of a
          tensor in the tuple it returns
  training whether it is a training step (make_fx's aten graph, whose
          placeholders are the parameters, buffers, inputs and target)

tplan.executor runs it with every row at its planned offset.
"""


class Traced:
    """A traced graph and the table rows its values live in."""

    def __init__(self, gm, inputs, steps, slots, training):
        self.gm = gm
        self.inputs = list(inputs)
        self.steps = steps
        self.slots = slots
        self.training = training

    def __repr__(self):
        return "<Traced %s graph: %d nodes, %d rows>" % (
            "training" if self.training else "inference",
            len(self.gm.graph.nodes), len(set(self.slots.values())))
