# What an installed kcycle has besides the programs, the libraries and the headers (their own
# CMakeLists install those), and the Debian package made of it all (scripts/package.sh runs
# cpack -G DEB in a build configured for it). docs/packaging.md lists the package's files.

set(KCYCLE_MAINTAINER "kcycle developers <maintainers@users.noreply.a-seed-dfd691da.example>"
    CACHE STRING "The package's maintainer (Debian's Maintainer field, the changelog)")

# Manual pages and bash completion, written by the built programs from their own parsers, so
# they never disagree with --help (app/cli_docs).
set(KCYCLE_SHARE_BUILD ${PROJECT_BINARY_DIR}/share)
set(kcycle_docs_outputs "")
foreach(program kcycle kcycle-gui)
  if(NOT TARGET ${program})
    continue()
  endif()
  set(man ${KCYCLE_SHARE_BUILD}/man/man1/${program}.1)
  set(completion ${KCYCLE_SHARE_BUILD}/bash-completion/completions/${program})
  add_custom_command(OUTPUT ${man}.gz ${completion}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${KCYCLE_SHARE_BUILD}/man/man1
            ${KCYCLE_SHARE_BUILD}/bash-completion/completions
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${program}> -DMAN=${man} -DCOMPLETION=${completion}
            -P ${PROJECT_SOURCE_DIR}/cmake/write_program_docs.cmake
    DEPENDS ${program} ${PROJECT_SOURCE_DIR}/cmake/write_program_docs.cmake
    COMMENT "Writing ${program}'s manual page and bash completion" VERBATIM)
  list(APPEND kcycle_docs_outputs ${man}.gz ${completion})
  install(FILES ${man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
endforeach()
add_custom_target(kcycle_program_docs ALL DEPENDS ${kcycle_docs_outputs})

# The visualizer in the desktop's menu, with its icon (the F-cycle's diagram, assets/kcycle.svg).
if(TARGET kcycle-gui)
  install(FILES ${PROJECT_SOURCE_DIR}/assets/kcycle-gui.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/assets/kcycle.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

# pkg-config: the same libraries find_package(kcycle) gives, with what they link.
file(RELATIVE_PATH KCYCLE_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
set(KCYCLE_PC_REQUIRES "")
set(KCYCLE_PC_DEFINITIONS "")
set(KCYCLE_PC_CUDA_LIBS "")
if(KCYCLE_MPI)
  set(KCYCLE_PC_REQUIRES "ompi-cxx")
  string(APPEND KCYCLE_PC_DEFINITIONS " -DKCYCLE_HAVE_MPI=1")
endif()
if(KCYCLE_CUDA)
  string(APPEND KCYCLE_PC_DEFINITIONS " -DKCYCLE_HAVE_CUDA=1")
  set(KCYCLE_PC_CUDA_LIBS "-lkcycle_cuda -L${CUDAToolkit_LIBRARY_DIR} -lcudart")
  if(TARGET CUDA::cusparse)
    string(APPEND KCYCLE_PC_DEFINITIONS " -DKCYCLE_HAVE_CUSPARSE=1")
    string(APPEND KCYCLE_PC_CUDA_LIBS " -lcusparse")
  endif()
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/kcycle.pc.in ${KCYCLE_SHARE_BUILD}/kcycle.pc @ONLY)
install(FILES ${KCYCLE_SHARE_BUILD}/kcycle.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The documentation, and the script that redraws the paper's figures and tables with the
# installed kcycle. Debian's policy asks for the copyright file and a compressed changelog.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/paper-figures.sh DESTINATION ${CMAKE_INSTALL_DOCDIR}/scripts)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
string(TIMESTAMP kcycle_changelog_date "%a, %d %b %Y 00:00:00 +0000" UTC)
file(WRITE ${KCYCLE_SHARE_BUILD}/changelog
     "kcycle (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
     "  * Built from the kcycle source tree (its git history is the changelog).\n\n"
     " -- ${KCYCLE_MAINTAINER}  ${kcycle_changelog_date}\n")
add_custom_command(OUTPUT ${KCYCLE_SHARE_BUILD}/changelog.gz
  COMMAND gzip -9nkf ${KCYCLE_SHARE_BUILD}/changelog DEPENDS ${KCYCLE_SHARE_BUILD}/changelog VERBATIM)
add_custom_target(kcycle_changelog ALL DEPENDS ${KCYCLE_SHARE_BUILD}/changelog.gz)
install(FILES ${KCYCLE_SHARE_BUILD}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package: cpack -G DEB (scripts/package.sh configures the build for it).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kcycle)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${KCYCLE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${KCYCLE_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # kcycle_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)   # Depends from the binaries' shared libraries (dpkg-shlibdeps)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Not libraries, so dpkg-shlibdeps cannot see them: the UI font; OpenGL in software where there is
# no GPU driver, a virtual display for scripted sessions, MP4s of recorded stepping.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, xvfb, xauth, ffmpeg")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openmpi-bin")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "multigrid kappa-cycles: visualizer, solver and time model")
# The synopsis is the summary above; CPack indents these lines and makes the blank one " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "kcycle implements the kappa-cycle of Avnat and Yavneh (On the recursive
structure of multigrid cycles): one recursive call with the same counter
kappa, then one with kappa-1. kappa=1 is the V-cycle, 2 the F-cycle and
kappa >= levels the W-cycle.

kcycle-gui shows a cycle solving 2D rotated anisotropic diffusion step by
step, for teaching: the error field, the cycle diagram, convergence and
predicted against measured time. kcycle solves the same problems from the
command line on all cores or through MPI, reproduces the paper's tables,
fits the time model and advises a kappa. The package also has the C++
library with its headers, CMake and pkg-config files, and
libkcycle_petsc.so, the PETSc preconditioner -pc_type kcycle.")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# libkcycle_petsc.so.0: the shlibs file and the ldconfig trigger Debian's policy asks of a shared
# library (CPack's own GENERATE_SHLIBS calls ldconfig from maintainer scripts instead).
if(TARGET kcycle_petsc)
  file(WRITE ${KCYCLE_SHARE_BUILD}/debian/shlibs
       "libkcycle_petsc ${PROJECT_VERSION_MAJOR} kcycle (>= ${PROJECT_VERSION})\n")
  file(WRITE ${KCYCLE_SHARE_BUILD}/debian/triggers "activate-noawait ldconfig\n")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${KCYCLE_SHARE_BUILD}/debian/shlibs ${KCYCLE_SHARE_BUILD}/debian/triggers)
endif()
include(CPack)
