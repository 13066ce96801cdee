#include <nanobind/nanobind.h>

#include "bindings.h"

NB_MODULE(_hlolint, m) {
  m.doc() = "hlolint's C++ library (include/hlolint); use the hlolint package, not this module.";
  m.attr("__version__") = HLOLINT_VERSION;
  hlolint_python::BindResults(m);
  hlolint_python::BindLinting(m);
}
