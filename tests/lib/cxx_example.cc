// SPDX-License-Identifier: MIT
/*
 * cxx_example.cc - libtplan from C++, as an inference runtime would use it:
 * its own tensors in a std::vector, planned through a table that points at
 * them, then checked.  Built by tests/lib_test.sh against the public header
 * and libtplan.so.  Prints "peak P, bound B, saved S, STRATEGY, valid".
 */
#include <tplan/libtplan.h>

#include <algorithm>
#include <cstdio>
#include <vector>

int main()
{
	// Three tensors: at steps 1 and 2, two of them (300 bytes) are alive.
	const struct { __u64 lower, upper, size; } rows[] = {
		{ 0, 2, 100 }, { 1, 3, 200 }, { 2, 4, 100 },
	};
	std::vector<tplan_tensor> tensors;

	for (const auto &r : rows) {
		tplan_tensor t = {};

		t.id = tensors.size();
		t.lower = r.lower;
		t.upper = r.upper;
		t.size = r.size;
		t.alignment = 1;
		t.priority = TPLAN_DEFAULT_PRIORITY;
		tensors.push_back(t);
	}

	tplan_table table = {};
	table.tensors = tensors.data();
	table.count = static_cast<__u32>(tensors.size());

	tplan_options opts = {};
	opts.strategy = TPLAN_STRATEGY_AUTO;
	tplan_result res;
	int ret = tplan_table_plan(&table, &opts, &res);

	if (ret) {
		std::fprintf(stderr, "tplan_table_plan: %d\n", ret);
		return 1;
	}
	tplan_finding finding;
	ret = tplan_table_validate(&table, res.peak, &finding);
	// std::min: the header must not define a min() macro.
	__u64 saved = res.naive_total - std::min(res.peak, res.naive_total);

	std::printf("peak %llu, bound %llu, saved %llu, %s, %s\n", res.peak,
		    res.lower_bound, saved,
		    tplan_strategy_name(res.strategy),
		    ret ? tplan_defect_name(finding.defect) : "valid");
	return ret ? 1 : 0;
}
