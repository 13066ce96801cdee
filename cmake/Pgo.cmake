# Profile-guided optimization with GCC (HLOLINT_PGO).
#
# A second, instrumented build (in <build>/pgo/build, with
# -fprofile-generate) of the lint engine lints generated HLO
# (cmake/PgoTrain.cmake, through bench/lint_bench); every target of this
# build is then compiled with that profile. GCC lays out and inlines the
# parser's hot paths from measured branch counts instead of guesses
# (docs/performance.md, "Profile-guided build").
#
# Both builds strip their own directory from object paths
# (-fprofile-prefix-path), so the profile's file names match here.
# Functions the training never ran keep the ordinary optimization
# (-fprofile-partial-training). A retraining does not recompile what is
# already built (that would rebuild everything after any edit): a source
# edited since compiles with the new profile, the rest keep the one they
# were built with. A fresh build directory is always consistent.

# Flags of the instrumented build (HLOLINT_PGO_GENERATE set by the outer
# build). Atomic counters: the training also runs two threads on one module.
function(hlolint_pgo_generate_flags profile_dir)
  set(flags -fprofile-generate=${profile_dir} -fprofile-update=prefer-atomic
            -fprofile-prefix-path=${PROJECT_BINARY_DIR})
  add_compile_options(${flags})
  add_link_options(${flags})
endfunction()

# Sets up the instrumented build and the training, and compiles everything
# here with the profile. Call before the targets are defined.
function(hlolint_pgo_use)
  include(ExternalProject)
  set(pgo ${PROJECT_BINARY_DIR}/pgo)
  set(profile_dir ${pgo}/profile)
  set(train_lint ${pgo}/build/bench/lint_bench)
  set(train_generate ${pgo}/build/bench/generate_hlo)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  ExternalProject_Add(hlolint_pgo_build
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${pgo}/build
    PREFIX ${pgo}
    CMAKE_GENERATOR ${CMAKE_GENERATOR}
    CMAKE_CACHE_ARGS
      -DCMAKE_BUILD_TYPE:STRING=${CMAKE_BUILD_TYPE}
      -DCMAKE_CXX_COMPILER:FILEPATH=${CMAKE_CXX_COMPILER}
      # The same code generation flags: the profile is matched per function.
      -DCMAKE_CXX_FLAGS:STRING=${CMAKE_CXX_FLAGS}
      -DCMAKE_CXX_FLAGS_${build_type}:STRING=${CMAKE_CXX_FLAGS_${build_type}}
      -DHLOLINT_PGO:BOOL=OFF
      -DHLOLINT_PGO_GENERATE:PATH=${profile_dir}
      -DHLOLINT_BUILD_TESTS:BOOL=OFF
      -DHLOLINT_BUILD_BENCH:BOOL=ON
      -DHLOLINT_PCH:BOOL=${HLOLINT_PCH}
      # The same batches: the profile is kept per object file.
      -DHLOLINT_UNITY:BOOL=${HLOLINT_UNITY}
      -DHLOLINT_STATIC_ABSL:BOOL=${HLOLINT_STATIC_ABSL}
    BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target lint_bench generate_hlo
    BUILD_ALWAYS ON
    # Its configure output in a log (shown if it fails); its build's
    # progress live, as the rest of the build has to wait for it.
    LOG_CONFIGURE ON
    LOG_OUTPUT_ON_FAILURE ON
    USES_TERMINAL_BUILD ON
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS ${train_lint} ${train_generate})
  # Trains again whenever the instrumented engine was relinked.
  add_custom_command(
    OUTPUT ${pgo}/trained.stamp
    COMMAND ${CMAKE_COMMAND} -DLINT_BENCH=${train_lint} -DGENERATE_HLO=${train_generate}
            -DPROFILE_DIR=${profile_dir} -DWORK_DIR=${pgo}/work
            -DSTAMP=${pgo}/trained.stamp
            -P ${PROJECT_SOURCE_DIR}/cmake/PgoTrain.cmake
    DEPENDS hlolint_pgo_build ${train_lint} ${train_generate}
            ${PROJECT_SOURCE_DIR}/cmake/PgoTrain.cmake
    COMMENT "Profile-guided build: training the instrumented lint engine"
    VERBATIM)
  add_custom_target(hlolint_pgo_profile DEPENDS ${pgo}/trained.stamp)
  # The profile's inlining lets GCC 12 follow std::string::append into
  # paths it then misreads (-Warray-bounds, -Wstringop-overflow on a StrCat
  # in the shape inference: a known false positive of libstdc++'s
  # inlined string code): silenced here only, the plain build keeps them.
  add_compile_options(-fprofile-use=${profile_dir} -fprofile-partial-training
                      -fprofile-prefix-path=${PROJECT_BINARY_DIR}
                      -Wno-missing-profile -Wno-coverage-mismatch -Wno-array-bounds
                      -Wno-stringop-overflow)
endfunction()

# Every target whose objects use the profile compiles after the training
# (the executables, which link the layers, wait for it through CMake's
# ordering).
function(hlolint_pgo_order)
  get_property(layers GLOBAL PROPERTY HLOLINT_LAYER_TARGETS)
  foreach(target IN LISTS layers ITEMS hlolint_allocator)
    get_target_property(type ${target} TYPE)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      add_dependencies(${target} hlolint_pgo_profile)
    endif()
  endforeach()
  if(TARGET hlolint_pch)
    add_dependencies(hlolint_pch hlolint_pgo_profile)
  endif()
endfunction()
