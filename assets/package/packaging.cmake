# A Debian package of what `cmake --install` installs: `cpack -G DEB` in the build folder writes
# reduction-lab_VERSION_ARCH.deb. Its dependencies are what the binaries link (dpkg-shlibdeps)
# and what they run or read: g++ and binutils compile a learner's kernel and name its lines,
# DejaVu draws the app's text, Noto Sans CJK its Japanese and Chinese. CUDA is linked
# statically (cudart_static) and the driver, NVRTC and NCCL are opened at run time, so the
# package needs no NVIDIA package: without a driver the GPU parts say why they are off.

# The installed programs keep their symbol table: the simulator finds a kernel's __shared__
# arrays by name in it (kernels/sim/shared_memory.cpp). Only the debug information goes, as
# Debian's dh_strip would move it, with the .comment section.
install(CODE "
  foreach(program bin/rlab bin/reduction-lab ${RLAB_LIBEXEC_SUBDIR}/rlab-exercise-runner)
    set(path \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/\${program}\")
    if(EXISTS \"\${path}\")
      execute_process(COMMAND ${CMAKE_STRIP} --strip-debug --remove-section=.comment \"\${path}\"
                      RESULT_VARIABLE failed)
      if(failed)
        message(FATAL_ERROR \"strip failed on \${path}\")
      endif()
    endif()
  endforeach()")

# Where lintian's overrides live: each tag that stays is explained there (the CUDA runtime's
# only where it is linked).
file(READ ${CMAKE_CURRENT_LIST_DIR}/lintian-overrides rlab_overrides)
if(RLAB_HAVE_CUDA)
  file(READ ${CMAKE_CURRENT_LIST_DIR}/lintian-overrides-cuda rlab_cuda_overrides)
  string(APPEND rlab_overrides "${rlab_cuda_overrides}")
endif()
file(WRITE ${PROJECT_BINARY_DIR}/lintian-overrides "${rlab_overrides}")
install(FILES ${PROJECT_BINARY_DIR}/lintian-overrides
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME reduction-lab)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME reduction-lab)
set(CPACK_PACKAGE_VENDOR "The Reduction Lab authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${RLAB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "course on GPU parallel reduction with real CUDA kernels")
# The extended description (the synopsis above is its first line): lines of the control file,
# each indented by CPack.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Reduction Lab runs the real CUDA kernel of each lesson and shows the array
after every step, the threads that worked in it, and how long it took.
Without an NVIDIA GPU the same kernel source runs on a CPU simulator of CUDA
threads, deterministically, so a race can be replayed step by step.
.
The course is in English, Japanese and Chinese: atomics, folding, barriers
and their races, divergence, shared memory, warp shuffles, the fastest
single-pass kernel and all-reduce across GPUs, with exercises where the
learner writes the kernel. A teacher can script a class as one Markdown file.
.
This package holds the desktop app (reduction-lab) and the command line
(rlab).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RLAB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${RLAB_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++, binutils")
if(RLAB_HAVE_GUI)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${CPACK_DEBIAN_PACKAGE_DEPENDS}, fonts-dejavu-core")
  # Noto Sans CJK draws Japanese and Chinese; xdg-open opens the manual from the Help menu.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, xdg-utils")
endif()
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
if(RLAB_HAVE_CUDA)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-driver | nvidia-open-kernel-dkms")
endif()
include(CPack)
