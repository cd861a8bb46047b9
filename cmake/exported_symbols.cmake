# Which symbols the shared libwarptour exports: the functions that the
# public headers declare (include/warptour.h, and the experimental
# include/warptour_experimental.h), nothing else.  The library's internal
# functions (many also named wt_...) and the statically linked CUDA runtime
# stay local, so the shared library's interface is the header's and a
# program's own CUDA runtime is never interposed by warptour's copy.

# Gives target a GNU ld version script listing every wt_ name that one of
# the headers (the arguments after target) writes as a call, "wt_name(".
# The script is rewritten when a header changes (they are configure
# dependencies).
function(wt_export_only_public_symbols target)
  set(calls "")
  foreach(header ${ARGN})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
    file(READ ${header} text)
    string(REGEX MATCHALL "wt_[a-z0-9_]+\\(" found "${text}")
    list(APPEND calls ${found})
  endforeach()
  list(TRANSFORM calls REPLACE "\\($" "")
  list(REMOVE_DUPLICATES calls)
  list(SORT calls)
  list(JOIN calls ";\n    " names)
  string(REPLACE ";" " and " headers "${ARGN}")
  set(map ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  # file(CONFIGURE) writes only when the text changed: no needless relinks.
  file(CONFIGURE OUTPUT ${map} CONTENT
"/* Generated from ${headers} by cmake/exported_symbols.cmake. */
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
