# SPDX-License-Identifier: MIT
"""python3 -m tplan.importer: the tplan-import command."""
import sys

from .cli import main

sys.exit(main())
