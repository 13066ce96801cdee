// The hlolint library API (docs/api.md): linting, module queries, rules.
#pragma once

#include "hlolint/lint.h"
#include "hlolint/location.h"
#include "hlolint/module.h"
#include "hlolint/paths.h"
#include "hlolint/rules.h"
