#include "field_renderer.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "shaders.hpp"  // generated from shaders/ at build time

namespace kcycle::gui {

namespace {

GLuint compile(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    throw std::runtime_error(std::string("shader compilation failed: ") + log);
  }
  return shader;
}

}  // namespace

FieldRenderer::FieldRenderer() {
  const GLuint vs = compile(GL_VERTEX_SHADER, shaders::field_vert);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, shaders::colormap_frag);
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (!ok) throw std::runtime_error("colormap shader program failed to link");

  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);

  glGenTextures(1, &data_);
  glGenTextures(1, &color_);
  glGenFramebuffers(1, &fbo_);
}

FieldRenderer::~FieldRenderer() {
  interop_.reset();  // unregister before the buffer goes
  if (pixel_buffer_) glDeleteBuffers(1, &pixel_buffer_);
  glDeleteFramebuffers(1, &fbo_);
  glDeleteTextures(1, &color_);
  glDeleteTextures(1, &data_);
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteProgram(program_);
}

void FieldRenderer::size_data_texture(int nx, int ny) {
  glBindTexture(GL_TEXTURE_2D, data_);
  if (!sizes_.texture_resize(nx, ny)) return;
  // A new size: allocate, then only sub-image updates.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, nx, ny, 0, GL_RED, GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  sizes_.texture_sized(nx, ny);
  mipmap_version_ = ~std::uint64_t(0);
}

void FieldRenderer::upload(const std::vector<float>& values, int nx, int ny, std::uint64_t version) {
  if (version == version_ || values.empty()) return;
  size_data_texture(nx, ny);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, nx, ny, GL_RED, GL_FLOAT, values.data());
  version_ = version;
}

bool FieldRenderer::upload_from_device(const DeviceImage& image, std::uint64_t version) {
  if (!interop_error_.empty()) return false;
  if (version == version_) return true;
  const std::size_t count = std::size_t(image.nx) * std::size_t(image.ny);
  const std::size_t bytes = count * sizeof(float);
  try {
    if (!pixel_buffer_) glGenBuffers(1, &pixel_buffer_);
    if (sizes_.buffer_realloc(image.nx, image.ny, interop_ != nullptr)) {  // (re)size and register
      interop_.reset();
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer_);
      glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_DRAW);
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
      interop_ = std::make_unique<PixelBufferInterop>(pixel_buffer_);
      sizes_.buffer_sized(image.nx, image.ny);
    }
    interop_->write(image);  // a kernel fills the buffer on the GPU
  } catch (const std::exception& e) {
    interop_.reset();
    interop_error_ = e.what();
    return false;
  }
  size_data_texture(image.nx, image.ny);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.nx, image.ny, GL_RED, GL_FLOAT, nullptr);  // GPU to GPU
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  version_ = version;
  return true;
}

GLuint FieldRenderer::render(int width, int height, bool diverging, float lo, float hi, const float view[4]) {
  if (width < 1 || height < 1) return color_;
  if (width != target_w_ || height != target_h_) {
    glBindTexture(GL_TEXTURE_2D, color_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_, 0);
    target_w_ = width;
    target_h_ = height;
  }
  // Minifying (more points across than pixels) with averaging: sample the mipmap pyramid, whose
  // level k holds 2^k x 2^k point averages. Magnified points stay sharp squares.
  glBindTexture(GL_TEXTURE_2D, data_);
  const bool minified = float(sizes_.texture_width()) * view[2] > float(width) ||
                        float(sizes_.texture_height()) * view[3] > float(height);
  if (average_ && minified && sizes_.texture_width() > 0) {
    // Rebuilt for a new field at most four times a second: at 2047^2 a software renderer
    // spends several frames' worth on it, and a solve publishes faster than that. A field
    // that stops changing (paused, stepped) gets its pyramid within 0.25 s.
    const auto now = std::chrono::steady_clock::now();
    const bool never = mipmap_version_ == ~std::uint64_t(0);
    if (mipmap_version_ != version_ && (never || now - mipmap_time_ > std::chrono::milliseconds(250))) {
      glGenerateMipmap(GL_TEXTURE_2D);
      mipmap_version_ = version_;
      mipmap_time_ = now;
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  } else {
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  }
  GLint previous_viewport[4];
  glGetIntegerv(GL_VIEWPORT, previous_viewport);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width, height);
  glUseProgram(program_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, data_);
  glUniform1i(glGetUniformLocation(program_, "field"), 0);
  glUniform1i(glGetUniformLocation(program_, "diverging"), diverging ? 1 : 0);
  glUniform1f(glGetUniformLocation(program_, "lo"), lo);
  glUniform1f(glGetUniformLocation(program_, "hi"), hi);
  glUniform4f(glGetUniformLocation(program_, "view"), view[0], view[1], view[2], view[3]);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(previous_viewport[0], previous_viewport[1], previous_viewport[2], previous_viewport[3]);
  return color_;
}

}  // namespace kcycle::gui
