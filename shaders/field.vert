#version 330 core
// A full-screen triangle pair: the field texture is drawn into the panel's offscreen target.
layout(location = 0) in vec2 position;
out vec2 uv;
uniform vec4 view;  // uv of the lower-left corner (xy) and the extent shown (zw): zoom and pan
void main() {
  uv = view.xy + (position * 0.5 + 0.5) * view.zw;
  gl_Position = vec4(position, 0.0, 1.0);
}
