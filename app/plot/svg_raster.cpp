#include "svg_raster.hpp"

#include <stdexcept>

#if KCYCLE_HAVE_RSVG
#include <cairo.h>
#include <librsvg/rsvg.h>

#include <cmath>
#include <memory>
#include <string>
#endif

namespace kcycle::plot {

#if KCYCLE_HAVE_RSVG

bool can_render_svg() { return true; }

std::string svg_to_png(const std::string& svg, double scale) {
  GError* error = nullptr;
  std::unique_ptr<RsvgHandle, void (*)(gpointer)> handle(
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error), g_object_unref);
  auto failed = [&](const char* what) {
    std::string message = std::string(what) + (error ? std::string(": ") + error->message : std::string());
    if (error) g_error_free(error);
    return std::runtime_error(message);
  };
  if (!handle) throw failed("librsvg cannot read the SVG");
  double w = 0, h = 0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle.get(), &w, &h)) throw failed("the SVG has no size");
  if (!(w * scale <= kMostPngSide && h * scale <= kMostPngSide))
    throw std::invalid_argument("the PNG would be " + std::to_string(long(std::ceil(w * scale))) + " x " +
                                std::to_string(long(std::ceil(h * scale))) + " pixels; cairo draws at most " +
                                std::to_string(kMostPngSide) + " a side: a smaller width or scale");
  const int pw = int(std::ceil(w * scale)), ph = int(std::ceil(h * scale));
  std::unique_ptr<cairo_surface_t, void (*)(cairo_surface_t*)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph), cairo_surface_destroy);
  std::unique_ptr<cairo_t, void (*)(cairo_t*)> cr(cairo_create(surface.get()), cairo_destroy);
  const RsvgRectangle viewport{0, 0, double(pw), double(ph)};
  if (!rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &error)) throw failed("librsvg cannot draw it");
  std::string png;
  const cairo_status_t status = cairo_surface_write_to_png_stream(
      surface.get(),
      [](void* out, const unsigned char* data, unsigned int length) {
        static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), length);
        return CAIRO_STATUS_SUCCESS;
      },
      &png);
  if (status != CAIRO_STATUS_SUCCESS) throw std::runtime_error(std::string("cairo: ") + cairo_status_to_string(status));
  return png;
}

#else

bool can_render_svg() { return false; }

std::string svg_to_png(const std::string&, double) {
  throw std::runtime_error(
      "this kcycle was built without librsvg (librsvg2-dev): write .svg, or install it and rebuild");
}

#endif

}  // namespace kcycle::plot
