# Which symbols the shared libwarptour exports: the functions that
# include/warptour.h declares, nothing else.  The library's internal
# functions (many also named wt_...) and the statically linked CUDA runtime
# stay local, so the shared library's interface is the header's and a
# program's own CUDA runtime is never interposed by warptour's copy.

# Gives target a GNU ld version script listing every wt_ name that the
# header writes as a call, "wt_name(".  The script is rewritten when the
# header changes (the header is a configure dependency).
function(wt_export_only_public_symbols target header)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
  file(READ ${header} text)
  string(REGEX MATCHALL "wt_[a-z0-9_]+\\(" calls "${text}")
  list(TRANSFORM calls REPLACE "\\($" "")
  list(REMOVE_DUPLICATES calls)
  list(SORT calls)
  list(JOIN calls ";\n    " names)
  set(map ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  # file(CONFIGURE) writes only when the text changed: no needless relinks.
  file(CONFIGURE OUTPUT ${map} CONTENT
"/* Generated from ${header} by cmake/exported_symbols.cmake. */
{
  global:
    ${names};
  local:
    *;
};
" @ONLY)
  target_link_options(${target} PRIVATE "LINKER:--version-script=${map}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${map})
endfunction()
