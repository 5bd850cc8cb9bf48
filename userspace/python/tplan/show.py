# SPDX-License-Identifier: MIT
"""A plan drawn as an SVG picture, by tplanctl show (Result.show()).

The picture is tplanctl show's: time across, address up, one panel per
tier, each tensor a rectangle with its name where it fits, the peak and
the live-bytes bound as lines, the bytes live at each step as a curve
under the packing.  tplanctl is found at $TPLAN_TPLANCTL; beside the
libtplan.so the binding loaded (the build tree's build/tplanctl, or
PREFIX/bin/tplanctl for PREFIX/lib/libtplan.so.0); then on PATH.
"""
import errno
import os
import re
import shutil
import subprocess
import tempfile

from . import _lib
from .errors import Error


def tplanctl_candidates():
    """Where tplanctl is looked for, in order (see the module's doc)."""
    out = []
    env = os.environ.get("TPLAN_TPLANCTL")
    if env:
        return [env]
    try:
        path = _lib.lib().tplan_path
    except OSError:
        path = ""
    if "/" in path:
        here = os.path.dirname(os.path.abspath(path))
        out.append(os.path.join(here, "tplanctl"))
        out.append(os.path.normpath(os.path.join(here, "..", "bin",
                                                 "tplanctl")))
    found = shutil.which("tplanctl")
    if found:
        out.append(found)
    return out


def find_tplanctl():
    """The tplanctl to draw with; Error (ENOENT) saying where it looked."""
    env = os.environ.get("TPLAN_TPLANCTL")
    tried = []
    for path in tplanctl_candidates():
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        tried.append(path)
    if env:
        raise Error(errno.ENOENT, "TPLAN_TPLANCTL=%s: no such executable "
                    "(drawing a plan runs tplanctl show)" % env)
    raise Error(errno.ENOENT, "tplanctl not found (drawing a plan runs "
                "tplanctl show); tried %s and PATH: build it (make) or set "
                "TPLAN_TPLANCTL to its path" %
                (", ".join(tried) if tried else "beside libtplan.so"))


def _file_name(name):
    """A file name for the picture's title: the table's, or plan.csv."""
    base = os.path.basename(name or "")
    base = re.sub(r"[^A-Za-z0-9._+-]", "_", base)
    if not base or base.startswith(".") or name.startswith("<"):
        return "plan.csv"
    return base if base.endswith(".csv") else base + ".csv"


def draw(csv_text, name, path=None, serial=False, aliases=False,
         names=None):
    """Draws the plan in csv_text (a plan file's text, with its offsets)
    with tplanctl show --svg.  Its title names name's file.  path: where
    to write the SVG to as well ("-" is not taken).
    serial, aliases: as the plan was made; names: a names file (a
    tab-separated id and node or name column) for the rectangles' names.
    Returns the SVG's text; raises Error with tplanctl's message."""
    ctl = find_tplanctl()
    with tempfile.TemporaryDirectory(prefix="tplan-show-") as tmp:
        plan_file = _file_name(name)
        with open(os.path.join(tmp, plan_file), "w") as f:
            f.write(csv_text)
        out = os.path.abspath(os.fspath(path)) if path is not None else \
            os.path.join(tmp, "plan.svg")
        args = [ctl, "show", plan_file, "-o", out]
        args.append("--serial" if serial else "--concurrent")
        if aliases:
            args.append("--aliases")
        if names is not None:
            args += ["--names", os.path.abspath(os.fspath(names))]
        p = subprocess.run(args, cwd=tmp, capture_output=True, text=True,
                           errors="replace")
        if p.returncode:
            msg = (p.stderr or p.stdout).strip() or \
                "exit code %d" % p.returncode
            raise Error(errno.EINVAL, "%s: %s" % (ctl, msg))
        with open(out, encoding="utf-8") as f:
            return f.read()
