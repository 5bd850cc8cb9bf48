# SPDX-License-Identifier: MIT
"""Bundles libtplan.so.0 and tplanctl into the package when it is built
from tplan's source tree (pip install ./userspace/python): make builds them
there (as README's `make` does: nothing is rebuilt when they are current)
and they go into tplan/, where tplan._lib and tplan.show look first.  Built
from a copy of userspace/python alone, the package has neither and finds
them as before (make install, $TPLAN_LIBRARY, $TPLAN_TPLANCTL, PATH).
Everything else is in pyproject.toml."""
import os
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.normpath(os.path.join(HERE, "..", ".."))
BUNDLED = ("libtplan.so.0", "tplanctl")


def source_tree():
    """tplan's source tree around this package, or None."""
    if os.path.isfile(os.path.join(TREE, "Makefile")) and \
       os.path.isdir(os.path.join(TREE, "userspace", "lib")):
        return TREE
    return None


class BuildWithLibrary(build_py):
    """build_py, then libtplan.so.0 and tplanctl made and copied in."""

    def run(self):
        super().run()
        tree = source_tree()
        if tree is None:
            return
        build = os.path.join(tree, "build")
        targets = [os.path.join("build", f) for f in BUNDLED]
        # a failed build is an error: a package without them would not plan
        # BUILD=build: where the targets are, whatever the environment says
        subprocess.run(["make", "-C", tree, "--no-print-directory",
                        "BUILD=build"] + targets, check=True)
        for f in BUNDLED:
            shutil.copy2(os.path.realpath(os.path.join(build, f)),
                         os.path.join(self.build_lib, "tplan", f))


class MaybeBinary(Distribution):
    """A wheel for this platform when it carries the library."""

    def has_ext_modules(self):
        return source_tree() is not None


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=MaybeBinary)
