# The library's layers as CMake targets, one per source folder, each linked
# to the layers below it (docs/architecture.md draws the graph).
#
# The build enforces the layering through include paths. No target has lib/
# or the project root on its include path: a layer's target publishes one
# directory, <build>/layer_include/<layer>, that holds a single symbolic
# link, <layer>, to the layer's source folder. A file sees "parse/..." only
# when its target links hlolint_parse (directly or through a layer above
# it), so a lower layer that includes an upper layer's header does not
# compile ("file not found"), and tests/CMakeLists.txt checks that it
# does not.

# The headers of `layer`, found as "<layer>/<file>.h" by the targets that
# link `target`.
function(hlolint_layer_include_directory target layer source_dir)
  set(include_dir ${PROJECT_BINARY_DIR}/layer_include/${layer})
  file(MAKE_DIRECTORY ${include_dir})
  file(CREATE_LINK ${source_dir} ${include_dir}/${layer} SYMBOLIC)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE ${include_dir})
  else()
    target_include_directories(${target} PUBLIC ${include_dir})
  endif()
endfunction()

# hlolint_layer(<layer> [SOURCES <files>] [EXCLUDE <files>] [DEPENDS <layers>])
#
# Defines hlolint_<layer> over lib/<layer> (or SOURCES, relative to the
# calling directory), linked to hlolint_<dep> for each of DEPENDS. Without
# SOURCES it compiles every lib/<layer>/*.cc but EXCLUDE, so a new file
# needs no edit here. A layer of headers only is an INTERFACE target.
function(hlolint_layer layer)
  cmake_parse_arguments(arg "" "" "SOURCES;EXCLUDE;DEPENDS" ${ARGN})
  set(target hlolint_${layer})
  if(arg_SOURCES)
    set(source_dir ${CMAKE_CURRENT_SOURCE_DIR})
    set(sources ${arg_SOURCES})
  else()
    set(source_dir ${CMAKE_CURRENT_SOURCE_DIR}/${layer})
    file(GLOB sources CONFIGURE_DEPENDS ${source_dir}/*.cc)
    foreach(excluded IN LISTS arg_EXCLUDE)
      list(REMOVE_ITEM sources ${source_dir}/${excluded})
    endforeach()
  endif()
  list(TRANSFORM arg_DEPENDS PREPEND hlolint_ OUTPUT_VARIABLE deps)
  if(sources)
    add_library(${target} STATIC ${sources})
    target_link_libraries(${target} PUBLIC ${deps})
    hlolint_reuse_pch(${target})
  else()
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE ${deps})
  endif()
  hlolint_layer_include_directory(${target} ${layer} ${source_dir})
  set_property(GLOBAL APPEND PROPERTY HLOLINT_LAYER_TARGETS ${target})
endfunction()
