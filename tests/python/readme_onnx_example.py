import subprocess
import tplan
from tplan.importer import from_onnx

from_onnx("model.onnx").write("model.csv")                # ONNX -> table
table = tplan.load("model.csv")
result = table.plan(aliases=True)                          # table -> plan
table.save("plan.csv")
print(result.peak, result.lower_bound)
subprocess.run(["tplanctl", "show", "plan.csv", "-o", "plan.svg"],
               check=True)                                 # plan -> picture
