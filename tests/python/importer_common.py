# SPDX-License-Identifier: MIT
"""What both importer test files need: the tree's paths (tplanctl from
TPLAN_BUILD, the bench tables from TPLAN_DATA, as importer_test.sh sets
them), the package on sys.path, and two small helpers."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "userspace", "python"))

BUILD = os.path.abspath(os.environ.get("TPLAN_BUILD",
                                       os.path.join(TOP, "build")))
DATA = os.path.abspath(os.environ.get("TPLAN_DATA",
                                      os.path.join(TOP, "tests", "data")))
TPLANCTL = os.path.join(BUILD, "tplanctl")
IMPORT = os.path.join(TOP, "userspace", "python", "bin", "tplan-import")


def as_tuples(table):
    """A table's rows as (id, lower, upper, size, alias_of, alias_offset)."""
    return [(r.id, r.lower, r.upper, r.size, r.alias_of, r.alias_offset)
            for r in table]


def run(*cmd):
    """Runs a command; returns the CompletedProcess with its text output."""
    return subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def core(text):
    """A table's CSV text without the columns every table now has
    (alignment: at least the element size; node, dtype, shape): what the
    tests written before them compare."""
    lines = text.splitlines(True)
    if not lines:
        return text
    head = lines[0].rstrip("\n").split(",")
    keep = [k for k, c in enumerate(head)
            if c not in ("alignment", "node", "dtype", "shape")]
    return "".join(",".join(ln.rstrip("\n").split(",")[k] for k in keep) +
                   "\n" for ln in lines)
