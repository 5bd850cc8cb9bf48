import tplan

table = tplan.load("resnet50_b1.csv")      # or tplan.table(rows): (id, lower, upper, size)
result = table.plan(strategy="auto")       # any option of tplanctl plan: capacity=, tiers=...
print(result.peak, result.lower_bound)     # 9633792 9633792
print(result.offsets[3], result.search)    # tensor 3's offset; "fit"
table.save("plan.csv")                     # the plan, as tplanctl plan -o writes it
