#include "kcycle/model/timing.hpp"

#include <algorithm>
#include <vector>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/core/medians.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/model/timed_turns.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

namespace {

// Runs `body` (untimed `prepare` before each) until the policy is satisfied.
template <class Prepare, class Body>
std::vector<double> repeat_timed(const TimingPolicy& p, Prepare prepare, Body body) {
  return repeat_in_turns(p, 1, prepare, [&](std::size_t) { body(); }).front();
}

// A vector of the backend filled with uniform random numbers (seeded, reproducible).
template <class Backend>
typename Backend::Vector random_vector(Backend& backend, GridShape shape, std::uint64_t seed) {
  Field host(shape);
  fill_uniform_random(host, seed);
  typename Backend::Vector v = backend.make_vector(shape);
  backend.upload(host, v);
  return v;
}

// Each cycle's seconds per call on each level: the median over `repetitions[k]` cycles of
// cycles[k] (each from `guess`, in turns as repeat_in_turns times them) with the per-level timers
// on, run as a stand-alone solve runs them: the pass that ends the cycle also sums the iterate's
// norms where the schedule has it do so. Every rank of a process grid runs as many (they
// communicate).
template <class Backend>
std::vector<std::vector<double>> level_seconds_per_call(Multigrid<Backend>& mg, Backend& backend,
                                                        const std::vector<CycleChoice>& cycles,
                                                        const typename Backend::Vector& guess,
                                                        const std::vector<int>& repetitions) {
  mg.set_level_timing(true);
  double norm2 = 0, residual2 = 0;
  CycleHooks hooks;
  if (mg.schedule_for(hooks).sums_pass()) hooks.sums = {nullptr, &norm2, &residual2};
  const std::size_t levels = std::size_t(mg.levels());
  // [cycle][level]: each timed cycle's seconds on the level, and the level's calls in one cycle
  std::vector<std::vector<std::vector<double>>> seconds(cycles.size(), std::vector<std::vector<double>>(levels));
  std::vector<std::vector<std::uint64_t>> calls(cycles.size(), std::vector<std::uint64_t>(levels, 0));
  const int rounds = repetitions.empty() ? 0 : *std::max_element(repetitions.begin(), repetitions.end());
  for (int r = 0; r < rounds; ++r)
    for (std::size_t k = 0; k < cycles.size(); ++k) {
      if (r >= repetitions[k]) continue;
      backend.copy(guess, mg.level(1).v);
      backend.synchronize();
      mg.reset_level_stats();
      mg.cycle(cycles[k], hooks);
      backend.synchronize();
      for (std::size_t l = 0; l < levels; ++l) {
        seconds[k][l].push_back(mg.level(int(l) + 1).stats.total_seconds());
        calls[k][l] = mg.level(int(l) + 1).stats.calls;
      }
    }
  mg.set_level_timing(false);
  std::vector<std::vector<double>> per_call(cycles.size(), std::vector<double>(levels, 0.0));
  for (std::size_t k = 0; k < cycles.size(); ++k)
    for (std::size_t l = 0; l < levels; ++l)
      if (calls[k][l] > 0 && !seconds[k][l].empty()) per_call[k][l] = upper_median(seconds[k][l]) / double(calls[k][l]);
  return per_call;
}

// Times each of `cycles` on one hierarchy, in turns (timed_turns.hpp).
template <class Backend>
std::vector<CycleTiming> time_cycles_on(Backend& backend, const MultigridSettings& settings,
                                        const std::vector<CycleChoice>& cycles, const TimingPolicy& policy) {
  Multigrid<Backend> mg(prepared_for(backend, settings), settings);
  const auto guess = random_vector(backend, mg.level(1).shape, 1);
  // The right-hand side written, zeros, as a solve uploads it: a field never written reads
  // the kernel's zero page, from cache, and the cycle would be timed without f's traffic.
  backend.copy(backend.make_vector(mg.level(1).shape), mg.level(1).f);
  const auto times = repeat_in_turns(
      policy, cycles.size(),
      [&] {
        backend.copy(guess, mg.level(1).v);
        backend.synchronize();
      },
      [&](std::size_t k) {
        mg.cycle(cycles[k]);
        backend.synchronize();
      },
      [&](bool more) {
        if constexpr (Distributes<Backend>)
          return backend.any_rank(more);
        else
          return more;
      });
  std::vector<CycleTiming> timings(cycles.size());
  std::vector<int> repetitions;
  for (std::size_t k = 0; k < cycles.size(); ++k) {
    CycleTiming& t = timings[k];
    t.median_seconds = upper_median(times[k]);
    t.min_seconds = *std::min_element(times[k].begin(), times[k].end());
    t.spread = summarize_timings(times[k]).spread;
    t.repetitions = int(times[k].size());
    repetitions.push_back(t.repetitions);
  }
  if (policy.per_level) {
    std::vector<std::vector<double>> per_call = level_seconds_per_call(mg, backend, cycles, guess, repetitions);
    for (std::size_t k = 0; k < cycles.size(); ++k) timings[k].level_seconds_per_call = std::move(per_call[k]);
  }
  for (std::size_t k = 0; k < cycles.size(); ++k) {
    CycleTiming& t = timings[k];
    if constexpr (CountsTeamPasses<Backend>) backend.reset_launches();
    const std::uint64_t before = backend.launches();
    mg.cycle(cycles[k]);
    backend.synchronize();
    t.launches = backend.launches() - before;
    if constexpr (CountsTeamPasses<Backend>) {
      t.team_passes.assign(std::size_t(mg.levels()) + 1, 0);
      for (int l = 1; l <= mg.levels(); ++l) t.team_passes[std::size_t(l)] = backend.team_passes(mg.level(l).shape.ny);
    }
    if constexpr (Distributes<Backend>)
      if (cycles[k].type == CycleType::Kappa) {
        const DistributedCycleCost c =
            distributed_cycle_cost(mg.settings(), cycles[k].counter, backend.decomposition(), {});
        t.ranks = backend.ranks();
        t.px = backend.px();
        t.py = backend.py();
        t.ops = c.ops;
        t.messages = c.messages;
      }
  }
  return timings;
}

template <class Backend>
CycleTiming time_cycle_on(Backend& backend, const MultigridSettings& settings, CycleChoice cycle,
                          const TimingPolicy& policy) {
  return time_cycles_on(backend, settings, {cycle}, policy).front();
}

template <class Backend>
BandwidthMeasurement measure_bandwidth_on(Backend& backend, int levels, int repetitions) {
  TimingPolicy policy;
  policy.min_repetitions = repetitions;
  policy.min_seconds = 0.1;
  auto wait = [&] { backend.synchronize(); };
  BandwidthMeasurement m;

  // The sweep on the finest level's own arrays, as a cycle runs it.
  const GridShape shape = full_coarsening_shape(levels, 1);
  {
    auto v = random_vector(backend, shape, 1), f = random_vector(backend, shape, 2);
    auto out = backend.make_vector(shape);
    const Stencil9 A = scaled(rotated_anisotropic_stencil(1e-4, 45.0), 1.0 / (shape.hx() * shape.hx()));
    m.jacobi_seconds = upper_median(repeat_timed(policy, wait, [&] {
      backend.jacobi(A, 0.8, v, f, out);
      backend.synchronize();
    }));
    m.unknowns = shape.unknowns();
    m.jacobi_gbps = 24.0 * double(m.unknowns) / m.jacobi_seconds * 1e-9;
  }
  // STREAM's rule: each array at least 4x the caches. 2^25 doubles (256 MiB) per array
  // exceeds any last-level cache we run on; smaller finest levels would time the cache.
  const GridShape big = shape.unknowns() >= (std::size_t(1) << 25) ? shape : GridShape{4095, 8191};
  {
    auto b = random_vector(backend, big, 3), c = random_vector(backend, big, 4);
    auto a = backend.make_vector(big);
    m.triad_seconds = upper_median(repeat_timed(policy, wait, [&] {
      backend.triad(0.5, b, c, a);
      backend.synchronize();
    }));
    m.triad_unknowns = big.unknowns();
    m.triad_gbps = 24.0 * double(m.triad_unknowns) / m.triad_seconds * 1e-9;
  }
  return m;
}

}  // namespace

