# SPDX-License-Identifier: MIT
"""gpt_tables.py OUT_DIR - the tables of the GPT-style decoder of
tests/python/test_executor.py (TinyGPT) at two sizes, imported for
inference as tplan-import torch would, for run.sh.  Run with Debian's
/usr/bin/python3 (torch) and PYTHONPATH=userspace/python:tests/python."""
import os
import sys

import torch

from test_executor import TinyGPT
from tplan.importer import from_torch

SIZES = ((256, 4, 128), (768, 12, 256))     # width, layers, tokens


def main(out):
    os.makedirs(out, exist_ok=True)
    for d, layers, tokens in SIZES:
        torch.manual_seed(0)
        m = TinyGPT(vocab=1000, d=d, heads=8, layers=layers,
                    context=tokens).eval()
        table = from_torch(m, (torch.randint(1000, (1, tokens)),))
        path = os.path.join(out, "gpt_d%d_l%d_t%d.csv" % (d, layers, tokens))
        table.write(path)
        print(path)


if __name__ == "__main__":
    main(sys.argv[1])
