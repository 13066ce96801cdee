# The hlolint executable linked statically (HLOLINT_STATIC_EXECUTABLE): a
# static position-independent executable, so no dynamic loader runs before
# main and nothing is bound or relocated in shared libraries: start-up is
# part of every one-file run (pre-commit, editors), and a static PIE keeps
# address randomisation. Where the toolchain cannot link one, the C++
# runtime alone is linked statically. docs/performance.md ("Whole
# processes") has the figures.
#
# It needs every library hlolint links to as an archive: fmt is header-only
# and simdjson stays in the language server's own executable for that
# reason. Not with the sanitizers or fuzzing (their runtimes are shared),
# nor in the Python build (Abseil shared there).
include(CheckLinkerFlag)
include(CheckCXXSourceCompiles)

function(hlolint_link_statically target)
  if(NOT HLOLINT_STATIC_EXECUTABLE OR HLOLINT_ANY_SANITIZER OR HLOLINT_FUZZ OR HLOLINT_PYTHON)
    return()
  endif()
  if(HLOLINT_ABSL_ALL_STATIC)
    # Every object must be position-independent: the compiler's default on
    # Debian and Ubuntu (and their Abseil archives), checked, not forced.
    check_cxx_source_compiles("#ifndef __PIE__\n#error not PIE\n#endif\nint main() {}"
                              HLOLINT_COMPILER_DEFAULT_PIE)
    if(HLOLINT_COMPILER_DEFAULT_PIE)
      check_linker_flag(CXX -static-pie HLOLINT_LINKER_STATIC_PIE)
    endif()
  endif()
  if(HLOLINT_LINKER_STATIC_PIE)
    target_link_options(${target} PRIVATE -static-pie)
    set(kind "static PIE")
  else()
    check_linker_flag(CXX -static-libstdc++ HLOLINT_LINKER_STATIC_RUNTIME)
    if(NOT HLOLINT_LINKER_STATIC_RUNTIME)
      return()
    endif()
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
    set(kind "static C++ runtime")
  endif()
  # The archives' unused functions left out (libstdc++'s are compiled one
  # section each): a smaller, denser text, fewer pages touched at start-up.
  target_link_options(${target} PRIVATE -Wl,--gc-sections)
  set_property(GLOBAL APPEND PROPERTY HLOLINT_STATIC_TARGETS "${target}:${kind}")
  message(STATUS "${target}: linked as a ${kind}")
endfunction()
