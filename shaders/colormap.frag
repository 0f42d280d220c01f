#version 330 core
// Maps a scalar field to colour. Diverging mode: a perceptual blue-white-red map (Moreland's
// cool-warm) symmetric about zero, so the sign of the error reads at a glance and zero is
// neutral. Sequential mode (spectra): a viridis-like ramp from lo to hi.
in vec2 uv;
out vec4 color;
uniform sampler2D field;
uniform int diverging;
uniform float lo;
uniform float hi;

vec3 ramp(vec3 c[5], float t) {
  float s = clamp(t, 0.0, 1.0) * 4.0;
  int i = int(min(floor(s), 3.0));
  return mix(c[i], c[i + 1], s - float(i));
}

void main() {
  if (uv.x < 0.0 || uv.x > 1.0 || uv.y < 0.0 || uv.y > 1.0) { color = vec4(0.12, 0.12, 0.14, 1.0); return; }
  float v = texture(field, uv).r;
  vec3 rgb;
  if (diverging == 1) {
    vec3 c[5] = vec3[5](vec3(0.230, 0.299, 0.754), vec3(0.552, 0.690, 0.996), vec3(0.865, 0.865, 0.865),
                        vec3(0.958, 0.604, 0.483), vec3(0.706, 0.016, 0.150));
    float range = max(abs(lo), abs(hi));
    rgb = ramp(c, range > 0.0 ? 0.5 + 0.5 * v / range : 0.5);
  } else {
    vec3 c[5] = vec3[5](vec3(0.267, 0.005, 0.329), vec3(0.231, 0.322, 0.545), vec3(0.129, 0.569, 0.549),
                        vec3(0.369, 0.788, 0.384), vec3(0.993, 0.906, 0.144));
    rgb = ramp(c, hi > lo ? (v - lo) / (hi - lo) : 0.0);
  }
  color = vec4(rgb, 1.0);
}
