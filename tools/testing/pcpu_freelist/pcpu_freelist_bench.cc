// SPDX-License-Identifier: GPL-2.0-only
//
// Google Benchmark for kernel/bpf/percpu_freelist.c (one version per binary;
// run.sh runs the base and the series binary and joins their JSON output).
// The argument of every benchmark is the number of possible CPUs.

#include <benchmark/benchmark.h>

#include <vector>

extern "C" {
#include "percpu_freelist.h"
}

namespace {

class Freelist {
public:
	Freelist(unsigned int ncpus, unsigned int nelems)
		: nodes_(nelems)
	{
		pcpu_shim_set_nr_cpus(ncpus);
		pcpu_freelist_init(&fl_);
		pcpu_freelist_populate(&fl_, nodes_.data(), sizeof(nodes_[0]),
				       nelems);
		pcpu_shim_cpu = 0;
		pcpu_shim_in_nmi = 0;
	}
	~Freelist() { pcpu_freelist_destroy(&fl_); }
	struct pcpu_freelist *fl() { return &fl_; }

private:
	struct pcpu_freelist fl_ = {};
	std::vector<struct pcpu_freelist_node> nodes_;
};

void report_locks(benchmark::State &state, const struct pcpu_shim_stats &s0)
{
	state.counters["locks/op"] = benchmark::Counter(
		pcpu_shim_stats.lock_acquired - s0.lock_acquired,
		benchmark::Counter::kAvgIterations);
}

// Pop from a freelist with no nodes at all (e.g. a full BPF hash map).
void BM_PopExhausted(benchmark::State &state)
{
	Freelist f(state.range(0), 0);
	struct pcpu_shim_stats s0 = pcpu_shim_stats;

	for (auto _ : state)
		benchmark::DoNotOptimize(pcpu_freelist_pop(f.fl()));
	report_locks(state, s0);
}

// Pop + push on the current CPU's own non-empty list.
void BM_PopPush(benchmark::State &state)
{
	Freelist f(state.range(0), 4 * state.range(0));
	struct pcpu_shim_stats s0 = pcpu_shim_stats;

	for (auto _ : state) {
		struct pcpu_freelist_node *n = pcpu_freelist_pop(f.fl());

		benchmark::DoNotOptimize(n);
		pcpu_freelist_push(f.fl(), n);
	}
	report_locks(state, s0);
}

// Pop + push with the only node on the CPU the wrapping scan reaches last.
void BM_PopPushFar(benchmark::State &state)
{
	const int far = state.range(0) - 1;
	Freelist f(state.range(0), 0);
	struct pcpu_freelist_node node;
	struct pcpu_shim_stats s0 = pcpu_shim_stats;

	pcpu_shim_cpu = far;
	pcpu_freelist_push(f.fl(), &node);
	for (auto _ : state) {
		pcpu_shim_cpu = 0;
		struct pcpu_freelist_node *n = pcpu_freelist_pop(f.fl());

		benchmark::DoNotOptimize(n);
		pcpu_shim_cpu = far;
		pcpu_freelist_push(f.fl(), n);
	}
	pcpu_shim_cpu = 0;
	report_locks(state, s0);
}

#define CPU_ARGS Arg(1)->Arg(8)->Arg(64)->Arg(256)->Arg(1024)

BENCHMARK(BM_PopExhausted)->CPU_ARGS;
BENCHMARK(BM_PopPush)->CPU_ARGS;
BENCHMARK(BM_PopPushFar)->CPU_ARGS;

} // namespace

BENCHMARK_MAIN();
