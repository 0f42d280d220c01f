// The MPI runtime a process sees: started once, its rank and ranks, a vote over all ranks,
// and an end of every rank at once.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "mpi_backend_parts.hpp"

namespace kcycle {

using namespace mpi_parts;

void start_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  std::atexit([] {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  });
}

bool mpi_started() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

int mpi_rank() {
  int rank = 0;
  if (mpi_started()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int mpi_ranks() {
  int size = 1;
  if (mpi_started()) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

bool on_any_rank(bool mine) {
  if (!mpi_started() || mpi_ranks() < 2) return mine;
  int local = mine ? 1 : 0, any = 0;
  check(MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
  return any != 0;
}

double max_on_ranks(double mine) {
  if (!mpi_started() || mpi_ranks() < 2) return mine;
  double most = mine;
  check(MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return most;
}

namespace {

// FNV-1a: equal texts, equal hashes; the texts themselves are sent only when two differ.
std::uint64_t text_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string text_from(int root, const std::string& mine) {
  int length = static_cast<int>(mine.size());
  check(MPI_Bcast(&length, 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Bcast");
  std::string text = mpi_rank() == root ? mine : std::string(static_cast<std::size_t>(length), '\0');
  check(MPI_Bcast(text.data(), length, MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
  return text;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The keys of the "key = value" lines one text has and the other has not.
std::string differing_keys(const std::string& a, const std::string& b) {
  const std::vector<std::string> la = lines_of(a), lb = lines_of(b);
  std::vector<std::string> keys;
  const auto note = [&keys](const std::string& line) {
    if (line.empty() || line[0] == '#') return;
    std::string key = line.substr(0, line.find('='));
    while (!key.empty() && key.back() == ' ') key.pop_back();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  };
  for (const std::string& line : la)
    if (std::find(lb.begin(), lb.end(), line) == lb.end()) note(line);
  for (const std::string& line : lb)
    if (std::find(la.begin(), la.end(), line) == la.end()) note(line);
  std::string list;
  for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
  return list;
}

}  // namespace

std::string agreement_across_ranks(const std::string& refusal, const std::string& resolved_text) {
  if (!mpi_started() || mpi_ranks() < 2) return refusal;
  const int ranks = mpi_ranks();
  struct Vote {
    std::uint64_t refused, hash;
  };
  const Vote mine{refusal.empty() ? 0u : 1u, text_hash(resolved_text)};
  std::vector<Vote> votes(static_cast<std::size_t>(ranks));
  check(MPI_Allgather(&mine, 2, MPI_UINT64_T, votes.data(), 2, MPI_UINT64_T, MPI_COMM_WORLD), "MPI_Allgather");
  std::vector<int> refusing, differing;
  for (int r = 0; r < ranks; ++r) {
    if (votes[std::size_t(r)].refused) refusing.push_back(r);
    if (votes[std::size_t(r)].hash != votes[0].hash) differing.push_back(r);
  }
  // " (rank 3 too)", " (ranks 3, 5 too)": the others in `list` after its first.
  const auto others = [](const std::vector<int>& list, const char* what) {
    if (list.size() < 2) return std::string();
    std::string s = list.size() == 2 ? " (rank " : " (ranks ";
    for (std::size_t k = 1; k < list.size(); ++k) s += (k > 1 ? ", " : "") + std::to_string(list[k]);
    return s + " " + what + " too)";
  };
  if (!refusing.empty()) {
    const int first = refusing.front();
    const std::string why = text_from(first, refusal);
    return "rank " + std::to_string(first) + ": " + why + others(refusing, "refused") +
           (refusing.size() < std::size_t(ranks) ? "; every rank stops" : "");
  }
  if (differing.empty()) return "";
  const int first = differing.front();
  const char* differs = differing.size() == 2 ? "differs" : "differ";
  const std::string theirs = text_from(first, resolved_text), ours = text_from(0, resolved_text);
  return "the ranks were given different input: rank " + std::to_string(first) + " differs from rank 0 in " +
         differing_keys(ours, theirs) + others(differing, differs) +
         ". Under mpirun only rank 0 reads stdin (--config -), and a parameters or calibration file must be "
         "the same on every node: give every rank the same arguments and files";
}

void abort_all_ranks(int code) {
  if (mpi_started() && mpi_ranks() > 1) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

}  // namespace kcycle
