# `cmake --install` and the Debian package (`cpack -G DEB` in the build
# directory): the binary, its man page and shell completions, the licence.
#
# The man page and completions are printed by the built binary
# (`hlolint --generate=KIND`, tools/hlolint/cli_generate.h) from the same
# option definitions as --help, so they cannot drift from it. They are
# built with the rest (target hlolint_generated).

include(GNUInstallDirs)

set(generated ${PROJECT_BINARY_DIR}/generated)
set(generated_files)
foreach(kind_and_file man:hlolint.1 bash:hlolint zsh:_hlolint fish:hlolint.fish)
  string(REPLACE ":" ";" pair ${kind_and_file})
  list(GET pair 0 kind)
  list(GET pair 1 file)
  # Not VERBATIM: the redirection is the shell's.
  add_custom_command(
    OUTPUT ${generated}/${kind}/${file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${generated}/${kind}
    COMMAND $<TARGET_FILE:hlolint> --generate=${kind} > ${generated}/${kind}/${file}
    DEPENDS hlolint
    COMMENT "Generating ${file}")
  list(APPEND generated_files ${generated}/${kind}/${file})
endforeach()
add_custom_target(hlolint_generated ALL DEPENDS ${generated_files})

install(TARGETS hlolint hlolint-lsp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${generated}/man/hlolint.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${generated}/bash/hlolint
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${generated}/zsh/_hlolint DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(FILES ${generated}/fish/hlolint.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The .deb. Its runtime dependencies come from dpkg-shlibdeps on the
# binary (Abseil is linked statically where its archives are installed).
set(HLOLINT_PACKAGE_MAINTAINER "hlolint maintainers <hlolint@localhost>" CACHE STRING
    "The Maintainer field of the .deb (who builds and distributes it)")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hlolint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "verifier and linter for XLA HLO text dumps")
set(CPACK_PACKAGE_DESCRIPTION
    "hlolint parses HLO text as XLA's parser accepts it, checks structure as XLA's HloVerifier does, and finds bug patterns, each finding located at file:line:col. Output for terminals, CI (SARIF, JUnit, GitHub annotations) and editors (a language server, hlolint lsp).")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_CONTACT ${HLOLINT_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${HLOLINT_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
include(CPack)