TimingSpread summarize_timings(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const double fastest = v.front();
  const double p90 = v[std::min(v.size() - 1, v.size() * 9 / 10)];
  return {v[v.size() / 2], fastest, fastest > 0 ? p90 / fastest : 1.0};
}

CycleTiming time_cycle(const MultigridSettings& settings, CycleChoice cycle, const ExecutionTarget& target,
                       const TimingPolicy& policy) {
  return on_target(target, [&](auto& backend) { return time_cycle_on(backend, settings, cycle, policy); });
}

std::vector<CycleTiming> time_cycles(const MultigridSettings& settings, const std::vector<CycleChoice>& cycles,
                                     const ExecutionTarget& target, const TimingPolicy& policy) {
  return on_target(target, [&](auto& backend) { return time_cycles_on(backend, settings, cycles, policy); });
}

BandwidthMeasurement measure_bandwidth(int levels, const ExecutionTarget& target, int repetitions) {
  // MPI ranks sweep their blocks with the CPU backend's loops: the memory they stream from is
  // this machine's, measured there (the triad's arrays are no level of a hierarchy to split).
  ExecutionTarget local = target;
  if (local.backend == BackendKind::Mpi) local.backend = BackendKind::Cpu;
  return on_target(local, [&](auto& backend) { return measure_bandwidth_on(backend, levels, repetitions); });
}

