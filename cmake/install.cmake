# Install rules (cmake --install, make install): libwarptour static and
# shared, include/warptour.h and the experimental warptour_experimental.h
# (which includes it), libwarptour_mpi and warptour_mpi.h where MPI is
# built, the warptour program when it is built (not
# warptour-bench, see below), a CMake
# package (find_package(warptour CONFIG) -> warptour::warptour, the static
# library, and warptour::warptour_shared) and a pkg-config file.  Both
# package files find the rest of the prefix relative to themselves, so
# cmake --install --prefix DIR and a moved prefix work.
include(CMakePackageConfigHelpers)

set(WT_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/warptour)

install(TARGETS warptour warptour_shared EXPORT warptourTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/warptour.h
              ${PROJECT_SOURCE_DIR}/include/warptour_experimental.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET warptour_cli)
  install(TARGETS warptour_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# With MPI (WT_MPI): libwarptour_mpi and warptour_mpi.h, in the same CMake
# package (warptour::warptour_mpi, which brings MPI::MPI_C).
if(TARGET warptour_mpi)
  install(TARGETS warptour_mpi EXPORT warptourTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/warptour_mpi.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
# warptour-bench is not installed: it is a development tool, run from a
# checkout (its defaults are the checkout's: the TSPLIB folder beside it,
# bench/batch's reference lengths, the commit in its header) and it reaches
# below the public header (algo/bench_hooks.h).  It lies in the build folder.

# ---------------------------------------------------------------- CMake package
install(EXPORT warptourTargets NAMESPACE warptour::
        DESTINATION ${WT_CMAKE_PACKAGE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/warptourConfig.cmake.in
  ${PROJECT_BINARY_DIR}/warptourConfig.cmake
  INSTALL_DESTINATION ${WT_CMAKE_PACKAGE_DIR})
# 0.x: a minor version may change the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/warptourConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/warptourConfig.cmake
              ${PROJECT_BINARY_DIR}/warptourConfigVersion.cmake
        DESTINATION ${WT_CMAKE_PACKAGE_DIR})

# ---------------------------------------------------------------- pkg-config
# Libs names the library (the shared one, where both are, unless the program
# asks its linker for static); Libs.private what linking the static one
# needs besides: OpenMP, libm, and in CUDA builds the static CUDA runtime and
# the C++ runtime its objects use.
set(WT_PC_LIBS_PRIVATE "${OpenMP_C_FLAGS} -lm -pthread")
if(WT_HAVE_CUDA)
  string(APPEND WT_PC_LIBS_PRIVATE " ${CUDA_cudart_static_LIBRARY} -lstdc++ -ldl -lrt -lpthread")
endif()
set(WT_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(WT_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(WT_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
if(IS_ABSOLUTE "${WT_PC_DIR}")
  set(WT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  # lib/pkgconfig -> ../.., lib/x86_64-linux-gnu/pkgconfig -> ../../..
  file(RELATIVE_PATH WT_PC_UP /prefix/${WT_PC_DIR} /prefix)
  string(REGEX REPLACE "/$" "" WT_PC_UP "${WT_PC_UP}")
  set(WT_PC_PREFIX "\${pcfiledir}/${WT_PC_UP}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/warptour.pc.in
               ${PROJECT_BINARY_DIR}/warptour.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/warptour.pc DESTINATION ${WT_PC_DIR})
