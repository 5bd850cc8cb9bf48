# SPDX-License-Identifier: MIT
"""tplan.Error: what every failing call of the binding raises."""
import errno as _errno
import os


class Error(OSError):
    """A libtplan call failed.

    An OSError whose ``errno`` is the call's (``errno.ENOSPC``,
    ``errno.EINVAL``...) and whose ``strerror`` and ``str()`` carry the
    planner's or the CSV reader's message ("FILE:LINE:COL: reason").
    Besides: ``defect``, the name of what the validator found (or None);
    ``tensors``, the ids of the tensors it names (or ()); ``result``, the
    planner's figures when they mean something (peak and lower bound after
    ENOSPC), else None.
    """

    def __init__(self, err, message, defect=None, tensors=(), result=None):
        err = abs(err)
        super().__init__(err, message)
        self.defect = defect
        self.tensors = tuple(tensors)
        self.result = result

    @property
    def errno_name(self):
        """"ENOSPC" for ENOSPC, "?" when unknown."""
        return _errno.errorcode.get(self.errno, "?")

    def __str__(self):
        return "%s (%s)" % (self.strerror, self.errno_name)


def from_errno(ret, what=None, **extra):
    """An Error for a negative errno, with the system's text for it."""
    text = os.strerror(-ret)
    return Error(-ret, "%s: %s" % (what, text) if what else text, **extra)
