#include "kcycle/model/timing.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/core/medians.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

namespace {

using Clock = std::chrono::steady_clock;

// Runs `body` (untimed `prepare` before each) until the policy is satisfied. On a process grid
// every rank must run the body as often as the others (it communicates): `agree` turns this
// rank's "one more" into all ranks' (true if any rank wants one more).
template <class Prepare, class Body, class Agree>
std::vector<double> repeat_timed(const TimingPolicy& p, Prepare prepare, Body body, Agree agree) {
  for (int k = 0; k < p.warmup; ++k) {
    prepare();
    body();
  }
  std::vector<double> times;
  double total = 0;
  while (agree(int(times.size()) < p.max_repetitions &&
               (int(times.size()) < p.min_repetitions || total < p.min_seconds))) {
    prepare();
    const auto t0 = Clock::now();
    body();
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    times.push_back(dt);
    total += dt;
  }
  return times;
}
template <class Prepare, class Body>
std::vector<double> repeat_timed(const TimingPolicy& p, Prepare prepare, Body body) {
  return repeat_timed(p, prepare, body, [](bool more) { return more; });
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

// Each level's seconds per call: the median over `repetitions` cycles (each from `guess`) with
// the per-level timers on, run as a stand-alone solve runs them: the pass that ends the cycle
// also sums the iterate's norms where the schedule has it do so. Every rank of a process grid
// runs as many (they communicate).
template <class Backend>
std::vector<double> level_seconds_per_call(Multigrid<Backend>& mg, Backend& backend, CycleChoice cycle,
                                           const typename Backend::Vector& guess, int repetitions) {
  mg.set_level_timing(true);
  double norm2 = 0, residual2 = 0;
  CycleHooks hooks;
  if (mg.schedule_for(hooks).sums_pass()) hooks.sums = {nullptr, &norm2, &residual2};
  std::vector<std::vector<double>> seconds(std::size_t(mg.levels()));
  std::vector<std::uint64_t> calls(std::size_t(mg.levels()), 0);
  for (int r = 0; r < repetitions; ++r) {
    backend.copy(guess, mg.level(1).v);
    backend.synchronize();
    mg.reset_level_stats();
    mg.cycle(cycle, hooks);
    backend.synchronize();
    for (int l = 1; l <= mg.levels(); ++l) {
      seconds[std::size_t(l - 1)].push_back(mg.level(l).stats.total_seconds());
      calls[std::size_t(l - 1)] = mg.level(l).stats.calls;
    }
  }
  mg.set_level_timing(false);
  std::vector<double> per_call(std::size_t(mg.levels()), 0.0);
  for (std::size_t k = 0; k < per_call.size(); ++k)
    if (calls[k] > 0 && !seconds[k].empty()) per_call[k] = upper_median(seconds[k]) / double(calls[k]);
  return per_call;
}

template <class Backend>
CycleTiming time_cycle_on(Backend& backend, const MultigridSettings& settings, CycleChoice cycle,
                          const TimingPolicy& policy) {
  Multigrid<Backend> mg(prepared_for(backend, settings), settings);
  const auto guess = random_vector(backend, mg.level(1).shape, 1);
  // The right-hand side written, zeros, as a solve uploads it: a field never written reads
  // the kernel's zero page, from cache, and the cycle would be timed without f's traffic.
  backend.copy(backend.make_vector(mg.level(1).shape), mg.level(1).f);
  const auto times = repeat_timed(
      policy,
      [&] {
        backend.copy(guess, mg.level(1).v);
        backend.synchronize();
      },
      [&] {
        mg.cycle(cycle);
        backend.synchronize();
      },
      [&](bool more) {
        if constexpr (Distributes<Backend>)
          return backend.any_rank(more);
        else
          return more;
      });
  CycleTiming t;
  t.median_seconds = upper_median(times);
  t.min_seconds = *std::min_element(times.begin(), times.end());
  t.spread = summarize_timings(times).spread;
  t.repetitions = int(times.size());
  if (policy.per_level) t.level_seconds_per_call = level_seconds_per_call(mg, backend, cycle, guess, t.repetitions);
  if constexpr (CountsTeamPasses<Backend>) backend.reset_launches();
  const std::uint64_t before = backend.launches();
  mg.cycle(cycle);
  backend.synchronize();
  t.launches = backend.launches() - before;
  if constexpr (CountsTeamPasses<Backend>) {
    t.team_passes.assign(std::size_t(mg.levels()) + 1, 0);
    for (int l = 1; l <= mg.levels(); ++l) t.team_passes[std::size_t(l)] = backend.team_passes(mg.level(l).shape.ny);
  }
  if constexpr (Distributes<Backend>)
    if (cycle.type == CycleType::Kappa) {
      const DistributedCycleCost c = distributed_cycle_cost(mg.settings(), cycle.counter, backend.decomposition(), {});
      t.ranks = backend.ranks();
      t.px = backend.px();
      t.py = backend.py();
      t.ops = c.ops;
      t.messages = c.messages;
    }
  return t;
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
  for (int n = sweep.min_levels; n <= sweep.max_levels; ++n)
    for (int kappa : kappas) {
      MultigridSettings s = as_run;
      s.levels = n;
      TimingPolicy policy = sweep.policy;
      // The per-level model's costs, from the same cycles' timers (not on a process grid: the
      // advisor prices those with the paper's model and lambda).
      policy.per_level = sweep.target.backend != BackendKind::Mpi;
      const CycleTiming t = time_cycle(s, {CycleType::Kappa, kappa}, sweep.target, policy);
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
  c.measured_lambda = lambda;
  c.model = fit_cost_model(c.samples, lambda);
  return c;
}

}  // namespace kcycle
