// Whether XLA's verifier judges a module layout-sensitively
// (HloVerifierOpts::layout_sensitive), and the shape comparison it then
// makes (ShapeVerifier::ShapesSame).
#pragma once

#include "engine/rule.h"
#include "ir/shape.h"

namespace hlolint {

// XLA's CPU and GPU compilers verify layout-sensitively from layout
// assignment on (after every pass in debug builds; in release builds, GPU
// once at the end of its post-layout-assignment pipeline), and XLA's test
// fixtures choose either mode. The text alone
// cannot tell which: hlo_verifier_test.cc verifies the very same modules
// both ways (InputLayoutMismatchIgnored/Reported,
// VerifyBuffersLayoutChangeInPinAllowed/NotAllowed, ...), and scheduled
// test modules that the layout-insensitive verifier accepts carry bitcasts
// that change the byte size. So only the dump name (or --assume-pass)
// places a module after layout assignment: an after-optimizations dump, or
// a dump taken after layout assignment by its pass names or its sequence.
// "layout_sensitive": true in "verify-options" says so for every module.
bool VerifiedLayoutSensitive(const RuleContext& ctx);

// ShapesSame in layout-sensitive mode with the default Shape::Equal:
// dimensions, element types and layouts (an unwritten layout is the
// default one, as XLA's parser fills it in).
bool SameShapeWithLayout(const Shape& a, const Shape& b);

}  // namespace hlolint
