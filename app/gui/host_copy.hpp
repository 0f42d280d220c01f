#pragma once
// When a published picture of the field also comes to the host. On the CUDA backend a kernel
// draws the picture on the GPU and interop shows it from there; its floats cross to the host
// only when something there needs them: every picture when the texture is filled from the host
// (interop off or failing: ViewRequest::host_draws), else for the Fourier inset, the slice plot
// or the hover value (ViewRequest::host_values), throttled while cycles run; a new view
// (another level, the residual) or a paused or stepping solver gets its copy at once. On a host
// backend the picture is drawn in host memory anyway.

namespace kcycle::gui {

struct HostCopyRule {
  double min_interval_seconds = 0.25;  // between copies while running: at most 4 a second

  // on_device: the picture is on the GPU; host_draws: the texture is filled from the host;
  // wanted: something else on the host shows it; running: cycles are being run (not paused or
  // stepped); since_last: seconds since the last copy; same_view: that copy showed the same
  // level, shape and quantity.
  bool operator()(bool on_device, bool host_draws, bool wanted, bool running, double since_last, bool same_view) const {
    if (!on_device || host_draws) return true;
    if (!wanted) return false;
    if (!running || !same_view) return true;
    return since_last >= min_interval_seconds;
  }
};

}  // namespace kcycle::gui