CycleTiming time_cycle_on_ranks(const MultigridSettings& settings, CycleChoice cycle, const ExecutionTarget& target,
                                int ranks, const TimingPolicy& policy) {
  if (target.backend != BackendKind::Mpi) throw std::invalid_argument("time_cycle_on_ranks: an MPI target");
#if KCYCLE_HAVE_MPI
  start_mpi();
  int world_rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (ranks < 1 || ranks > world)
    throw InvalidOptions("cannot time on " + std::to_string(ranks) + " of " + std::to_string(world) + " ranks");
  MPI_Comm some = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank < ranks ? 0 : MPI_UNDEFINED, world_rank, &some);
  CycleTiming t;
  if (some != MPI_COMM_NULL) {
    {
      MpiBackend backend(target, some, target.ranks_x, target.ranks_y);
      t = time_cycle_on(backend, settings, cycle, policy);
    }
    MPI_Comm_free(&some);
  }
  // Rank 0 always times: it tells the others.
  double fields[9] = {t.median_seconds,   t.min_seconds,   double(t.repetitions),
                      double(t.launches), double(t.ranks), double(t.px),
                      double(t.py),       t.ops,           t.messages};
  MPI_Bcast(fields, 9, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return {fields[0],
          fields[1],
          int(fields[2]),
          std::uint64_t(fields[3]),
          int(fields[4]),
          int(fields[5]),
          int(fields[6]),
          fields[7],
          fields[8],
          {},
          1.0,
          {}};
#else
  if (ranks != 1) throw InvalidOptions("this build has no MPI: one rank only");
  ExecutionTarget cpu = target;
  cpu.backend = BackendKind::Cpu;
  return time_cycle(settings, cycle, cpu, policy);
#endif
}

double measure_message_latency(const ExecutionTarget& target, int levels, Coarsening coarsening) {
#if KCYCLE_HAVE_MPI
  if (target.backend == BackendKind::Mpi) {
    MpiBackend backend(target);
    backend.distribute(levels, coarsening);
    return backend.message_latency();
  }
#endif
  (void)target, (void)levels, (void)coarsening;
  return 0.0;
}

Calibration calibrate(const MultigridSettings& as_run, const CalibrationSweep& sweep,
                      const std::function<void(const TimingSample&)>& on_case) {
  const std::vector<int> kappas =
      sweep.kappas.empty() ? std::vector<int>(kKappaCandidates.begin(), kKappaCandidates.end()) : sweep.kappas;
  Calibration c;
  c.backend = describe(sweep.target);
  c.smoother = std::string(to_string(as_run.smoother));
  c.coarsening = std::string(to_string(as_run.coarsening));
  const CycleSchedule per_call = CycleSchedule::per_call(as_run, kAsResolved);
  c.launches_per_call = per_call.launches_per_call(1);
  c.fused = per_call.fuses_any();
  c.coarse_tail = int(as_run.coarse_tail_unknowns.value_or(0));
  c.coarsest_calls = as_run.coarsest_calls;
  c.threads = sweep.target.threads;
  const double lambda = measure_message_latency(sweep.target, sweep.max_levels, as_run.coarsening);
  std::vector<CycleChoice> cycles;
  for (const int kappa : kappas) cycles.push_back({CycleType::Kappa, kappa});
  for (int n = sweep.min_levels; n <= sweep.max_levels; ++n) {
    MultigridSettings s = as_run;
    s.levels = n;
    TimingPolicy policy = sweep.policy;
    // The per-level model's costs, from the same cycles' timers (not on a process grid: the
    // advisor prices those with the paper's model and lambda).
    policy.per_level = sweep.target.backend != BackendKind::Mpi;
    const std::vector<CycleTiming> timings = time_cycles(s, cycles, sweep.target, policy);
    for (std::size_t k = 0; k < kappas.size(); ++k) {
      const int kappa = kappas[k];
      const CycleTiming& t = timings[k];
      c.ranks = t.ranks;
      const double ops = t.ranks > 1 ? t.ops : cycle_ops(kappa, n, as_run.coarsening, as_run.coarsest_calls);
      // The fastest repetition: what the cycle costs when nothing else runs (the spread says
      // whether something did). On a process grid the median, as lambda is measured: the fit
      // takes lambda's share out of each time.
      const double seconds = lambda > 0 ? t.median_seconds : t.min_seconds;
      const TimingSample sample{
          kappa, n, double(t.launches), ops, seconds, t.messages, t.spread, t.median_seconds, t.level_seconds_per_call};
      c.spread = std::max(c.spread, t.spread);
      c.samples.push_back(sample);
      if (on_case) on_case(sample);
    }
  }
  c.measured_lambda = lambda;
  c.model = fit_cost_model(c.samples, lambda);
  return c;
}

}  // namespace kcycle
