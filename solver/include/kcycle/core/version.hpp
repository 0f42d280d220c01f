#pragma once
// The project's version (CMakeLists.txt's project(VERSION)): what `kcycle --version` prints and
// the package is named after.
#include <string_view>

namespace kcycle {

std::string_view version();

}  // namespace kcycle
