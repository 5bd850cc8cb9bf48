import tplan

table = tplan.load("resnet50_b1.csv")     # or tplan.table(rows)
result = table.plan(strategy="auto")      # capacity=, tiers=, budget=...
print(result.peak, result.lower_bound)    # 9633792 9633792
print(result.offsets[3], result.search)   # tensor 3's offset, "fit"
table.save("plan.csv")                    # as tplanctl plan -o plan.csv
