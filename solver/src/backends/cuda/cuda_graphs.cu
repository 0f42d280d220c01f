// CudaBackend's CUDA Graphs: a cycle captured once per signature, then replayed with one
// cudaGraphLaunch (cuda_backend.hpp says how the host keeps counting while it replays).
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "cuda_device.hpp"
#include "kcycle/backends/cuda/cuda_backend.hpp"

namespace kcycle {

using cuda::check;

void CudaBackend::forget_recordings(std::uint64_t owner) {
  if (!device_) return;  // moved from
  auto& recorded = device_->recorded;
  for (auto it = recorded.begin(); it != recorded.end();) {
    if (!it->first.empty() && it->first.front() == std::uintptr_t(owner)) {
      cudaGraphExecDestroy(it->second);
      it = recorded.erase(it);
    } else {
      ++it;
    }
  }
}

bool CudaBackend::launch_recorded(const CycleSignature& signature) {
  const auto found = device_->recorded.find(signature);
  if (found == device_->recorded.end()) return false;
  check(cudaGraphLaunch(found->second, device_->stream), "cudaGraphLaunch");
  ++replays_;
  return true;
}

void CudaBackend::begin_capture() {
  check(cudaStreamBeginCapture(device_->stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
}

void CudaBackend::abandon_capture() noexcept {
  cudaGraph_t graph = nullptr;
  if (cudaStreamEndCapture(device_->stream, &graph) == cudaSuccess && graph) cudaGraphDestroy(graph);
  cudaGetLastError();
}

void CudaBackend::end_capture_and_launch(const CycleSignature& signature) {
  cudaGraph_t graph = nullptr;
  check(cudaStreamEndCapture(device_->stream, &graph), "cudaStreamEndCapture");
  cudaGraphExec_t exec = nullptr;
  const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  check(made, "cudaGraphInstantiate");
  // A handful of signatures occur (Jacobi and MGCG alternate buffers); more means the
  // hierarchy changed, and the old recordings are dead.
  if (device_->recorded.size() >= 16) device_->forget_graphs();
  device_->recorded.emplace(signature, exec);
  ++captures_;
  check(cudaGraphLaunch(exec, device_->stream), "cudaGraphLaunch");
}

}  // namespace kcycle
