// Compiled as if it were in the parse layer (tests/CMakeLists.txt): the
// engine is above the parse layer, so this include must not be found.
#include "engine/lint.h"
