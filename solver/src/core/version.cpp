#include "kcycle/core/version.hpp"

// KCYCLE_VERSION_NUMBER comes from the build (solver/CMakeLists.txt: project(VERSION)), so the
// version has one source; 0.1.0 is one preprocessing number, made a string here.
#define KCYCLE_STRINGIZE(x) #x
#define KCYCLE_STRING(x) KCYCLE_STRINGIZE(x)

namespace kcycle {

std::string_view version() { return KCYCLE_STRING(KCYCLE_VERSION_NUMBER); }

}  // namespace kcycle
